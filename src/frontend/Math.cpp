// Math functions, lerp, mux, bit counting and print() of loom/IROperator.h.

#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IROperator.h"
#include "loom/IROperator.h"

namespace loom {

using namespace Internal;

namespace {

void check_defined(const Expr &e, const char *fn) {
    if (!e.defined()) user_error("Argument of " << fn << " is an undefined Expr");
}

/** Integer arguments of float math become Float(32), as in Halide. */
Expr to_float(Expr x, const char *fn) {
    check_defined(x, fn);
    Type t = x.type();
    if (t.is_handle()) user_error(fn << " cannot apply to " << type_to_string(t));
    if (t.is_float()) return x; // 16-bit floats compute in float32 (EmulateFloat16Math)
    return cast(Float(32, t.lanes), x);
}

std::string math_name(const char *fn, Type t) {
    return std::string(fn) + (t.bits == 64 ? "_f64" : t.bits == 16 ? "_f16" : "_f32");
}

Expr unary_math(const char *fn, Expr x) {
    x = to_float(std::move(x), fn);
    return Call::make(x.type(), math_name(fn, x.type()), {x}, Call::PureExtern);
}

Expr binary_math(const char *fn, Expr x, Expr y) {
    x = to_float(std::move(x), fn);
    check_defined(y, fn);
    if (y.type().is_handle()) user_error(fn << " cannot apply to " << type_to_string(y.type()));
    y = cast(x.type(), y);
    return Call::make(x.type(), math_name(fn, x.type()), {x, y}, Call::PureExtern);
}

Expr float32_only(const char *fn, Expr x) {
    check_defined(x, fn);
    if (x.type().element_of() != Float(32))
        user_error(fn << " needs a float32 argument, not " << type_to_string(x.type()));
    return Call::make(x.type(), std::string(fn) + "_f32", {x}, Call::PureExtern);
}

Expr classify(const char *fn, Expr x) {
    check_defined(x, fn);
    if (!x.type().is_float())
        user_error(fn << " needs a float argument, not " << type_to_string(x.type()));
    return Call::make(Bool(x.type().lanes), math_name(fn, x.type()), {x}, Call::PureExtern);
}

} // namespace

Expr sqrt(Expr x) {
    return unary_math("sqrt", std::move(x));
}
Expr exp(Expr x) {
    return unary_math("exp", std::move(x));
}
Expr log(Expr x) {
    return unary_math("log", std::move(x));
}
Expr pow(Expr x, Expr y) {
    return binary_math("pow", std::move(x), std::move(y));
}
Expr sin(Expr x) {
    return unary_math("sin", std::move(x));
}
Expr cos(Expr x) {
    return unary_math("cos", std::move(x));
}
Expr tan(Expr x) {
    return unary_math("tan", std::move(x));
}
Expr asin(Expr x) {
    return unary_math("asin", std::move(x));
}
Expr acos(Expr x) {
    return unary_math("acos", std::move(x));
}
Expr atan(Expr x) {
    return unary_math("atan", std::move(x));
}
Expr atan2(Expr y, Expr x) {
    return binary_math("atan2", std::move(y), std::move(x));
}
Expr sinh(Expr x) {
    return unary_math("sinh", std::move(x));
}
Expr cosh(Expr x) {
    return unary_math("cosh", std::move(x));
}
Expr tanh(Expr x) {
    return unary_math("tanh", std::move(x));
}
Expr floor(Expr x) {
    return unary_math("floor", std::move(x));
}
Expr ceil(Expr x) {
    return unary_math("ceil", std::move(x));
}
Expr round(Expr x) {
    return unary_math("round", std::move(x));
}
Expr trunc(Expr x) {
    return unary_math("trunc", std::move(x));
}

Expr fast_inverse(Expr x) {
    return float32_only("fast_inverse", std::move(x));
}
Expr fast_inverse_sqrt(Expr x) {
    return float32_only("fast_inverse_sqrt", std::move(x));
}

Expr asinh(Expr x) {
    return unary_math("asinh", std::move(x));
}
Expr acosh(Expr x) {
    return unary_math("acosh", std::move(x));
}
Expr atanh(Expr x) {
    return unary_math("atanh", std::move(x));
}

Expr hypot(const Expr &x, const Expr &y) {
    Expr fx = to_float(x, "hypot");
    check_defined(y, "hypot");
    Expr fy = to_float(y, "hypot");
    match_types(fx, fy, "hypot");
    return sqrt(fx * fx + fy * fy);
}

Expr fract(const Expr &x) {
    Expr f = to_float(x, "fract");
    return f - trunc(f);
}

Expr fma(const Expr &a, const Expr &b, const Expr &c) {
    Expr fa = to_float(a, "fma");
    check_defined(b, "fma");
    check_defined(c, "fma");
    Expr fb = to_float(b, "fma"), fc = to_float(c, "fma");
    match_types(fa, fb, "fma");
    match_types(fa, fc, "fma");
    match_types(fb, fc, "fma");
    return Call::make(fa.type(), math_name("fma", fa.type()), {fa, fb, fc}, Call::PureExtern);
}

Expr is_nan(Expr x) {
    return classify("is_nan", std::move(x));
}
Expr is_inf(Expr x) {
    return classify("is_inf", std::move(x));
}
Expr is_finite(Expr x) {
    return classify("is_finite", std::move(x));
}

namespace {

/** The weight of an integer lerp as an unsigned fixed-point fraction of
 * 2^bits - 1, in UInt(bits). */
Expr quantized_weight(Expr weight, int bits, int lanes) {
    Type q = UInt(bits, lanes);
    Type w = weight.type();
    double scale = double(q.element_of().max_uint());
    if (w.is_float()) {
        Expr wf = cast(Float(64, lanes), weight);
        wf = Max::make(Min::make(wf, make_const(wf.type(), 1.0)), make_const(wf.type(), 0.0));
        return Cast::make(q, floor(wf * scale + 0.5));
    }
    if (!w.is_uint() || w.is_bool())
        user_error("lerp weight must be a float or an unsigned integer, not " << type_to_string(w));
    if (w.bits == bits) return weight;
    Expr wf = cast(Float(64, lanes), weight) * (scale / double(w.element_of().max_uint()));
    return Cast::make(q, floor(wf + 0.5));
}

} // namespace

Expr lerp(Expr zero, Expr one, Expr weight) {
    check_defined(zero, "lerp");
    check_defined(one, "lerp");
    check_defined(weight, "lerp");
    // An integer constant end takes the other end's type (Halide's rule:
    // lerp(0, u32_value, w) is a UInt(32) lerp).
    if (as_const_int(zero) && !as_const_int(one) && !one.type().is_handle())
        zero = cast(one.type(), zero);
    else if (as_const_int(one) && !as_const_int(zero) && !zero.type().is_handle())
        one = cast(zero.type(), one);
    match_types(zero, one, "lerp");
    Type t = zero.type();
    if (t.is_handle()) user_error("lerp cannot interpolate " << type_to_string(t));
    if (t.is_bool()) {
        // As in Halide: the nearer end, one_val only past the middle weight.
        Type w = weight.type();
        Expr half;
        if (w.is_float())
            half = make_const(w, 0.5);
        else if (w.is_uint() && !w.is_bool())
            half = make_const(w, w.element_of().max_uint() / 2);
        else
            user_error("lerp weight must be a float or an unsigned integer, not "
                       << type_to_string(w));
        return select(weight > half, one, zero);
    }
    if (t.is_float()) {
        Type w = weight.type();
        if (w.is_uint() && !w.is_bool()) {
            // An unsigned weight is a fraction of its type's max (as in Halide).
            Type frac = w.bits == 32 ? Float(64, w.lanes) : Float(32, w.lanes);
            weight = cast(frac, weight) / make_const(frac, double(w.element_of().max_uint()));
        } else if (!w.is_float()) {
            user_error("lerp weight must be a float or an unsigned integer, not "
                       << type_to_string(w));
        }
        weight = cast(t, weight);
        return zero * (make_one(t) - weight) + one * weight;
    }
    if (t.bits > 32)
        user_error("lerp of integers supports up to 32 bits, not " << type_to_string(t));
    int bits = t.bits, lanes = t.lanes;
    Type u = UInt(bits, lanes), wide = UInt(bits * 2, lanes);
    Expr q = quantized_weight(weight, bits, lanes);
    // Signed values map monotonically onto unsigned ones by flipping the sign bit.
    Expr sign = make_const(u, uint64_t(1) << (bits - 1));
    Expr uz = t.is_int() ? (reinterpret(u, zero) ^ sign) : zero;
    Expr uo = t.is_int() ? (reinterpret(u, one) ^ sign) : one;
    Expr m = make_const(wide, u.element_of().max_uint());
    Expr qw = Cast::make(wide, q);
    Expr sum = Cast::make(wide, uz) * (m - qw) + Cast::make(wide, uo) * qw;
    Expr result = Cast::make(u, (sum + make_const(wide, u.element_of().max_uint() / 2)) / m);
    if (t.is_int()) result = reinterpret(t, result ^ sign);
    return result;
}

Expr mux(Expr index, const std::vector<Expr> &values) {
    check_defined(index, "mux");
    if (values.empty()) user_error("mux needs at least one value");
    if (!index.type().is_int() && !index.type().is_uint())
        user_error("mux index must be an integer, not " << type_to_string(index.type()));
    // As in Halide, an index out of range (negative ones too) picks the last value.
    Expr result = values.back();
    for (size_t i = values.size() - 1; i-- > 0;)
        result = select(index == int(i), values[i], result);
    return result;
}

namespace {
Expr bit_count(Intrinsic op, const char *fn, Expr x) {
    check_defined(x, fn);
    if (!(x.type().is_int() || x.type().is_uint()) || x.type().is_bool())
        user_error(fn << " needs an integer argument, not " << type_to_string(x.type()));
    return Call::make(x.type(), op, {x}, Call::PureIntrinsic);
}

Expr round_to_zero(Intrinsic op, const char *fn, Expr a, Expr b) {
    check_defined(a, fn);
    check_defined(b, fn);
    match_types(a, b, fn);
    if (!(a.type().is_int() || a.type().is_uint()) || a.type().is_bool())
        user_error(fn << " needs integer arguments, not " << type_to_string(a.type()));
    return Call::make(a.type(), op, {a, b}, Call::PureIntrinsic);
}
} // namespace

Expr count_leading_zeros(Expr x) {
    return bit_count(Intrinsic::count_leading_zeros, "count_leading_zeros", std::move(x));
}
Expr count_trailing_zeros(Expr x) {
    return bit_count(Intrinsic::count_trailing_zeros, "count_trailing_zeros", std::move(x));
}
Expr popcount(Expr x) {
    return bit_count(Intrinsic::popcount, "popcount", std::move(x));
}

Expr likely(Expr e) {
    check_defined(e, "likely");
    return Call::make(e.type(), Intrinsic::likely, {e}, Call::PureIntrinsic);
}

Expr likely_if_innermost(Expr e) {
    check_defined(e, "likely_if_innermost");
    return Call::make(e.type(), Intrinsic::likely_if_innermost, {e}, Call::PureIntrinsic);
}

Expr div_round_to_zero(Expr a, Expr b) {
    return round_to_zero(Intrinsic::div_round_to_zero, "div_round_to_zero", std::move(a),
                         std::move(b));
}
Expr mod_round_to_zero(Expr a, Expr b) {
    return round_to_zero(Intrinsic::mod_round_to_zero, "mod_round_to_zero", std::move(a),
                         std::move(b));
}

PrintArg::PrintArg(const char *s) : e(StringImm::make(s)) {}
PrintArg::PrintArg(const std::string &s) : e(StringImm::make(s)) {}

Expr print(const std::vector<PrintArg> &args) {
    if (args.empty()) user_error("print needs at least one argument");
    std::vector<Expr> exprs;
    for (const auto &a : args) {
        if (!a.e.defined()) user_error("print of an undefined Expr");
        exprs.push_back(a.e);
    }
    // The value is that of the first argument, so print can wrap any Expr.
    return Call::make(exprs[0].type(), Intrinsic::debug_print, exprs, Call::Intrinsic);
}

Expr print_when(Expr condition, const std::vector<PrintArg> &args) {
    check_defined(condition, "print_when");
    if (!condition.type().is_bool())
        user_error("print_when condition must be bool, not " << type_to_string(condition.type()));
    Expr p = print(args);
    return Call::make(p.type(), Intrinsic::if_then_else, {condition, p, args[0].e},
                      Call::PureIntrinsic);
}

} // namespace loom
