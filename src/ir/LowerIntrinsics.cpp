#include "ir/LowerIntrinsics.h"

#include "ir/Error.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

namespace {

Expr bitwise(Intrinsic op, const Expr &a, const Expr &b) {
    return Call::make(a.type(), op, {a, b}, Call::PureIntrinsic);
}
Expr bit_and(const Expr &a, const Expr &b) {
    return bitwise(Intrinsic::bitwise_and, a, b);
}
Expr bit_or(const Expr &a, const Expr &b) {
    return bitwise(Intrinsic::bitwise_or, a, b);
}
Expr bit_xor(const Expr &a, const Expr &b) {
    return bitwise(Intrinsic::bitwise_xor, a, b);
}
Expr bit_not(const Expr &a) {
    return Call::make(a.type(), Intrinsic::bitwise_not, {a}, Call::PureIntrinsic);
}
Expr shift_right_one(const Expr &a) {
    return Call::make(a.type(), Intrinsic::shift_right, {a, make_one(a.type())},
                      Call::PureIntrinsic);
}

/** The type of twice the bits, same signedness (or signed when asked). */
Type wide(Type t, bool force_signed = false) {
    Type w = t.with_bits(t.bits * 2);
    return force_signed ? w.with_code(Type::Int) : w;
}

bool widens_cheaply(Type t) {
    return !t.is_float() && t.bits <= 16;
}

Expr as_unsigned(const Expr &e) {
    Type t = e.type();
    return t.is_uint() ? e : Reinterpret::make(t.with_code(Type::UInt), e);
}

/** For signed a and the wrapped result r of a + b (or a - b): where the
 * true result overflowed, the saturated value (by the sign of a), else r. */
Expr saturate_signed(const Expr &a, const Expr &r, const Expr &overflow_bits) {
    Type t = a.type();
    Expr overflowed = LT::make(overflow_bits, make_zero(t));
    Expr limit = Select::make(LT::make(a, make_zero(t)), type_min(t), type_max(t));
    return Select::make(overflowed, limit, r);
}

} // namespace

bool is_fixed_point_intrinsic(Intrinsic op) {
    return op == Intrinsic::saturating_add || op == Intrinsic::saturating_sub ||
           op == Intrinsic::halving_add || op == Intrinsic::rounding_halving_add ||
           op == Intrinsic::halving_sub;
}

Expr lower_saturating_add(const Expr &a, const Expr &b) {
    Type t = a.type();
    if (t.is_float()) return Add::make(a, b);
    if (widens_cheaply(t)) {
        Type w = wide(t);
        Expr sum = Add::make(Cast::make(w, a), Cast::make(w, b));
        Expr lo = Cast::make(w, type_min(t)), hi = Cast::make(w, type_max(t));
        return Cast::make(t, Max::make(Min::make(sum, hi), lo));
    }
    if (t.is_uint()) {
        Expr sum = Add::make(a, b);
        return Select::make(LT::make(sum, a), type_max(t), sum);
    }
    // Two's complement: the sum overflowed when it has the sign of neither operand.
    Expr r = Reinterpret::make(t, Add::make(as_unsigned(a), as_unsigned(b)));
    return saturate_signed(a, r, bit_and(bit_xor(a, r), bit_xor(b, r)));
}

Expr lower_saturating_sub(const Expr &a, const Expr &b) {
    Type t = a.type();
    if (t.is_float()) return Sub::make(a, b);
    if (widens_cheaply(t)) {
        Type w = wide(t, true);
        Expr diff = Sub::make(Cast::make(w, a), Cast::make(w, b));
        Expr lo = Cast::make(w, type_min(t)), hi = Cast::make(w, type_max(t));
        return Cast::make(t, Max::make(Min::make(diff, hi), lo));
    }
    if (t.is_uint()) return Select::make(LT::make(a, b), make_zero(t), Sub::make(a, b));
    // The difference overflowed when the operands' signs differ and the
    // result's sign is not a's.
    Expr r = Reinterpret::make(t, Sub::make(as_unsigned(a), as_unsigned(b)));
    return saturate_signed(a, r, bit_and(bit_xor(a, b), bit_xor(a, r)));
}

Expr lower_halving_add(const Expr &a, const Expr &b) {
    Type t = a.type();
    if (t.is_float()) return Mul::make(Add::make(a, b), make_const(t, 0.5));
    if (widens_cheaply(t)) {
        Type w = wide(t);
        return Cast::make(t, shift_right_one(Add::make(Cast::make(w, a), Cast::make(w, b))));
    }
    // a + b == 2 * (a & b) + (a ^ b), exactly; halved with floor.
    return Add::make(bit_and(a, b), shift_right_one(bit_xor(a, b)));
}

Expr lower_rounding_halving_add(const Expr &a, const Expr &b) {
    Type t = a.type();
    if (t.is_float()) return Mul::make(Add::make(a, b), make_const(t, 0.5));
    if (widens_cheaply(t)) {
        Type w = wide(t);
        Expr sum = Add::make(Add::make(Cast::make(w, a), Cast::make(w, b)), make_one(w));
        return Cast::make(t, shift_right_one(sum));
    }
    // a + b + 1 == 2 * (a | b) - (a ^ b) + 1, so the halved sum rounded up
    // is (a | b) - floor((a ^ b) / 2).
    return Sub::make(bit_or(a, b), shift_right_one(bit_xor(a, b)));
}

Expr lower_halving_sub(const Expr &a, const Expr &b) {
    Type t = a.type();
    if (t.is_float()) return Mul::make(Sub::make(a, b), make_const(t, 0.5));
    if (widens_cheaply(t)) {
        Type w = wide(t, true);
        return Cast::make(t, shift_right_one(Sub::make(Cast::make(w, a), Cast::make(w, b))));
    }
    // a - b == (a ^ b) - 2 * (~a & b), exactly; unsigned results wrap.
    return Sub::make(shift_right_one(bit_xor(a, b)), bit_and(bit_not(a), b));
}

Expr lower_fixed_point_intrinsic(const Call *op) {
    internal_assert(is_fixed_point_intrinsic(op->op) && op->args.size() == 2,
                    "lower_fixed_point_intrinsic of " << op->name);
    std::string na = unique_name("fixed_a"), nb = unique_name("fixed_b");
    Expr a = Variable::make(op->args[0].type(), na);
    Expr b = Variable::make(op->args[1].type(), nb);
    Expr body;
    switch (op->op) {
    case Intrinsic::saturating_add:
        body = lower_saturating_add(a, b);
        break;
    case Intrinsic::saturating_sub:
        body = lower_saturating_sub(a, b);
        break;
    case Intrinsic::halving_add:
        body = lower_halving_add(a, b);
        break;
    case Intrinsic::rounding_halving_add:
        body = lower_rounding_halving_add(a, b);
        break;
    default:
        body = lower_halving_sub(a, b);
        break;
    }
    return Let::make(na, op->args[0], Let::make(nb, op->args[1], body));
}

} // namespace Internal
} // namespace loom
