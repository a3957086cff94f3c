// Compile time of the JIT for a one-stage pointwise pipeline. Reported, not
// asserted against a fixed time (timings depend on the machine and its load).

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>

#include "codegen_test_util.h"

using namespace loom;
using namespace loom::Internal;
using namespace loom::test;

namespace {

// CPU time of this thread: less disturbed than wall time on a busy machine.
double thread_cpu_ms() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

struct Timing {
    double wall_ms, cpu_ms;
};

Timing compile_and_run(int i) {
    Expr v = Add::make(Mul::make(Cast::make(Float(32), load(UInt(8), "in", var("x"))), Expr(0.5f)),
                       Expr(float(i)));
    LoweredFunc f = pointwise("jit_timing", Float(32), {buffer_arg("in", UInt(8), 1, false)}, v);
    auto start = std::chrono::steady_clock::now();
    double cpu_start = thread_cpu_ms();
    JITModule m = JITModule::compile(f, get_host_target());
    double cpu_end = thread_cpu_ms();
    auto end = std::chrono::steady_clock::now();
    Buffer<uint8_t> in(64);
    Buffer<float> out(64);
    for (int k = 0; k < 64; k++) in(k) = uint8_t(k);
    void *argv[] = {nullptr, in.raw_buffer(), out.raw_buffer()};
    REQUIRE(m.argv_function()(argv) == 0);
    REQUIRE(out(10) == 5.0f + float(i));
    return Timing{std::chrono::duration<double, std::milli>(end - start).count(),
                  cpu_end - cpu_start};
}

} // namespace

TEST_CASE("jit: compile time of a one-stage pointwise pipeline", "[jit][jit_timing]") {
    Timing first = compile_and_run(0);
    Timing best{1e9, 1e9}, total{0, 0};
    const int repeats = 10;
    for (int i = 1; i <= repeats; i++) {
        Timing t = compile_and_run(i);
        best.wall_ms = std::min(best.wall_ms, t.wall_ms);
        best.cpu_ms = std::min(best.cpu_ms, t.cpu_ms);
        total.wall_ms += t.wall_ms;
        total.cpu_ms += t.cpu_ms;
    }
    std::printf(
        "JIT compile time (wall / thread CPU): first %.2f / %.2f ms, then mean %.2f / %.2f ms, "
        "best %.2f / %.2f ms\n",
        first.wall_ms, first.cpu_ms, total.wall_ms / repeats, total.cpu_ms / repeats, best.wall_ms,
        best.cpu_ms);
}
