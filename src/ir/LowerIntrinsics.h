#ifndef LOOM_IR_LOWER_INTRINSICS_H
#define LOOM_IR_LOWER_INTRINSICS_H

// Plain-IR equivalents of the fixed-point intrinsics (saturating_add,
// saturating_sub, halving_add, rounding_halving_add, halving_sub), for the
// backends, or the types, that have no native instruction for them. The
// equivalents never overflow a signed type (Int(32) and Int(64) arithmetic
// is assumed not to wrap) and are shaped for LLVM's pattern matching: 8- and
// 16-bit averages widen (pavgb/pavgw), wider ones stay in their type.

#include "ir/IR.h"

namespace loom {
namespace Internal {

/** Is op one of the intrinsics lower_fixed_point_intrinsic handles? */
bool is_fixed_point_intrinsic(Intrinsic op);

/** The plain-IR value of the fixed-point intrinsic call op. Its operands
 * are bound to lets, so each is evaluated once. */
Expr lower_fixed_point_intrinsic(const Call *op);

/** The same, for operands a and b (each used several times). */
Expr lower_saturating_add(const Expr &a, const Expr &b);
Expr lower_saturating_sub(const Expr &a, const Expr &b);
Expr lower_halving_add(const Expr &a, const Expr &b);
Expr lower_rounding_halving_add(const Expr &a, const Expr &b);
Expr lower_halving_sub(const Expr &a, const Expr &b);

} // namespace Internal
} // namespace loom

#endif
