#ifndef LOOM_LOWER_OUTLINE_GPU_KERNELS_H
#define LOOM_LOWER_OUTLINE_GPU_KERNELS_H

#include <string>
#include <vector>

#include "ir/IR.h"
#include "lower/DeviceKernel.h"

namespace loom {
namespace Internal {

/** Moves each kernel (a nest of block loops, after fuse_gpu_thread_loops)
 * out of the host code into a DeviceKernel (appended to `kernels`), with a
 * closure of the buffers and scalars it uses, and puts a launch in its
 * place: the arguments packed into a stack array of 64-bit slots and a call
 * to loom_device_run (src/runtime/RuntimeFunctions.h) with the grid, the
 * block size and the dynamic shared bytes, whose error code the pipeline
 * returns. The launch names the device source with a placeholder string
 * (device_source_placeholder) that embed_device_source replaces. Buffers
 * are passed as the Handle Variable "<name>.buffer" (a loom_buffer_t *). */
Stmt outline_gpu_kernels(const Stmt &s, std::vector<DeviceKernel> &kernels);

/** The placeholder for the device source of an API in launch calls. */
std::string device_source_placeholder(DeviceAPI api);

/** The name of the runtime's launch function. */
extern const char *const device_run_function;

} // namespace Internal
} // namespace loom

#endif
