#ifndef LOOM_TUPLE_H
#define LOOM_TUPLE_H

/** \file Tuple: several values computed together by one Func definition
 * (each element gets its own output buffer). */

#include <type_traits>
#include <vector>

#include "loom/Error.h"
#include "loom/Expr.h"

namespace loom {

class Tuple {
    std::vector<Expr> exprs_;

public:
    explicit Tuple(std::vector<Expr> exprs) : exprs_(std::move(exprs)) {
        if (exprs_.empty()) throw CompileError("A Tuple needs at least one element");
    }
    template <typename... Args,
              typename = std::enable_if_t<(std::is_convertible_v<Args, Expr> && ...)>>
    Tuple(const Expr &a, const Expr &b, const Args &...rest) : exprs_{a, b, Expr(rest)...} {}

    size_t size() const { return exprs_.size(); }
    Expr &operator[](size_t i) { return exprs_.at(i); }
    const Expr &operator[](size_t i) const { return exprs_.at(i); }
    const std::vector<Expr> &as_vector() const { return exprs_; }
};

} // namespace loom

#endif
