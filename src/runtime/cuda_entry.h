// What the generic device layer (device_interface.cpp) calls in the CUDA
// runtime.
#ifndef LOOM_RUNTIME_CUDA_ENTRY_H
#define LOOM_RUNTIME_CUDA_ENTRY_H

#include <cstdint>

#include "RuntimeFunctions.h"

namespace loom_rt {

/** loom_device_run for CUDA (see RuntimeFunctions.h). */
int cuda_run(void *uc, const char *source, const char *kernel_name, const int32_t blocks[3],
             const int32_t threads[3], int32_t shared_bytes, const char *arg_kinds,
             const uint64_t *args);

/** Waits for the call's CUDA stream; 0 when CUDA was never used. */
int cuda_sync_all(void *uc);

/** The interface's release(): drops modules and pooled memory of every context. */
void cuda_release(void *uc);

/** loom_device_reset for CUDA: release() plus the primary context. */
int cuda_reset(void *uc);

/** loom_device_get_limits for CUDA: the device of the call's context (a
 * kernel's own limit, from its registers, is checked at launch). */
int cuda_get_limits(void *uc, loom_device_limits_t *limits);

/** loom_device_program_stats for CUDA: NVRTC compiles and disk-cache loads
 * (images of AOT bundles count as neither). */
void cuda_program_stats(int64_t *built_from_source, int64_t *loaded_from_cache);

} // namespace loom_rt

#endif
