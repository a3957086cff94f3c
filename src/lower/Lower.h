#ifndef LOOM_LOWER_LOWER_H
#define LOOM_LOWER_LOWER_H

// Lowering: from Funcs with schedules to one LoweredFunc. lower.cpp lists the
// passes in order; LOOM_DEBUG=2 prints the IR after each one.

#include <string>
#include <vector>

#include "loom/Argument.h"
#include "loom/Target.h"
#include "lower/LoweredFunc.h"

namespace loom {
namespace Internal {

/** Lower the pipeline producing `outputs` into an entry point named `name`.
 * Arguments are the scalar Params, ImageParams and Buffers the pipeline
 * reads (in order of first appearance, or as given in `args` when non-empty,
 * matched by name), followed by one output buffer per output Func. An
 * Argument of known shape (from a Param, an ImageParam, ...) that the
 * pipeline does not read still becomes an argument, at its listed place,
 * which the code ignores; a name-only one does not. `pipeline_name` (empty:
 * `name`) is what trace events call the pipeline: the JIT, whose entry
 * points have unique names, passes the first output's, as Halide's does. */
LoweredFunc lower(const std::vector<Function> &outputs, const std::string &name,
                  const Target &target, const std::vector<Argument> &args = {},
                  const std::string &pipeline_name = "");

} // namespace Internal
} // namespace loom

#endif
