// Vectorizable float32 approximations of loom/IROperator.h: fast_exp,
// fast_log, fast_pow, fast_sin, fast_cos and erf. Each is plain IR
// (multiplies, adds, selects, integer bit tricks), so every backend
// computes it lane-parallel instead of calling libm once per lane. Integer
// conversions truncate (SSE2's cvttps2dq); no rounding instruction is needed.

#include <cmath>

#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IROperator.h"
#include "loom/IROperator.h"

namespace loom {

using namespace Internal;

namespace {

Expr float32_argument(const Expr &x, const char *fn) {
    if (!x.defined()) user_error("Argument of " << fn << " is an undefined Expr");
    if (x.type().element_of() != Float(32))
        user_error(fn << " needs a float32 argument, not " << type_to_string(x.type()));
    return x;
}

Expr f32(const Expr &like, double v) {
    return make_const(like.type(), v);
}

/** floor(v) as Int(32), for |v| < 2^31. */
Expr floor_to_int(const Expr &v) {
    Type it = Int(32, v.type().lanes);
    Expr t = Cast::make(it, v); // toward zero
    return Select::make(GT::make(Cast::make(v.type(), t), v), t - 1, t);
}

/** c[0] + x * (c[1] + x * (c[2] + ...)). */
Expr horner(const Expr &x, const std::vector<double> &c) {
    Expr r = f32(x, c.back());
    for (size_t i = c.size() - 1; i-- > 0;) r = r * x + f32(x, c[i]);
    return r;
}

/** exp(x) for x clamped to [-87, 88] (normal results): x = k ln 2 + r with
 * |r| <= ln 2 / 2, exp(r) by its Taylor series to the given degree, and
 * 2^k built from the exponent bits. */
Expr exp_approx(Expr x, int degree) {
    x = Min::make(Max::make(x, f32(x, -87.0)), f32(x, 88.0));
    Expr k = floor_to_int(x * f32(x, 1.4426950408889634) + f32(x, 0.5));
    Expr kf = Cast::make(x.type(), k);
    // ln 2 in two parts, the first exact in a few bits, so k * ln2_hi is exact.
    Expr r = (x - kf * f32(x, 0.693145751953125)) - kf * f32(x, 1.4286068203094172e-06);
    std::vector<double> c{1.0};
    double factorial = 1.0;
    for (int i = 1; i <= degree; i++) c.push_back(1.0 / (factorial *= i));
    Expr p = horner(r, c);
    Type it = k.type();
    Expr bits =
        Call::make(it, Intrinsic::shift_left, {k + 127, make_const(it, 23)}, Call::PureIntrinsic);
    return p * Reinterpret::make(x.type(), bits);
}

/** log(x) for normal x > 0: x = m 2^e with m in [sqrt(1/2), sqrt(2)),
 * log(m) = 2 atanh(s) with s = (m - 1) / (m + 1), |s| < 0.172. */
Expr log_approx(const Expr &x, int terms) {
    Type it = Int(32, x.type().lanes);
    Expr bits = Reinterpret::make(it, x);
    Expr e =
        Call::make(it, Intrinsic::shift_right, {bits, make_const(it, 23)}, Call::PureIntrinsic) -
        127;
    Expr mantissa = (bits & make_const(it, 0x7FFFFF)) | make_const(it, 0x3F800000);
    Expr m = Reinterpret::make(x.type(), mantissa);
    Expr big = GT::make(m, f32(x, 1.4142135623730951));
    m = Select::make(big, m * f32(x, 0.5), m);
    e = Select::make(big, e + 1, e);
    Expr s = (m - f32(x, 1.0)) / (m + f32(x, 1.0));
    Expr z = s * s;
    std::vector<double> c;
    for (int i = 0; i < terms; i++) c.push_back(2.0 / (2 * i + 1));
    return Cast::make(x.type(), e) * f32(x, 0.6931471805599453) + s * horner(z, c);
}

} // namespace

Expr fast_exp(Expr x) {
    x = float32_argument(x, "fast_exp");
    // Below the smallest normal result, zero (exp_approx stops at e^-87).
    return Select::make(LT::make(x, f32(x, -87.0)), f32(x, 0.0), exp_approx(x, 5));
}

Expr fast_log(Expr x) {
    x = float32_argument(x, "fast_log");
    return log_approx(x, 4);
}

Expr fast_pow(Expr x, Expr y) {
    x = float32_argument(x, "fast_pow");
    if (!y.defined()) user_error("Argument of fast_pow is an undefined Expr");
    if (y.type().is_handle()) user_error("fast_pow cannot raise to " << type_to_string(y.type()));
    y = cast(x.type(), y);
    Expr zero = f32(x, 0.0);
    return Select::make(EQ::make(x, zero), zero, exp_approx(log_approx(x, 4) * y, 5));
}

namespace {

/** sin(x) (cosine: with the quadrant moved by one): x = k pi/2 + r with
 * |r| <= pi/4, then the Taylor series of sin r or cos r by quadrant. */
Expr sin_cos(const Expr &x, bool cosine) {
    Expr k = floor_to_int(x * f32(x, 0.6366197723675814) + f32(x, 0.5));
    Expr kf = Cast::make(x.type(), k);
    // pi/2 in three parts (Cody and Waite): k times each of the first two is
    // exact for |k| < 2^12, so the reduction stays accurate for |x| < 1e4.
    Expr r = ((x - kf * f32(x, 1.5703125)) - kf * f32(x, 0.0004838705062866211)) -
             kf * f32(x, -4.371138828673793e-08);
    Expr r2 = r * r;
    Expr sin_r = r * horner(r2, {1.0, -1.0 / 6, 1.0 / 120, -1.0 / 5040, 1.0 / 362880});
    Expr cos_r = horner(r2, {1.0, -0.5, 1.0 / 24, -1.0 / 720, 1.0 / 40320, -1.0 / 3628800});
    Expr q = (cosine ? k + 1 : k) & make_const(k.type(), 3);
    Expr use_cos = EQ::make(q & make_const(k.type(), 1), make_const(k.type(), 1));
    Expr negate = GE::make(q, make_const(k.type(), 2));
    Expr v = Select::make(use_cos, cos_r, sin_r);
    return Select::make(negate, f32(x, 0.0) - v, v);
}

} // namespace

Expr fast_sin(const Expr &x) {
    return sin_cos(float32_argument(x, "fast_sin"), false);
}

Expr fast_cos(const Expr &x) {
    return sin_cos(float32_argument(x, "fast_cos"), true);
}

Expr erf(const Expr &x) {
    float32_argument(x, "erf");
    Expr a = abs(x);
    // |x| < 1: the Taylor series 2/sqrt(pi) sum (-1)^n x^(2n+1) / (n! (2n+1)).
    std::vector<double> c;
    double factorial = 1.0;
    for (int n = 0; n <= 11; n++) {
        if (n > 0) factorial *= n;
        c.push_back((n % 2 ? -1.0 : 1.0) * 1.1283791670955126 / (factorial * (2 * n + 1)));
    }
    Expr small = x * horner(x * x, c);
    // |x| >= 1: Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7).
    Expr t = f32(x, 1.0) / (f32(x, 1.0) + f32(x, 0.3275911) * a);
    Expr poly = t * horner(t, {0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429});
    Expr large = f32(x, 1.0) - poly * exp_approx(f32(x, 0.0) - a * a, 7);
    large = Select::make(LT::make(x, f32(x, 0.0)), f32(x, 0.0) - large, large);
    return Select::make(LT::make(a, f32(x, 1.0)), small, large);
}

} // namespace loom
