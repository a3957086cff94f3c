#include "frontend/DeviceLimits.h"

#include <map>
#include <optional>
#include <string>

#include "LoomRuntime.h"
#include "ir/Error.h"
#include "runtime/RuntimeFunctions.h"

namespace loom {
namespace Internal {

namespace {

void ignore_error(loom_call_context_t *, const char *) {}

std::string dims_text(const int64_t v[3]) {
    return std::to_string(v[0]) + "x" + std::to_string(v[1]) + "x" + std::to_string(v[2]);
}

std::string api_text(DeviceAPI api) {
    return api == DeviceAPI::CUDA ? "CUDA" : "OpenCL";
}

} // namespace

void check_kernels_fit_device(const LoweredFunc &f) {
    std::map<DeviceAPI, std::optional<loom_device_limits_t>> limits_of;
    for (const DeviceKernel &k : f.kernels) {
        auto found = limits_of.find(k.device_api);
        if (found == limits_of.end()) {
            loom_call_context_t quiet{ignore_error, nullptr, nullptr, nullptr,
                                      nullptr,      nullptr, nullptr};
            loom_device_limits_t limits;
            int32_t api =
                k.device_api == DeviceAPI::CUDA ? loom_device_api_cuda : loom_device_api_opencl;
            std::optional<loom_device_limits_t> known;
            if (loom_device_get_limits(&quiet, api, &limits) == 0) known = limits;
            found = limits_of.emplace(k.device_api, known).first;
        }
        if (!found->second) continue;
        const loom_device_limits_t &limits = *found->second;
        const std::string who = "Func " + k.func_name + ": GPU kernel " + k.name + " ";
        const std::string device =
            api_text(k.device_api) + " device \"" + std::string(limits.device_name) + "\"";
        if (k.threads[0] && k.threads[1] && k.threads[2]) {
            const int64_t threads[3] = {k.threads[0], k.threads[1], k.threads[2]};
            int64_t per_block = threads[0] * threads[1] * threads[2];
            if (per_block > limits.max_threads_per_block)
                user_error(who << "has blocks of " << dims_text(threads) << " = " << per_block
                               << " threads, but the " << device << " runs at most "
                               << limits.max_threads_per_block
                               << " threads per block; use smaller gpu_threads/gpu_tile "
                                  "extents (their product is the block size)");
            for (int d = 0; d < 3; d++)
                if (threads[d] > limits.max_threads[d])
                    user_error(who << "has blocks of " << dims_text(threads) << " threads, but the "
                                   << device << " allows at most " << dims_text(limits.max_threads)
                                   << " threads per dimension; dimension " << d << " has "
                                   << threads[d]);
        }
        if (k.known_shared_bytes > limits.max_shared_bytes)
            user_error(who << "needs " << k.known_shared_bytes
                           << " bytes of shared (local) memory per block for the Funcs computed "
                              "at its block loops, but the "
                           << device << " has " << limits.max_shared_bytes
                           << "; compute them at a smaller tile or at an inner loop");
    }
}

} // namespace Internal
} // namespace loom
