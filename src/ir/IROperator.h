#ifndef LOOM_IR_OPERATOR_H
#define LOOM_IR_OPERATOR_H

// Internal helpers to build and query IR constants and common shapes.
// (The user-facing operators live in include/loom/IROperator.h.)

#include <cstdint>
#include <optional>

#include "ir/IR.h"

namespace loom {
namespace Internal {

/** A constant of type t (broadcast when t is a vector). Ints wrap to t's width. */
Expr make_const(Type t, int64_t v);
Expr make_const(Type t, uint64_t v);
Expr make_const(Type t, int v);
Expr make_const(Type t, double v);
Expr make_zero(Type t);
Expr make_one(Type t);
Expr make_bool(bool v, int lanes = 1);
Expr const_true(int lanes = 1);
Expr const_false(int lanes = 1);
/** Largest/smallest value of t (infinity for floats). */
Expr type_max(Type t);
Expr type_min(Type t);

/** Is e a constant (scalar immediate, or broadcast of one)? */
bool is_const(const Expr &e);
/** Is e the constant v (in any numeric type, or broadcast of it)? */
bool is_const(const Expr &e, int64_t v);
bool is_const_zero(const Expr &e);
bool is_const_one(const Expr &e);
bool is_const_true(const Expr &e);
bool is_const_false(const Expr &e);
/** Positive/negative integer constant (scalar or broadcast)? */
bool is_positive_const(const Expr &e);
bool is_negative_const(const Expr &e);

/** The value of a scalar (or broadcast) constant, if it is one of that kind. */
std::optional<int64_t> as_const_int(const Expr &e);
std::optional<uint64_t> as_const_uint(const Expr &e);
std::optional<double> as_const_float(const Expr &e);

/** Does the expression have no side effects (no impure calls)? */
bool is_pure(const Expr &e);

/** Build a vector of `lanes` lanes from a scalar (identity if lanes == 1). */
Expr broadcast_if_needed(const Expr &e, int lanes);

/** Intrinsic-call shorthands. */
Expr likely(const Expr &e);
Expr make_intrinsic(Type t, Intrinsic op, const std::vector<Expr> &args);

/** Strip a likely() wrapper if present. */
Expr unwrap_likely(const Expr &e);

} // namespace Internal
} // namespace loom

#endif
