#include "lower/CUDACompileCheck.h"

#include <cstdlib>
#include <mutex>
#include <set>
#include <sstream>

#include "ir/Error.h"
#include "lower/Lower.h"
#include "lower/SelectGPUAPI.h"
#include "runtime/cuda_compile.h"
#include "runtime/kernel_disk_cache.h"

namespace loom {
namespace Internal {

namespace {

std::vector<int> listed_capabilities(const char *list) {
    std::vector<int> caps;
    std::istringstream in(list);
    for (std::string word; std::getline(in, word, ',');) {
        char *end = nullptr;
        long c = std::strtol(word.c_str(), &end, 10);
        if (word.empty() || *end || c <= 0)
            internal_error("LOOM_TEST_ALSO_COMPILE_CUDA=" << list
                                                          << " is not a comma-separated list of "
                                                             "compute capabilities like 75,90");
        caps.push_back(int(c));
    }
    return caps;
}

// Sources already compiled by this process (by hash): a test realizes the
// same pipeline many times.
bool first_time(const std::string &source, int capability) {
    static std::mutex mutex;
    static std::set<std::pair<uint64_t, int>> done;
    std::lock_guard<std::mutex> lock(mutex);
    uint64_t hash = loom_rt::fnv1a64(source.data(), source.size());
    return done.insert({hash, capability}).second;
}

} // namespace

void also_compile_cuda_for_test(const std::vector<Function> &outputs, const std::string &name,
                                const Target &target, const LoweredFunc &lowered) {
    const char *list = std::getenv("LOOM_TEST_ALSO_COMPILE_CUDA");
    if (!list || !*list) return;
    bool has_opencl = false;
    for (const DeviceKernel &k : lowered.kernels) has_opencl |= k.device_api == DeviceAPI::OpenCL;
    if (!has_opencl) return;
    std::vector<int> caps = listed_capabilities(list);

    std::string why_not;
    if (!loom_rt::nvrtc_available(&why_not))
        internal_error(
            "LOOM_TEST_ALSO_COMPILE_CUDA is set but NVRTC cannot be loaded: " << why_not);
    LoweredFunc cuda;
    {
        ScopedOpenCLAsCUDA retarget;
        cuda = lower(outputs, name, target.with_feature(Target::CUDA));
    }
    auto it = cuda.device_sources.find(DeviceAPI::CUDA);
    internal_assert(it != cuda.device_sources.end(),
                    "pipeline " << name << " has OpenCL kernels but no CUDA source when its "
                                << "OpenCL loops are lowered for CUDA");
    const std::string &source = it->second;
    for (int c : caps) {
        if (!first_time(source, c)) continue;
        loom_rt::NvrtcOutput out = loom_rt::nvrtc_compile(source, c, true);
        if (!out.ok)
            internal_error("LOOM_TEST_ALSO_COMPILE_CUDA: the CUDA C of pipeline "
                           << name << " does not compile for sm_" << c << ": " << out.error
                           << "\nThe source:\n"
                           << source);
    }
}

} // namespace Internal
} // namespace loom
