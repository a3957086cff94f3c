#ifndef LOOM_DEVICE_API_H
#define LOOM_DEVICE_API_H

/** \file DeviceAPI: which device runs a loop (shared by schedules and Targets). */

namespace loom {

/** Which device runs a loop. Default_GPU is the target's GPU API
 * (get_default_device_api_for_target); None on a loop means "wherever the
 * enclosing loop runs". */
enum class DeviceAPI { None, Host, Default_GPU, CUDA, OpenCL };

} // namespace loom

#endif
