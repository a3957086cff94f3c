#ifndef LOOM_LOWER_SELECT_GPU_API_H
#define LOOM_LOWER_SELECT_GPU_API_H

#include "ir/IR.h"
#include "loom/Target.h"

namespace loom {
namespace Internal {

/** The device API Default_GPU stands for on this target: OpenCL when the
 * target has opencl, else CUDA when it has cuda (Halide's order), else Host. */
DeviceAPI default_gpu_api(const Target &target);

/** While one is alive (on this thread), select_gpu_api puts the loops it
 * would put on OpenCL on CUDA instead: one schedule lowers for both APIs
 * (LOOM_TEST_ALSO_COMPILE_CUDA, lower/CUDACompileCheck.h). */
class ScopedOpenCLAsCUDA {
public:
    ScopedOpenCLAsCUDA();
    ~ScopedOpenCLAsCUDA();
    ScopedOpenCLAsCUDA(const ScopedOpenCLAsCUDA &) = delete;
    ScopedOpenCLAsCUDA &operator=(const ScopedOpenCLAsCUDA &) = delete;

private:
    bool previous;
};

/** Whether a ScopedOpenCLAsCUDA is alive on this thread. */
bool opencl_lowered_as_cuda();

/** Replaces DeviceAPI::Default_GPU on GPU loops by the target's API. */
Stmt select_gpu_api(const Stmt &s, const Target &target);

} // namespace Internal
} // namespace loom

#endif
