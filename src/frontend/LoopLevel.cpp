// LoopLevel: the out-of-line parts that need Func and Var.

#include "loom/Func.h"
#include "loom/Schedule.h"
#include "loom/Var.h"

namespace loom {

LoopLevel::LoopLevel(const Func &f, const Var &v, int stage)
    : func_name_(f.name()), var_name_(v.name()), stage_(stage), kind_(At) {}

std::string LoopLevel::to_string() const {
    switch (kind_) {
    case Inlined:
        return "inlined";
    case Root:
        return "root";
    case Undefined:
        return "undefined";
    case At:
        break;
    }
    std::string s = func_name_ + "." + var_name_;
    if (stage_ >= 0) s += " (stage " + std::to_string(stage_) + ")";
    return s;
}

} // namespace loom
