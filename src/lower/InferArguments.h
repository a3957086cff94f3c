#ifndef LOOM_LOWER_INFER_ARGUMENTS_H
#define LOOM_LOWER_INFER_ARGUMENTS_H

// The arguments of the entry point: every scalar Param, ImageParam and
// concrete Buffer the pipeline reads, then one output buffer per output Func
// (per tuple element: "f.0", "f.1", ... for Funcs of several values).

#include <string>
#include <vector>

#include "loom/Argument.h"
#include "lower/LowerUtil.h"
#include "lower/LoweredFunc.h"

namespace loom {
namespace Internal {

/** Inputs of s (before storage flattening) in order of first appearance, or
 * in the order of `listed` for the names it lists (the others follow); then
 * the outputs. Only inputs s reads: see add_unread_arguments. */
std::vector<LoweredArgument> infer_arguments(const Stmt &s, const std::vector<Function> &outputs,
                                             const std::vector<Argument> &listed);

/** args (from infer_arguments) with the listed Arguments of known shape the
 * pipeline does not read inserted at their listed places, so the entry
 * point takes every listed argument in the listed order (the code ignores
 * the unread ones). Name-only Arguments and names of output buffers add
 * nothing. Throws CompileError when a listed Argument's kind, type or
 * dimensions disagree with how the pipeline reads that input. */
std::vector<LoweredArgument> add_unread_arguments(const std::vector<LoweredArgument> &args,
                                                  const std::vector<Argument> &listed);

} // namespace Internal
} // namespace loom

#endif
