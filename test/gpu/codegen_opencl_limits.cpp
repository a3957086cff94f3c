// What OpenCL C kernels may not do, and the clear errors the printer gives:
// doubles and halves without their target features, per-thread allocations
// of unknown size, host-only calls, GPU loops and assertions left in a
// kernel. What they may do is built and run on the first OpenCL device.

#include <catch2/catch.hpp>

#include "codegen_opencl_util.h"

using namespace loom;
using namespace loom::Internal;
using namespace loom_test;
using Catch::Contains;

TEST_CASE("opencl: doubles need cl_doubles, halves cl_half", "[gpu][opencl]") {
    // out[i] = float(double(x[i]) / 3.0)
    Stmt body = for_each_thread(64, [&](Expr i) {
        return store("out", cast<float>(cast<double>(load(Float(32), "x", i)) / 3.0), i);
    });
    DeviceKernel k = kernel("via_double", {input("x", Float(32)), output("out", Float(32))}, body);
    std::string message = error_of<CompileError>([&] { codegen_opencl_c({k}, opencl()); });
    CHECK_THAT(message, Contains("via_double") && Contains("f_via_double") &&
                            Contains("add the cl_doubles target feature"));

    std::string source = codegen_opencl_c({k}, opencl({Target::CLDoubles}));
    INFO(source);
    CHECK_THAT(source, Contains("#pragma OPENCL EXTENSION cl_khr_fp64 : enable"));
    CHECK_THAT(source, Contains("(double)"));
    if (OpenCLTestDevice::get().extensions().find("cl_khr_fp64") != std::string::npos) {
        const int n = 128;
        std::vector<float> x(n), out(n);
        for (int i = 0; i < n; i++) x[i] = i * 1.7f - 20.0f;
        Program program(source);
        program.run("via_double", {OpenCLTestDevice::buffer(x), OpenCLTestDevice::buffer(out)},
                    n / 64, 64);
        for (int i = 0; i < n; i++) REQUIRE(out[i] == float(double(x[i]) / 3.0));
    } else {
        WARN("the OpenCL device has no cl_khr_fp64: the double kernel was not built");
    }

    // out[i] = float(half(x[i]) + half(1.5))
    Stmt half_body = for_each_thread(64, [&](Expr i) {
        Expr h = Cast::make(Float(16), load(Float(32), "x", i));
        return store("out", Cast::make(Float(32), h + FloatImm::make(Float(16), 1.5)), i);
    });
    DeviceKernel hk =
        kernel("via_half", {input("x", Float(32)), output("out", Float(32))}, half_body);
    message = error_of<CompileError>([&] { codegen_opencl_c({hk}, opencl()); });
    CHECK_THAT(message, Contains("via_half") && Contains("add the cl_half target feature"));
    std::string half_source = codegen_opencl_c({hk}, opencl({Target::CLHalf}));
    INFO(half_source);
    CHECK_THAT(half_source, Contains("#pragma OPENCL EXTENSION cl_khr_fp16 : enable"));
    CHECK_THAT(half_source, Contains("(half)1.5f"));
    CHECK_THAT(half_source, !Contains("_Float16"));
    if (OpenCLTestDevice::get().extensions().find("cl_khr_fp16") != std::string::npos) {
        Program program(half_source);
    } else {
        WARN("the OpenCL device has no cl_khr_fp16: the half kernel was not built");
    }
}

TEST_CASE("opencl: per-thread allocations are private arrays of constant size", "[gpu][opencl]") {
    // tmp[j] = x[i] * j for j < 4, then out[i] = tmp[0] + ... + tmp[3].
    auto make = [](Expr extent) {
        Stmt fill = For::make("j", 0, 4, ForType::Serial, DeviceAPI::None,
                              store("tmp", load(Int(32), "x", var("i")) * var("j"), var("j")));
        Stmt sum = store("out",
                         load(Int(32), "tmp", 0) + load(Int(32), "tmp", 1) +
                             load(Int(32), "tmp", 2) + load(Int(32), "tmp", 3),
                         var("i"));
        return kernel("private_sum",
                      {input("x", Int(32)), output("out", Int(32)), scalar("extent", Int(32))},
                      for_each_thread(64, [&](Expr) {
                          return Allocate::make("tmp", Int(32), MemoryType::Stack, {extent},
                                                const_true(), Block::make(fill, sum));
                      }));
    };
    std::string source = codegen_opencl_c({make(4)}, opencl());
    INFO(source);
    CHECK_THAT(source, Contains("int32_t tmp_") && Contains("[4];"));
    const int n = 128;
    std::vector<int32_t> x(n), out(n);
    for (int i = 0; i < n; i++) x[i] = i - 60;
    int32_t extent = 4;
    Program program(source);
    program.run("private_sum",
                {OpenCLTestDevice::buffer(x), OpenCLTestDevice::buffer(out),
                 OpenCLTestDevice::scalar(extent)},
                n / 64, 64);
    for (int i = 0; i < n; i++) REQUIRE(out[i] == x[i] * 6);

    std::string message =
        error_of<CompileError>([&] { codegen_opencl_c({make(var("extent"))}, opencl()); });
    CHECK_THAT(message, Contains("private_sum") && Contains("allocates tmp") &&
                            Contains("bound()") && Contains("store_in(MemoryType::Heap)"));
}

TEST_CASE("opencl: host-only constructs in a kernel are clear errors", "[gpu][opencl]") {
    auto with = [](Stmt s) { return kernel("bad", {output("out", Int(32))}, s); };
    Stmt extern_call = store(
        "out", Call::make(Int(32), "my_host_function", {thread_x()}, Call::Extern), thread_x());
    std::string message =
        error_of<InternalError>([&] { codegen_opencl_c({with(extern_call)}, opencl()); });
    CHECK_THAT(message, Contains("GPU kernel bad") && Contains("my_host_function"));

    Stmt printing = Evaluate::make(Call::make(Int(32), Intrinsic::debug_print,
                                              {StringImm::make("x"), thread_x()}, Call::Intrinsic));
    message = error_of<CompileError>([&] { codegen_opencl_c({with(printing)}, opencl()); });
    CHECK_THAT(message, Contains("GPU kernel bad") && Contains("print()"));

    Stmt gpu_loop = For::make("t", 0, 4, ForType::GPUThread, DeviceAPI::OpenCL,
                              store("out", var("t"), var("t")));
    message = error_of<InternalError>([&] { codegen_opencl_c({with(gpu_loop)}, opencl()); });
    CHECK_THAT(message, Contains("GPU loop over t"));

    Stmt assertion = AssertStmt::make(thread_x() < 100, Expr(-1));
    message = error_of<InternalError>([&] { codegen_opencl_c({with(assertion)}, opencl()); });
    CHECK_THAT(message, Contains("assertion"));
}
