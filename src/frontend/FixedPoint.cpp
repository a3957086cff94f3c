// Fixed-point operators of loom/IROperator.h (saturating, widening, halving,
// rounding shifts, multiply-shifts) and extract_bits/concat_bits.
//
// saturating_add/sub and the halving adds are intrinsics (backends map them
// to instructions: LLVM's sadd.sat, x86 pavgb, OpenCL add_sat/hadd/rhadd).
// The others are written as casts and plain arithmetic that LLVM's
// instruction selection recognises (widening multiplies, packs with
// saturation), so bounds inference and every backend understand them as is.

#include <algorithm>
#include <climits>
#include <optional>

#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IROperator.h"
#include "loom/IROperator.h"

namespace loom {

using namespace Internal;

namespace {

std::string describe(Type t) {
    return type_to_string(t);
}

void check_defined(const Expr &e, const char *fn) {
    if (!e.defined()) user_error(fn << " of an undefined Expr");
}

bool is_integer(Type t) {
    return (t.is_int() || t.is_uint()) && !t.is_bool();
}

void check_integer(const Expr &e, const char *fn) {
    if (!is_integer(e.type()))
        user_error(fn << " needs integer operands, not " << describe(e.type()));
}

void check_number(const Expr &e, const char *fn) {
    Type t = e.type();
    if (t.is_handle() || t.is_bool())
        user_error(fn << " needs integer or float operands, not " << describe(t));
}

/** Broadcast a scalar to the other's lane count. */
void match_lanes(Expr &a, Expr &b, const char *fn) {
    int la = a.type().lanes, lb = b.type().lanes;
    if (la == lb) return;
    if (la == 1)
        a = Broadcast::make(a, lb);
    else if (lb == 1)
        b = Broadcast::make(b, la);
    else
        user_error(fn << " of vectors of " << la << " and " << lb << " lanes");
}

/** Halide's match_bits: the narrower operand widens to the other's bits,
 * keeping its own signedness. */
void match_bits(Expr &a, Expr &b) {
    if (a.type().bits < b.type().bits)
        a = cast(a.type().with_bits(b.type().bits), a);
    else if (b.type().bits < a.type().bits)
        b = cast(b.type().with_bits(a.type().bits), b);
}

/** The type twice as wide as t, or a CompileError naming fn. */
Type widened(Type t, const char *fn) {
    if (t.is_float()) {
        if (t.bits != 16 && t.bits != 32)
            user_error(fn << " of " << describe(t)
                          << ": there is no float type twice as wide (float16 and float32 widen)");
    } else if (t.bits > 32) {
        user_error(fn << " of " << describe(t)
                      << ": there is no integer type twice as wide; widening operators take "
                         "integers of up to 32 bits");
    }
    return t.with_bits(t.bits * 2);
}

Expr shift(Intrinsic op, const Expr &a, const Expr &b) {
    return Call::make(a.type(), op, {a, b}, Call::PureIntrinsic);
}

/** Operands of the binary fixed-point intrinsics: numbers of one type. */
void fixed_point_operands(Expr &a, Expr &b, const char *fn) {
    check_defined(a, fn);
    check_defined(b, fn);
    check_number(a, fn);
    check_number(b, fn);
    match_types(a, b, fn);
}

Expr fixed_point(Intrinsic op, Expr a, Expr b, const char *fn) {
    fixed_point_operands(a, b, fn);
    return Call::make(a.type(), op, {a, b}, Call::PureIntrinsic);
}

/** Does every value of `narrow` fit in `wide` exactly? */
bool holds_all(Type wide, Type narrow) {
    wide = wide.element_of();
    narrow = narrow.element_of();
    if (wide.is_float()) {
        if (narrow.is_float()) return wide.bits >= narrow.bits;
        int mantissa = wide.bits == 16 ? 11 : wide.bits == 32 ? 24 : 53;
        return narrow.bits - (narrow.is_int() ? 1 : 0) <= mantissa;
    }
    if (narrow.is_float()) return false;
    if (wide.is_int() == narrow.is_int()) return wide.bits >= narrow.bits;
    if (wide.is_int()) return wide.bits > narrow.bits; // unsigned into signed
    return false;                                      // signed into unsigned
}

/** The bound (t's min or max) as a constant of `in`, if `in` holds it exactly. */
Expr exact_bound(Type t, Type in, bool want_max) {
    Type te = t.element_of(), ie = in.element_of();
    if (te.is_float()) return Expr(); // float ranges include infinity
    if (te.is_uint() && !want_max) {
        if (ie.is_uint()) return Expr(); // never below zero
        return make_zero(in);
    }
    if (te.is_uint()) {
        uint64_t v = te.max_uint();
        if (!ie.can_represent(v)) return Expr();
        return ie.is_float() ? make_const(in, double(v)) : make_const(in, v);
    }
    int64_t v = want_max ? te.max_int() : te.min_int();
    if (ie.is_uint() && v < 0) return Expr();
    if (!ie.can_represent(v)) return Expr();
    return ie.is_float() ? make_const(in, double(v)) : make_const(in, v);
}

} // namespace

Expr saturating_cast(Type t, Expr e) {
    check_defined(e, "saturating_cast");
    Type from = e.type();
    if (from.is_handle() || t.is_handle())
        user_error("saturating_cast cannot convert " << describe(from) << " to " << describe(t));
    if (t.lanes != from.lanes) {
        if (from.lanes != 1)
            user_error("saturating_cast of " << describe(from) << " to " << describe(t)
                                             << ": lane counts differ");
        e = Broadcast::make(e, t.lanes);
        from = e.type();
    }
    if (from == t) return e;
    if (t.is_bool() || from.is_bool()) return cast(t, e);
    if (t.is_float()) return cast(t, e); // float ranges reach infinity
    if (from.is_float() && t.bits >= from.bits) {
        // t's largest value rounds up to a float just beyond it: compare
        // before converting, which would overflow.
        Expr lo = make_const(from, t.is_int() ? double(t.min_int()) : 0.0);
        Expr hi = make_const(from, t.is_int() ? double(t.max_int()) : double(t.max_uint()));
        Expr clamped = Max::make(e, lo);
        return Select::make(GE::make(clamped, hi), type_max(t), Cast::make(t, clamped));
    }
    Expr lo = exact_bound(t, from, false), hi = exact_bound(t, from, true);
    if (lo.defined()) e = Max::make(e, lo);
    if (hi.defined()) e = Min::make(e, hi);
    return Cast::make(t, e);
}

Expr saturating_add(Expr a, Expr b) {
    return fixed_point(Intrinsic::saturating_add, std::move(a), std::move(b), "saturating_add");
}
Expr saturating_sub(Expr a, Expr b) {
    return fixed_point(Intrinsic::saturating_sub, std::move(a), std::move(b), "saturating_sub");
}
Expr halving_add(Expr a, Expr b) {
    return fixed_point(Intrinsic::halving_add, std::move(a), std::move(b), "halving_add");
}
Expr rounding_halving_add(Expr a, Expr b) {
    return fixed_point(Intrinsic::rounding_halving_add, std::move(a), std::move(b),
                       "rounding_halving_add");
}
Expr halving_sub(Expr a, Expr b) {
    return fixed_point(Intrinsic::halving_sub, std::move(a), std::move(b), "halving_sub");
}

Expr widening_add(Expr a, Expr b) {
    fixed_point_operands(a, b, "widening_add");
    Type w = widened(a.type(), "widening_add");
    return Cast::make(w, a) + Cast::make(w, b);
}

Expr widening_sub(Expr a, Expr b) {
    fixed_point_operands(a, b, "widening_sub");
    Type w = widened(a.type(), "widening_sub");
    if (w.is_uint()) w = w.with_code(Type::Int);
    return Cast::make(w, a) - Cast::make(w, b);
}

Expr widening_mul(Expr a, Expr b) {
    const char *fn = "widening_mul";
    check_defined(a, fn);
    check_defined(b, fn);
    check_number(a, fn);
    check_number(b, fn);
    // An integer multiplied by a float becomes that float, if it fits exactly.
    if (a.type().is_float() != b.type().is_float()) {
        Expr &i = a.type().is_float() ? b : a;
        Type f = (a.type().is_float() ? a : b).type().with_lanes(i.type().lanes);
        if (!holds_all(f, i.type()))
            user_error(fn << " of " << describe(a.type()) << " and " << describe(b.type())
                          << ": the integer does not convert exactly to the float type; cast "
                             "it explicitly");
        i = Cast::make(f, i);
    }
    match_lanes(a, b, fn);
    match_bits(a, b);
    Type w = widened(a.type(), fn);
    // Operands of different signedness give a signed product.
    if (w.is_uint() && b.type().is_int()) w = w.with_code(Type::Int);
    return Cast::make(w, a) * Cast::make(w, b);
}

namespace {

Expr widening_shift(Expr a, Expr b, bool left) {
    const char *fn = left ? "widening_shift_left" : "widening_shift_right";
    check_defined(a, fn);
    check_defined(b, fn);
    check_integer(a, fn);
    check_integer(b, fn);
    match_lanes(a, b, fn);
    match_bits(a, b);
    Type w = widened(a.type(), fn);
    Expr wb = cast(b.type().with_bits(w.bits), b);
    return shift(left ? Intrinsic::shift_left : Intrinsic::shift_right, Cast::make(w, a), wb);
}

/** The shift amount of the int overloads: an unsigned constant of a's width,
 * and the direction flipped for a negative amount. */
Expr shift_amount(const Expr &a, int b, bool *flip, const char *fn) {
    check_defined(a, fn);
    check_integer(a, fn);
    Type t = a.type().with_code(Type::UInt);
    int64_t m = b < 0 ? -int64_t(b) : int64_t(b);
    if (!t.element_of().can_represent(m))
        user_error(fn << ": the shift " << b << " does not fit in " << describe(t.element_of()));
    *flip = b < 0;
    return make_const(t, uint64_t(m));
}

/** op(a, |b|, direction): a shift by a constant, the other way when b < 0. */
Expr shift_by_constant(Expr a, int b, const char *fn, bool direction,
                       Expr (*op)(Expr, Expr, bool)) {
    bool flip;
    Expr n = shift_amount(a, b, &flip, fn);
    return op(std::move(a), n, direction != flip);
}

} // namespace

Expr widening_shift_left(Expr a, Expr b) {
    return widening_shift(std::move(a), std::move(b), true);
}
Expr widening_shift_right(Expr a, Expr b) {
    return widening_shift(std::move(a), std::move(b), false);
}
Expr widening_shift_left(Expr a, int b) {
    return shift_by_constant(std::move(a), b, "widening_shift_left", true, widening_shift);
}
Expr widening_shift_right(Expr a, int b) {
    return shift_by_constant(std::move(a), b, "widening_shift_right", false, widening_shift);
}

namespace {

Expr widen_right(Expr a, Expr b, const char *fn) {
    check_defined(a, fn);
    check_defined(b, fn);
    check_integer(a, fn);
    check_integer(b, fn);
    match_lanes(a, b, fn);
    Type w = widened(b.type(), fn);
    if (a.type() != w)
        user_error(fn << "(a, b) needs a of twice b's width and b's signedness: b is "
                      << describe(b.type()) << ", so a must be " << describe(w) << ", not "
                      << describe(a.type()));
    return Cast::make(w, b);
}

} // namespace

Expr widen_right_add(Expr a, Expr b) {
    Expr wb = widen_right(a, b, "widen_right_add");
    return a + wb;
}
Expr widen_right_sub(Expr a, Expr b) {
    Expr wb = widen_right(a, b, "widen_right_sub");
    return a - wb;
}
Expr widen_right_mul(Expr a, Expr b) {
    Expr wb = widen_right(a, b, "widen_right_mul");
    return a * wb;
}

namespace {

Expr bit_and(const Expr &a, const Expr &b) {
    return Call::make(a.type(), Intrinsic::bitwise_and, {a, b}, Call::PureIntrinsic);
}

/** Halide's rounding shifts: shift one way, and where the shift drops bits
 * (a right shift by s > 0), add the highest dropped bit, bit s - 1. */
Expr rounding_shift(Expr a, Expr b, bool right) {
    const char *fn = right ? "rounding_shift_right" : "rounding_shift_left";
    check_defined(a, fn);
    check_defined(b, fn);
    check_integer(a, fn);
    check_integer(b, fn);
    match_lanes(a, b, fn);
    match_bits(a, b);
    Type t = a.type(), bt = b.type();
    Intrinsic dir = right ? Intrinsic::shift_right : Intrinsic::shift_left;
    Expr shifted = shift(dir, a, b);
    std::optional<int64_t> c = as_const_int(b);
    std::optional<uint64_t> cu = as_const_uint(b);
    if (c || cu) {
        bool drops = right ? ((c && *c > 0) || (cu && *cu > 0)) : (c && *c < 0);
        if (!drops) return shifted;
        int64_t dropped = c ? (right ? *c : -*c) : int64_t(*cu);
        Expr half = shift(Intrinsic::shift_right, a, make_const(bt, dropped - 1));
        return Add::make(shifted, bit_and(half, make_one(t)));
    }
    Expr zero = make_zero(bt), one = make_one(bt);
    Expr drops = right ? GT::make(b, zero) : LT::make(b, zero);
    // The shift to the highest dropped bit, zero where none is dropped (so
    // that no shift ever exceeds the width).
    Expr to_half =
        Select::make(drops, right ? Expr(Sub::make(b, one)) : Expr(Add::make(b, one)), zero);
    Expr half = bit_and(shift(dir, a, to_half), make_one(t));
    return Add::make(shifted, Select::make(drops, half, make_zero(t)));
}

Expr mul_shift(Expr a, Expr b, Expr q, bool rounding) {
    const char *fn = rounding ? "rounding_mul_shift_right" : "mul_shift_right";
    check_defined(a, fn);
    check_defined(b, fn);
    check_defined(q, fn);
    check_integer(a, fn);
    check_integer(b, fn);
    if (!q.type().is_uint() || q.type().is_bool())
        user_error(fn << ": the shift q must be unsigned, not " << describe(q.type()));
    match_types(a, b, fn);
    match_lanes(a, q, fn);
    match_bits(a, q);
    match_types(a, b, fn); // q may have widened a
    Type t = a.type();
    Expr product = widening_mul(a, b);
    Expr wq = cast(q.type().with_bits(product.type().bits), q);
    Expr shifted =
        rounding ? rounding_shift(product, wq, true) : shift(Intrinsic::shift_right, product, wq);
    return saturating_cast(t, shifted);
}

} // namespace

Expr rounding_shift_right(Expr a, Expr b) {
    return rounding_shift(std::move(a), std::move(b), true);
}
Expr rounding_shift_left(Expr a, Expr b) {
    return rounding_shift(std::move(a), std::move(b), false);
}
Expr rounding_shift_right(Expr a, int b) {
    return shift_by_constant(std::move(a), b, "rounding_shift_right", true, rounding_shift);
}
Expr rounding_shift_left(Expr a, int b) {
    return shift_by_constant(std::move(a), b, "rounding_shift_left", false, rounding_shift);
}

Expr mul_shift_right(Expr a, Expr b, Expr q) {
    return mul_shift(std::move(a), std::move(b), std::move(q), false);
}
Expr rounding_mul_shift_right(Expr a, Expr b, Expr q) {
    return mul_shift(std::move(a), std::move(b), std::move(q), true);
}
Expr mul_shift_right(Expr a, Expr b, int q) {
    check_defined(a, "mul_shift_right");
    check_integer(a, "mul_shift_right");
    Type qt = a.type().with_code(Type::UInt);
    if (q < 0 || !qt.element_of().can_represent(int64_t(q)))
        user_error("mul_shift_right: the shift " << q << " does not fit in "
                                                 << describe(qt.element_of()));
    return mul_shift(std::move(a), std::move(b), make_const(qt, int64_t(q)), false);
}
Expr rounding_mul_shift_right(Expr a, Expr b, int q) {
    check_defined(a, "rounding_mul_shift_right");
    check_integer(a, "rounding_mul_shift_right");
    Type qt = a.type().with_code(Type::UInt);
    if (q < 0 || !qt.element_of().can_represent(int64_t(q)))
        user_error("rounding_mul_shift_right: the shift " << q << " does not fit in "
                                                          << describe(qt.element_of()));
    return mul_shift(std::move(a), std::move(b), make_const(qt, int64_t(q)), true);
}

Expr extract_bits(Type t, const Expr &e, const Expr &lsb) {
    const char *fn = "extract_bits";
    check_defined(e, fn);
    check_defined(lsb, fn);
    Type et = e.type();
    if (et.is_handle() || et.is_bool() || t.is_handle() || t.is_bool())
        user_error(fn << " of " << describe(et) << " as " << describe(t)
                      << ": both types must be integers or floats");
    check_integer(lsb, fn);
    if (lsb.type().lanes != 1 && lsb.type().lanes != et.lanes)
        user_error(fn << ": lsb has " << lsb.type().lanes << " lanes, the value " << et.lanes);
    t = t.with_lanes(et.lanes);
    int width = std::max(int(et.bits), int(t.bits));
    Type u = UInt(width, et.lanes);
    Expr bits = Reinterpret::make(et.with_code(Type::UInt), e);
    if (width != et.bits) bits = Cast::make(u, bits);
    Expr shifted;
    std::optional<int64_t> c = as_const_int(lsb);
    std::optional<uint64_t> cu = as_const_uint(lsb);
    if (cu && *cu <= uint64_t(INT64_MAX)) c = int64_t(*cu);
    if (c) {
        if (*c >= width || *c <= -width)
            shifted = make_zero(u);
        else if (*c >= 0)
            shifted = shift(Intrinsic::shift_right, bits, make_const(u, *c));
        else
            shifted = shift(Intrinsic::shift_left, bits, make_const(u, -*c));
    } else {
        // Bits below 0 (a negative lsb) or beyond the width read as zeros;
        // the shifts themselves stay below the width.
        Type it = Int(32, et.lanes);
        Expr amount = lsb;
        if (amount.type().lanes != et.lanes) amount = Broadcast::make(amount, et.lanes);
        amount = cast(it, amount);
        Expr w = make_const(it, width);
        Expr right = Cast::make(u, Min::make(Max::make(amount, make_zero(it)), w - 1));
        Expr left =
            Cast::make(u, Min::make(Max::make(make_zero(it) - amount, make_zero(it)), w - 1));
        Expr value = Select::make(GE::make(amount, make_zero(it)),
                                  shift(Intrinsic::shift_right, bits, right),
                                  shift(Intrinsic::shift_left, bits, left));
        Expr in_range = And::make(LT::make(amount, w), GT::make(amount, make_zero(it) - w));
        shifted = Select::make(in_range, value, make_zero(u));
    }
    Type tu = t.with_code(Type::UInt);
    Expr r = tu.bits == width ? shifted : Cast::make(tu, shifted);
    return tu == t ? r : Reinterpret::make(t, r);
}

Expr concat_bits(const std::vector<Expr> &e) {
    const char *fn = "concat_bits";
    if (e.empty()) user_error(fn << " needs at least one argument");
    size_t n = e.size();
    if ((n & (n - 1)) != 0)
        user_error(fn << " of " << n << " values: the count must be a power of two");
    for (const Expr &x : e) check_defined(x, fn);
    Type t = e[0].type();
    if (!is_integer(t)) user_error(fn << " needs integers, not " << describe(t));
    for (size_t i = 1; i < n; i++) {
        if (e[i].type() != t)
            user_error(fn << ": all values must have one type; value 0 is " << describe(t)
                          << ", value " << i << " is " << describe(e[i].type()));
    }
    int bits = int(t.bits) * int(n);
    if (bits > 64)
        user_error(fn << " of " << n << " values of " << describe(t) << " needs " << bits
                      << " bits; Loom's integers have at most 64");
    Type u = UInt(bits, t.lanes);
    Expr result;
    for (size_t i = 0; i < n; i++) {
        Expr part = Cast::make(u, Reinterpret::make(t.with_code(Type::UInt), e[i]));
        if (i > 0) part = shift(Intrinsic::shift_left, part, make_const(u, int64_t(i * t.bits)));
        result = result.defined()
                     ? Call::make(u, Intrinsic::bitwise_or, {result, part}, Call::PureIntrinsic)
                     : part;
    }
    Type r = t.with_bits(bits);
    return r == u ? result : Reinterpret::make(r, result);
}

} // namespace loom
