// Constant ranges of integer expressions inside the simplifier, from the
// known ranges of variables (loop bounds, lets, the caller's scope). Cheaper
// than bounds_of_expr_in_scope and used at every min, max and comparison.

#include "analysis/Simplify_Internal.h"

namespace loom {
namespace Internal {

namespace {

ConstBounds type_bounds(Type t) {
    if (t.is_bool()) return ConstBounds::range(0, 1);
    if (t.is_int()) return ConstBounds::range(t.min_int(), t.max_int());
    if (t.is_uint() && t.bits < 64) return ConstBounds::range(0, int64_t(t.max_uint()));
    if (t.is_uint()) return {true, false, 0, 0};
    return ConstBounds();
}

bool fits(__int128 v, Type t) {
    ConstBounds r = type_bounds(t);
    return (!r.has_min || v >= r.min) && (!r.has_max || v <= r.max);
}

// Clamp a range computed without wrapping to what type t can hold: types
// that wrap lose the whole range when any end falls outside.
ConstBounds fit_to_type(bool has_min, __int128 lo, bool has_max, __int128 hi, Type t) {
    ConstBounds r = type_bounds(t);
    if (no_overflow(t)) {
        if (has_min && fits(lo, t)) r.min = int64_t(lo), r.has_min = true;
        if (has_max && fits(hi, t)) r.max = int64_t(hi), r.has_max = true;
        return r;
    }
    if (has_min && has_max && fits(lo, t) && fits(hi, t)) {
        return ConstBounds::range(int64_t(lo), int64_t(hi));
    }
    return r;
}

__int128 abs128(int64_t v) {
    return v < 0 ? -__int128(v) : __int128(v);
}

} // namespace

ConstBounds Simplifier::const_bounds(const Expr &e) {
    // Far more than any expression a schedule writes by hand needs.
    constexpr int budget = 4096;
    if (const_bounds_budget > 0) return const_bounds_walk(e);
    const_bounds_budget = budget;
    ConstBounds r = const_bounds_walk(e);
    const_bounds_budget = 0;
    return r;
}

ConstBounds Simplifier::const_bounds_walk(const Expr &e) {
    Type t = e.type();
    if (!(t.is_int() || t.is_uint())) return ConstBounds();
    // The range of a compound expression is kept until a variable's range
    // changes: simplifying a chain of N mins asks for the range of each
    // link's operand, N^2 nodes walked without it.
    bool compound = !e.as<IntImm>() && !e.as<UIntImm>() && !e.as<Variable>();
    if (compound) {
        auto it = bounds_cache.find(e.get());
        if (it != bounds_cache.end()) return it->second.bounds;
    }
    int exhausted = budget_exhaustions;
    ConstBounds r = const_bounds_node(e);
    // A range cut short by the budget is sound but loose: not kept.
    if (compound && exhausted == budget_exhaustions)
        bounds_cache.emplace(e.get(), CachedBounds{e, r});
    return r;
}

ConstBounds Simplifier::const_bounds_node(const Expr &e) {
    Type t = e.type();
    if (--const_bounds_budget <= 0) {
        const_bounds_budget = 1; // stay "inside" so callers up the tree also stop
        budget_exhaustions++;
        return type_bounds(t);
    }
    if (auto *i = e.as<IntImm>()) return ConstBounds::point(i->value);
    if (auto *u = e.as<UIntImm>()) {
        if (u->value <= uint64_t(INT64_MAX)) return ConstBounds::point(int64_t(u->value));
        return type_bounds(t);
    }
    if (auto *v = e.as<Variable>()) {
        ConstBounds r = type_bounds(t);
        if (const ConstBounds *b = var_bounds.find(v->name)) {
            if (b->has_min && (!r.has_min || b->min > r.min)) r.min = b->min, r.has_min = true;
            if (b->has_max && (!r.has_max || b->max < r.max)) r.max = b->max, r.has_max = true;
        }
        return r;
    }
    if (auto *b = e.as<Broadcast>()) return const_bounds_walk(b->value);
    if (auto *r = e.as<Ramp>()) {
        ConstBounds base = const_bounds_walk(r->base), stride = const_bounds_walk(r->stride);
        __int128 n = r->lanes - 1;
        bool lo = base.has_min && stride.has_min, hi = base.has_max && stride.has_max;
        __int128 a = base.min + std::min<__int128>(0, stride.min * n);
        __int128 b = base.max + std::max<__int128>(0, stride.max * n);
        return fit_to_type(lo, a, hi, b, t);
    }
    auto binary = [&](const Expr &x, const Expr &y, IRNodeType op) {
        ConstBounds a = const_bounds_walk(x), b = const_bounds_walk(y);
        switch (op) {
        case IRNodeType::Add:
            return fit_to_type(a.has_min && b.has_min, __int128(a.min) + b.min,
                               a.has_max && b.has_max, __int128(a.max) + b.max, t);
        case IRNodeType::Sub:
            return fit_to_type(a.has_min && b.has_max, __int128(a.min) - b.max,
                               a.has_max && b.has_min, __int128(a.max) - b.min, t);
        case IRNodeType::Mul: {
            if (!(a.has_min && a.has_max && b.has_min && b.has_max)) return type_bounds(t);
            __int128 p[4] = {__int128(a.min) * b.min, __int128(a.min) * b.max,
                             __int128(a.max) * b.min, __int128(a.max) * b.max};
            __int128 lo = p[0], hi = p[0];
            for (__int128 v : p) lo = std::min(lo, v), hi = std::max(hi, v);
            return fit_to_type(true, lo, true, hi, t);
        }
        case IRNodeType::Div: {
            if (!b.is_point()) return type_bounds(t);
            int64_t c = b.min;
            if (c == 0) return ConstBounds::point(0);
            auto div = [&](int64_t v) {
                return *as_const_int(
                    fold_binary(op, make_const(Int(64), v), make_const(Int(64), c)));
            };
            if (t.is_uint() && c < 0) return type_bounds(t);
            if (c > 0)
                return ConstBounds{a.has_min, a.has_max, a.has_min ? div(a.min) : 0,
                                   a.has_max ? div(a.max) : 0};
            return ConstBounds{a.has_max, a.has_min, a.has_max ? div(a.max) : 0,
                               a.has_min ? div(a.min) : 0};
        }
        case IRNodeType::Mod: {
            if (!b.has_min || !b.has_max) return type_bounds(t);
            __int128 m = std::max(abs128(b.min), abs128(b.max));
            if (m == 0) return ConstBounds::point(0);
            if (b.is_point() && a.has_min && a.has_max && a.min >= 0 && a.max < m) return a;
            return fit_to_type(true, 0, true, m - 1, t);
        }
        case IRNodeType::Min:
            return ConstBounds{a.has_min && b.has_min, a.has_max || b.has_max,
                               std::min(a.min, b.min),
                               !a.has_max   ? b.max
                               : !b.has_max ? a.max
                                            : std::min(a.max, b.max)};
        case IRNodeType::Max:
            return ConstBounds{a.has_min || b.has_min, a.has_max && b.has_max,
                               !a.has_min   ? b.min
                               : !b.has_min ? a.min
                                            : std::max(a.min, b.min),
                               std::max(a.max, b.max)};
        default:
            return type_bounds(t);
        }
    };
    switch (e.node_type()) {
    case IRNodeType::Add:
        return binary(e.as<Add>()->a, e.as<Add>()->b, IRNodeType::Add);
    case IRNodeType::Sub:
        return binary(e.as<Sub>()->a, e.as<Sub>()->b, IRNodeType::Sub);
    case IRNodeType::Mul:
        return binary(e.as<Mul>()->a, e.as<Mul>()->b, IRNodeType::Mul);
    case IRNodeType::Div:
        return binary(e.as<Div>()->a, e.as<Div>()->b, IRNodeType::Div);
    case IRNodeType::Mod:
        return binary(e.as<Mod>()->a, e.as<Mod>()->b, IRNodeType::Mod);
    case IRNodeType::Min:
        return binary(e.as<Min>()->a, e.as<Min>()->b, IRNodeType::Min);
    case IRNodeType::Max:
        return binary(e.as<Max>()->a, e.as<Max>()->b, IRNodeType::Max);
    case IRNodeType::Select: {
        auto *s = e.as<Select>();
        ConstBounds a = const_bounds_walk(s->true_value), b = const_bounds_walk(s->false_value);
        return ConstBounds{a.has_min && b.has_min, a.has_max && b.has_max, std::min(a.min, b.min),
                           std::max(a.max, b.max)};
    }
    case IRNodeType::Cast: {
        const Expr &v = e.as<Cast>()->value;
        if (!(v.type().is_int() || v.type().is_uint())) return type_bounds(t);
        ConstBounds a = const_bounds_walk(v);
        if (a.has_min && a.has_max && fits(a.min, t) && fits(a.max, t) && !t.is_bool()) return a;
        return type_bounds(t);
    }
    case IRNodeType::Call:
        return call_bounds(e.as<Call>());
    default:
        return type_bounds(t);
    }
}

ConstBounds Simplifier::call_bounds(const Call *c) {
    Type t = c->type;
    if (c->call_type != Call::PureIntrinsic && c->call_type != Call::Intrinsic)
        return type_bounds(t);
    auto arg = [&](size_t i) { return const_bounds_walk(c->args[i]); };
    switch (c->op) {
    case Intrinsic::likely:
    case Intrinsic::likely_if_innermost:
        if (c->args.size() == 1) return arg(0);
        break;
    case Intrinsic::shift_right:
    case Intrinsic::shift_left: {
        // By a constant in [0, bits): a floor division or a product by a
        // power of two (a pixel's fixed-point weighted sum >> 8 stays in
        // [0, 255], so the clamp after it goes).
        if (c->args.size() != 2) break;
        ConstBounds s = arg(1);
        if (!s.is_point() || s.min < 0 || s.min >= t.bits || s.min > 62) break;
        ConstBounds a = arg(0);
        __int128 d = __int128(1) << int(s.min);
        if (c->op == Intrinsic::shift_left)
            return fit_to_type(a.has_min, a.min * d, a.has_max, a.max * d, t);
        auto floor_div = [&](__int128 v) { return v >= 0 ? v / d : -((-v + d - 1) / d); };
        return fit_to_type(a.has_min, floor_div(a.min), a.has_max, floor_div(a.max), t);
    }
    case Intrinsic::bitwise_and: {
        // A non-negative operand bounds the result: x & m is in [0, m].
        if (c->args.size() != 2) break;
        ConstBounds a = arg(0), b = arg(1);
        bool a_pos = a.has_min && a.min >= 0 && a.has_max,
             b_pos = b.has_min && b.min >= 0 && b.has_max;
        if (a_pos && b_pos) return ConstBounds::range(0, std::min(a.max, b.max));
        if (a_pos) return ConstBounds::range(0, a.max);
        if (b_pos) return ConstBounds::range(0, b.max);
        break;
    }
    default:
        break;
    }
    return type_bounds(t);
}

int Simplifier::decide_compare(IRNodeType op, const Expr &a, const Expr &b) {
    Type t = a.type();
    if (!(t.is_int() || t.is_uint()) || t.is_bool()) return -1;
    ConstBounds x = const_bounds(a), y = const_bounds(b);
    bool lt = x.has_max && y.has_min && x.max < y.min;  // a < b always
    bool ge = x.has_min && y.has_max && x.min >= y.max; // a >= b always
    bool le = x.has_max && y.has_min && x.max <= y.min; // a <= b always
    bool gt = x.has_min && y.has_max && x.min > y.max;  // a > b always
    switch (op) {
    case IRNodeType::LT:
        return lt ? 1 : ge ? 0 : -1;
    case IRNodeType::LE:
        return le ? 1 : gt ? 0 : -1;
    case IRNodeType::EQ:
        return (lt || gt) ? 0 : (x.is_point() && y.is_point() && x.min == y.min) ? 1 : -1;
    case IRNodeType::NE:
        return (lt || gt) ? 1 : -1;
    default:
        return -1;
    }
}

} // namespace Internal
} // namespace loom
