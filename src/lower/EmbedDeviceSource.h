#ifndef LOOM_LOWER_EMBED_DEVICE_SOURCE_H
#define LOOM_LOWER_EMBED_DEVICE_SOURCE_H

#include <map>
#include <string>
#include <vector>

#include "ir/IR.h"
#include "loom/Target.h"
#include "lower/DeviceKernel.h"

namespace loom {
namespace Internal {

/** Prints the device source of each API's kernels (one program per API,
 * through the GPU source printer) into `sources`, and puts it in place of
 * the launches' placeholders (device_source_placeholder). */
Stmt embed_device_source(const Stmt &s, const std::vector<DeviceKernel> &kernels,
                         const Target &target, std::map<DeviceAPI, std::string> &sources);

/** The reverse, for printing: launches name their source by placeholder again. */
Stmt unembed_device_source(const Stmt &s, const std::map<DeviceAPI, std::string> &sources);

/** Kernels as text: a header line per kernel (API, block size, shared
 * bytes, arguments) and its body. */
std::string kernels_to_string(const std::vector<DeviceKernel> &kernels);

} // namespace Internal
} // namespace loom

#endif
