#include "loom/Var.h"

#include "ir/IR.h"
#include "ir/IRUtil.h"

namespace loom {

Var::Var() : name_(Internal::unique_name("v")) {}

Var::Var(const std::string &name) : name_(name) {}

Var::operator Expr() const {
    return Internal::Variable::make(Int(32), name_);
}

} // namespace loom
