// with_aot_device_code(): the device code an ahead-of-time output carries.
// OpenCL C travels as printed (the driver builds it at the first call);
// CUDA C is compiled here with NVRTC into cubins and PTX, bundled with its
// source (runtime/cuda_compile.h), so that the library needs no NVRTC.

#include <algorithm>
#include <sstream>

#include "aot/AOTOutputs.h"
#include "ir/Error.h"
#include "ir/Substitute.h"
#include "runtime/cuda_compile.h"

namespace loom {
namespace Internal {

using loom_rt::NvrtcOutput;

namespace {

std::string join_capabilities(const std::vector<int> &caps) {
    std::ostringstream os;
    for (size_t i = 0; i < caps.size(); i++) os << (i ? ", " : "") << caps[i];
    return os.str();
}

// Concrete Buffers become read-only data in the object, but a kernel's
// buffers get device memory recorded in the buffer itself.
void check_no_kernel_reads_embedded_buffer(const LoweredFunc &f, const std::string &what) {
    for (const DeviceKernel &k : f.kernels)
        for (const DeviceKernelArg &a : k.args) {
            if (!a.is_buffer) continue;
            for (const LoweredArgument &e : f.embedded_buffers)
                if (e.name == a.name)
                    user_error(what << ": GPU kernel " << k.name << " of Func " << k.func_name
                                    << " reads Buffer " << e.name
                                    << ", which the pipeline was defined with. Ahead of time "
                                       "such a Buffer is embedded in the library as read-only "
                                       "host data, which kernels cannot use; make it an input "
                                       "(an ImageParam, or an Input<Buffer<>> of a generator), "
                                       "or compute the Func that reads it on the CPU");
        }
}

NvrtcOutput checked_compile(const std::string &source, int capability, bool cubin,
                            const std::string &what, const Target &t) {
    loom_rt::NvrtcOutput out = loom_rt::nvrtc_compile(source, capability, cubin);
    if (!out.ok)
        user_error(what << " for target " << t.to_string() << ": NVRTC could not compile the "
                        << "CUDA kernels to " << (cubin ? "a cubin for sm_" : "PTX for compute_")
                        << capability << ": " << out.error);
    return out;
}

} // namespace

std::vector<int> aot_cuda_capabilities(const Target &t, const std::vector<int> &supported) {
    // Target features are spelled cuda_capability_<NN>; reading them from
    // the target string keeps this in step with every capability Target knows.
    std::vector<int> listed;
    const std::string prefix = "cuda_capability_";
    std::istringstream words(t.to_string());
    for (std::string w; std::getline(words, w, '-');)
        if (w.compare(0, prefix.size(), prefix) == 0)
            listed.push_back(std::stoi(w.substr(prefix.size())));
    std::sort(listed.begin(), listed.end());
    if (!listed.empty()) {
        for (int c : listed)
            if (std::find(supported.begin(), supported.end(), c) == supported.end())
                user_error("Target " << t.to_string() << " asks for cuda_capability_" << c
                                     << ", which this NVRTC cannot compile for; it supports "
                                     << join_capabilities(supported));
        return listed;
    }
    // By default: a cubin for each major architecture a current GPU may have
    // (Turing, Ampere/Ada, Hopper); the PTX of the lowest covers the rest.
    std::vector<int> chosen;
    for (int c : {75, 80, 90})
        if (std::find(supported.begin(), supported.end(), c) != supported.end())
            chosen.push_back(c);
    if (chosen.empty() && !supported.empty()) chosen.push_back(supported.front());
    return chosen;
}

LoweredFunc with_aot_device_code(LoweredFunc f, const Target &t, const std::string &what) {
    check_no_kernel_reads_embedded_buffer(f, what);
    auto cuda = f.device_sources.find(DeviceAPI::CUDA);
    if (cuda == f.device_sources.end()) return f;

    std::string why_not;
    if (!loom_rt::nvrtc_available(&why_not))
        user_error(what << " for target " << t.to_string()
                        << ": the CUDA kernels are compiled ahead of time with NVRTC, which "
                           "is not available: "
                        << why_not);
    std::vector<int> caps = aot_cuda_capabilities(t, loom_rt::nvrtc_supported_capabilities());
    internal_assert(!caps.empty(), "NVRTC supports no CUDA capability");

    loom_rt::CudaBundle bundle;
    bundle.source = cuda->second;
    for (int c : caps) {
        NvrtcOutput cubin = checked_compile(cuda->second, c, true, what, t);
        bundle.images.push_back({c, true, cubin.binary});
    }
    NvrtcOutput ptx = checked_compile(cuda->second, caps.front(), false, what, t);
    bundle.images.push_back({caps.front(), false, ptx.binary});

    f.body = replace_strings({{cuda->second, loom_rt::cuda_bundle_encode(bundle)}}, f.body);
    return f;
}

} // namespace Internal
} // namespace loom
