// Rules for calls: hints of a constant (likely, strict_float, promises),
// requirements known to hold, and constant folding of the integer
// intrinsics (bitwise operators, shifts, bit counts, fixed-point
// arithmetic), which bounds inference relies on to turn their bounds into
// numbers.

#include <optional>

#include "analysis/Simplify_Internal.h"

namespace loom {
namespace Internal {

namespace {

using Int128 = __int128;

/** A scalar integer constant, as a wide value. */
std::optional<Int128> int_value(const Expr &e) {
    if (auto *i = e.as<IntImm>()) return Int128(i->value);
    if (auto *u = e.as<UIntImm>()) return Int128(u->value);
    return std::nullopt;
}

/** v wrapped into t (two's complement), as a constant of t. */
Expr wrap(Type t, Int128 v) {
    int bits = t.bits;
    unsigned __int128 m = bits >= 64 ? ~uint64_t(0) : ((uint64_t(1) << bits) - 1);
    uint64_t u = uint64_t(v & m);
    if (t.is_uint()) return make_const(t, u);
    if (bits < 64 && (u >> (bits - 1)) & 1) return make_const(t, int64_t(u) - (int64_t(1) << bits));
    return make_const(t, int64_t(u));
}

Int128 lowest(Type t) {
    return t.is_int() ? Int128(t.min_int()) : Int128(0);
}
Int128 highest(Type t) {
    return t.is_int() ? Int128(t.max_int()) : Int128(t.max_uint());
}

/** The unsigned bits of v in t. */
uint64_t raw_bits(Type t, Int128 v) {
    uint64_t u = uint64_t(v);
    return t.bits >= 64 ? u : u & ((uint64_t(1) << t.bits) - 1);
}

int popcount64(uint64_t x) {
    int n = 0;
    for (; x; x &= x - 1) n++;
    return n;
}

/** floor(v / 2) for a possibly negative v. */
Int128 half_down(Int128 v) {
    return v >= 0 ? v / 2 : -((-v + 1) / 2);
}

/** The value of an integer intrinsic on scalar constants, if it has one. */
Expr fold_intrinsic(const Call *op) {
    Type t = op->type;
    if (t.is_vector() || !((t.is_int() || t.is_uint()) && !t.is_bool())) return Expr();
    std::vector<Int128> v;
    for (const Expr &a : op->args) {
        std::optional<Int128> x = int_value(a);
        if (!x || a.type().is_vector()) return Expr();
        v.push_back(*x);
    }
    auto arity = [&](size_t n) { return v.size() == n; };
    switch (op->op) {
    case Intrinsic::bitwise_and:
        if (arity(2)) return wrap(t, v[0] & v[1]);
        break;
    case Intrinsic::bitwise_or:
        if (arity(2)) return wrap(t, v[0] | v[1]);
        break;
    case Intrinsic::bitwise_xor:
        if (arity(2)) return wrap(t, v[0] ^ v[1]);
        break;
    case Intrinsic::bitwise_not:
        if (arity(1)) return wrap(t, ~v[0]);
        break;
    case Intrinsic::shift_left:
    case Intrinsic::shift_right: {
        if (!arity(2)) break;
        Int128 s = v[1];
        bool left = op->op == Intrinsic::shift_left;
        if (s < 0) left = !left, s = -s;
        if (s >= t.bits) break; // undefined: left alone
        if (left) return wrap(t, v[0] * (Int128(1) << int(s)));
        Int128 x = t.is_uint() ? Int128(raw_bits(t, v[0])) : v[0];
        Int128 d = Int128(1) << int(s);
        return wrap(t, x >= 0 ? x / d : -((-x + d - 1) / d));
    }
    case Intrinsic::popcount:
        if (arity(1)) return wrap(t, popcount64(raw_bits(t, v[0])));
        break;
    case Intrinsic::count_leading_zeros:
    case Intrinsic::count_trailing_zeros: {
        if (!arity(1)) break;
        uint64_t x = raw_bits(t, v[0]);
        int n = 0;
        if (op->op == Intrinsic::count_leading_zeros) {
            for (int b = t.bits - 1; b >= 0 && !((x >> b) & 1); b--) n++;
        } else {
            for (int b = 0; b < t.bits && !((x >> b) & 1); b++) n++;
        }
        return wrap(t, n);
    }
    case Intrinsic::saturating_add:
    case Intrinsic::saturating_sub: {
        if (!arity(2)) break;
        Int128 r = op->op == Intrinsic::saturating_add ? v[0] + v[1] : v[0] - v[1];
        return wrap(t, std::min(std::max(r, lowest(t)), highest(t)));
    }
    case Intrinsic::halving_add:
        if (arity(2)) return wrap(t, half_down(v[0] + v[1]));
        break;
    case Intrinsic::rounding_halving_add:
        if (arity(2)) return wrap(t, half_down(v[0] + v[1] + 1));
        break;
    case Intrinsic::halving_sub:
        if (arity(2)) return wrap(t, half_down(v[0] - v[1]));
        break;
    default:
        break;
    }
    return Expr();
}

} // namespace

Expr Simplifier::visit(const Call *op) {
    Expr e = IRMutator::visit(op);
    auto *call = e.as<Call>();
    if (!call || (call->call_type != Call::PureIntrinsic && call->call_type != Call::Intrinsic))
        return e;
    switch (call->op) {
    case Intrinsic::likely:
    case Intrinsic::likely_if_innermost:
    case Intrinsic::strict_float:
        if (is_const(call->args[0])) return call->args[0];
        break;
    case Intrinsic::promise_clamped:
    case Intrinsic::unsafe_promise_clamped:
        if (is_const(call->args[0])) return call->args[0];
        break;
    case Intrinsic::require:
        // A requirement proved at compile time costs nothing at run time.
        if (is_const_true(call->args[0])) return call->args[1];
        break;
    default:
        if (Expr folded = fold_intrinsic(call); folded.defined()) return folded;
        break;
    }
    return e;
}

} // namespace Internal
} // namespace loom
