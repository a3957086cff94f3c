// The GPU source printer's OpenCL C dialect (codegen/opencl): kernels built
// by hand from IR (codegen_opencl_util.h). Each test checks the printed text,
// builds the printed program on the first OpenCL device (PoCL in CI) and runs
// its kernels there against C++. Atomics: codegen_opencl_atomics.cpp; what
// kernels may not do: codegen_opencl_limits.cpp.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "codegen_opencl_util.h"

using namespace loom;
using namespace loom::Internal;
using namespace loom_test;
using Catch::Contains;

namespace {

int32_t euclidean_div(int32_t a, int32_t b) {
    if (b == 0) return 0;
    if (b == -1) return int32_t(0u - uint32_t(a));
    int32_t q = a / b, r = a % b;
    if (r < 0) q = b > 0 ? q - 1 : q + 1;
    return q;
}

int32_t euclidean_mod(int32_t a, int32_t b) {
    if (b == 0 || b == -1) return 0;
    int32_t r = a % b;
    if (r < 0) r = b < 0 ? r - b : r + b;
    return r;
}

int clz(uint32_t x, int bits) {
    return x == 0 ? bits : __builtin_clz(x) - (32 - bits);
}
int ctz(uint32_t x, int bits) {
    return x == 0 ? bits : __builtin_ctz(x);
}

} // namespace

TEST_CASE("opencl: a kernel's signature, ids and integer semantics", "[gpu][opencl]") {
    // q = a / d, r = a % d (Euclidean, x / 0 == 0), bits = bit counts of u,
    // each plus the scalar k.
    Expr a = load(Int(32), "a", var("i")), d = load(Int(32), "d", var("i"));
    Expr u = load(UInt(32), "u", var("i"));
    Expr u8 = cast(UInt(8), u);
    Expr bits = cast<int>(popcount(u)) + cast<int>(count_leading_zeros(u)) * 100 +
                cast<int>(count_trailing_zeros(u)) * 10000 +
                cast<int>(count_leading_zeros(u8)) * 1000000 +
                cast<int>(count_trailing_zeros(u8)) * 10000000;
    Stmt body = for_each_thread(64, [&](Expr i) {
        return Block::make({store("q", a / d + var("k"), i), store("r", a % d + var("k"), i),
                            store("bits", bits, i)});
    });
    DeviceKernel k = kernel("euclid",
                            {input("a", Int(32)), input("d", Int(32)), input("u", UInt(32)),
                             output("q", Int(32)), output("r", Int(32)), output("bits", Int(32)),
                             scalar("k", Int(32))},
                            body);
    std::string source = codegen_opencl_c({k}, opencl());
    INFO(source);
    CHECK_THAT(source, Contains("/* Func f_euclid: kernel euclid */\n"
                                "__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void "
                                "euclid(const __global int32_t *restrict a_"));
    CHECK_THAT(source, Contains(", __global int32_t *restrict q_"));
    CHECK_THAT(source, Contains(", int32_t k_"));
    CHECK_THAT(source, Contains("int __block_id_x = get_group_id(0);"));
    CHECK_THAT(source, Contains("int __thread_id_x = get_local_id(0);"));
    CHECK_THAT(source, !Contains("get_group_id(1)"));
    CHECK_THAT(source, !Contains("get_local_id(1)"));
    CHECK_THAT(source, Contains("((__global int32_t *)a_"));
    CHECK_THAT(source, Contains("popcount("));
    CHECK_THAT(source, Contains("clz("));
    CHECK_THAT(source, !Contains("__builtin"));
    CHECK_THAT(source, !Contains("memcpy"));

    // Threads unknown at compile time: no reqd_work_group_size.
    k.threads[0] = 0;
    CHECK_THAT(codegen_opencl_c({k}, opencl()),
               Contains("__kernel void euclid(") && !Contains("reqd_work_group_size"));
    k.threads[0] = 64;

    const int n = 256;
    std::vector<int32_t> av(n), dv(n), qv(n, -1), rv(n, -1), bv(n, -1);
    std::vector<uint32_t> uv(n);
    for (int i = 0; i < n; i++) {
        av[i] = i == 0 ? INT32_MIN : (i * 7919) % 2001 - 1000;
        dv[i] = i % 17 - 8; // zero and -1 included
        uv[i] = i < 2 ? uint32_t(i) * 0x80000000u : uint32_t(i * 2654435761u) >> (i % 29);
    }
    int32_t kv = 3;
    Program program(source);
    program.run("euclid",
                {OpenCLTestDevice::buffer(av), OpenCLTestDevice::buffer(dv),
                 OpenCLTestDevice::buffer(uv), OpenCLTestDevice::buffer(qv),
                 OpenCLTestDevice::buffer(rv), OpenCLTestDevice::buffer(bv),
                 OpenCLTestDevice::scalar(kv)},
                n / 64, 64);
    for (int i = 0; i < n; i++) {
        INFO("a = " << av[i] << ", d = " << dv[i] << ", u = " << uv[i]);
        REQUIRE(qv[i] == int32_t(uint32_t(euclidean_div(av[i], dv[i])) + uint32_t(kv)));
        REQUIRE(rv[i] == euclidean_mod(av[i], dv[i]) + kv);
        uint32_t x = uv[i], x8 = x & 0xff;
        int expected = __builtin_popcount(x) + clz(x, 32) * 100 + ctz(x, 32) * 10000 +
                       clz(x8, 8) * 1000000 + ctz(x8, 8) * 10000000;
        REQUIRE(bv[i] == expected);
    }
}

TEST_CASE("opencl: float math uses OpenCL's IEEE functions", "[gpu][opencl]") {
    Expr x = load(Float(32), "x", var("i"));
    Stmt body = for_each_thread(32, [&](Expr i) {
        return Block::make({store("s", sqrt(x), i), store("r", round(x), i),
                            store("m", x % 3.0f, i),
                            store("b", reinterpret<uint32_t>(x * 2.0f), i)});
    });
    DeviceKernel k = kernel("fmath",
                            {input("x", Float(32)), output("s", Float(32)), output("r", Float(32)),
                             output("m", Float(32)), output("b", UInt(32))},
                            body, 32);
    // strict_float: no contraction, so the C++ reference matches exactly.
    std::string source = codegen_opencl_c({k}, opencl({Target::StrictFloat}));
    INFO(source);
    CHECK_THAT(source, Contains("#pragma OPENCL FP_CONTRACT OFF"));
    CHECK_THAT(source, Contains("sqrt(") && !Contains("sqrtf("));
    CHECK_THAT(source, Contains("rint(") && !Contains("nearbyint"));
    CHECK_THAT(source, Contains("floor(") && !Contains("floorf("));
    CHECK_THAT(source, Contains("as_uint("));
    CHECK_THAT(codegen_opencl_c({k}, opencl()), !Contains("FP_CONTRACT"));

    const int n = 128;
    std::vector<float> xv(n), sv(n), rv(n), mv(n);
    std::vector<uint32_t> bv(n);
    for (int i = 0; i < n; i++) xv[i] = (i - 40) * 0.75f + (i % 3 ? 0.5f : 0.0f);
    Program program(source);
    program.run("fmath",
                {OpenCLTestDevice::buffer(xv), OpenCLTestDevice::buffer(sv),
                 OpenCLTestDevice::buffer(rv), OpenCLTestDevice::buffer(mv),
                 OpenCLTestDevice::buffer(bv)},
                n / 32, 32);
    for (int i = 0; i < n; i++) {
        float v = xv[i];
        INFO("x = " << v);
        if (v >= 0) {
            REQUIRE(sv[i] == Approx(std::sqrt(v)).epsilon(1e-6));
        } else {
            REQUIRE(std::isnan(sv[i]));
        }
        REQUIRE(rv[i] == std::nearbyint(v));
        volatile float quotient = v / 3.0f, product = 3.0f * std::floor(quotient);
        REQUIRE(mv[i] == v - product);
        float twice = v * 2.0f;
        uint32_t bits;
        std::memcpy(&bits, &twice, 4);
        REQUIRE(bv[i] == bits);
    }
}

TEST_CASE("opencl: dense vectors use vload/vstore, other accesses go lane by lane",
          "[gpu][opencl]") {
    // dense: out[4i..4i+3] = in[4i..4i+3] * 2 + k
    Stmt dense = for_each_thread(16, [&](Expr i) {
        Expr ramp = Ramp::make(i * 4, 1, 4);
        return store("out",
                     load(Float(32, 4), "in", ramp) * Broadcast::make(2.0f, 4) +
                         Broadcast::make(var("k", Float(32)), 4),
                     ramp);
    });
    // gather: out[4i + l] = in[8i + 2l], stored only where 4i + l < n.
    Stmt gather = for_each_thread(16, [&](Expr i) {
        Expr ramp = Ramp::make(i * 4, 1, 4);
        Expr inside = LT::make(ramp, Broadcast::make(var("n"), 4));
        return store("out", load(Float(32, 4), "in", Ramp::make(i * 8, 2, 4)), ramp, inside);
    });
    // bytes: out[i] = the uint of in's bytes 4i..4i+3 (vload4 of uchar, then a union).
    Stmt bytes = for_each_thread(16, [&](Expr i) {
        return store("out", reinterpret(UInt(32), load(UInt(8, 4), "in", Ramp::make(i * 4, 1, 4))),
                     i);
    });
    std::vector<DeviceKernel> ks = {
        kernel("dense", {input("in", Float(32)), output("out", Float(32)), scalar("k", Float(32))},
               dense, 16),
        kernel("gather", {input("in", Float(32)), output("out", Float(32)), scalar("n", Int(32))},
               gather, 16),
        kernel("bytes", {input("in", UInt(8)), output("out", UInt(32))}, bytes, 16)};
    std::string source = codegen_opencl_c(ks, opencl());
    INFO(source);
    std::string d = kernel_text(source, "dense"), g = kernel_text(source, "gather"),
                b = kernel_text(source, "bytes");
    CHECK(count(d, "vload4(0, ((__global float *)in_") == 1);
    CHECK(count(d, "vstore4(vload4(0, _v") == 1);
    CHECK_THAT(d, Contains("), 0, ((__global float *)out_"));
    CHECK_THAT(g, !Contains("vload") && !Contains("vstore"));
    // Strided lanes, one statement each.
    CHECK_THAT(g, Contains(" + 3 * 2];") && !Contains("for (int _l"));
    CHECK_THAT(g, Contains("if ("));
    CHECK_THAT(b, Contains("vload4(0, ((__global uint8_t *)in_"));
    CHECK_THAT(b, Contains("union {"));

    const int n = 64, threads = 16, blocks = 1;
    Program program(source);
    std::vector<float> in(2 * n), out(n, -1.0f);
    for (int i = 0; i < 2 * n; i++) in[i] = i * 0.5f - 7.0f;
    float kv = 1.25f;
    program.run(
        "dense",
        {OpenCLTestDevice::buffer(in), OpenCLTestDevice::buffer(out), OpenCLTestDevice::scalar(kv)},
        blocks, threads);
    for (int i = 0; i < n; i++) REQUIRE(out[i] == in[i] * 2.0f + kv);

    std::fill(out.begin(), out.end(), -1.0f);
    int32_t limit = 50;
    program.run("gather",
                {OpenCLTestDevice::buffer(in), OpenCLTestDevice::buffer(out),
                 OpenCLTestDevice::scalar(limit)},
                blocks, threads);
    for (int i = 0; i < n; i++) REQUIRE(out[i] == (i < limit ? in[2 * i] : -1.0f));

    std::vector<uint8_t> raw(4 * n);
    for (size_t i = 0; i < raw.size(); i++) raw[i] = uint8_t(i * 37 + 11);
    std::vector<uint32_t> words(n, 0);
    program.run("bytes", {OpenCLTestDevice::buffer(raw), OpenCLTestDevice::buffer(words)},
                n / threads, threads);
    for (int i = 0; i < n; i++) {
        uint32_t expected;
        std::memcpy(&expected, &raw[4 * i], 4); // both little-endian
        REQUIRE(words[i] == expected);
    }
}

TEST_CASE("opencl: shared memory is __local at kernel scope, with barriers", "[gpu][opencl]") {
    // Each block reverses its 64 elements through shared memory:
    // out[i] = in[block start + 63 - t] (the thread count t is 64, or the
    // scalar `threads` with dynamic shared memory).
    auto reverse = [](Expr threads) {
        Expr t = thread_x();
        return LetStmt::make(
            "i", block_x() * threads + t,
            Block::make({store("__shared", load(Float(32), "in", var("i")), t), barrier(),
                         store("out", load(Float(32), "__shared", threads - 1 - t), var("i"))}));
    };
    DeviceKernel fixed = kernel("reverse_fixed", {input("in", Float(32)), output("out", Float(32))},
                                Allocate::make("__shared", UInt(8), MemoryType::GPUShared, {256},
                                               const_true(), reverse(64)));
    fixed.constant_shared_bytes = 256;
    DeviceKernel dynamic = kernel("reverse_dynamic",
                                  {input("in", Float(32)), output("out", Float(32)),
                                   scalar("threads", Int(32)), dynamic_shared()},
                                  reverse(var("threads")), 0);
    std::string source = codegen_opencl_c({fixed, dynamic}, opencl());
    INFO(source);
    std::string f = kernel_text(source, "reverse_fixed"),
                d = kernel_text(source, "reverse_dynamic");
    // The declaration comes first in the kernel's body.
    CHECK_THAT(f, Contains(") {\n    __local uchar __shared[256] __attribute__((aligned(16)));\n"));
    CHECK_THAT(f, Contains("barrier(CLK_LOCAL_MEM_FENCE);"));
    CHECK_THAT(f, Contains("((__local float *)__shared)["));
    CHECK_THAT(d, Contains("int32_t threads_") && Contains(", __local uchar *__shared) {"));
    CHECK_THAT(d, !Contains("__local uchar __shared["));
    CHECK_THAT(d, Contains("((__local float *)__shared)["));

    const int n = 256;
    std::vector<float> in(n), out(n, 0.0f);
    for (int i = 0; i < n; i++) in[i] = float(i * 3 + 1);
    Program program(source);
    program.run("reverse_fixed", {OpenCLTestDevice::buffer(in), OpenCLTestDevice::buffer(out)},
                n / 64, 64);
    for (int i = 0; i < n; i++) REQUIRE(out[i] == in[i / 64 * 64 + 63 - i % 64]);
    std::fill(out.begin(), out.end(), 0.0f);
    int32_t threads = 64;
    program.run("reverse_dynamic",
                {OpenCLTestDevice::buffer(in), OpenCLTestDevice::buffer(out),
                 OpenCLTestDevice::scalar(threads), OpenCLTestDevice::local(threads * 4)},
                n / 64, 64);
    for (int i = 0; i < n; i++) REQUIRE(out[i] == in[i / 64 * 64 + 63 - i % 64]);
}

TEST_CASE("opencl: barriers only where every thread of the block reaches them", "[gpu][opencl]") {
    // Threads stage shared[t] = in[i], then read a neighbour's value.
    auto make = [](std::function<Stmt(Stmt)> around_barrier) {
        Expr t = thread_x();
        Stmt body = for_each_thread(64, [&](Expr i) {
            return Block::make({store("__shared", load(Int(32), "in", i), t),
                                around_barrier(barrier()),
                                store("out", load(Int(32), "__shared", (t + 1) % 64), i)});
        });
        DeviceKernel k = kernel(
            "neighbour", {input("in", Int(32)), output("out", Int(32))},
            Allocate::make("__shared", UInt(8), MemoryType::GPUShared, {256}, const_true(), body));
        k.constant_shared_bytes = 256;
        return k;
    };
    // Uniform branches and loops (the same for the whole block) are fine.
    std::string source = codegen_opencl_c(
        {make([](Stmt b) {
            Stmt loop = For::make("r", 0, var("rounds"), ForType::Serial, DeviceAPI::None, b);
            return IfThenElse::make(block_x() >= 0, LetStmt::make("rounds", 1, loop));
        })},
        opencl());
    INFO(source);
    CHECK(count(source, "barrier(CLK_LOCAL_MEM_FENCE);") == 1);
    const int n = 128;
    std::vector<int32_t> in(n), out(n);
    for (int i = 0; i < n; i++) in[i] = i * i;
    Program program(source);
    program.run("neighbour", {OpenCLTestDevice::buffer(in), OpenCLTestDevice::buffer(out)}, n / 64,
                64);
    for (int i = 0; i < n; i++) REQUIRE(out[i] == in[i / 64 * 64 + (i + 1) % 64]);

    // A branch on the thread id, directly or through a let, or a loop whose
    // extent depends on it: some threads would skip the barrier.
    std::vector<std::function<Stmt(Stmt)>> divergent = {
        [](Stmt b) { return IfThenElse::make(thread_x() == 0, b); },
        [](Stmt b) {
            return LetStmt::make("first", thread_x() < 1,
                                 IfThenElse::make(var("first", Bool()), Evaluate::make(0), b));
        },
        [](Stmt b) {
            return For::make("r", 0, thread_x() % 2, ForType::Serial, DeviceAPI::None, b);
        }};
    for (const auto &wrap : divergent) {
        std::string message =
            error_of<InternalError>([&] { codegen_opencl_c({make(wrap)}, opencl()); });
        CHECK_THAT(message,
                   Contains("GPU kernel neighbour") && Contains("barrier inside a branch or loop"));
    }
}

TEST_CASE("opencl: bool scalars are passed as uchar", "[gpu][opencl]") {
    Stmt body = for_each_thread(
        64, [&](Expr i) { return store("out", select(var("flag", Bool()), i, 0 - i), i); });
    DeviceKernel k = kernel("flagged", {output("out", Int(32)), scalar("flag", Bool())}, body);
    std::string source = codegen_opencl_c({k}, opencl());
    INFO(source);
    CHECK_THAT(source, Contains(", uint8_t flag_arg_"));
    CHECK_THAT(source, Contains("bool flag_"));
    const int n = 64;
    std::vector<int32_t> out(n);
    Program program(source);
    for (uint8_t flag : {0, 1}) {
        program.run("flagged", {OpenCLTestDevice::buffer(out), OpenCLTestDevice::scalar(flag)}, 1,
                    64);
        for (int i = 0; i < n; i++) REQUIRE(out[i] == (flag ? i : -i));
    }
}

TEST_CASE("opencl: fixed-point operators use add_sat, sub_sat, hadd and rhadd", "[gpu][opencl]") {
    // On uint8 and int16 lanes: OpenCL's own built-ins where it has them, the
    // shared C printing (halving_sub, saturating casts) elsewhere.
    Expr a = load(UInt(8), "a", var("i")), b = load(UInt(8), "b", var("i"));
    Expr c = load(Int(16), "c", var("i")), d = load(Int(16), "d", var("i"));
    auto pack = [](Expr v) { return cast<int32_t>(v); };
    Stmt body = for_each_thread(64, [&](Expr i) {
        return Block::make(
            {store("o0", pack(saturating_add(a, b)), i), store("o1", pack(saturating_sub(a, b)), i),
             store("o2", pack(halving_add(a, b)), i),
             store("o3", pack(rounding_halving_add(a, b)), i),
             store("o4", pack(halving_sub(c, d)), i), store("o5", pack(saturating_add(c, d)), i),
             store("o6", pack(saturating_cast<uint8_t>(c)), i)});
    });
    std::vector<DeviceKernelArg> args{input("a", UInt(8)), input("b", UInt(8)), input("c", Int(16)),
                                      input("d", Int(16))};
    for (int k = 0; k < 7; k++) args.push_back(output("o" + std::to_string(k), Int(32)));
    DeviceKernel k = kernel("fixed", args, body);
    std::string source = codegen_opencl_c({k}, opencl());
    INFO(source);
    CHECK_THAT(source, Contains("add_sat((uint8_t)") && Contains("sub_sat((uint8_t)"));
    CHECK_THAT(source, Contains("hadd((uint8_t)") && Contains("rhadd((uint8_t)"));
    CHECK_THAT(source, Contains("add_sat((int16_t)"));

    const int n = 256;
    std::vector<uint8_t> av(n), bv(n);
    std::vector<int16_t> cv(n), dv(n);
    std::vector<std::vector<int32_t>> out(7, std::vector<int32_t>(n, -1));
    for (int i = 0; i < n; i++) {
        av[i] = uint8_t(i), bv[i] = uint8_t(i * 37 + 11);
        cv[i] = int16_t(i * 255 - 32768), dv[i] = int16_t(32767 - i * 301);
    }
    Program program(source);
    std::vector<OpenCLTestDevice::Arg> run_args{
        OpenCLTestDevice::buffer(av), OpenCLTestDevice::buffer(bv), OpenCLTestDevice::buffer(cv),
        OpenCLTestDevice::buffer(dv)};
    for (auto &o : out) run_args.push_back(OpenCLTestDevice::buffer(o));
    program.run("fixed", run_args, n / 64, 64);
    auto floor_half = [](int v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); };
    for (int i = 0; i < n; i++) {
        int x = av[i], y = bv[i], p = cv[i], q = dv[i];
        INFO("a = " << x << ", b = " << y << ", c = " << p << ", d = " << q);
        REQUIRE(out[0][i] == std::min(255, x + y));
        REQUIRE(out[1][i] == std::max(0, x - y));
        REQUIRE(out[2][i] == (x + y) / 2);
        REQUIRE(out[3][i] == (x + y + 1) / 2);
        REQUIRE(out[4][i] == int16_t(floor_half(p - q)));
        REQUIRE(out[5][i] == std::min(32767, std::max(-32768, p + q)));
        REQUIRE(out[6][i] == std::min(255, std::max(0, p)));
    }
}
