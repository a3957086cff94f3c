#ifndef LOOM_TUPLE_H
#define LOOM_TUPLE_H

/** \file Tuple: several values computed together by one Func definition
 * (each element gets its own output buffer). */

#include <type_traits>
#include <utility>
#include <vector>

#include "loom/Error.h"
#include "loom/Expr.h"

namespace loom {

class Tuple;

namespace Internal {
/** Does E convert to a Tuple by a member operator (a FuncRef does)? */
template <typename E, typename = void> struct has_tuple_conversion : std::false_type {};
template <typename E>
struct has_tuple_conversion<E, std::void_t<decltype(std::declval<const E &>().operator Tuple())>>
    : std::true_type {};
template <typename E> inline constexpr bool has_tuple_conversion_v = has_tuple_conversion<E>::value;
} // namespace Internal

class Tuple {
    std::vector<Expr> exprs_;

public:
    explicit Tuple(std::vector<Expr> exprs) : exprs_(std::move(exprs)) {
        if (exprs_.empty()) throw CompileError("A Tuple needs at least one element");
    }
    template <typename... Args,
              typename = std::enable_if_t<(std::is_convertible_v<Args, Expr> && ...)>>
    Tuple(const Expr &a, const Expr &b, const Args &...rest) : exprs_{a, b, Expr(rest)...} {}
    /** A Tuple of one element (Halide's explicit Tuple(Expr)). Only for
     * values that are not already Tuple-like, so Tuple(f(x)) of a
     * multi-valued Func still copies all its elements. */
    template <typename E,
              typename = std::enable_if_t<std::is_convertible_v<E, Expr> &&
                                          !std::is_convertible_v<E, std::vector<Expr>> &&
                                          !Internal::has_tuple_conversion_v<E>>>
    explicit Tuple(const E &e) : exprs_{Expr(e)} {}

    size_t size() const { return exprs_.size(); }
    Expr &operator[](size_t i) { return exprs_.at(i); }
    const Expr &operator[](size_t i) const { return exprs_.at(i); }
    const std::vector<Expr> &as_vector() const { return exprs_; }
};

} // namespace loom

#endif
