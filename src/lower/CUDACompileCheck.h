#ifndef LOOM_LOWER_CUDA_COMPILE_CHECK_H
#define LOOM_LOWER_CUDA_COMPILE_CHECK_H

// A test aid: with LOOM_TEST_ALSO_COMPILE_CUDA=<capabilities> (e.g.
// "75,90") in the environment, every pipeline JIT-compiled with OpenCL
// kernels is lowered once more with its OpenCL loops on CUDA, and NVRTC
// compiles the CUDA source to a cubin for each listed capability. So the
// OpenCL test suite, which runs on PoCL, also checks that every one of its
// kernels is valid CUDA C, on machines with NVRTC but no NVIDIA GPU.

#include <string>
#include <vector>

#include "loom/Function.h"
#include "loom/Target.h"
#include "lower/LoweredFunc.h"

namespace loom {
namespace Internal {

/** Does nothing unless LOOM_TEST_ALSO_COMPILE_CUDA is set and `lowered`
 * (the pipeline lowered for `target`) has OpenCL kernels. Then an
 * InternalError with NVRTC's log when a kernel does not compile, or when
 * NVRTC cannot be loaded. */
void also_compile_cuda_for_test(const std::vector<Function> &outputs, const std::string &name,
                                const Target &target, const LoweredFunc &lowered);

} // namespace Internal
} // namespace loom

#endif
