// Rules for + - * / %. Floats are only folded and stripped of identities
// (x + 0, x * 1): reassociating them would change rounding.

#include "analysis/Simplify_Internal.h"

namespace loom {
namespace Internal {

using namespace IRMatch;

Expr Simplifier::visit(const Add *op) {
    Expr a = mutate(op->a), b = mutate(op->b);
    if (Expr f = fold_binary(IRNodeType::Add, a, b); f.defined()) return f;
    if (Expr v = vector_binary(IRNodeType::Add, a, b); v.defined()) return v;
    if (should_commute(a, b)) std::swap(a, b);
    Expr e = rebuild(op, a, b);
    static const RuleSet rules = {
        rule(x + 0, x),
        rule((x + c0) + c1, x + (c0 + c1), Domain::Integer),
        rule((x - c0) + c1, x + (c1 - c0), Domain::Integer),
        rule((c0 - x) + c1, (c0 + c1) - x, Domain::Integer),
        rule((x - y) + y, x, Domain::Integer),
        rule(y + (x - y), x, Domain::Integer),
        rule((x + c0) + y, (x + y) + c0, Domain::Integer),
        rule(x + (y + c0), (x + y) + c0, Domain::Integer),
        rule((c0 - x) + y, (y - x) + c0, Domain::Integer),
        rule(x + (c0 - y), (x - y) + c0, Domain::Integer),
        rule(x + x, x * 2, Domain::Integer),
        rule(x * c0 + x, x * (c0 + 1), Domain::Integer),
        rule(x + x * c0, x * (c0 + 1), Domain::Integer),
        rule(x * c0 + x * c1, x * (c0 + c1), Domain::Integer),
    };
    if (Expr r = rewrite(rules, e, e.type()); r.defined()) return r;
    return e;
}

Expr Simplifier::visit(const Sub *op) {
    Expr a = mutate(op->a), b = mutate(op->b);
    if (Expr f = fold_binary(IRNodeType::Sub, a, b); f.defined()) return f;
    if (Expr v = vector_binary(IRNodeType::Sub, a, b); v.defined()) return v;
    Type t = a.type();
    // Signed x - c becomes x + (-c), so only one form needs rules.
    if (t.is_int() && is_const(b) && !is_const(a)) {
        return resimplify(Add::make(a, mutate(Sub::make(make_zero(t), b))));
    }
    Expr e = rebuild(op, a, b);
    static const RuleSet rules = {
        rule(x - 0, x),
        rule(x - x, 0, Domain::Integer),
        rule((x + y) - x, y, Domain::Integer),
        rule((x + y) - y, x, Domain::Integer),
        rule(x - (x + y), 0 - y, Domain::Integer),
        rule(y - (x + y), 0 - x, Domain::Integer),
        rule((x - y) - x, 0 - y, Domain::Integer),
        rule(x - (x - y), y, Domain::Integer),
        rule((x + c0) - c1, x + (c0 - c1), Domain::Integer),
        rule((x - c0) - c1, x - (c0 + c1), Domain::Integer),
        rule((x + c0) - x, c0, Domain::Integer),
        rule(x - (x + c0), 0 - c0, Domain::Integer),
        rule((x + c0) - (y + c1), (x - y) + (c0 - c1), Domain::Integer),
        rule((x + c0) - y, (x - y) + c0, Domain::Integer),
        rule(x - (y + c0), (x - y) - c0, Domain::Integer),
        rule(c0 - (c1 - x), x + (c0 - c1), Domain::Integer),
        rule(c0 - (x + c1), (c0 - c1) - x, Domain::Integer),
        rule((c0 - x) - c1, (c0 - c1) - x, Domain::Integer),
        rule(x * c0 - x, x * (c0 - 1), Domain::Integer),
        rule(x - x * c0, x * (1 - c0), Domain::Integer),
        rule(x * c0 - x * c1, x * (c0 - c1), Domain::Integer),
    };
    if (Expr r = rewrite(rules, e, t); r.defined()) return r;
    return e;
}

Expr Simplifier::visit(const Mul *op) {
    Expr a = mutate(op->a), b = mutate(op->b);
    if (Expr f = fold_binary(IRNodeType::Mul, a, b); f.defined()) return f;
    if (Expr v = vector_binary(IRNodeType::Mul, a, b); v.defined()) return v;
    if (should_commute(a, b)) std::swap(a, b);
    Expr e = rebuild(op, a, b);
    static const RuleSet rules = {
        rule(x * 0, 0, Domain::Integer),
        rule(x * 1, x),
        rule((x * c0) * c1, x * (c0 * c1), Domain::Integer),
        rule((x + c0) * c1, x * c1 + c0 * c1, Domain::Integer),
        rule((x - y) * c0, x * c0 - y * c0, Domain::Integer),
        rule((x * c0) * y, (x * y) * c0, Domain::Integer),
        rule(x * (y * c0), (x * y) * c0, Domain::Integer),
    };
    if (Expr r = rewrite(rules, e, e.type()); r.defined()) return r;
    return e;
}

Expr Simplifier::visit(const Div *op) {
    Expr a = mutate(op->a), b = mutate(op->b);
    if (Expr f = fold_binary(IRNodeType::Div, a, b); f.defined()) return f;
    if (Expr v = vector_binary(IRNodeType::Div, a, b); v.defined()) return v;
    Type t = a.type();
    // x / c is 0 when x is known to lie in [0, c).
    if (auto c = as_const_int(b); c && *c > 0 && (t.is_int() || t.is_uint())) {
        ConstBounds xb = const_bounds(a);
        if (xb.has_min && xb.has_max && xb.min >= 0 && xb.max < *c) return make_zero(t);
    }
    Expr e = rebuild(op, a, b);
    // Euclidean division: (x + k*c) / c == x / c + k for either sign of c.
    static const RuleSet rules = {
        rule(x / 1, x),
        rule(x / 0, 0, Domain::Integer),
        rule(0 / x, 0, Domain::Integer),
        rule((x * c0) / c1, x * (c0 / c1), c1 != 0 && c0 % c1 == 0, Domain::NoOverflow),
        rule((x * c0) / c1, x / (c1 / c0), c0 > 0 && c1 % c0 == 0, Domain::NoOverflow),
        rule((x + c0) / c1, x / c1 + c0 / c1, c1 != 0 && c0 % c1 == 0, Domain::NoOverflow),
        rule((x * c0 + y) / c1, x * (c0 / c1) + y / c1, c1 != 0 && c0 % c1 == 0,
             Domain::NoOverflow),
        rule((y + x * c0) / c1, y / c1 + x * (c0 / c1), c1 != 0 && c0 % c1 == 0,
             Domain::NoOverflow),
        rule((x / c0) / c1, x / (c0 * c1), c0 > 0 && c1 > 0 && c0 < 65536 && c1 < 65536,
             Domain::NoOverflow),
    };
    if (Expr r = rewrite(rules, e, t); r.defined()) return r;
    return e;
}

Expr Simplifier::visit(const Mod *op) {
    Expr a = mutate(op->a), b = mutate(op->b);
    if (Expr f = fold_binary(IRNodeType::Mod, a, b); f.defined()) return f;
    if (Expr v = vector_binary(IRNodeType::Mod, a, b); v.defined()) return v;
    if (Expr r = mod_without_let_multiple(a, b); r.defined()) return r;
    Type t = a.type();
    // x % c is x when x is known to lie in [0, |c|).
    if (auto c = as_const_int(b); c && *c != 0 && (t.is_int() || t.is_uint())) {
        ConstBounds xb = const_bounds(a);
        if (xb.has_min && xb.has_max && xb.min >= 0 && xb.max < std::abs(*c)) return a;
    }
    Expr e = rebuild(op, a, b);
    static const RuleSet rules = {
        rule(x % 1, 0, Domain::Integer),
        rule(x % 0, 0, Domain::Integer),
        rule(0 % x, 0, Domain::Integer),
        rule((x * c0) % c1, 0, c1 != 0 && c0 % c1 == 0, Domain::NoOverflow),
        rule((x + c0) % c1, (x + c0 % c1) % c1, c1 != 0 && c0 % c1 != c0, Domain::NoOverflow),
        rule((x * c0 + y) % c1, y % c1, c1 != 0 && c0 % c1 == 0, Domain::NoOverflow),
        rule((y + x * c0) % c1, y % c1, c1 != 0 && c0 % c1 == 0, Domain::NoOverflow),
        rule((x % c0) % c1, x % c1, c1 > 0 && c0 % c1 == 0, Domain::Integer),
    };
    if (Expr r = rewrite(rules, e, t); r.defined()) return r;
    return e;
}

Expr Simplifier::mod_without_let_multiple(const Expr &a, const Expr &b) {
    // A vectorized loop's lanes are ramp(base, 1, n) with base a let of
    // `x * n + min`: `ramp(base, 1, n) % 2` (an even/odd select) becomes
    // `ramp(min, 1, n) % 2`, which does not change with x, so the lane mask
    // is computed once before the loop instead of in every iteration.
    Type t = a.type();
    if (shadowing_bindings > 0 || !t.is_int() || t.bits < 32) return Expr();
    std::optional<int64_t> k = as_const_int(b);
    if (!k || *k <= 0) return Expr();
    const Ramp *ramp = a.as<Ramp>();
    const Variable *v = (ramp ? ramp->base : a).as<Variable>();
    const Expr *value = v ? let_values.find(v->name) : nullptr;
    const Add *sum = value && value->defined() ? value->as<Add>() : nullptr;
    if (!sum) return Expr();
    auto is_multiple_of_k = [&](const Expr &e) {
        const Mul *m = e.as<Mul>();
        std::optional<int64_t> c = m ? as_const_int(m->b) : std::nullopt;
        return c && *c % *k == 0;
    };
    Expr rest;
    if (is_multiple_of_k(sum->a))
        rest = sum->b;
    else if (is_multiple_of_k(sum->b))
        rest = sum->a;
    else
        return Expr();
    Expr reduced = ramp ? Ramp::make(rest, ramp->stride, ramp->lanes) : rest;
    return mutate(Mod::make(reduced, b));
}

} // namespace Internal
} // namespace loom
