// Rules for min and max, including decisions from known ranges:
// min(x, 100) is x when x is known to be at most 100.

#include "analysis/Simplify_Internal.h"

namespace loom {
namespace Internal {

using namespace IRMatch;

Expr Simplifier::min_max(bool is_min, Expr a, Expr b) {
    IRNodeType kind = is_min ? IRNodeType::Min : IRNodeType::Max;
    if (Expr f = fold_binary(kind, a, b); f.defined()) return f;
    if (Expr v = vector_binary(kind, a, b); v.defined()) return v;
    if (should_commute(a, b)) std::swap(a, b);
    Type t = a.type();
    if ((t.is_int() || t.is_uint()) && !t.is_bool()) {
        ConstBounds x = const_bounds(a), y = const_bounds(b);
        bool a_le_b = x.has_max && y.has_min && x.max <= y.min;
        bool b_le_a = y.has_max && x.has_min && y.max <= x.min;
        if (a_le_b) return is_min ? a : b;
        if (b_le_a) return is_min ? b : a;
    }
    Expr e = is_min ? Min::make(a, b) : Max::make(a, b);
    static const RuleSet min_rules = {
        rule(min(x, x), x),
        rule(min(min(x, c0), c1), min(x, min(c0, c1)), Domain::Integer),
        rule(min(max(x, c0), c1), c1, c1 <= c0, Domain::Integer),
        rule(min(min(x, y), x), min(x, y), Domain::Integer),
        rule(min(min(x, y), y), min(x, y), Domain::Integer),
        rule(min(x, min(x, y)), min(x, y), Domain::Integer),
        rule(min(x, min(y, x)), min(y, x), Domain::Integer),
        rule(min(max(x, y), x), x, Domain::Integer),
        rule(min(max(y, x), x), x, Domain::Integer),
        rule(min(x, max(x, y)), x, Domain::Integer),
        rule(min(x, max(y, x)), x, Domain::Integer),
        rule(min(x + c0, x), x, c0 > 0, Domain::NoOverflow),
        rule(min(x + c0, x), x + c0, Domain::NoOverflow),
        rule(min(x, x + c0), x, c0 > 0, Domain::NoOverflow),
        rule(min(x, x + c0), x + c0, Domain::NoOverflow),
        rule(min(x + c0, x + c1), x + min(c0, c1), Domain::NoOverflow),
        rule(min(x + c0, y + c0), min(x, y) + c0, Domain::NoOverflow),
        rule(min(x + y, x + z), x + min(y, z), Domain::NoOverflow),
        rule(min(x * c0, y * c0), min(x, y) * c0, c0 > 0, Domain::NoOverflow),
        rule(min(x * c0, y * c0), max(x, y) * c0, c0 < 0, Domain::NoOverflow),
        rule(min(x / c0, y / c0), min(x, y) / c0, c0 > 0, Domain::Integer),
    };
    static const RuleSet max_rules = {
        rule(max(x, x), x),
        rule(max(max(x, c0), c1), max(x, max(c0, c1)), Domain::Integer),
        rule(max(min(x, c0), c1), c1, c0 <= c1, Domain::Integer),
        rule(max(max(x, y), x), max(x, y), Domain::Integer),
        rule(max(max(x, y), y), max(x, y), Domain::Integer),
        rule(max(x, max(x, y)), max(x, y), Domain::Integer),
        rule(max(x, max(y, x)), max(y, x), Domain::Integer),
        rule(max(min(x, y), x), x, Domain::Integer),
        rule(max(min(y, x), x), x, Domain::Integer),
        rule(max(x, min(x, y)), x, Domain::Integer),
        rule(max(x, min(y, x)), x, Domain::Integer),
        rule(max(x + c0, x), x + c0, c0 > 0, Domain::NoOverflow),
        rule(max(x + c0, x), x, Domain::NoOverflow),
        rule(max(x, x + c0), x + c0, c0 > 0, Domain::NoOverflow),
        rule(max(x, x + c0), x, Domain::NoOverflow),
        rule(max(x + c0, x + c1), x + max(c0, c1), Domain::NoOverflow),
        rule(max(x + c0, y + c0), max(x, y) + c0, Domain::NoOverflow),
        rule(max(x + y, x + z), x + max(y, z), Domain::NoOverflow),
        rule(max(x * c0, y * c0), max(x, y) * c0, c0 > 0, Domain::NoOverflow),
        rule(max(x * c0, y * c0), min(x, y) * c0, c0 < 0, Domain::NoOverflow),
        rule(max(x / c0, y / c0), max(x, y) / c0, c0 > 0, Domain::Integer),
    };
    if (Expr r = rewrite(is_min ? min_rules : max_rules, e, t); r.defined()) return r;
    return e;
}

Expr Simplifier::visit(const Min *op) {
    Expr a = mutate(op->a), b = mutate(op->b);
    Expr e = min_max(true, a, b);
    if (auto *m = e.as<Min>(); m && m->a.same_as(op->a) && m->b.same_as(op->b)) return op;
    return e;
}

Expr Simplifier::visit(const Max *op) {
    Expr a = mutate(op->a), b = mutate(op->b);
    Expr e = min_max(false, a, b);
    if (auto *m = e.as<Max>(); m && m->a.same_as(op->a) && m->b.same_as(op->b)) return op;
    return e;
}

} // namespace Internal
} // namespace loom
