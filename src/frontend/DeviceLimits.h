#ifndef LOOM_FRONTEND_DEVICE_LIMITS_H
#define LOOM_FRONTEND_DEVICE_LIMITS_H

// The JIT's compile-time check of GPU kernels against the device they will
// run on: a block of constant size with more threads, or more shared memory,
// than the device allows is a CompileError naming the Func and the kernel,
// before any launch. (Sizes only known at run time are checked at launch.)

#include "lower/LoweredFunc.h"

namespace loom {
namespace Internal {

/** Throws CompileError when a kernel of f cannot run on the device of its
 * API. Does nothing for an API with no device here (the launch reports that). */
void check_kernels_fit_device(const LoweredFunc &f);

} // namespace Internal
} // namespace loom

#endif
