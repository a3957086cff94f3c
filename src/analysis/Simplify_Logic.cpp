// Rules for &&, || and !. !(a < b) becomes b <= a only for integer operands:
// with NaN both a < b and b <= a can be false.

#include "analysis/Simplify_Internal.h"

namespace loom {
namespace Internal {

using namespace IRMatch;

namespace {
bool is_true(const Expr &e) {
    return is_const_true(e);
}
bool is_false(const Expr &e) {
    return is_const_false(e);
}
} // namespace

Expr Simplifier::visit(const And *op) {
    Expr a = mutate(op->a), b = mutate(op->b);
    if (Expr f = fold_binary(IRNodeType::And, a, b); f.defined()) return f;
    if (is_false(a) || is_true(b)) return a;
    if (is_false(b) || is_true(a)) return b;
    if (Expr v = vector_binary(IRNodeType::And, a, b); v.defined()) return v;
    if (should_commute(a, b)) std::swap(a, b);
    Expr e = rebuild(op, a, b);
    static const RuleSet rules = {
        rule(x && x, x),
        rule(x && !x, false),
        rule(!x && x, false),
        rule(x && (x && y), x && y),
        rule((x && y) && x, x && y),
        rule((x && y) && y, x && y),
        rule(x && (x || y), x),
        rule((x || y) && x, x),
        rule(x < c0 && x < c1, x < min(c0, c1)),
        rule(c0 < x && c1 < x, max(c0, c1) < x),
        rule(x <= c0 && x <= c1, x <= min(c0, c1)),
        rule(c0 <= x && c1 <= x, max(c0, c1) <= x),
        rule(x < c0 && c1 < x, false, c0 <= c1),
        rule(c1 < x && x < c0, false, c0 <= c1),
        rule(x <= c0 && c1 <= x, false, c0 < c1),
        rule(c1 <= x && x <= c0, false, c0 < c1),
        rule(x == c0 && x == c1, false, c0 != c1),
    };
    if (Expr r = rewrite(rules, e, e.type()); r.defined()) return r;
    return e;
}

Expr Simplifier::visit(const Or *op) {
    Expr a = mutate(op->a), b = mutate(op->b);
    if (Expr f = fold_binary(IRNodeType::Or, a, b); f.defined()) return f;
    if (is_true(a) || is_false(b)) return a;
    if (is_true(b) || is_false(a)) return b;
    if (Expr v = vector_binary(IRNodeType::Or, a, b); v.defined()) return v;
    if (should_commute(a, b)) std::swap(a, b);
    Expr e = rebuild(op, a, b);
    static const RuleSet rules = {
        rule(x || x, x),
        rule(x || !x, true),
        rule(!x || x, true),
        rule(x || (x || y), x || y),
        rule((x || y) || x, x || y),
        rule((x || y) || y, x || y),
        rule(x || (x && y), x),
        rule(x || (y && x), x),
        rule((x && y) || x, x),
        rule((y && x) || x, x),
        rule(x < c0 || x < c1, x < max(c0, c1)),
        rule(c0 < x || c1 < x, min(c0, c1) < x),
        rule(x <= c0 || x <= c1, x <= max(c0, c1)),
        rule(c0 <= x || c1 <= x, min(c0, c1) <= x),
    };
    if (Expr r = rewrite(rules, e, e.type()); r.defined()) return r;
    return e;
}

Expr Simplifier::visit(const Not *op) {
    Expr a = mutate(op->a);
    if (Expr f = fold_not(a); f.defined()) return f;
    if (auto *b = a.as<Broadcast>())
        return resimplify(Broadcast::make(Not::make(b->value), b->lanes));
    if (auto *n = a.as<Not>()) return n->a;
    if (auto *eq = a.as<EQ>()) return NE::make(eq->a, eq->b);
    if (auto *ne = a.as<NE>()) return EQ::make(ne->a, ne->b);
    if (auto *lt = a.as<LT>(); lt && !lt->a.type().is_float()) return LE::make(lt->b, lt->a);
    if (auto *le = a.as<LE>(); le && !le->a.type().is_float()) return LT::make(le->b, le->a);
    if (a.same_as(op->a)) return op;
    return Not::make(a);
}

} // namespace Internal
} // namespace loom
