#ifndef LOOM_TEST_GPU_CODEGEN_CUDA_UTIL_H
#define LOOM_TEST_GPU_CODEGEN_CUDA_UTIL_H

// Helpers of the CUDA C printer's tests (codegen_cuda*.cpp): the CUDA
// targets, NVRTC compiles that fail the test with NVRTC's log (and fail it,
// never skip it, when NVRTC cannot be loaded), and ptxas's figures.

#include <catch2/catch.hpp>

#include <cstdlib>
#include <ctime>
#include <sstream>
#include <string>

#include <unistd.h>

#include "Loom.h"
#include "gpu/kernel_text_util.h"
#include "runtime/cuda_compile.h"

namespace cuda_test {

/** The host target with cuda, and cuda_capability_<capability> when given. */
inline loom::Target cuda_target(int capability = 0) {
    loom::Target t = loom::get_host_target().with_feature(loom::Target::CUDA);
    if (capability)
        t = loom::Target(t.to_string() + "-cuda_capability_" + std::to_string(capability));
    return t;
}

inline void require_nvrtc() {
    std::string why;
    bool available = loom_rt::nvrtc_available(&why);
    INFO("The CUDA C tests compile with NVRTC, which is not available: " << why);
    REQUIRE(available);
}

/** NVRTC's log (with ptxas's figures) of `source` compiled to a cubin for
 * sm_<capability>; the test fails when it does not compile. */
inline std::string compile_cubin(const std::string &source, int capability) {
    require_nvrtc();
    loom_rt::NvrtcOutput out =
        loom_rt::nvrtc_compile(source, capability, true, {"--ptxas-options=--verbose"});
    INFO("sm_" << capability << ": " << out.error << "\n" << source);
    REQUIRE(out.ok);
    return out.log;
}

/** Does a ptxas log hold any function's figures? */
inline bool has_ptxas_figures(const std::string &log) {
    return log.find(" bytes spill stores") != std::string::npos;
}

/** compile_cubin's log of `source` with a kernel of its own added, whose
 * name no earlier program had: NVRTC keeps the machine code it makes in
 * NVIDIA's compute cache (~/.nv/ComputeCache) and, for a program it has
 * seen, loads it from there without running ptxas, so the log has no
 * figures (seen on the GPU machine when other test processes had compiled
 * the same kernels). */
inline std::string compile_cubin_with_figures(const std::string &source, int capability) {
    static int calls = 0;
    std::string nonce = "\nextern \"C\" __global__ void loom_test_fresh_" +
                        std::to_string(long(getpid())) + "_" +
                        std::to_string(long(std::time(nullptr))) + "_" + std::to_string(calls++) +
                        "(int *p) { *p = 1; }\n";
    return compile_cubin(source + nonce, capability);
}

/** The spill bytes (stores plus loads) over every function in a ptxas log;
 * the test fails when the log has no function's figures. */
inline long spill_bytes(const std::string &log) {
    long total = 0;
    int functions = 0;
    std::istringstream in(log);
    for (std::string line; std::getline(in, line);) {
        size_t stores = line.find(" bytes spill stores"), loads = line.find(" bytes spill loads");
        if (stores == std::string::npos || loads == std::string::npos) continue;
        functions++;
        auto number_before = [&](size_t at) {
            size_t begin = line.rfind(' ', at - 1);
            return std::atol(line.c_str() + (begin == std::string::npos ? 0 : begin + 1));
        };
        total += number_before(stores) + number_before(loads);
    }
    INFO(log);
    REQUIRE(functions > 0);
    return total;
}

using loom_test::count;
using loom_test::kernel_text;

} // namespace cuda_test

#endif
