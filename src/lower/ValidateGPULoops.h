#ifndef LOOM_LOWER_VALIDATE_GPU_LOOPS_H
#define LOOM_LOWER_VALIDATE_GPU_LOOPS_H

#include "ir/IR.h"
#include "loom/Target.h"

namespace loom {
namespace Internal {

/** Checks the GPU loop nest the schedule built: thread loops inside block
 * loops, at most 3 block and 3 thread dimensions, no block loop inside a
 * thread loop, no host-only (parallel) loop inside a kernel, one device API
 * per kernel, and a target with a backend for it. Throws CompileError
 * naming the Func, stage and loop, and what is legal; returns s unchanged. */
Stmt validate_gpu_loops(const Stmt &s, const Target &target);

} // namespace Internal
} // namespace loom

#endif
