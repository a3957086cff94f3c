#ifndef LOOM_LOWER_ADD_IMAGE_CHECKS_H
#define LOOM_LOWER_ADD_IMAGE_CHECKS_H

// Entry checks of the pipeline's arguments, each an AssertStmt whose message
// calls the runtime's error function (src/runtime/RuntimeFunctions.h):
//  - first, per buffer argument: not null, right dimensionality, right type,
//    a dim array;
//  - then, inside the leading LetStmts (buffer fields, bounds inference):
//    run-time split factors are positive, bound() outputs have their exact
//    shape, extents are at least 0 and coordinates stay within int32, each
//    buffer spans at most 2^31 - 1 elements (2^62 - 1 with the
//    large_buffers feature: 64-bit flat indices), scalar Params lie in
//    their ranges;
//  - then, unless every output is empty (an extent of 0: nothing is
//    computed), every input image covers the region the pipeline reads and
//    every output buffer the region its Func's loops write (both compared in
//    64 bits, through Int(64) twins of the bounds lets), and the ImageParam
//    and output buffer dimension constraints hold.
// Nothing of this is added for targets with the NoAsserts feature.
// Unless the target has NoBoundsQuery, a call in which some buffer argument
// has no host memory is a bounds query (as in Halide): inside the leading
// lets, it writes the required region into each such buffer and skips the
// region checks and the pipeline.

#include <map>
#include <string>
#include <vector>

#include "loom/Target.h"
#include "lower/LoweredFunc.h"

namespace loom {
namespace Internal {

/** `readers` names, for each image, the Func to blame when it is too small.
 * `first_checks` (of scalar arguments only, such as split factors) run
 * before the region checks, whose bounds may depend on them. */
Stmt add_image_checks(const Stmt &s, const std::vector<LoweredArgument> &args,
                      const std::vector<Function> &outputs,
                      const std::map<std::string, std::string> &readers, const Target &target,
                      const std::vector<Stmt> &first_checks = {});

} // namespace Internal
} // namespace loom

#endif
