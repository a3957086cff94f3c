// Interval arithmetic over expressions, and the regions of Funcs and images
// that code reads or writes.
//
// Int(32) and Int(64) arithmetic is assumed not to overflow (Halide's rule),
// so their intervals are computed exactly. Narrower and unsigned integer types
// wrap: an interval that is not provably inside the type's range widens to the
// whole range.

#include "analysis/Bounds.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "analysis/Simplify.h"
#include "analysis/Simplify_Internal.h"
#include "ir/IRMutator.h"
#include "ir/IRUtil.h"
#include "ir/IRVisitor.h"
#include "ir/Substitute.h"

namespace loom {
namespace Internal {

namespace {

using Int128 = __int128;

bool int_const(const Expr &e, Int128 &v) {
    if (auto *i = e.as<IntImm>()) return v = i->value, true;
    if (auto *u = e.as<UIntImm>()) return v = Int128(u->value), true;
    return false;
}

bool fits(Int128 v, Type t) {
    if (t.is_int()) return v >= t.min_int() && v <= t.max_int();
    if (t.is_uint()) return v >= 0 && v <= Int128(t.max_uint());
    return false;
}

Expr const_of(Type t, Int128 v) {
    if (t.is_uint()) return make_const(t, uint64_t(v));
    return make_const(t, int64_t(v));
}

bool is_integer(Type t) {
    return (t.is_int() || t.is_uint()) && !t.is_bool();
}

Interval type_range(Type t) {
    t = t.element_of();
    if (t.is_bool()) return Interval(const_false(), const_true());
    if (t.is_int() || t.is_uint()) return Interval(type_min(t), type_max(t));
    return Interval::everything();
}

// Range for values we know nothing about: small types are cheap to bound.
Interval opaque_range(Type t) {
    if (t.is_bool() || ((t.is_int() || t.is_uint()) && t.bits < 32)) return type_range(t);
    return Interval::everything();
}

int64_t euclid(IRNodeType op, int64_t a, int64_t b) {
    return *as_const_int(fold_binary(op, make_const(Int(64), a), make_const(Int(64), b)));
}

/** Interval ends used more than once by one operation (the corners of a
 * product or quotient, the uses of a let) are bound to variables once they
 * exceed this many nodes. Written out in full, such ends double with each
 * level of nesting (a fused loop's bounds divide by the extents of the loops
 * around it, which themselves depend on loops further out); small ends stay
 * written out so that the simplifier can still cancel terms between them. */
constexpr int shared_end_nodes = 400;

using LetList = std::vector<std::pair<std::string, Expr>>;

class BoundsOf : public IRVisitor {
public:
    const Scope<Interval> &scope;
    Interval result;
    /** The ends bound to variables, in order (a value may use names before it). */
    LetList &named;
    BoundsOf(const Scope<Interval> &s, LetList &n) : scope(s), named(n) {}

    Interval of(const Expr &e) {
        e.accept(this);
        return result;
    }

private:
    bool overflow = false;

    // An end that will be used more than once: a variable when it is large.
    Expr share(const Expr &end) {
        if (!end.defined()) return end;
        if (count_nodes(end, shared_end_nodes) <= shared_end_nodes) return end;
        std::string name = unique_name("bounds.end");
        named.emplace_back(name, end);
        return Variable::make(end.type(), name);
    }

    Interval share(const Interval &i) { return Interval(share(i.min), share(i.max)); }

    // One endpoint of op(a, b): exact on integer constants (noting overflow
    // of the type t), simplified otherwise; undefined when either is.
    Expr combine(IRNodeType op, const Expr &a, const Expr &b, Type t) {
        if (!a.defined() || !b.defined()) return Expr();
        Int128 x, y;
        if (is_integer(t) && int_const(a, x) && int_const(b, y)) {
            Int128 r = 0;
            switch (op) {
            case IRNodeType::Add:
                r = x + y;
                break;
            case IRNodeType::Sub:
                r = x - y;
                break;
            case IRNodeType::Mul:
                r = x * y;
                break;
            case IRNodeType::Min:
                r = std::min(x, y);
                break;
            case IRNodeType::Max:
                r = std::max(x, y);
                break;
            default:
                return simplified_binary(op, a, b);
            }
            if (!fits(r, t)) {
                overflow = true;
                return a;
            }
            return const_of(t, r);
        }
        return simplified_binary(op, a, b);
    }

    /** The ends this visitor made, simplified: combining them again does not
     * simplify them again (which made deep expressions cost their depth
     * squared). The Exprs keep the nodes, so no address is reused. */
    std::unordered_set<const IRNode *> simplified_ends;
    std::vector<Expr> simplified_end_exprs;

    Expr simplify(const Expr &e) {
        Expr r = simplify_over(e, simplified_ends);
        if (r.defined() && simplified_ends.insert(r.get()).second)
            simplified_end_exprs.push_back(r);
        return r;
    }

    Expr simplified_binary(IRNodeType op, const Expr &a, const Expr &b) {
        return simplify(make_binary(op, a, b));
    }

    // The final interval of an integer node of type t.
    void finish(Interval r, Type t) {
        t = t.element_of();
        bool wraps = is_integer(t) && !no_overflow(t);
        Int128 v;
        bool constant =
            r.min.defined() && r.max.defined() && int_const(r.min, v) && int_const(r.max, v);
        if (overflow || (wraps && !constant)) r = type_range(t);
        overflow = false;
        result = r;
    }

    Interval min_of_four(const Expr &a, const Expr &b, const Expr &c, const Expr &d, Type t) {
        Expr lo = combine(IRNodeType::Min, combine(IRNodeType::Min, a, b, t),
                          combine(IRNodeType::Min, c, d, t), t);
        Expr hi = combine(IRNodeType::Max, combine(IRNodeType::Max, a, b, t),
                          combine(IRNodeType::Max, c, d, t), t);
        return Interval(lo, hi);
    }

    void visit(const IntImm *op) override { result = Interval::single_point(op); }
    void visit(const UIntImm *op) override { result = Interval::single_point(op); }
    void visit(const FloatImm *op) override { result = Interval::single_point(op); }
    void visit(const StringImm *) override { result = Interval::everything(); }

    void visit(const Variable *op) override {
        if (const Interval *i = scope.find(op->name)) {
            result = *i;
        } else if (op->type.is_scalar()) {
            result = Interval::single_point(op);
        } else {
            result = opaque_range(op->type);
        }
    }

    void visit(const Cast *op) override {
        Interval v = of(op->value);
        Type from = op->value.type().element_of(), to = op->type.element_of();
        if (to.is_bool()) {
            result = type_range(to);
            return;
        }
        if (v.is_bounded() && is_const(v.min) && is_const(v.max)) {
            Expr lo = fold_cast(to, v.min), hi = fold_cast(to, v.max);
            Int128 x;
            // Integer results must not have wrapped; float->int folds refuse out-of-range values.
            bool exact =
                lo.defined() && hi.defined() &&
                (!is_integer(to) || !is_integer(from) ||
                 (int_const(v.min, x) && fits(x, to) && int_const(v.max, x) && fits(x, to)));
            result = exact ? Interval(lo, hi) : opaque_range(to);
            return;
        }
        // Conversions to floats round, but never out of order.
        if (to.can_represent(from) || (to.is_float() && (is_integer(from) || from.is_float()))) {
            result = Interval(v.min.defined() ? simplify(Cast::make(to, v.min)) : Expr(),
                              v.max.defined() ? simplify(Cast::make(to, v.max)) : Expr());
            return;
        }
        if (from.is_float() && from.bits >= 32 && is_integer(to) && v.is_bounded()) {
            // Truncation rises with its argument. The ends are clamped to
            // what converts without overflow, so that a value beyond them
            // makes the region too large for any buffer (a failed check)
            // rather than a wrapped one.
            Int128 top = to.is_int() ? Int128(to.max_int()) : Int128(to.max_uint());
            double hi;
            if (from.bits == 32) {
                float h = float(top);
                while (Int128(h) > top) h = std::nextafter(h, 0.0f);
                hi = h;
            } else {
                double h = double(top);
                while (Int128(h) > top) h = std::nextafter(h, 0.0);
                hi = h;
            }
            Expr lo_f = make_const(from, to.is_int() ? double(to.min_int()) : 0.0);
            Expr hi_f = make_const(from, hi);
            auto end = [&](const Expr &e) {
                return simplify(Cast::make(to, Max::make(Min::make(e, hi_f), lo_f)));
            };
            result = Interval(end(v.min), end(v.max));
            return;
        }
        // A conversion that may wrap or saturate (a float of unknown range to
        // int32: a histogram's bin from the data) is as unknown as a load of
        // that type. Its type's whole range would make 32-bit regions whose
        // extents wrap to nothing (a buffer written at -2^31 + 1).
        result = opaque_range(to);
    }

    void visit(const Reinterpret *op) override { result = opaque_range(op->type); }

    void visit(const Add *op) override {
        Interval a = of(op->a), b = of(op->b);
        Type t = op->type.element_of();
        finish(Interval(combine(IRNodeType::Add, a.min, b.min, t),
                        combine(IRNodeType::Add, a.max, b.max, t)),
               t);
    }

    void visit(const Sub *op) override {
        Interval a = of(op->a), b = of(op->b);
        Type t = op->type.element_of();
        finish(Interval(combine(IRNodeType::Sub, a.min, b.max, t),
                        combine(IRNodeType::Sub, a.max, b.min, t)),
               t);
    }

    void visit(const Mul *op) override {
        Interval a = of(op->a), b = of(op->b);
        Type t = op->type.element_of();
        if (b.is_single_point() && is_const(b.min)) std::swap(a, b);
        if (a.is_single_point() && is_const(a.min)) {
            // Scaling by a constant: the sign decides which end goes where.
            Expr c = a.min;
            bool negative = is_negative_const(c) || (as_const_float(c) && *as_const_float(c) < 0);
            Expr lo = combine(IRNodeType::Mul, b.min, c, t),
                 hi = combine(IRNodeType::Mul, b.max, c, t);
            finish(negative ? Interval(hi, lo) : Interval(lo, hi), t);
            return;
        }
        if (a.is_bounded() && b.is_bounded()) {
            a = share(a);
            b = share(b);
            finish(min_of_four(combine(IRNodeType::Mul, a.min, b.min, t),
                               combine(IRNodeType::Mul, a.min, b.max, t),
                               combine(IRNodeType::Mul, a.max, b.min, t),
                               combine(IRNodeType::Mul, a.max, b.max, t), t),
                   t);
            return;
        }
        finish(Interval::everything(), t);
    }

    void visit(const Div *op) override {
        Interval a = of(op->a), b = of(op->b);
        Type t = op->type.element_of();
        if (t.is_float()) {
            auto c = b.is_single_point() ? as_const_float(b.min) : std::nullopt;
            if (a.is_single_point() && b.is_single_point() && !c) {
                // A quotient of two fixed values (1.0f / some_param) is one
                // fixed value, whatever the divisor's sign.
                result = Interval::single_point(simplify(Div::make(a.min, b.min)));
            } else if (c && *c > 0) {
                result = Interval(a.min.defined() ? simplify(Div::make(a.min, b.min)) : Expr(),
                                  a.max.defined() ? simplify(Div::make(a.max, b.min)) : Expr());
            } else if (c && *c < 0) {
                result = Interval(a.max.defined() ? simplify(Div::make(a.max, b.min)) : Expr(),
                                  a.min.defined() ? simplify(Div::make(a.min, b.min)) : Expr());
            } else if (b.is_single_point() && a.is_bounded()) {
                // A range over one fixed divisor of unknown sign ((x + 0.5f)
                // / scale, a resampler's source coordinate): the quotients
                // of the ends, whichever is smaller.
                Expr lo = share(simplify(Div::make(a.min, b.min)));
                Expr hi = share(simplify(Div::make(a.max, b.min)));
                result = Interval(simplify(Min::make(lo, hi)), simplify(Max::make(lo, hi)));
            } else {
                result = Interval::everything();
            }
            return;
        }
        Int128 c, lo_a, hi_a, lo_b, hi_b;
        if (b.is_single_point() && int_const(b.min, c)) {
            if (c == 0) {
                finish(Interval::single_point(make_zero(t)), t);
                return;
            }
            // Euclidean division by a constant is monotonic: rising for c > 0, falling for c < 0.
            auto divide = [&](const Expr &v) -> Expr {
                Int128 x;
                if (!v.defined()) return Expr();
                if (!int_const(v, x) || (t.is_uint() && t.bits == 64))
                    return simplify(Div::make(v, b.min));
                // Exact quotient, so that x / -1 overflowing the type is noticed.
                Int128 q = c == -1 ? -x : Int128(euclid(IRNodeType::Div, int64_t(x), int64_t(c)));
                if (!fits(q, t)) overflow = true;
                return const_of(t, q);
            };
            Expr lo = divide(a.min), hi = divide(a.max);
            finish(c > 0 ? Interval(lo, hi) : Interval(hi, lo), t);
            return;
        }
        bool consts = a.is_bounded() && b.is_bounded() && int_const(a.min, lo_a) &&
                      int_const(a.max, hi_a) && int_const(b.min, lo_b) && int_const(b.max, hi_b);
        if (consts && t.is_int() && lo_b > 0) {
            int64_t q[4] = {euclid(IRNodeType::Div, int64_t(lo_a), int64_t(lo_b)),
                            euclid(IRNodeType::Div, int64_t(lo_a), int64_t(hi_b)),
                            euclid(IRNodeType::Div, int64_t(hi_a), int64_t(lo_b)),
                            euclid(IRNodeType::Div, int64_t(hi_a), int64_t(hi_b))};
            finish(Interval(const_of(t, *std::min_element(q, q + 4)),
                            const_of(t, *std::max_element(q, q + 4))),
                   t);
            return;
        }
        if (consts) {
            // |a / b| <= |a| for every b, zero included.
            Int128 m = std::max(lo_a < 0 ? -lo_a : lo_a, hi_a < 0 ? -hi_a : hi_a);
            Interval r = t.is_uint() ? Interval(make_zero(t), a.max)
                                     : Interval(const_of(t, -m), const_of(t, m));
            if (!fits(m, t) || (t.is_int() && !fits(-m, t))) r = type_range(t);
            finish(r, t);
            return;
        }
        if (t.is_int() && a.is_bounded() && b.is_bounded() &&
            can_prove(GT::make(b.min, make_zero(t)))) {
            // A positive divisor: the quotient rises with a, and for a fixed a
            // moves toward zero as b grows, so the corners bound it.
            a = share(a);
            b = share(b);
            Expr lo = Min::make(Div::make(a.min, b.min), Div::make(a.min, b.max));
            Expr hi = Max::make(Div::make(a.max, b.min), Div::make(a.max, b.max));
            finish(Interval(simplify(lo), simplify(hi)), t);
            return;
        }
        if (t.is_int() && a.is_bounded()) {
            // |a / b| <= |a| for every b, zero included.
            Expr zero = make_zero(t);
            finish(Interval(simplify(Min::make(a.min, Sub::make(zero, a.max))),
                            simplify(Max::make(a.max, Sub::make(zero, a.min)))),
                   t);
            return;
        }
        finish(Interval::everything(), t);
    }

    void visit(const Mod *op) override {
        Interval a = of(op->a), b = of(op->b);
        Type t = op->type.element_of();
        if (t.is_float()) {
            result = Interval::everything();
            return;
        }
        Int128 lo_b, hi_b, lo_a, hi_a;
        if (b.is_bounded() && int_const(b.min, lo_b) && int_const(b.max, hi_b)) {
            Int128 m = std::max(lo_b < 0 ? -lo_b : lo_b, hi_b < 0 ? -hi_b : hi_b);
            if (m == 0) {
                finish(Interval::single_point(make_zero(t)), t);
                return;
            }
            bool inside = lo_b == hi_b && a.is_bounded() && int_const(a.min, lo_a) &&
                          int_const(a.max, hi_a) && lo_a >= 0 && hi_a < m;
            finish(inside ? a : Interval(make_zero(t), const_of(t, m - 1)), t);
            return;
        }
        if (t.is_uint() && b.max.defined()) {
            // A remainder is below the divisor (or zero when dividing by zero).
            finish(Interval(make_zero(t),
                            simplify(Max::make(Sub::make(b.max, make_one(t)), make_zero(t)))),
                   t);
            return;
        }
        if (t.is_int() && b.is_bounded()) {
            // 0 <= a % b < |b|, and zero when b is zero.
            Expr zero = make_zero(t);
            Expr magnitude = Max::make(b.max, Sub::make(zero, b.min));
            finish(Interval(zero, simplify(Max::make(Sub::make(magnitude, make_one(t)), zero))), t);
            return;
        }
        finish(t.is_int() ? Interval(make_zero(t), Expr()) : Interval::everything(), t);
    }

    void visit(const Min *op) override {
        Interval a = of(op->a), b = of(op->b);
        Type t = op->type.element_of();
        if (a.is_single_point() && b.is_single_point()) {
            // Of fixed values, one fixed value (min(scale, 1.0f) stays a
            // single point, so a quotient by it stays bounded).
            result = Interval::single_point(combine(IRNodeType::Min, a.min, b.min, t));
            return;
        }
        Expr hi = !a.max.defined()   ? b.max
                  : !b.max.defined() ? a.max
                                     : combine(IRNodeType::Min, a.max, b.max, t);
        finish(Interval(combine(IRNodeType::Min, a.min, b.min, t), hi), t);
    }

    void visit(const Max *op) override {
        Interval a = of(op->a), b = of(op->b);
        Type t = op->type.element_of();
        if (a.is_single_point() && b.is_single_point()) {
            // Of fixed values, one fixed value (min(scale, 1.0f) stays a
            // single point, so a quotient by it stays bounded).
            result = Interval::single_point(combine(IRNodeType::Max, a.min, b.min, t));
            return;
        }
        Expr lo = !a.min.defined()   ? b.min
                  : !b.min.defined() ? a.min
                                     : combine(IRNodeType::Max, a.min, b.min, t);
        finish(Interval(lo, combine(IRNodeType::Max, a.max, b.max, t)), t);
    }

    // a < b (strict) or a <= b over intervals: true, false or either.
    void compare(const Expr &ea, const Expr &eb, bool strict) {
        Interval a = of(ea), b = of(eb);
        auto proves = [](const Expr &e) { return is_const_true(Internal::simplify(e)); };
        auto cmp = [&](const Expr &x, const Expr &y, bool s) {
            return s ? Expr(LT::make(x, y)) : Expr(LE::make(x, y));
        };
        if (a.max.defined() && b.min.defined() && proves(cmp(a.max, b.min, strict))) {
            result = Interval::single_point(const_true());
        } else if (a.min.defined() && b.max.defined() && proves(cmp(b.max, a.min, !strict))) {
            result = Interval::single_point(const_false());
        } else {
            result = type_range(Bool());
        }
    }

    void visit(const LT *op) override { compare(op->a, op->b, true); }
    void visit(const LE *op) override { compare(op->a, op->b, false); }
    void visit(const GT *op) override { compare(op->b, op->a, true); }
    void visit(const GE *op) override { compare(op->b, op->a, false); }

    void equality(const Expr &ea, const Expr &eb, bool want_equal) {
        Interval a = of(ea), b = of(eb);
        if (a.is_single_point() && b.is_single_point() && is_const(a.min) && is_const(b.min)) {
            result = Interval::single_point(
                simplify(want_equal ? EQ::make(a.min, b.min) : NE::make(a.min, b.min)));
        } else {
            result = type_range(Bool());
        }
    }
    void visit(const EQ *op) override { equality(op->a, op->b, true); }
    void visit(const NE *op) override { equality(op->a, op->b, false); }

    // And, Or and Not are monotonic in their operands (false < true).
    void visit(const And *op) override {
        Interval a = of(op->a), b = of(op->b);
        result = Interval(simplify(And::make(a.min, b.min)), simplify(And::make(a.max, b.max)));
    }
    void visit(const Or *op) override {
        Interval a = of(op->a), b = of(op->b);
        result = Interval(simplify(Or::make(a.min, b.min)), simplify(Or::make(a.max, b.max)));
    }
    void visit(const Not *op) override {
        Interval a = of(op->a);
        result = Interval(simplify(Not::make(a.max)), simplify(Not::make(a.min)));
    }

    void visit(const Select *op) override {
        Interval c = of(op->condition);
        if (is_const_true(c.min)) {
            result = of(op->true_value);
        } else if (is_const_false(c.max)) {
            result = of(op->false_value);
        } else {
            Interval t = of(op->true_value);
            result = Interval::make_union(t, of(op->false_value));
        }
    }

    void visit(const Load *op) override { result = opaque_range(op->type); }

    void visit(const Ramp *op) override {
        Interval base = of(op->base), stride = of(op->stride);
        Type t = op->base.type();
        Expr n = make_const(t, op->lanes - 1);
        // The last lane's range: base + stride * (lanes - 1).
        Interval scaled(combine(IRNodeType::Mul, stride.min, n, t),
                        combine(IRNodeType::Mul, stride.max, n, t));
        Interval last(combine(IRNodeType::Add, base.min, scaled.min, t),
                      combine(IRNodeType::Add, base.max, scaled.max, t));
        bool overflowed = overflow;
        finish(Interval::make_union(base, last), t);
        if (overflowed) result = type_range(t);
    }

    void visit(const Broadcast *op) override { op->value.accept(this); }

    void visit(const Call *op) override {
        if (op->call_type == Call::PureIntrinsic || op->call_type == Call::Intrinsic) {
            if (intrinsic_bounds(op)) return;
        }
        if (op->call_type == Call::PureExtern && op->args.size() == 1 && rounds(op->name)) {
            // floor, ceil, round and trunc never put values out of order:
            // a resampler's first tap is floor(centre - support) + 1.
            Interval a = of(op->args[0]);
            auto end = [&](const Expr &v) {
                return v.defined() ? simplify(Call::make(op->type, op->name, {v}, Call::PureExtern))
                                   : Expr();
            };
            result = Interval(end(a.min), end(a.max));
            return;
        }
        result = opaque_range(op->type);
    }

    /** Is this the name of a float rounding function (floor_f32, ...)? */
    static bool rounds(const std::string &name) {
        for (const char *fn : {"floor", "ceil", "round", "trunc"})
            for (const char *suffix : {"_f16", "_f32", "_f64"})
                if (name == std::string(fn) + suffix) return true;
        return false;
    }

    /** The interval of op(a, b), rising in a and rising (or, for
     * b_falls, falling) in b; integer ends not known become the type's. */
    void monotonic(const Call *op, bool b_falls) {
        Interval a = of(op->args[0]), b = of(op->args[1]);
        Type t = op->type.element_of();
        auto end = [&](const Expr &x, const Expr &y, bool upper) {
            if (x.defined() && y.defined())
                return simplify(Call::make(t, op->op, {x, y}, Call::PureIntrinsic));
            if (!is_integer(t)) return Expr();
            return upper ? type_max(t) : type_min(t);
        };
        result = Interval(end(a.min, b_falls ? b.max : b.min, false),
                          end(a.max, b_falls ? b.min : b.max, true));
    }

    bool intrinsic_bounds(const Call *op) {
        Type t = op->type.element_of();
        switch (op->op) {
        case Intrinsic::likely:
        case Intrinsic::likely_if_innermost:
        case Intrinsic::strict_float:
            if (op->args.size() != 1) return false;
            op->args[0].accept(this);
            return true;
        case Intrinsic::require:
            op->args.at(1).accept(this);
            return true;
        case Intrinsic::scatter_gather: {
            // Each element is stored (or read) in turn: the union of all.
            Interval r = of(op->args.at(0));
            for (size_t i = 1; i < op->args.size(); i++)
                r = Interval::make_union(r, of(op->args[i]));
            result = r;
            return true;
        }
        case Intrinsic::promise_clamped:
        case Intrinsic::unsafe_promise_clamped: {
            // The value's own bounds, narrowed to the promised range.
            Interval v = of(op->args.at(0)), lo = of(op->args.at(1)), hi = of(op->args.at(2));
            Expr mn = !v.min.defined()    ? lo.min
                      : !lo.min.defined() ? v.min
                                          : simplify(Max::make(v.min, lo.min));
            Expr mx = !v.max.defined()    ? hi.max
                      : !hi.max.defined() ? v.max
                                          : simplify(Min::make(v.max, hi.max));
            result = Interval(mn, mx);
            return true;
        }
        case Intrinsic::popcount:
        case Intrinsic::count_leading_zeros:
        case Intrinsic::count_trailing_zeros:
            if (!is_integer(t)) return false;
            result = Interval(make_zero(t), make_const(t, int64_t(t.bits)));
            return true;
        case Intrinsic::saturating_add:
        case Intrinsic::halving_add:
        case Intrinsic::rounding_halving_add:
            monotonic(op, false);
            return true;
        case Intrinsic::saturating_sub:
            monotonic(op, true);
            return true;
        case Intrinsic::shift_right: {
            // By a constant in [0, bits): a floor division by a power of two,
            // rising in the value (a fixed-point sum >> 8 used as an index).
            std::optional<int64_t> s = as_const_int(op->args.at(1));
            if (!is_integer(t) || !s || *s < 0 || *s >= t.bits) return false;
            monotonic(op, false);
            return true;
        }
        case Intrinsic::bitwise_and: {
            // x & m with a constant m >= 0 is in [0, m], whatever x is.
            std::optional<int64_t> m = as_const_int(op->args.at(1));
            if (!m) m = as_const_int(op->args.at(0));
            if (!is_integer(t) || !m || *m < 0) return false;
            result = Interval(make_zero(t), make_const(t, *m));
            return true;
        }
        case Intrinsic::halving_sub:
            if (!t.is_int()) return false; // unsigned results wrap
            monotonic(op, true);
            return true;
        default:
            return false;
        }
    }

    void visit(const Let *op) override {
        Interval value = share(of(op->value));
        Scope<Interval> inner;
        inner.set_containing_scope(&scope);
        inner.push(op->name, value);
        BoundsOf body(inner, named);
        result = body.of(op->body);
    }

    void visit(const Shuffle *op) override {
        Interval r = of(op->vectors[0]);
        for (size_t i = 1; i < op->vectors.size(); i++)
            r = Interval::make_union(r, of(op->vectors[i]));
        result = r;
    }
};

// Collects the boxes of Func and image calls (or of Provides) in code.
class BoxesTouched : public IRVisitor {
public:
    std::map<std::string, Box> boxes;
    Scope<Interval> scope;
    bool provides;

    BoxesTouched(const Scope<Interval> &outer, bool want_provides) : provides(want_provides) {
        scope.set_containing_scope(&outer);
    }

private:
    using IRVisitor::visit;

    void add_box(const std::string &name, const std::vector<Expr> &args) {
        Box b(args.size());
        for (size_t i = 0; i < args.size(); i++) b[i] = bounds_of_expr_in_scope(args[i], scope);
        auto it = boxes.find(name);
        if (it == boxes.end()) {
            boxes.emplace(name, b);
        } else {
            it->second = box_union(it->second, b);
        }
    }

    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (!provides && (op->call_type == Call::Loom || op->call_type == Call::Image)) {
            add_box(op->name, op->args);
        }
    }

    void visit(const Provide *op) override {
        IRVisitor::visit(op);
        if (provides) add_box(op->name, op->args);
    }

    void visit(const Let *op) override {
        op->value.accept(this);
        ScopedBinding<Interval> bind(scope, op->name, bounds_of_expr_in_scope(op->value, scope));
        op->body.accept(this);
    }

    void visit(const LetStmt *op) override {
        op->value.accept(this);
        ScopedBinding<Interval> bind(scope, op->name, bounds_of_expr_in_scope(op->value, scope));
        op->body.accept(this);
    }

    void visit(const For *op) override {
        op->min.accept(this);
        op->extent.accept(this);
        Interval lo = bounds_of_expr_in_scope(op->min, scope);
        Expr last_expr = Sub::make(Add::make(op->min, op->extent), make_one(op->min.type()));
        Interval hi = bounds_of_expr_in_scope(last_expr, scope);
        ScopedBinding<Interval> bind(scope, op->name, Interval(lo.min, hi.max));
        op->body.accept(this);
    }
};

} // namespace

namespace {} // namespace

Expr bind_named_values(const Expr &e, const std::vector<std::pair<std::string, Expr>> &named) {
    if (named.empty()) return e;
    // Substituted: each value is shared by pointer, so this is cheap as a DAG.
    Expr inlined = e;
    for (auto it = named.rbegin(); it != named.rend(); ++it)
        inlined = substitute(it->first, it->second, inlined);
    if (tree_size(inlined) <= inline_named_values_nodes) return inlined;
    Expr result = e;
    for (auto it = named.rbegin(); it != named.rend(); ++it) {
        if (expr_uses_var(result, it->first)) result = Let::make(it->first, it->second, result);
    }
    return result;
}

Interval bounds_of_expr_in_scope(const Expr &e, const Scope<Interval> &scope) {
    LetList named;
    BoundsOf b(scope, named);
    Interval r = b.of(e);
    // Each end carries the definitions of the shared ends it uses.
    auto finish = [&](const Expr &end) {
        if (!end.defined() || is_const(end)) return end;
        return simplify(bind_named_values(end, named));
    };
    r.min = finish(r.min);
    r.max = finish(r.max);
    return r;
}

std::map<std::string, Box> boxes_required(const Expr &e, const Scope<Interval> &scope) {
    BoxesTouched v(scope, false);
    e.accept(&v);
    return v.boxes;
}

std::map<std::string, Box> boxes_required(const Stmt &s, const Scope<Interval> &scope) {
    BoxesTouched v(scope, false);
    s.accept(&v);
    return v.boxes;
}

std::map<std::string, Box> boxes_provided(const Stmt &s, const Scope<Interval> &scope) {
    BoxesTouched v(scope, true);
    s.accept(&v);
    return v.boxes;
}

} // namespace Internal
} // namespace loom
