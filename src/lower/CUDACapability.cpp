#include "lower/CUDACapability.h"

#include <algorithm>
#include <sstream>

#include "ir/Error.h"
#include "runtime/cuda_compile.h"

namespace loom {
namespace Internal {

int cuda_capability_for_codegen(const Target &target) {
    int named = target.get_cuda_capability_lower_bound();
    return named > 0 ? named : 75;
}

std::vector<int> cuda_capabilities_named(const Target &target) {
    std::vector<int> named;
    for (int f = Target::CUDACapability30; f <= Target::CUDACapability121; f++) {
        Target::Feature feature = Target::Feature(f);
        if (target.has_feature(feature))
            named.push_back(Target(target.os, target.arch, target.bits, {feature})
                                .get_cuda_capability_lower_bound());
    }
    return named;
}

void check_cuda_capabilities_supported(const Target &target, const std::string &who) {
    std::vector<int> named = cuda_capabilities_named(target);
    if (named.empty() || !loom_rt::nvrtc_available()) return;
    std::vector<int> supported = loom_rt::nvrtc_supported_capabilities();
    for (int c : named) {
        if (std::find(supported.begin(), supported.end(), c) != supported.end()) continue;
        std::ostringstream list;
        for (size_t i = 0; i < supported.size(); i++)
            list << (i ? ", " : "") << "cuda_capability_" << supported[i];
        int version = loom_rt::nvrtc_version();
        user_error(who << " runs CUDA kernels for target " << target.to_string()
                       << ", which asks for compute capability " << c / 10 << "." << c % 10
                       << " (cuda_capability_" << c << "), but the NVRTC found (version "
                       << version / 1000 << "." << version % 1000 / 10
                       << ") cannot compile for it. It supports: " << list.str()
                       << ". Name one of these, or none to compile for the device found at run "
                          "time");
    }
}

} // namespace Internal
} // namespace loom
