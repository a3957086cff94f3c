#ifndef LOOM_LOWER_INJECT_HOST_DEVICE_COPIES_H
#define LOOM_LOWER_INJECT_HOST_DEVICE_COPIES_H

#include <vector>

#include "ir/IR.h"
#include "lower/DeviceKernel.h"

namespace loom {
namespace Internal {

/** Keeps host and device copies of buffers coherent through their dirty
 * flags (Halide's model): before a launch, each buffer the kernel reads is
 * copied to the device when the host copy is newer (or the device copy is
 * new), and each buffer it only writes gets device memory; after it, the
 * written ones are device-dirty. Host code that reads or writes a buffer
 * kernels also use copies it back first when it is device-dirty, and marks
 * it host-dirty after writing. Outputs stay device-dirty at the end: the
 * host copy follows when the host reads it. */
Stmt inject_host_device_copies(const Stmt &s, const std::vector<DeviceKernel> &kernels);

} // namespace Internal
} // namespace loom

#endif
