// CUDA targets and kernels Loom cannot compile: capabilities the NVRTC
// found does not support, atomics a capability has no instruction for, GPU
// loops on an API the target lacks. Each error names what is wrong and what
// is legal.

#include <catch2/catch.hpp>

#include "codegen/cuda/CodeGen_CUDA_C.h"
#include "codegen_opencl_util.h"
#include "gpu/codegen_cuda_util.h"

using namespace loom;
using namespace loom::Internal;
using Catch::Contains;
using cuda_test::cuda_target;
using loom_test::error_of;

TEST_CASE("cuda: a capability older than NVRTC supports is an error listing the supported ones",
          "[gpu][cuda][error]") {
    cuda_test::require_nvrtc();
    Var x("x"), xo("xo"), xi("xi");
    Func f("old_gpu");
    f(x) = x;
    f.gpu_tile(x, xo, xi, 32);
    for (int cap : {30, 61, 70}) {
        std::string message =
            error_of<CompileError>([&] { f.device_source({}, cuda_target(cap)); });
        INFO(message);
        CHECK_THAT(message, Contains("Func old_gpu runs CUDA kernels for target") &&
                                Contains("(cuda_capability_" + std::to_string(cap) + ")") &&
                                Contains("cannot compile for it") &&
                                Contains("It supports: cuda_capability_75, cuda_capability_80") &&
                                Contains("cuda_capability_90"));
    }
    // Supported ones, and none, compile.
    CHECK_THAT(f.device_source({}, cuda_target(75)), Contains("__global__"));
    CHECK_THAT(f.device_source({}, cuda_target(90)), Contains("__global__"));
    CHECK_THAT(f.device_source({}, cuda_target()), Contains("__global__"));
    // The check is about CUDA kernels only: an OpenCL pipeline ignores it.
    CHECK_THAT(f.device_source({}, cuda_target(61).with_feature(Target::OpenCL)),
               Contains("__kernel"));
}

TEST_CASE("cuda: an atomic the target's capability cannot do names the kernel and the capability "
          "it needs",
          "[gpu][cuda][error]") {
    using namespace loom_test;
    Expr old = var("old", UInt(16));
    DeviceKernel k = kernel("short_bins", {buffer_arg("bins", UInt(16), true, true)},
                            atomic("bins", thread_x(), "old", old + cast<uint16_t>(1)));
    k.func_name = "short_hist";
    std::string message = error_of<CompileError>([&] { codegen_cuda_c({k}, cuda_target(61)); });
    INFO(message);
    CHECK_THAT(message, Contains("GPU kernel short_bins (Func short_hist)") &&
                            Contains("16-bit values") && Contains("compute capability 7.0") &&
                            Contains("cuda_capability_70") && Contains("asks for 6.1"));
    CHECK_NOTHROW(codegen_cuda_c({k}, cuda_target(70)));

    // 8 bits: no CUDA atomic at all.
    Expr old8 = var("old", UInt(8));
    DeviceKernel bytes = kernel("byte_bins", {buffer_arg("bins", UInt(8), true, true)},
                                atomic("bins", thread_x(), "old", old8 + cast<uint8_t>(1)));
    std::string byte_message =
        error_of<CompileError>([&] { codegen_cuda_c({bytes}, cuda_target()); });
    CHECK_THAT(byte_message, Contains("GPU kernel byte_bins") &&
                                 Contains("no atomic operation on 8-bit values") &&
                                 Contains("CUDA C"));
}

TEST_CASE("cuda: GPU loops on an API the target lacks", "[gpu][cuda][error]") {
    Var x("x"), xo("xo"), xi("xi");
    Func on_cuda("needs_cuda"), on_cl("needs_opencl"), any("needs_gpu");
    on_cuda(x) = x;
    on_cuda.gpu_tile(x, xo, xi, 32, TailStrategy::Auto, DeviceAPI::CUDA);
    on_cl(x) = x;
    on_cl.gpu_tile(x, xo, xi, 32, TailStrategy::Auto, DeviceAPI::OpenCL);
    any(x) = x;
    any.gpu_tile(x, xo, xi, 32);
    Target cl = get_host_target().with_feature(Target::OpenCL);
    CHECK_THAT(error_of<CompileError>([&] { on_cuda.device_source({}, cl); }),
               Contains("Func needs_cuda") && Contains("on DeviceAPI::CUDA") &&
                   Contains("has no 'cuda' feature"));
    CHECK_THAT(error_of<CompileError>([&] { on_cl.device_source({}, cuda_target()); }),
               Contains("Func needs_opencl") && Contains("on DeviceAPI::OpenCL") &&
                   Contains("has no 'opencl' feature"));
    CHECK_THAT(error_of<CompileError>([&] { any.device_source({}, get_host_target()); }),
               Contains("Func needs_gpu") && Contains("has no GPU feature") &&
                   Contains("add 'cuda' or 'opencl'"));
}
