// Rules for select: constant or repeated conditions, equal arms, boolean arms.

#include "analysis/Simplify_Internal.h"

namespace loom {
namespace Internal {

using namespace IRMatch;

namespace {
bool is_unreachable(const Expr &e) {
    if (const auto *b = e.as<Broadcast>()) return is_unreachable(b->value);
    const auto *c = e.as<Call>();
    return c && c->is_intrinsic(Intrinsic::unreachable);
}
} // namespace

Expr Simplifier::visit(const Select *op) {
    Expr cond = mutate(op->condition);
    Expr t = mutate(op->true_value), f = mutate(op->false_value);
    // An arm computing unreachable() is never the one used.
    if (is_unreachable(t)) return f;
    if (is_unreachable(f)) return t;
    Expr scalar_cond = cond;
    if (auto *b = cond.as<Broadcast>()) scalar_cond = b->value;
    if (Expr picked = fold_select(scalar_cond, t, f); picked.defined()) return picked;
    if (t.type().is_bool() && cond.type() == t.type()) {
        if (is_const_true(t) && is_const_false(f)) return cond;
        if (is_const_false(t) && is_const_true(f)) return resimplify(Not::make(cond));
    }
    Expr e =
        (cond.same_as(op->condition) && t.same_as(op->true_value) && f.same_as(op->false_value))
            ? Expr(op)
            : Select::make(cond, t, f);
    static const RuleSet rules = {
        rule(select(x, y, y), y),
        rule(select(!x, y, z), select(x, z, y)),
        rule(select(x, select(x, y, z), w), select(x, y, w)),
        rule(select(x, y, select(x, z, w)), select(x, y, w)),
    };
    if (Expr r = rewrite(rules, e, t.type()); r.defined()) return r;
    return e;
}

} // namespace Internal
} // namespace loom
