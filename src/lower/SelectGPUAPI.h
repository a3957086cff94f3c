#ifndef LOOM_LOWER_SELECT_GPU_API_H
#define LOOM_LOWER_SELECT_GPU_API_H

#include "ir/IR.h"
#include "loom/Target.h"

namespace loom {
namespace Internal {

/** The device API Default_GPU stands for on this target (OpenCL when the
 * target has opencl; Host when it has no GPU backend). */
DeviceAPI default_gpu_api(const Target &target);

/** Replaces DeviceAPI::Default_GPU on GPU loops by the target's API. */
Stmt select_gpu_api(const Stmt &s, const Target &target);

} // namespace Internal
} // namespace loom

#endif
