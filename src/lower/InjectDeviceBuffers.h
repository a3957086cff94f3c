#ifndef LOOM_LOWER_INJECT_DEVICE_BUFFERS_H
#define LOOM_LOWER_INJECT_DEVICE_BUFFERS_H

#include <vector>

#include "ir/IR.h"
#include "lower/DeviceKernel.h"

namespace loom {
namespace Internal {

/** Gives each pipeline-internal allocation that kernels use a device buffer
 * ("<name>.buffer", from loom_device_buffer_create), destroyed when the
 * allocation's scope ends. An allocation only kernels use keeps no host
 * memory at all: it lives on the device. */
Stmt inject_device_buffers(const Stmt &s, const std::vector<DeviceKernel> &kernels);

} // namespace Internal
} // namespace loom

#endif
