#ifndef LOOM_LOWER_INFER_ARGUMENTS_H
#define LOOM_LOWER_INFER_ARGUMENTS_H

// The arguments of the entry point: every scalar Param, ImageParam and
// concrete Buffer the pipeline reads, then one output buffer per output Func
// (per tuple element: "f.0", "f.1", ... for Funcs of several values).

#include <string>
#include <vector>

#include "lower/LowerUtil.h"
#include "lower/LoweredFunc.h"

namespace loom {
namespace Internal {

/** Inputs of s (before storage flattening) in order of first appearance, or
 * in the order of `order` for the names it lists (the others follow). */
std::vector<LoweredArgument> infer_arguments(const Stmt &s, const std::vector<Function> &outputs,
                                             const std::vector<std::string> &order);

} // namespace Internal
} // namespace loom

#endif
