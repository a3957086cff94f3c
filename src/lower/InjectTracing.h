#ifndef LOOM_LOWER_INJECT_TRACING_H
#define LOOM_LOWER_INJECT_TRACING_H

// Tracing (Halide's trace_loads/trace_stores/trace_realizations and the
// trace_* target features): trace intrinsic calls around the loads, stores,
// realizations and produce/consume phases of traced Funcs, and around the
// whole pipeline.

#include <string>
#include <vector>

#include "loom/Target.h"
#include "lower/LowerUtil.h"

namespace loom {
namespace Internal {

/** Runs after bounds inference, while Funcs are still multi-dimensional
 * (Provide and Call nodes carry their coordinates and Realize nodes their
 * bounds). A traced Func inside a GPU loop is a CompileError. Returns s
 * unchanged when nothing is traced. */
Stmt inject_tracing(const Stmt &s, const std::string &pipeline_name,
                    const std::vector<Function> &outputs, const Environment &env,
                    const Target &target);

} // namespace Internal
} // namespace loom

#endif
