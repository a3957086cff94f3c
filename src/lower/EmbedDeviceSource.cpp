#include "lower/EmbedDeviceSource.h"

#include <iostream>
#include <sstream>

#include "codegen/cuda/CodeGen_CUDA_C.h"
#include "codegen/opencl/CodeGen_OpenCL_C.h"
#include "ir/IRPrinter.h"
#include "ir/Substitute.h"
#include "lower/LowerUtil.h"
#include "lower/OutlineGPUKernels.h"

namespace loom {
namespace Internal {

Stmt embed_device_source(const Stmt &s, const std::vector<DeviceKernel> &kernels,
                         const Target &target, std::map<DeviceAPI, std::string> &sources) {
    if (kernels.empty()) return s;
    // One program per API; a pipeline may run kernels on both.
    std::vector<DeviceKernel> opencl, cuda;
    for (const auto &k : kernels) (k.device_api == DeviceAPI::CUDA ? cuda : opencl).push_back(k);
    if (!opencl.empty()) sources[DeviceAPI::OpenCL] = codegen_opencl_c(opencl, target);
    if (!cuda.empty()) sources[DeviceAPI::CUDA] = codegen_cuda_c(cuda, target);
    std::map<std::string, std::string> by_placeholder;
    for (const auto &[api, source] : sources)
        by_placeholder[device_source_placeholder(api)] = source;
    if (debug_level() >= 2)
        for (const auto &[api, source] : sources) std::cerr << "Device source:\n" << source << "\n";
    return replace_strings(by_placeholder, s);
}

Stmt unembed_device_source(const Stmt &s, const std::map<DeviceAPI, std::string> &sources) {
    std::map<std::string, std::string> placeholder_of;
    for (const auto &[api, source] : sources)
        placeholder_of[source] = device_source_placeholder(api);
    return replace_strings(placeholder_of, s);
}

std::string kernels_to_string(const std::vector<DeviceKernel> &kernels) {
    std::ostringstream out;
    for (const auto &k : kernels) {
        out << "\nkernel " << k.name << " of Func " << k.func_name << " ("
            << (k.device_api == DeviceAPI::CUDA ? "CUDA" : "OpenCL") << ", " << k.block_dims
            << "-D grid, threads ";
        for (int d = 0; d < 3; d++)
            out << (d ? "x" : "") << (k.threads[d] ? std::to_string(k.threads[d]) : "?");
        out << ", " << k.constant_shared_bytes << " static shared bytes)(";
        for (size_t i = 0; i < k.args.size(); i++) {
            const DeviceKernelArg &a = k.args[i];
            out << (i ? ", " : "") << a.name << ": "
                << (a.is_dynamic_shared ? "dynamic shared"
                    : a.is_buffer       ? std::string(a.read && a.written ? "in/out "
                                                      : a.written         ? "out "
                                                                          : "in ") +
                                        type_to_string(a.type) + " buffer"
                                  : type_to_string(a.type));
        }
        out << ") {\n" << k.body << "}\n";
    }
    return out.str();
}

} // namespace Internal
} // namespace loom
