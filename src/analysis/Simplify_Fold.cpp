// Constant folding with Loom's semantics: integers wrap at their width,
// integer / and % are Euclidean (division by zero gives zero), Float(32)
// arithmetic is done in float, casts from float truncate.

#include <cmath>
#include <limits>

#include "analysis/Simplify_Internal.h"

namespace loom {
namespace Internal {

namespace {

int64_t euclid_div(int64_t a, int64_t b) {
    if (b == 0) return 0;
    if (b == -1) return int64_t(0 - uint64_t(a)); // wraps for INT64_MIN
    int64_t q = a / b, r = a % b;
    if (r < 0) q = b > 0 ? q - 1 : q + 1;
    return q;
}

int64_t euclid_mod(int64_t a, int64_t b) {
    if (b == 0 || b == -1) return 0;
    int64_t r = a % b;
    if (r < 0) r = b > 0 ? r + b : r - b;
    return r;
}

/** Comparisons fold alike for every kind of constant. */
template <typename T> Expr fold_comparison(IRNodeType op, T a, T b) {
    switch (op) {
    case IRNodeType::EQ:
        return make_bool(a == b);
    case IRNodeType::NE:
        return make_bool(a != b);
    case IRNodeType::LT:
        return make_bool(a < b);
    case IRNodeType::LE:
        return make_bool(a <= b);
    case IRNodeType::GT:
        return make_bool(a > b);
    case IRNodeType::GE:
        return make_bool(a >= b);
    default:
        return Expr();
    }
}

Expr fold_int(IRNodeType op, Type t, int64_t a, int64_t b) {
    uint64_t ua = uint64_t(a), ub = uint64_t(b);
    switch (op) {
    case IRNodeType::Add:
        return IntImm::make(t, int64_t(ua + ub));
    case IRNodeType::Sub:
        return IntImm::make(t, int64_t(ua - ub));
    case IRNodeType::Mul:
        return IntImm::make(t, int64_t(ua * ub));
    case IRNodeType::Div:
        return IntImm::make(t, euclid_div(a, b));
    case IRNodeType::Mod:
        return IntImm::make(t, euclid_mod(a, b));
    case IRNodeType::Min:
        return IntImm::make(t, a < b ? a : b);
    case IRNodeType::Max:
        return IntImm::make(t, a > b ? a : b);
    default:
        return fold_comparison(op, a, b);
    }
}

Expr fold_uint(IRNodeType op, Type t, uint64_t a, uint64_t b) {
    switch (op) {
    case IRNodeType::Add:
        return UIntImm::make(t, a + b);
    case IRNodeType::Sub:
        return UIntImm::make(t, a - b);
    case IRNodeType::Mul:
        return UIntImm::make(t, a * b);
    case IRNodeType::Div:
        return UIntImm::make(t, b == 0 ? 0 : a / b);
    case IRNodeType::Mod:
        return UIntImm::make(t, b == 0 ? 0 : a % b);
    case IRNodeType::Min:
        return UIntImm::make(t, a < b ? a : b);
    case IRNodeType::Max:
        return UIntImm::make(t, a > b ? a : b);
    case IRNodeType::And:
        return make_bool(a && b);
    case IRNodeType::Or:
        return make_bool(a || b);
    default:
        return fold_comparison(op, a, b);
    }
}

// F is float or double: the precision the type computes in.
template <typename F> Expr fold_float(IRNodeType op, Type t, F a, F b) {
    switch (op) {
    case IRNodeType::Add:
        return FloatImm::make(t, double(F(a + b)));
    case IRNodeType::Sub:
        return FloatImm::make(t, double(F(a - b)));
    case IRNodeType::Mul:
        return FloatImm::make(t, double(F(a * b)));
    case IRNodeType::Div:
        return FloatImm::make(t, double(F(a / b)));
    case IRNodeType::Mod: {
        F q = std::floor(F(a / b));
        return FloatImm::make(t, double(F(a - F(b * q))));
    }
    case IRNodeType::Min:
        return FloatImm::make(t, double(a < b ? a : b));
    case IRNodeType::Max:
        return FloatImm::make(t, double(a > b ? a : b));
    default:
        return fold_comparison(op, a, b);
    }
}

} // namespace

Expr fold_binary(IRNodeType op, const Expr &a, const Expr &b) {
    if (a.node_type() != b.node_type()) return Expr();
    Type t = a.type();
    if (auto *ia = a.as<IntImm>()) return fold_int(op, t, ia->value, b.as<IntImm>()->value);
    if (auto *ua = a.as<UIntImm>()) return fold_uint(op, t, ua->value, b.as<UIntImm>()->value);
    if (auto *fa = a.as<FloatImm>()) {
        double fb = b.as<FloatImm>()->value;
        if (t.bits == 64) return fold_float<double>(op, t, fa->value, fb);
        if (t.bits == 32) return fold_float<float>(op, t, float(fa->value), float(fb));
    }
    return Expr();
}

Expr fold_not(const Expr &a) {
    if (auto *u = a.as<UIntImm>()) return make_bool(u->value == 0);
    return Expr();
}

Expr fold_select(const Expr &c, const Expr &t, const Expr &f) {
    if (auto *u = c.as<UIntImm>()) return u->value ? t : f;
    return Expr();
}

Expr fold_cast(Type t, const Expr &a) {
    if (!t.is_scalar() || !IRMatch::is_scalar_constant(a)) return Expr();
    if (t.is_bool()) return make_bool(!is_const_zero(a));
    if (auto *i = a.as<IntImm>()) {
        if (t.is_int()) return IntImm::make(t, i->value);
        if (t.is_uint()) return UIntImm::make(t, uint64_t(i->value));
        if (t.bits == 32) return FloatImm::make(t, double(float(i->value)));
        if (t.bits == 64) return FloatImm::make(t, double(i->value));
        return Expr();
    }
    if (auto *u = a.as<UIntImm>()) {
        if (t.is_int()) return IntImm::make(t, int64_t(u->value));
        if (t.is_uint()) return UIntImm::make(t, u->value);
        if (t.bits == 32) return FloatImm::make(t, double(float(u->value)));
        if (t.bits == 64) return FloatImm::make(t, double(u->value));
        return Expr();
    }
    double v = a.as<FloatImm>()->value;
    if (t.is_float()) {
        if (t.bits == 32) return FloatImm::make(t, double(float(v)));
        if (t.bits == 64) return FloatImm::make(t, v);
        return Expr();
    }
    // Float to integer truncates; out-of-range values are undefined, so leave them.
    double tv = std::trunc(v);
    if (!(tv > -9.3e18 && tv < 9.2e18)) return Expr();
    if (t.is_int()) {
        int64_t iv = int64_t(tv);
        if (iv < t.min_int() || iv > t.max_int()) return Expr();
        return IntImm::make(t, iv);
    }
    if (t.is_uint()) {
        if (tv < 0 || uint64_t(tv) > t.max_uint()) return Expr();
        return UIntImm::make(t, uint64_t(tv));
    }
    return Expr();
}

Expr make_binary(IRNodeType op, const Expr &a, const Expr &b) {
    switch (op) {
    case IRNodeType::Add:
        return Add::make(a, b);
    case IRNodeType::Sub:
        return Sub::make(a, b);
    case IRNodeType::Mul:
        return Mul::make(a, b);
    case IRNodeType::Div:
        return Div::make(a, b);
    case IRNodeType::Mod:
        return Mod::make(a, b);
    case IRNodeType::Min:
        return Min::make(a, b);
    case IRNodeType::Max:
        return Max::make(a, b);
    case IRNodeType::EQ:
        return EQ::make(a, b);
    case IRNodeType::NE:
        return NE::make(a, b);
    case IRNodeType::LT:
        return LT::make(a, b);
    case IRNodeType::LE:
        return LE::make(a, b);
    case IRNodeType::GT:
        return GT::make(a, b);
    case IRNodeType::GE:
        return GE::make(a, b);
    case IRNodeType::And:
        return And::make(a, b);
    case IRNodeType::Or:
        return Or::make(a, b);
    default:
        internal_error("make_binary of a non-binary node kind");
    }
}

} // namespace Internal
} // namespace loom
