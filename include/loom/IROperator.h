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

namespace loom {
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
/** values[clamp(index, 0, n - 1)]. */
Expr mux(Expr index, const std::vector<Expr> &values);

Expr count_leading_zeros(Expr x);
Expr count_trailing_zeros(Expr x);
Expr popcount(Expr x);
/** Hint that a condition is usually true (used by loop partitioning). */
Expr likely(Expr e);
/** C-style integer division and remainder (rounding toward zero). */
Expr div_round_to_zero(Expr a, Expr b);
Expr mod_round_to_zero(Expr a, Expr b);

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

} // namespace loom

#endif
