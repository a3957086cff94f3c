// What the generic device layer (device_interface.cpp) calls in the OpenCL
// runtime, without the OpenCL headers.
#ifndef LOOM_RUNTIME_OPENCL_ENTRY_H
#define LOOM_RUNTIME_OPENCL_ENTRY_H

#include <cstdint>

#include "RuntimeFunctions.h"

namespace loom_rt {

/** loom_device_run for OpenCL (see RuntimeFunctions.h). */
int opencl_run(void *uc, const char *source, const char *kernel_name, const int32_t blocks[3],
               const int32_t threads[3], int32_t shared_bytes, const char *arg_kinds,
               const uint64_t *args);

/** loom_device_get_limits for OpenCL. */
int opencl_get_limits(void *uc, loom_device_limits_t *limits);

/** Waits for all queued OpenCL work; 0 when OpenCL was never used. */
int opencl_sync_all(void *uc);

/** The interface's release(): drops kernels, programs and pooled memory. */
void opencl_release(void *uc);

/** loom_device_reset for OpenCL: release() plus the context and queue. */
int opencl_reset(void *uc);

/** loom_device_program_stats for OpenCL. */
void opencl_program_stats(int64_t *built_from_source, int64_t *loaded_from_cache);

} // namespace loom_rt

#endif
