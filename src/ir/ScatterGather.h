#ifndef LOOM_IR_SCATTER_GATHER_H
#define LOOM_IR_SCATTER_GATHER_H

// scatter()/gather() (loom/IROperator.h) stay scatter_gather intrinsic
// calls in a Func's update definitions; lowering makes one store per
// element (lower/ScheduleFunctions.cpp), and bounds treat a call as the
// union of its values.

#include <string>
#include <vector>

#include "ir/IR.h"

namespace loom {
namespace Internal {

/** The common size of the scatter_gather calls in exprs (0 if none); a
 * CompileError naming `stage` when two sizes differ. */
int scatter_gather_size(const std::vector<Expr> &exprs, const std::string &stage);

/** e with every scatter_gather call replaced by its element `index`. */
Expr pick_scatter_element(const Expr &e, int index);

} // namespace Internal
} // namespace loom

#endif
