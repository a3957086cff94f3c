#include "lower/LowerUtil.h"

#include <cstdlib>

#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

bool is_output(const Function &f, const std::vector<Function> &outputs) {
    for (const Function &o : outputs) {
        if (o.same_as(f)) return true;
    }
    return false;
}

bool is_inlined(const Function &f, const std::vector<Function> &outputs) {
    if (is_output(f, outputs)) return false;
    // A Func with update definitions needs storage to update: left inline, it
    // is computed at root.
    if (!f.updates().empty()) return false;
    // Nor can an undef() value be substituted into its uses.
    for (const Expr &v : f.definition().values) {
        const auto *c = v.as<Call>();
        if (c && c->is_intrinsic(Intrinsic::undef)) return false;
    }
    const LoopLevel &level = f.schedule().compute_level;
    return !level.defined() || level.is_inlined();
}

std::string stage_prefix(const std::string &func, int stage) {
    return func + ".s" + std::to_string(stage) + ".";
}

std::string buffer_name(const Function &f, int value_index) {
    if (f.outputs() == 1) return f.name();
    return f.name() + "." + std::to_string(value_index);
}

std::string atomic_marker(const std::string &func) {
    return "loom.atomic." + func;
}

Expr int_var(const std::string &name) {
    return Variable::make(Int(32), name);
}

Expr user_context_var() {
    return Variable::make(Handle(), "__user_context");
}

Expr as_int32(const Expr &e) {
    if (e.type() == Int(32)) return e;
    return Cast::make(Int(32), e);
}

Expr add(const Expr &a, const Expr &b) {
    return Add::make(as_int32(a), as_int32(b));
}
Expr sub(const Expr &a, const Expr &b) {
    return Sub::make(as_int32(a), as_int32(b));
}
Expr mul(const Expr &a, const Expr &b) {
    return Mul::make(as_int32(a), as_int32(b));
}
Expr div(const Expr &a, const Expr &b) {
    return Div::make(as_int32(a), as_int32(b));
}
Expr mod(const Expr &a, const Expr &b) {
    return Mod::make(as_int32(a), as_int32(b));
}
Expr min(const Expr &a, const Expr &b) {
    return Min::make(as_int32(a), as_int32(b));
}
Expr max(const Expr &a, const Expr &b) {
    return Max::make(as_int32(a), as_int32(b));
}

bool contains_loop(const Stmt &s) {
    bool found = false;
    visit_all(s, [&](const IRNode *n) { found = found || n->node_type == IRNodeType::For; });
    return found;
}

int debug_level() {
    const char *s = std::getenv("LOOM_DEBUG");
    return s ? std::atoi(s) : 0;
}

} // namespace Internal
} // namespace loom
