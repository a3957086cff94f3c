#ifndef LOOM_FRONTEND_RANDOM_H
#define LOOM_FRONTEND_RANDOM_H

// random_float/random_uint/random_int (loom/IROperator.h) are calls of the
// `random` intrinsic until the Func definition that uses them is made:
// Function::define and define_update then replace each with a hash of the
// seed, the call site, the definition and the definition's free Vars.

#include <vector>

#include "ir/IR.h"

namespace loom {
namespace Internal {

/** e with every random call replaced by a deterministic hash of its seed and
 * call-site id, the definition's tag and the free variables (pure Vars and
 * RVars) of the definition. */
Expr lower_random(const Expr &e, const std::vector<Expr> &free_vars, int tag);

/** A new tag for one Func definition (counts definitions in the process). */
int next_random_definition_tag();

/** Start the call-site and definition counters again (as Halide's
 * reset_random_counters: the same program then draws the same numbers). */
void reset_random_counters();

} // namespace Internal
} // namespace loom

#endif
