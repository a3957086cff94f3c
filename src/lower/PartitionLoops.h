#ifndef LOOM_LOWER_PARTITION_LOOPS_H
#define LOOM_LOWER_PARTITION_LOOPS_H

// Loop partitioning: a serial loop whose body holds likely()
// hints that depend on its variable (GuardWithIf tails, boundary-condition
// clamps `clamp(likely(x), lo, hi)`, the sliding window's first iteration) is
// split into a prologue, a steady state and an epilogue. The steady state is
// the range of the loop variable, found by solving the hinted conditions
// (linear in the variable, for every value of the inner loops), over which
// each hint holds; there the hinted branch replaces the condition or clamp.
// The prologue and epilogue keep the original body. Runs after storage
// flattening, before unrolling and vectorization, so the conditions are
// scalar and the steady inner loops vectorize without guards.

#include "ir/IR.h"

namespace loom {
namespace Internal {

Stmt partition_loops(const Stmt &s);

/** Removes every likely() hint (for code generators that do not want them). */
Expr strip_likely(const Expr &e);
Stmt strip_likely(const Stmt &s);

} // namespace Internal
} // namespace loom

#endif
