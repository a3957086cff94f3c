#ifndef LOOM_LOWER_FIND_ENVIRONMENT_H
#define LOOM_LOWER_FIND_ENVIRONMENT_H

// The first step of lowering: which Funcs the pipeline uses, and in which
// order they must be computed.

#include <map>
#include <string>
#include <vector>

#include "lower/LowerUtil.h"

namespace loom {
namespace Internal {

/** All Funcs reachable from the outputs through calls in their definitions,
 * after calls of wrapped Funcs and images go to their wrappers (wrap_calls,
 * which rewrites the definitions in place). Throws CompileError when a reachable Func has no pure
 * definition. */
Environment find_environment(const std::vector<Function> &outputs);

/** The Funcs of env in an order where every Func comes after the Funcs it
 * calls (producers first); the outputs come last, in the order given.
 * Throws CompileError on a cycle between different Funcs. */
std::vector<std::string> realization_order(const std::vector<Function> &outputs,
                                           const Environment &env);

/** The Funcs called by f's definitions (pure and updates), without f itself,
 * in order of first appearance. */
std::vector<Function> direct_callees(const Function &f);

/** For each image (Buffer or ImageParam) the pipeline reads, the first Func
 * in `order` whose definitions read it directly: the Func to name when the
 * image is too small. */
std::map<std::string, std::string> image_readers(const std::vector<std::string> &order,
                                                 const Environment &env);

} // namespace Internal
} // namespace loom

#endif
