// The OpenCL C printer's atomic updates: atomic_add and friends for integer
// read-modify-writes, compare-and-swap loops for everything else, on global
// and shared memory; built and run on the first OpenCL device.

#include <catch2/catch.hpp>

#include "codegen_opencl_util.h"

using namespace loom;
using namespace loom::Internal;
using namespace loom_test;
using Catch::Contains;

TEST_CASE("opencl: atomic histograms in global and shared memory", "[gpu][opencl]") {
    // hist[bin[i]] += w[i] (float: a compare-and-swap loop on global memory);
    // count[b] = the number of i with bin[i] == b, through a per-block
    // histogram in shared memory (atomic_add on __local, then on __global).
    Expr t = thread_x();
    Expr sold = var("s_old"), hold = var("h_old", Float(32)), cold = var("c_old");
    Stmt per_element = for_each_thread(64, [&](Expr i) {
        return LetStmt::make(
            "b", load(Int(32), "bins", i),
            Block::make({atomic("hist", var("b"), "h_old", hold + load(Float(32), "w", i)),
                         atomic("__shared", var("b"), "s_old", sold + 1)}));
    });
    Stmt body = Block::make(
        {IfThenElse::make(t < 16, store("__shared", Expr(0), t)), barrier(), per_element, barrier(),
         IfThenElse::make(t < 16,
                          atomic("count", t, "c_old", cold + load(Int(32), "__shared", t)))});
    DeviceKernel k = kernel(
        "histogram",
        {input("bins", Int(32)), input("w", Float(32)), buffer_arg("hist", Float(32), true, true),
         buffer_arg("count", Int(32), true, true)},
        Allocate::make("__shared", UInt(8), MemoryType::GPUShared, {64}, const_true(), body));
    k.constant_shared_bytes = 64;
    std::string source = codegen_opencl_c({k}, opencl());
    INFO(source);
    CHECK(count(source, "atomic_cmpxchg(") == 1);
    CHECK_THAT(source, Contains("volatile __global uint32_t *_atomic"));
    CHECK_THAT(source, Contains("as_float(") && Contains("as_uint("));
    CHECK_THAT(source, Contains("atomic_add((volatile __local int32_t *)__shared + "));
    CHECK_THAT(source, Contains("atomic_add((volatile __global int32_t *)count_"));
    CHECK_THAT(source, Contains("__global float *restrict hist_"));
    CHECK_THAT(source, !Contains("const __global float *restrict hist_"));

    const int n = 512;
    std::vector<int32_t> bins(n), counts(16, 0), expected_counts(16, 0);
    std::vector<float> w(n), hist(16, 0.0f), expected_hist(16, 0.0f);
    for (int i = 0; i < n; i++) {
        bins[i] = (i * 7) % 16;
        w[i] = float(i % 5) * 0.25f; // sums are exact in any order
        expected_counts[bins[i]]++;
        expected_hist[bins[i]] += w[i];
    }
    Program program(source);
    program.run("histogram",
                {OpenCLTestDevice::buffer(bins), OpenCLTestDevice::buffer(w),
                 OpenCLTestDevice::buffer(hist), OpenCLTestDevice::buffer(counts)},
                n / 64, 64);
    for (int b = 0; b < 16; b++) {
        INFO("bin " << b);
        REQUIRE(counts[b] == expected_counts[b]);
        REQUIRE(hist[b] == expected_hist[b]);
    }
}

TEST_CASE("opencl: the atomic call or compare-and-swap each update gets", "[gpu][opencl]") {
    auto update = [](const std::string &name, Type t, std::function<Expr(Expr)> value) {
        Expr old = var("old", t);
        return kernel(name, {buffer_arg("buf", t, true, true)}, for_each_thread(64, [&](Expr i) {
                          return atomic("buf", i % 8, "old", value(old));
                      }));
    };
    std::vector<DeviceKernel> ks = {
        update("add_i32", Int(32), [](Expr o) { return o + var("i"); }),
        update("sub_i32", Int(32), [](Expr o) { return o - 2; }),
        update("min_i32", Int(32), [](Expr o) { return min(var("i"), o); }),
        update("max_u32", UInt(32), [](Expr o) { return max(o, cast<uint32_t>(var("i"))); }),
        update("xor_u32", UInt(32), [](Expr o) { return o ^ cast<uint32_t>(var("i")); }),
        update("twice_i32", Int(32), [](Expr o) { return o * 2; }),
        update("max_f32", Float(32), [](Expr o) { return max(o, cast<float>(var("i"))); }),
    };
    std::string source = codegen_opencl_c(ks, opencl());
    INFO(source);
    CHECK_THAT(kernel_text(source, "add_i32"),
               Contains("atomic_add((volatile __global int32_t *)"));
    CHECK_THAT(kernel_text(source, "sub_i32"), Contains("atomic_sub("));
    CHECK_THAT(kernel_text(source, "min_i32"), Contains("atomic_min("));
    CHECK_THAT(kernel_text(source, "max_u32"),
               Contains("atomic_max((volatile __global uint32_t *)"));
    CHECK_THAT(kernel_text(source, "xor_u32"), Contains("atomic_xor("));
    CHECK_THAT(kernel_text(source, "twice_i32"), Contains("atomic_cmpxchg("));
    CHECK_THAT(kernel_text(source, "max_f32"), Contains("atomic_cmpxchg("));
    { Program program(source); }

    // 64 bits need cl_atomics64.
    std::vector<DeviceKernel> wide = {
        update("add_i64", Int(64), [](Expr o) { return o + cast<int64_t>(var("i")); }),
        update("add_f64", Float(64), [](Expr o) { return o + 0.5; })};
    std::string message = error_of<CompileError>([&] { codegen_opencl_c({wide[0]}, opencl()); });
    CHECK_THAT(message, Contains("add_i64") && Contains("cl_atomics64"));
    std::string source64 = codegen_opencl_c(wide, opencl({Target::CLAtomics64, Target::CLDoubles}));
    INFO(source64);
    CHECK_THAT(source64, Contains("#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable"));
    CHECK_THAT(kernel_text(source64, "add_i64"),
               Contains("atom_add((volatile __global int64_t *)"));
    CHECK_THAT(kernel_text(source64, "add_f64"),
               Contains("atom_cmpxchg(") && Contains("as_double("));
    if (OpenCLTestDevice::get().extensions().find("cl_khr_int64_base_atomics") !=
        std::string::npos) {
        Program program(source64);
    } else {
        WARN("the OpenCL device has no 64-bit atomics: 64-bit atomic kernels not built");
    }

    // Narrow values have no atomics in OpenCL.
    message = error_of<CompileError>([&] {
        codegen_opencl_c({update("add_u16", UInt(16), [](Expr o) { return o + 1; })}, opencl());
    });
    CHECK_THAT(message, Contains("add_u16") &&
                            Contains("OpenCL C has no atomic operation on "
                                     "16-bit values") &&
                            Contains("use a 32- or 64-bit type"));
}
