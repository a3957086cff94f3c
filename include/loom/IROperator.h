#ifndef LOOM_IR_OPERATOR_PUBLIC_H
#define LOOM_IR_OPERATOR_PUBLIC_H

/** \file User-facing expression operators with Halide's type-coercion rules.
 *
 * Two Exprs of different types are matched before combining:
 *  - a float and a non-float: the non-float becomes the float type;
 *  - two floats: the narrower widens;
 *  - two unsigned ints (or two signed ints): the narrower widens;
 *  - a signed and an unsigned int: both become signed of the larger width.
 * A C++ number combined with an Expr adopts the Expr's type when the Expr is
 * an integer and the number is integral (it must fit: `u8 + 300` is a
 * CompileError), or when the Expr is a float. An integer Expr combined with a
 * floating number becomes Float(32), for float and double alike.
 * Handles never mix with numbers, and bools take no arithmetic. */

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "loom/Expr.h"
#include "loom/Target.h"
#include "loom/Tuple.h"

namespace loom {

class FuncRef;

namespace Internal {

/** The constant `v` in the type it adopts next to an Expr of type `t`
 * (see the file comment); `op` names the operator for errors. */
Expr scalar_operand(Type t, int64_t v, const char *op);
Expr scalar_operand_unsigned(Type t, uint64_t v, const char *op);
Expr scalar_operand_float(Type t, double v, const char *op);

template <typename T> Expr scalar_like(const Expr &e, T v, const char *op) {
    static_assert(std::is_arithmetic_v<T>);
    if constexpr (std::is_same_v<T, bool>) {
        return Expr(v);
    } else if constexpr (std::is_floating_point_v<T>) {
        return scalar_operand_float(e.type(), double(v), op);
    } else if constexpr (std::is_unsigned_v<T>) {
        return scalar_operand_unsigned(e.type(), uint64_t(v), op);
    } else {
        return scalar_operand(e.type(), int64_t(v), op);
    }
}

/** Convert a and b to a common type by the rules above; throws naming op. */
void match_types(Expr &a, Expr &b, const char *op);

/** Start random_float()'s call-site and definition counters again, so the
 * same program draws the same numbers (as Halide's). */
void reset_random_counters();

template <typename T> using EnableIfArithmetic = std::enable_if_t<std::is_arithmetic_v<T>, int>;

} // namespace Internal

Expr operator+(Expr a, Expr b);
Expr operator-(Expr a, Expr b);
Expr operator*(Expr a, Expr b);
/** Integer division rounds toward negative infinity for positive divisors
 * (Euclidean: the remainder is never negative); dividing by zero gives zero. */
Expr operator/(Expr a, Expr b);
/** Euclidean remainder for ints (never negative); a - b * floor(a / b) for floats. */
Expr operator%(Expr a, Expr b);
Expr operator<(Expr a, Expr b);
Expr operator<=(Expr a, Expr b);
Expr operator>(Expr a, Expr b);
Expr operator>=(Expr a, Expr b);
Expr operator==(Expr a, Expr b);
Expr operator!=(Expr a, Expr b);
Expr operator&&(Expr a, Expr b);
Expr operator||(Expr a, Expr b);
Expr operator&(Expr a, Expr b);
Expr operator|(Expr a, Expr b);
Expr operator^(Expr a, Expr b);
/** Shifts keep the type of a; the shift amount is converted to it. */
Expr operator<<(Expr a, Expr b);
Expr operator>>(Expr a, Expr b);
Expr operator-(Expr a);
Expr operator!(Expr a);
Expr operator~(Expr a);
Expr min(Expr a, Expr b);
Expr max(Expr a, Expr b);

// Expr (op) C++ number and C++ number (op) Expr: the number adopts the
// Expr's type where it can (see the file comment).
#define LOOM_SCALAR_OPERATOR(OP, NAME)                                                             \
    template <typename T, Internal::EnableIfArithmetic<T> = 0> Expr OP(Expr a, T b) {              \
        Expr c = Internal::scalar_like(a, b, NAME);                                                \
        return OP(std::move(a), std::move(c));                                                     \
    }                                                                                              \
    template <typename T, Internal::EnableIfArithmetic<T> = 0> Expr OP(T a, Expr b) {              \
        Expr c = Internal::scalar_like(b, a, NAME);                                                \
        return OP(std::move(c), std::move(b));                                                     \
    }
LOOM_SCALAR_OPERATOR(operator+, "+")
LOOM_SCALAR_OPERATOR(operator-, "-")
LOOM_SCALAR_OPERATOR(operator*, "*")
LOOM_SCALAR_OPERATOR(operator/, "/")
LOOM_SCALAR_OPERATOR(operator%, "%")
LOOM_SCALAR_OPERATOR(operator<, "<")
LOOM_SCALAR_OPERATOR(operator<=, "<=")
LOOM_SCALAR_OPERATOR(operator>, ">")
LOOM_SCALAR_OPERATOR(operator>=, ">=")
LOOM_SCALAR_OPERATOR(operator==, "==")
LOOM_SCALAR_OPERATOR(operator!=, "!=")
LOOM_SCALAR_OPERATOR(operator&&, "&&")
LOOM_SCALAR_OPERATOR(operator||, "||")
LOOM_SCALAR_OPERATOR(operator&, "&")
LOOM_SCALAR_OPERATOR(operator|, "|")
LOOM_SCALAR_OPERATOR(operator^, "^")
LOOM_SCALAR_OPERATOR(operator<<, "<<")
LOOM_SCALAR_OPERATOR(operator>>, ">>")
LOOM_SCALAR_OPERATOR(min, "min")
LOOM_SCALAR_OPERATOR(max, "max")
#undef LOOM_SCALAR_OPERATOR

/** min/max of three or more values. */
template <typename A, typename B, typename C, typename... Rest>
Expr min(A &&a, B &&b, C &&c, Rest &&...rest) {
    return min(Expr(min(std::forward<A>(a), std::forward<B>(b))), std::forward<C>(c),
               std::forward<Rest>(rest)...);
}
template <typename A, typename B, typename C, typename... Rest>
Expr max(A &&a, B &&b, C &&c, Rest &&...rest) {
    return max(Expr(max(std::forward<A>(a), std::forward<B>(b))), std::forward<C>(c),
               std::forward<Rest>(rest)...);
}

/** Value conversion: float->int truncates, narrowing ints wrap, x->bool is x != 0. */
Expr cast(Type t, Expr e);
template <typename T> Expr cast(Expr e) {
    return cast(type_of<T>(), std::move(e));
}
/** Reinterpret the bits of e as type t (equal total width). */
Expr reinterpret(Type t, Expr e);
template <typename T> Expr reinterpret(Expr e) {
    return reinterpret(type_of<T>(), std::move(e));
}

/** condition ? t : f. A constant arm adopts the type of the other arm. */
Expr select(Expr condition, Expr true_value, Expr false_value);
/** select(c0, v0, c1, v1, ..., default): the value of the first true
 * condition. `args` alternates conditions and values and ends with the
 * default; literal values adopt the type of the non-literal ones. */
Expr select_chain(const std::vector<Expr> &args);
template <typename... Rest> Expr select(Expr c0, Expr v0, Expr c1, Expr v1, const Rest &...rest) {
    static_assert(sizeof...(Rest) % 2 == 1,
                  "select(c0, v0, c1, v1, ..., default) needs a default value");
    return select_chain(std::vector<Expr>{std::move(c0), std::move(v0), std::move(c1),
                                          std::move(v1), Expr(rest)...});
}

Expr clamp(Expr a, Expr min_value, Expr max_value);
/** |a|; the result of an integer is the unsigned type of the same width. */
Expr abs(Expr a);
/** |a - b| without overflow; unsigned for integers. */
Expr absd(Expr a, Expr b);

// Math on floats. Integer arguments are converted to Float(32) first.
Expr sqrt(Expr x);
Expr exp(Expr x);
Expr log(Expr x);
Expr pow(Expr x, Expr y);
Expr sin(Expr x);
Expr cos(Expr x);
Expr tan(Expr x);
Expr asin(Expr x);
Expr acos(Expr x);
Expr atan(Expr x);
Expr atan2(Expr y, Expr x);
Expr sinh(Expr x);
Expr cosh(Expr x);
Expr tanh(Expr x);
Expr floor(Expr x);
Expr ceil(Expr x);
/** Round to nearest, ties to even. */
Expr round(Expr x);
Expr trunc(Expr x);
/** Fast approximations; Float(32) only. */
Expr fast_inverse(Expr x);
Expr fast_inverse_sqrt(Expr x);
Expr fast_exp(Expr x);
Expr fast_log(Expr x);
Expr fast_pow(Expr x, Expr y);
/** Classification of floats; Bool results. */
Expr is_nan(Expr x);
Expr is_inf(Expr x);
Expr is_finite(Expr x);

/** zero + (one - zero) * weight. Float types interpolate directly (weight
 * converted to the type); integer types (up to 32 bits) treat a float weight
 * clamped to [0, 1], or an unsigned weight as a fraction of its maximum, and
 * round the result to nearest. */
Expr lerp(Expr zero, Expr one, Expr weight);
/** values[index], or the last value when index is out of range (negative
 * included), as in Halide. */
Expr mux(Expr index, const std::vector<Expr> &values);

/** Bit counts of an integer, in its own type; zero has as many leading
 * (or trailing) zeros as the type has bits. */
Expr count_leading_zeros(Expr x);
Expr count_trailing_zeros(Expr x);
Expr popcount(Expr x);
/** Hint that a condition is usually true (used by loop partitioning). */
Expr likely(Expr e);
/** likely(), but it partitions only the innermost loop around it. */
Expr likely_if_innermost(Expr e);
/** C-style integer division and remainder (rounding toward zero). */
Expr div_round_to_zero(Expr a, Expr b);
Expr mod_round_to_zero(Expr a, Expr b);

// ---- More float math (Math.cpp, MathApprox.cpp) ----
/** Inverse hyperbolic functions; integers are converted to Float(32). */
Expr asinh(Expr x);
Expr acosh(Expr x);
Expr atanh(Expr x);
/** sqrt(x * x + y * y); integers are converted to Float(32). */
Expr hypot(const Expr &x, const Expr &y);
/** x - trunc(x): the fractional part, with the sign of x. */
Expr fract(const Expr &x);
/** a * b + c rounded once (floats of one type; integers become Float(32)). */
Expr fma(const Expr &a, const Expr &b, const Expr &c);
/** The error function, for Float(32); vectorizes (a polynomial, accurate
 * to a few units in the last place). */
Expr erf(const Expr &x);
/** Vectorizable polynomial approximations for Float(32): sine and cosine
 * (absolute error below 1e-5 for |x| < 1e4), exp and log (relative error
 * about 2^-19; log of x <= 0 and exp beyond +-87 are not meaningful), and
 * pow(x, y) = exp(y log x) (0 for x == 0, meaningless for x < 0). */
Expr fast_sin(const Expr &x);
Expr fast_cos(const Expr &x);

// ---- Fixed-point arithmetic (FixedPoint.cpp) ----
// Halide's names and semantics, defined with the non-existent operators
// widen (twice the bits, same signedness) and narrow (half the bits).
// Operands are matched like a + b (Internal::match_types) unless noted.
// Widening takes integers of up to 32 bits (and floats of 16 or 32).

/** e converted to t, clamped to t's range first (floats: truncated toward
 * zero, like cast). */
Expr saturating_cast(Type t, Expr e);
template <typename T> Expr saturating_cast(Expr e) {
    return saturating_cast(type_of<T>(), std::move(e));
}
/** narrow(clamp(widen(a) + widen(b))) without widening: saturating add
 * (and sub) of integers; plain + (-) on floats. */
Expr saturating_add(Expr a, Expr b);
Expr saturating_sub(Expr a, Expr b);
/** widen(a) + widen(b), widen(a) - widen(b) (always signed) and
 * widen(a) * widen(b) (operands of one width; signed if either is). */
Expr widening_add(Expr a, Expr b);
Expr widening_sub(Expr a, Expr b);
Expr widening_mul(Expr a, Expr b);
/** widen(a) << b and widen(a) >> b. A negative (signed) b shifts the other
 * way; the int overloads take b as an unsigned constant of a's width. */
Expr widening_shift_left(Expr a, Expr b);
Expr widening_shift_left(Expr a, int b);
Expr widening_shift_right(Expr a, Expr b);
Expr widening_shift_right(Expr a, int b);
/** a + widen(b), a - widen(b), a * widen(b), with a of twice b's width. */
Expr widen_right_add(Expr a, Expr b);
Expr widen_right_sub(Expr a, Expr b);
Expr widen_right_mul(Expr a, Expr b);
/** narrow((widen(a) + widen(b)) / 2), narrow((widen(a) + widen(b) + 1) / 2)
 * and narrow((widen(a) - widen(b)) / 2), rounding down (unsigned halving_sub
 * wraps when b > a). */
Expr halving_add(Expr a, Expr b);
Expr rounding_halving_add(Expr a, Expr b);
Expr halving_sub(Expr a, Expr b);
/** a >> b rounded to nearest (halves up), and a << b rounding when a
 * negative b shifts right; the shift that widens a keeps a's type and
 * wraps. b matches a's width; the int overloads take an unsigned constant. */
Expr rounding_shift_right(Expr a, Expr b);
Expr rounding_shift_right(Expr a, int b);
Expr rounding_shift_left(Expr a, Expr b);
Expr rounding_shift_left(Expr a, int b);
/** saturating narrow of widening_mul(a, b) >> q (q unsigned), and of
 * rounding_shift_right(widening_mul(a, b), q). */
Expr mul_shift_right(Expr a, Expr b, Expr q);
Expr mul_shift_right(Expr a, Expr b, int q);
Expr rounding_mul_shift_right(Expr a, Expr b, Expr q);
Expr rounding_mul_shift_right(Expr a, Expr b, int q);

// ---- Bits (FixedPoint.cpp) ----
/** The bits of e from bit lsb (0 is the least significant) up, as type t;
 * bits beyond e's width (or below bit 0) read as zeros. */
Expr extract_bits(Type t, const Expr &e, const Expr &lsb);
template <typename T> Expr extract_bits(const Expr &e, const Expr &lsb) {
    return extract_bits(type_of<T>(), e, lsb);
}
/** Integers of one type joined into one of the same signedness and
 * size() times the bits (a power of two), the first least significant. */
Expr concat_bits(const std::vector<Expr> &e);

// ---- Tuples, FuncRefs and select/mux (IROperatorTuple.cpp) ----
Tuple select(const Tuple &condition, const Tuple &true_value, const Tuple &false_value);
Tuple select(const Expr &condition, const Tuple &true_value, const Tuple &false_value);
template <typename... Args>
Tuple select(const Tuple &c0, const Tuple &v0, const Tuple &c1, const Tuple &v1,
             const Args &...rest) {
    return select(c0, v0, select(c1, v1, rest...));
}
template <typename... Args>
Tuple select(const Expr &c0, const Tuple &v0, const Expr &c1, const Tuple &v1,
             const Args &...rest) {
    return select(c0, v0, select(c1, v1, rest...));
}
/** Halide 14's name for select() over Tuples (deprecated there since). */
inline Tuple tuple_select(const Tuple &condition, const Tuple &true_value,
                          const Tuple &false_value) {
    return select(condition, true_value, false_value);
}
inline Tuple tuple_select(const Expr &condition, const Tuple &true_value,
                          const Tuple &false_value) {
    return select(condition, true_value, false_value);
}
template <typename... Args>
Tuple tuple_select(const Tuple &c0, const Tuple &v0, const Tuple &c1, const Tuple &v1,
                   const Args &...rest) {
    return select(c0, v0, select(c1, v1, rest...));
}
template <typename... Args>
Tuple tuple_select(const Expr &c0, const Tuple &v0, const Expr &c1, const Tuple &v1,
                   const Args &...rest) {
    return select(c0, v0, select(c1, v1, rest...));
}
/** Select of two Func calls (single-valued Funcs); Tuple-valued ones go
 * through Tuple(f(x)). */
Expr select(const Expr &condition, const FuncRef &true_value, const FuncRef &false_value);
template <typename... Args>
Expr select(const Expr &c0, const FuncRef &v0, const Expr &c1, const FuncRef &v1,
            const Args &...rest) {
    return select(c0, v0, select(c1, v1, rest...));
}
Expr mux(const Expr &index, const std::initializer_list<Expr> &values);
Expr mux(const Expr &index, const Tuple &values);
Expr mux(const Expr &index, const std::initializer_list<FuncRef> &values);
Tuple mux(const Expr &index, const std::initializer_list<Tuple> &values);
Tuple mux(const Expr &index, const std::vector<Tuple> &values);

// ---- Several stores at once (ScatterGather.cpp) ----
/** In an update definition, scatter on the left-hand side and gather on the
 * right write several elements at once: f(scatter(3, 5)) = f(gather(5, 3))
 * swaps two elements. Every value is computed before the first store; the
 * stores go left to right. Operations on them act element by element, and
 * all scatters and gathers of one update have one size. */
Expr scatter(const std::vector<Expr> &args);
Expr gather(const std::vector<Expr> &args);
template <typename... Args> Expr scatter(const Expr &e, const Args &...rest) {
    return scatter(std::vector<Expr>{e, Expr(rest)...});
}
template <typename... Args> Expr gather(const Expr &e, const Args &...rest) {
    return gather(std::vector<Expr>{e, Expr(rest)...});
}

// ---- Random numbers (Random.cpp) ----
/** Uniform in [0, 1) (Float(32)), over all UInt(32), and over all Int(32).
 * A pure function of the seed (Int(32); UInt(32) also for the integer
 * ones), the pure Vars (and RVars) of the Func definition it is used in and
 * the call site: two calls give independent values, one call used twice
 * gives one value. Deterministic from run to run and across backends. */
Expr random_float(Expr seed = Expr());
Expr random_uint(Expr seed = Expr());
Expr random_int(Expr seed = Expr());

// ---- Promises, requirements and compiler hints (IROperatorHints.cpp) ----
/** Evaluate e with IEEE semantics: no fused multiply-adds in it (LLVM and
 * OpenCL; the C backend honours the strict_float target feature only). */
Expr strict_float(Expr e);
/** value, with the promise that it lies in [min, max]: bounds inference
 * relies on it, nothing checks it. */
Expr unsafe_promise_clamped(const Expr &value, const Expr &min, const Expr &max);
/** value, where the compiler has proved it lies in [min, max]. */
Expr promise_clamped(const Expr &value, const Expr &min, const Expr &max);
/** The value of an expression that is never used (e.g. the impossible arm
 * of a select). Loom computes it as zero; selects and branches that lead
 * to it are dropped. */
Expr unreachable(Type t = Int(32));
template <typename T> Expr unreachable() {
    return unreachable(type_of<T>());
}

// ---- The compile target, as constants of the lowering (TargetQueries.cpp) ----
/** Bool: is the target this architecture / OS / has it this feature? */
Expr target_arch_is(Target::Arch arch);
Expr target_os_is(Target::OS os);
Expr target_has_feature(Target::Feature feature);
/** Int(32): the target's pointer width in bits. */
Expr target_bits();
/** Int(32): lanes of t in one of the target's native vector registers. */
Expr target_natural_vector_size(Type t);
template <typename T> Expr target_natural_vector_size() {
    return target_natural_vector_size(type_of<T>());
}

/** An argument of print(): an Expr or a string. */
struct PrintArg {
    Expr e;
    template <typename T, typename = std::enable_if_t<std::is_convertible_v<T, Expr>>>
    PrintArg(const T &v) : e(Expr(v)) {}
    PrintArg(const char *s);
    PrintArg(const std::string &s);
};
/** Evaluates to the first argument and prints all arguments when evaluated. */
Expr print(const std::vector<PrintArg> &args);
template <typename... Args> Expr print(const PrintArg &first, const Args &...rest) {
    return print(std::vector<PrintArg>{first, PrintArg(rest)...});
}
/** print(args) only when condition is true; otherwise just the first argument. */
Expr print_when(Expr condition, const std::vector<PrintArg> &args);
template <typename... Args>
Expr print_when(Expr condition, const PrintArg &first, const Args &...rest) {
    return print_when(std::move(condition), std::vector<PrintArg>{first, PrintArg(rest)...});
}
/** print and print_when of a std::vector<Expr> built at run time (Halide's
 * form). A template so that a braced list still means vector<PrintArg>. */
template <typename V, typename = std::enable_if_t<std::is_same_v<V, std::vector<Expr>>>>
Expr print(const V &values) {
    return print(std::vector<PrintArg>(values.begin(), values.end()));
}
template <typename V, typename = std::enable_if_t<std::is_same_v<V, std::vector<Expr>>>>
Expr print_when(Expr condition, const V &values) {
    return print_when(std::move(condition), std::vector<PrintArg>(values.begin(), values.end()));
}

namespace Internal {
// Halide declares these in Halide::Internal.
using loom::promise_clamped;
using loom::unreachable;
} // namespace Internal

/** value, if condition holds (in every vector lane); otherwise the pipeline
 * stops with "Requirement failed: <condition>" and the message (strings and
 * values, printed as by print()). values holds the value, then the message. */
Expr require(Expr condition, const std::vector<Expr> &values);
template <typename... Args> Expr require(Expr condition, Expr value, const Args &...message) {
    return require(std::move(condition),
                   std::vector<Expr>{std::move(value), PrintArg(message).e...});
}

} // namespace loom

#endif
