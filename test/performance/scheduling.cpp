// perf_scheduling: scheduling benchmarks: Halide's 3x3 box blur (uint16, 6400x4800) and an
// unsharp mask (planar float RGB, 3840x2160), each with its CPU schedule.
// Prints the median run time (wall and process CPU) of N runs (default 20,
// argv[1]; Loom and Halide runs alternate so both see the same machine load),
// the JIT compile time (median of 3 fresh pipelines) and a memcpy of the output's bytes as the
// memory-bandwidth reference, all measured in this run. Each output is checked
// once against plain C++. Built with LOOM_WITH_HALIDE, the same pipelines are
// also built against Halide 14 in this process and Loom/Halide ratios printed.
// Inputs and outputs are 64-byte aligned, as loom::Buffer and Halide::Buffer
// allocate theirs; both sides share them. Loom writes outputs at least
// loom_streaming_store_threshold() bytes large with streaming stores
// (LOOM_STREAMING_STORES=0 turns that off; see docs/performance.md).
// Run on demand; asserts nothing about time. Exit code 1 on a wrong output.

#include <Loom.h>

#include "bench_util.h"
#include "runtime/RuntimeFunctions.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace loom_side {
namespace L = loom;
#include "scheduling_pipelines.inc"
} // namespace loom_side

#ifdef LOOM_WITH_HALIDE
#include <Halide.h>
namespace halide_side {
namespace L = Halide;
#include "scheduling_pipelines.inc"
} // namespace halide_side
#endif

namespace {

using bench::AlignedArray;
using bench::Clock;
using bench::median;
using bench::ms_since;
using bench::Side;
using bench::thread_cpu_ms;
using bench::time_runs;

// Compile time: median over 3 fresh pipelines (fresh Funcs, nothing cached).
// Then one more pipeline is compiled and run once (warm-up); time_runs() times it.
template <typename Pipe, typename In, typename Out> Side prepare(In in, Out out) {
    Side r;
    try {
        std::vector<double> compiles, cpu;
        for (int i = 0; i < 3; i++) {
            Pipe p;
            p.input.set(in);
            decltype(p.output()) f = p.output();
            double c0 = thread_cpu_ms();
            auto t0 = Clock::now();
            f.compile_jit();
            compiles.push_back(ms_since(t0));
            cpu.push_back(thread_cpu_ms() - c0);
        }
        r.compile_ms = median(compiles);
        r.compile_cpu_ms = median(cpu);

        auto p = std::make_shared<Pipe>();
        p->input.set(in);
        auto f = p->output();
        f.compile_jit();
        f.realize(out);
        r.run = [p, f, out]() mutable { f.realize(out); };
        r.ok = true;
    } catch (const std::exception &e) {
        r.error = e.what();
    }
    return r;
}

double memcpy_ms(const void *src, size_t bytes, int runs) {
    std::vector<uint8_t> dst(bytes);
    std::memcpy(dst.data(), src, bytes); // fault the pages in first
    std::vector<double> times;
    for (int i = 0; i < runs; i++) {
        auto t0 = Clock::now();
        std::memcpy(dst.data(), src, bytes);
        times.push_back(ms_since(t0));
    }
    volatile uint8_t sink = dst[bytes / 2];
    (void)sink;
    return median(times);
}

void print_result(const char *who, const Side &r, const std::string &check) {
    if (!r.ok) {
        std::printf("  %-7s FAILED: %s\n", who, r.error.c_str());
        return;
    }
    std::printf("  %-7s run: median %8.3f ms (min %8.3f, cpu %8.3f)   jit compile: %7.1f ms "
                "(cpu %7.1f ms)   %s\n",
                who, r.median_ms(), r.min_ms(), r.median_cpu_ms(), r.compile_ms, r.compile_cpu_ms,
                check.c_str());
}

void print_ratio(const Side &a, const Side &b) {
    if (!a.ok || !b.ok) return;
    std::printf("  loom/halide: run time %.2fx (cpu %.2fx), compile time %.2fx (cpu %.2fx)\n",
                a.median_ms() / b.median_ms(), a.median_cpu_ms() / b.median_cpu_ms(),
                a.compile_ms / b.compile_ms, a.compile_cpu_ms / b.compile_cpu_ms);
}

// Times the sides (runs alternate), then checks each side's output right
// after a run of its own (the sides share the output memory) and prints the
// results. halide is null when Halide is not built in.
void time_check_report(Side &ours, Side *halide, int runs,
                       const std::function<std::string()> &check_output) {
    std::vector<Side *> sides{&ours};
    if (halide) sides.push_back(halide);
    time_runs(sides, runs);
    auto checked = [&](Side &side) {
        if (!side.ok) return std::string();
        side.run();
        return check_output();
    };
    print_result("loom", ours, checked(ours));
    if (!halide) return;
    print_result("halide", *halide, checked(*halide));
    print_ratio(ours, *halide);
}

int failures = 0;

// Whether Loom writes this output with streaming stores (where the output's
// rows are aligned; the threshold is read once per process).
void print_streaming(size_t output_bytes) {
    int64_t threshold = loom_streaming_store_threshold(nullptr);
    bool streams = threshold != INT64_MAX && int64_t(output_bytes) >= threshold;
    std::printf("  loom streaming stores: %s (output %zu bytes, threshold ", streams ? "yes" : "no",
                output_bytes);
    if (threshold == INT64_MAX)
        std::printf("off)\n");
    else
        std::printf("%lld bytes)\n", (long long)threshold);
}

// ----------------------------------------------------------------- blur

std::string check_blur(const AlignedArray<uint16_t> &in, const AlignedArray<uint16_t> &out, int w,
                       int h) {
    int iw = w + 2;
    auto bx = [&](int x, int y) {
        const uint16_t *p = &in[size_t(y) * size_t(iw) + size_t(x)];
        return uint16_t(uint16_t(p[0] + p[1] + p[2]) / 3);
    };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint16_t e = uint16_t(uint16_t(bx(x, y) + bx(x, y + 1) + bx(x, y + 2)) / 3);
            uint16_t g = out[size_t(y) * size_t(w) + size_t(x)];
            if (e != g) {
                failures++;
                return "WRONG at (" + std::to_string(x) + ", " + std::to_string(y) + "): got " +
                       std::to_string(g) + ", expected " + std::to_string(e);
            }
        }
    return "output matches C++";
}

void run_blur(int runs) {
    const int w = 6400, h = 4800;
    AlignedArray<uint16_t> in(size_t(w + 2) * size_t(h + 2));
    std::mt19937 rng(1);
    for (auto &v : in) v = uint16_t(rng() & 0xffff);
    std::printf("blur: 3x3 box, uint16 %dx%d, Halide's CPU schedule, %d runs\n", w, h, runs);
    std::printf("  memcpy of the output's %zu bytes: median %.3f ms\n", size_t(w) * h * 2,
                memcpy_ms(in.data(), size_t(w) * h * 2, runs));
    print_streaming(size_t(w) * h * 2);

    // Both sides write the same output memory, so neither gains from where
    // its buffer happens to sit (4K aliasing between input and output rows
    // moves these memory-bound loops by up to 40%); each side's output is
    // checked right after a run of its own.
    AlignedArray<uint16_t> out(size_t(w) * size_t(h));
    Side rl = prepare<loom_side::BlurPipeline>(loom::Buffer<uint16_t>(in.data(), {w + 2, h + 2}),
                                               loom::Buffer<uint16_t>(out.data(), {w, h}));
    Side *rh = nullptr;
#ifdef LOOM_WITH_HALIDE
    Side halide =
        prepare<halide_side::BlurPipeline>(Halide::Buffer<uint16_t>(in.data(), {w + 2, h + 2}),
                                           Halide::Buffer<uint16_t>(out.data(), {w, h}));
    rh = &halide;
#endif
    time_check_report(rl, rh, runs, [&] { return check_blur(in, out, w, h); });
}

// -------------------------------------------------------------- unsharp

std::string check_unsharp(const AlignedArray<float> &in, const AlignedArray<float> &out, int w,
                          int h) {
    std::vector<float> bx(size_t(w) * size_t(h));
    auto at = [&](const AlignedArray<float> &b, int x, int y, int c) {
        x = std::min(std::max(x, 0), w - 1);
        y = std::min(std::max(y, 0), h - 1);
        return b[(size_t(c) * size_t(h) + size_t(y)) * size_t(w) + size_t(x)];
    };
    for (int c = 0; c < 3; c++) {
        std::vector<float> plane(size_t(w) * size_t(h));
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                plane[size_t(y) * size_t(w) + size_t(x)] =
                    ((at(in, x - 2, y, c) + at(in, x + 2, y, c)) +
                     4.0f * (at(in, x - 1, y, c) + at(in, x + 1, y, c)) + 6.0f * at(in, x, y, c)) *
                    (1.0f / 16.0f);
        auto p = [&](int x, int y) {
            y = std::min(std::max(y, 0), h - 1);
            return plane[size_t(y) * size_t(w) + size_t(x)];
        };
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                float blur = ((p(x, y - 2) + p(x, y + 2)) + 4.0f * (p(x, y - 1) + p(x, y + 1)) +
                              6.0f * p(x, y)) *
                             (1.0f / 16.0f);
                float e = 2.0f * at(in, x, y, c) - blur;
                float g = out[(size_t(c) * size_t(h) + size_t(y)) * size_t(w) + size_t(x)];
                if (!(std::fabs(e - g) <= 1e-5f)) {
                    failures++;
                    return "WRONG at (" + std::to_string(x) + ", " + std::to_string(y) + ", " +
                           std::to_string(c) + "): got " + std::to_string(g) + ", expected " +
                           std::to_string(e);
                }
            }
    }
    return "output matches C++ (within 1e-5)";
}

void run_unsharp(int runs) {
    const int w = 3840, h = 2160;
    AlignedArray<float> in(size_t(w) * size_t(h) * 3);
    std::mt19937 rng(2);
    std::uniform_real_distribution<float> dist(0.0f, 1.0f);
    for (auto &v : in) v = dist(rng);
    size_t bytes = in.size() * sizeof(float);
    std::printf("unsharp: 5-tap separable blur, planar float RGB %dx%d, %d runs\n", w, h, runs);
    std::printf("  memcpy of the output's %zu bytes: median %.3f ms\n", bytes,
                memcpy_ms(in.data(), bytes, runs));
    print_streaming(bytes);

    AlignedArray<float> out(in.size()); // shared by both sides, as in run_blur
    Side rl = prepare<loom_side::UnsharpPipeline>(loom::Buffer<float>(in.data(), {w, h, 3}),
                                                  loom::Buffer<float>(out.data(), {w, h, 3}));
    Side *rh = nullptr;
#ifdef LOOM_WITH_HALIDE
    Side halide = prepare<halide_side::UnsharpPipeline>(
        Halide::Buffer<float>(in.data(), {w, h, 3}), Halide::Buffer<float>(out.data(), {w, h, 3}));
    rh = &halide;
#endif
    time_check_report(rl, rh, runs, [&] { return check_unsharp(in, out, w, h); });
}

} // namespace

int main(int argc, char **argv) {
    int runs = argc > 1 ? std::max(10, std::atoi(argv[1])) : 20;
    const char *lt = std::getenv("LOOM_NUM_THREADS");
    std::printf("threads: LOOM_NUM_THREADS=%s", lt ? lt : "(default: core count)");
#ifdef LOOM_WITH_HALIDE
    const char *ht = std::getenv("HL_NUM_THREADS");
    std::printf(", HL_NUM_THREADS=%s", ht ? ht : "(default: core count)");
#endif
    std::printf("\n");
    // One throwaway compile so neither side's first-in-process LLVM start-up
    // is counted as the pipeline's compile time.
    {
        loom::Var x;
        loom::Func warm;
        warm(x) = x;
        warm.compile_jit();
#ifdef LOOM_WITH_HALIDE
        Halide::Var hx;
        Halide::Func hwarm;
        hwarm(hx) = hx;
        hwarm.compile_jit();
#endif
    }
    run_blur(runs);
    run_unsharp(runs);
    return failures ? 1 : 0;
}
