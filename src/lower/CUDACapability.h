#ifndef LOOM_LOWER_CUDA_CAPABILITY_H
#define LOOM_LOWER_CUDA_CAPABILITY_H

// The CUDA compute capability a target asks for, and whether the NVRTC
// found can compile for it.

#include <string>
#include <vector>

#include "loom/Target.h"

namespace loom {
namespace Internal {

/** The capability CUDA source is printed (and checked) for: the lowest the
 * target names, else 75 (the oldest NVRTC 13 compiles for). */
int cuda_capability_for_codegen(const Target &target);

/** Every cuda_capability_N the target names, ascending. */
std::vector<int> cuda_capabilities_named(const Target &target);

/** A CompileError, naming `who` and listing the capabilities NVRTC
 * supports, when the target names a capability the NVRTC found cannot
 * compile for. Nothing is checked when NVRTC cannot be loaded (then only
 * source printing is possible, which works for any capability). */
void check_cuda_capabilities_supported(const Target &target, const std::string &who);

} // namespace Internal
} // namespace loom

#endif
