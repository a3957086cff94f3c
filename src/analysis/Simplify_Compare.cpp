// Rules for comparisons. a > b and a >= b become b < a and b <= a; a != b is
// decided through a == b. Rules that cancel terms across < and <= assume no
// overflow, so they apply to Int(32) and Int(64) only; == and != cancel terms
// for every integer type because + is a bijection modulo 2^n.

#include "analysis/Simplify_Internal.h"

namespace loom {
namespace Internal {

using namespace IRMatch;

Expr Simplifier::simplify_compare(IRNodeType op, Expr a, Expr b) {
    if (op == IRNodeType::GT) return simplify_compare(IRNodeType::LT, b, a);
    if (op == IRNodeType::GE) return simplify_compare(IRNodeType::LE, b, a);
    if (op == IRNodeType::NE) {
        Expr eq = simplify_compare(IRNodeType::EQ, a, b);
        if (Expr f = fold_not(eq); f.defined()) return f;
        if (auto *e = eq.as<EQ>()) return NE::make(e->a, e->b);
        if (auto *bc = eq.as<Broadcast>(); bc && IRMatch::is_scalar_constant(bc->value)) {
            return Broadcast::make(fold_not(bc->value), bc->lanes);
        }
        return resimplify(Not::make(eq));
    }
    if (Expr f = fold_binary(op, a, b); f.defined()) return f;
    if (Expr v = vector_binary(op, a, b); v.defined()) return v;
    if (op == IRNodeType::EQ && should_commute(a, b)) std::swap(a, b);
    int decided = decide_compare(op, a, b);
    if (decided >= 0) return make_bool(decided == 1, a.type().lanes);
    Type t = a.type();
    // Boolean equality with a constant is the value itself or its negation.
    if (op == IRNodeType::EQ && t.is_bool() && is_const(b)) {
        return is_const_true(b) ? a : resimplify(Not::make(a));
    }
    Expr e = make_binary(op, a, b);
    static const RuleSet lt_rules = {
        rule(x < x, false),
        rule(x + c0 < x + c1, c0 < c1, Domain::NoOverflow),
        rule(x + c0 < x, c0 < 0, Domain::NoOverflow),
        rule(x < x + c0, 0 < c0, Domain::NoOverflow),
        rule(x + y < x, y < 0, Domain::NoOverflow),
        rule(y + x < x, y < 0, Domain::NoOverflow),
        rule(x < x + y, 0 < y, Domain::NoOverflow),
        rule(x < y + x, 0 < y, Domain::NoOverflow),
        rule(x + c0 < c1, x < c1 - c0, Domain::NoOverflow),
        rule(c0 < x + c1, c0 - c1 < x, Domain::NoOverflow),
        rule(x - y < 0, x < y, Domain::NoOverflow),
        rule(0 < x - y, y < x, Domain::NoOverflow),
        rule(x + c0 < y + c1, x < y + (c1 - c0), Domain::NoOverflow),
        rule(c0 - x < c1, c0 - c1 < x, Domain::NoOverflow),
        rule(c0 < c1 - x, x < c1 - c0, Domain::NoOverflow),
    };
    static const RuleSet le_rules = {
        rule(x <= x, true, Domain::Integer),
        rule(x + c0 <= x + c1, c0 <= c1, Domain::NoOverflow),
        rule(x + c0 <= x, c0 <= 0, Domain::NoOverflow),
        rule(x <= x + c0, 0 <= c0, Domain::NoOverflow),
        rule(x + y <= x, y <= 0, Domain::NoOverflow),
        rule(y + x <= x, y <= 0, Domain::NoOverflow),
        rule(x <= x + y, 0 <= y, Domain::NoOverflow),
        rule(x <= y + x, 0 <= y, Domain::NoOverflow),
        rule(x + c0 <= c1, x <= c1 - c0, Domain::NoOverflow),
        rule(c0 <= x + c1, c0 - c1 <= x, Domain::NoOverflow),
        rule(x - y <= 0, x <= y, Domain::NoOverflow),
        rule(0 <= x - y, y <= x, Domain::NoOverflow),
        rule(x + c0 <= y + c1, x <= y + (c1 - c0), Domain::NoOverflow),
        rule(c0 - x <= c1, c0 - c1 <= x, Domain::NoOverflow),
        rule(c0 <= c1 - x, x <= c1 - c0, Domain::NoOverflow),
    };
    static const RuleSet eq_rules = {
        rule(x == x, true, Domain::Integer),
        rule(x + c0 == x + c1, c0 == c1, Domain::Integer),
        rule(x + c0 == x, c0 == 0, Domain::Integer),
        rule(x + y == x, y == 0, Domain::Integer),
        rule(y + x == x, y == 0, Domain::Integer),
        rule(x + c0 == c1, x == c1 - c0, Domain::Integer),
        rule(x - c0 == c1, x == c1 + c0, Domain::Integer),
        rule(c0 - x == c1, x == c0 - c1, Domain::Integer),
        rule(x - y == 0, x == y, Domain::Integer),
        rule(x + c0 == y + c1, x == y + (c1 - c0), Domain::Integer),
    };
    const RuleSet &rules = op == IRNodeType::LT   ? lt_rules
                           : op == IRNodeType::LE ? le_rules
                                                  : eq_rules;
    if (Expr r = rewrite(rules, e, t); r.defined()) return r;
    return e;
}

namespace {
template <typename T> Expr keep_if_same(const T *op, const Expr &e) {
    if (auto *n = e.as<T>(); n && n->a.same_as(op->a) && n->b.same_as(op->b)) return op;
    return e;
}
} // namespace

Expr Simplifier::visit(const EQ *op) {
    return keep_if_same(op, simplify_compare(IRNodeType::EQ, mutate(op->a), mutate(op->b)));
}
Expr Simplifier::visit(const NE *op) {
    return keep_if_same(op, simplify_compare(IRNodeType::NE, mutate(op->a), mutate(op->b)));
}
Expr Simplifier::visit(const LT *op) {
    return keep_if_same(op, simplify_compare(IRNodeType::LT, mutate(op->a), mutate(op->b)));
}
Expr Simplifier::visit(const LE *op) {
    return keep_if_same(op, simplify_compare(IRNodeType::LE, mutate(op->a), mutate(op->b)));
}
Expr Simplifier::visit(const GT *op) {
    return simplify_compare(IRNodeType::GT, mutate(op->a), mutate(op->b));
}
Expr Simplifier::visit(const GE *op) {
    return simplify_compare(IRNodeType::GE, mutate(op->a), mutate(op->b));
}

} // namespace Internal
} // namespace loom
