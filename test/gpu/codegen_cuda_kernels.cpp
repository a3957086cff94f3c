// The CUDA C dialect (codegen/cuda) on kernels built by hand from IR
// (codegen_opencl_util.h's builders): integer semantics and bit counts,
// native atomics by type and compute capability, half floats, strict_float,
// shared memory and vector accesses. Every program is compiled with NVRTC.

#include <catch2/catch.hpp>

#include "codegen/cuda/CodeGen_CUDA_C.h"
#include "codegen_opencl_util.h"
#include "gpu/codegen_cuda_util.h"

using namespace loom;
using namespace loom::Internal;
using Catch::Contains;
using cuda_test::compile_cubin;
using cuda_test::count;
using cuda_test::cuda_target;
using cuda_test::kernel_text;
using loom_test::atomic;
using loom_test::barrier;
using loom_test::buffer_arg;
using loom_test::dynamic_shared;
using loom_test::for_each_thread;
using loom_test::input;
using loom_test::kernel;
using loom_test::load;
using loom_test::output;
using loom_test::scalar;
using loom_test::store;
using loom_test::thread_x;
using loom_test::var;

TEST_CASE("cuda: integer semantics and bit counts use CUDA's intrinsics", "[gpu][cuda]") {
    Expr a = load(Int(32), "a", var("i")), d = load(Int(32), "d", var("i"));
    Expr u = load(UInt(32), "u", var("i"));
    Expr w = load(UInt(64), "w", var("i"));
    Expr u8 = cast(UInt(8), u);
    Expr bits = cast<int>(popcount(u)) + cast<int>(count_leading_zeros(u)) * 100 +
                cast<int>(count_trailing_zeros(u8)) * 10000 +
                cast<int>(count_leading_zeros(w)) * 1000000 + cast<int>(popcount(w));
    Stmt body = for_each_thread(64, [&](Expr i) {
        return Block::make(
            {store("q", a / d + var("k"), i), store("r", a % d, i), store("bits", bits, i)});
    });
    DeviceKernel k = kernel("euclid",
                            {input("a", Int(32)), input("d", Int(32)), input("u", UInt(32)),
                             input("w", UInt(64)), output("q", Int(32)), output("r", Int(32)),
                             output("bits", Int(32)), scalar("k", Int(32))},
                            body);
    std::string source = codegen_cuda_c({k}, cuda_target());
    INFO(source);
    CHECK_THAT(source, Contains("/* Func f_euclid: kernel euclid */\n"
                                "extern \"C\" __global__ void __launch_bounds__(64) "
                                "euclid(const int32_t *__restrict__ a_"));
    CHECK_THAT(source, Contains(", int32_t *__restrict__ q_") && Contains(", int32_t k_"));
    CHECK_THAT(source, Contains("static __device__ inline int32_t loom_div_i32("));
    CHECK_THAT(source, Contains("static __device__ inline int32_t loom_mod_i32("));
    CHECK_THAT(source, Contains("__popc(") && Contains("__clz(") && Contains("__clzll(") &&
                           Contains("__popcll("));
    CHECK(source.find("__builtin") == std::string::npos);
    CHECK(source.find("__global__") < source.find("euclid("));
    CHECK(source.find("struct loom_half") == std::string::npos);
    compile_cubin(source, 75);
    compile_cubin(source, 90);
}

TEST_CASE("cuda: integer atomics are native for 32- and 64-bit types", "[gpu][cuda]") {
    std::vector<Stmt> updates;
    std::vector<DeviceKernelArg> args;
    int n = 0;
    for (Type t : {Int(32), UInt(32), Int(64), UInt(64)}) {
        std::string b = "acc" + std::to_string(n++);
        args.push_back(buffer_arg(b, t, true, true));
        Expr old = var("old", t), v = cast(t, thread_x());
        updates.push_back(atomic(b, Expr(0), "old", old + v));
        updates.push_back(atomic(b, Expr(1), "old", old - v));
        updates.push_back(atomic(b, Expr(2), "old", min(old, v)));
        updates.push_back(atomic(b, Expr(3), "old", max(v, old)));
        updates.push_back(atomic(b, Expr(4), "old", old & v));
        updates.push_back(atomic(b, Expr(5), "old", old | v));
        updates.push_back(atomic(b, Expr(6), "old", v ^ old));
    }
    DeviceKernel k = kernel("native_atomics", args, Block::make(updates));
    std::string source = codegen_cuda_c({k}, cuda_target());
    INFO(source);
    CHECK(source.find("atomicCAS") == std::string::npos);
    CHECK(source.find("volatile") == std::string::npos); // CUDA's atomics take plain pointers
    CHECK_THAT(source, Contains("atomicAdd((int *)acc0_") && Contains("atomicSub((int *)acc0_") &&
                           Contains("atomicMin((int *)acc0_") &&
                           Contains("atomicXor((int *)acc0_"));
    CHECK_THAT(source, Contains("atomicMax((unsigned int *)acc1_"));
    CHECK_THAT(source, Contains("atomicAdd((unsigned long long *)((long long *)acc2_") &&
                           Contains("atomicMin((long long *)acc2_") &&
                           Contains("atomicOr((unsigned long long *)((long long *)acc2_"));
    CHECK_THAT(source, Contains("atomicMax((unsigned long long *)acc3_") &&
                           Contains("0ull - (unsigned long long)("));
    CHECK(count(source, " atomic") == 28); // 7 operations on 4 types
    compile_cubin(source, 75);
    compile_cubin(source, 90);
}

TEST_CASE("cuda: atomics the capability has no instruction for are compare-and-swap loops",
          "[gpu][cuda]") {
    Expr old = var("old", Float(64)), h = var("h_old", UInt(16));
    Stmt body = Block::make({atomic("sum", Expr(0), "old", old + cast<double>(thread_x())),
                             atomic("bins", Expr(1), "h_old", h + cast<uint16_t>(1))});
    DeviceKernel k = kernel(
        "cas", {buffer_arg("sum", Float(64), true, true), buffer_arg("bins", UInt(16), true, true)},
        body);
    // 7.5 adds doubles natively and swaps 16 bits; 5.0 (printing only: NVRTC
    // 13 compiles for 7.5 and later) loops on 64 bits for the double.
    std::string sm75 = codegen_cuda_c({k}, cuda_target(75));
    INFO(sm75);
    CHECK_THAT(sm75, Contains("atomicAdd((double *)sum_"));
    CHECK_THAT(sm75, Contains("atomicCAS(_atomic") && Contains("(unsigned short)("));
    CHECK_THAT(sm75, Contains("compute capability 7.5 or later"));
    compile_cubin(sm75, 75);

    DeviceKernel double_only =
        kernel("cas_double", {buffer_arg("sum", Float(64), true, true)},
               atomic("sum", Expr(0), "old", old + cast<double>(thread_x())));
    std::string sm50 = codegen_cuda_c({double_only}, cuda_target(50));
    INFO(sm50);
    CHECK(sm50.find("atomicAdd") == std::string::npos);
    CHECK_THAT(sm50, Contains("unsigned long long *_atomic") && Contains("atomicCAS(_atomic"));
    CHECK_THAT(sm50, Contains("compute capability 5.0 or later"));
}

TEST_CASE("cuda: half floats compute in float and round to half", "[gpu][cuda]") {
    Expr x = load(Float(16), "h", var("i")), f = load(Float(32), "f", var("i"));
    Expr y = x * cast(Float(16), f) + make_const(Float(16), 0.5);
    Stmt body = for_each_thread(64, [&](Expr i) {
        return Block::make({store("out", y * y - x, i), store("back", cast<float>(x) + f, i),
                            store("ints", cast<int>(x), i)});
    });
    DeviceKernel k = kernel("halves",
                            {input("h", Float(16)), input("f", Float(32)), output("out", Float(16)),
                             output("back", Float(32)), output("ints", Int(32))},
                            body);
    std::string source = codegen_cuda_c({k}, cuda_target());
    INFO(source);
    CHECK_THAT(source, Contains("struct loom_half {"));
    CHECK_THAT(source, Contains("const loom_half *__restrict__ h_"));
    CHECK_THAT(source, Contains("(loom_half)"));
    compile_cubin(source, 75);
    compile_cubin(source, 90);
}

TEST_CASE("cuda: strict_float rounds every product on its own", "[gpu][cuda]") {
    Expr a = load(Float(32), "a", var("i")), b = load(Float(32), "b", var("i"));
    Expr da = cast<double>(a);
    Stmt body = for_each_thread(64, [&](Expr i) {
        return Block::make({store("o", a * b + a, i), store("d", cast<float>(da * da + da), i)});
    });
    DeviceKernel k = kernel("products",
                            {input("a", Float(32)), input("b", Float(32)), output("o", Float(32)),
                             output("d", Float(32))},
                            body);
    std::string relaxed = codegen_cuda_c({k}, cuda_target());
    CHECK(relaxed.find("__fmul_rn") == std::string::npos);
    std::string strict = codegen_cuda_c({k}, cuda_target().with_feature(Target::StrictFloat));
    INFO(strict);
    CHECK(count(strict, "__fmul_rn(") == 1);
    CHECK(count(strict, "__dmul_rn(") == 1);
    compile_cubin(strict, 75);
}

TEST_CASE("cuda: shared memory is __shared__, static or extern, and vector accesses to it need "
          "no pointer check",
          "[gpu][cuda]") {
    // Reverse 64 floats per block through shared memory, 4 lanes at a time.
    Expr t = thread_x();
    Type f4 = Float(32, 4);
    Stmt body = Block::make(
        {store("__shared", load(f4, "in", Ramp::make(t * 4, 1, 4)), Ramp::make(t * 4, 1, 4)),
         barrier(),
         store("out", load(f4, "__shared", Ramp::make((15 - t) * 4, 1, 4)),
               Ramp::make(t * 4, 1, 4))});
    DeviceKernel fixed = kernel(
        "reverse_fixed", {input("in", Float(32)), output("out", Float(32))},
        Allocate::make("__shared", UInt(8), MemoryType::GPUShared, {256}, const_true(), body), 16);
    fixed.constant_shared_bytes = 256;
    DeviceKernel dynamic =
        kernel("reverse_dynamic",
               {input("in", Float(32)), output("out", Float(32)), dynamic_shared()}, body, 16);
    std::string source = codegen_cuda_c({fixed, dynamic}, cuda_target());
    INFO(source);
    std::string f = kernel_text(source, "reverse_fixed"),
                d = kernel_text(source, "reverse_dynamic");
    CHECK_THAT(f, Contains("__shared__ __align__(16) unsigned char __shared[256];"));
    CHECK_THAT(d, Contains("extern __shared__ __align__(16) unsigned char __shared[];"));
    CHECK_THAT(d, Contains("reverse_dynamic(const float *__restrict__ in_") &&
                      Contains("float *__restrict__ out_"));
    CHECK(d.find("unsigned char *") == std::string::npos);
    for (const std::string &text : {f, d}) {
        // Four uint4 accesses: two to shared memory, unconditional; two to
        // global memory, behind the pointers' alignment flags.
        CHECK(count(text, "uint4 _w") == 4);
        CHECK(count(text, "if (_aligned") == 2);
        CHECK(count(text, "__syncthreads();") == 1);
    }
    compile_cubin(source, 75);
    compile_cubin(source, 90);
}

TEST_CASE("cuda: predicated and unaligned vectors go lane by lane", "[gpu][cuda]") {
    Expr t = thread_x();
    Type h8 = Float(16, 8);
    Expr mask = Broadcast::make(t < 8, 8);
    Stmt body = Block::make(
        {store("out", load(h8, "in", Ramp::make(t * 8 + 1, 1, 8)), Ramp::make(t * 8, 1, 8)),
         store("out2", load(h8, "in", Ramp::make(t * 8, 1, 8), mask), Ramp::make(t * 8, 1, 8))});
    DeviceKernel k = kernel(
        "lanes", {input("in", Float(16)), output("out", Float(16)), output("out2", Float(16))},
        body, 16);
    std::string source = codegen_cuda_c({k}, cuda_target());
    INFO(source);
    CHECK(count(source, "uint4 _w") == 2); // the two aligned stores
    CHECK_THAT(source, Contains(" : loom_half(0.0f)"));
    compile_cubin(source, 75);
}
