#ifndef LOOM_LOWER_SPLIT_FACTOR_CHECKS_H
#define LOOM_LOWER_SPLIT_FACTOR_CHECKS_H

// A split factor given as a Param (or an expression of Params) is known only
// at run time; a factor of 0 or less would run no iterations or nonsense
// ones and leave the Func silently unwritten. Each such factor gets a check
// that it is positive, run with the pipeline's other entry checks.

#include <vector>

#include "ir/IR.h"
#include "lower/LowerUtil.h"
#include "lower/LoweredFunc.h"

namespace loom {
namespace Internal {

/** One AssertStmt per split of a Func that has loops (outputs and Funcs
 * not inlined) whose factor is not a constant but an expression of the
 * scalar arguments in `args`: the factor is at least 1 whenever the
 * schedule holding the split (a specialization) runs. The message names
 * the factor, the Var split and the Func. */
std::vector<Stmt> split_factor_checks(const std::vector<Function> &outputs, const Environment &env,
                                      const std::vector<LoweredArgument> &args);

} // namespace Internal
} // namespace loom

#endif
