// perf_cuda: Loom's CUDA backend on an NVIDIA GPU against the libraries a
// CUDA programmer would use instead, all measured in one run (issue "GPU II",
// point 8):
//  - blur: the 3x3 box blur of uint16 (apps/blur) on a 16384x8192 output,
//    against a device-to-device copy of the same bytes (cudaMemcpy): the
//    blur reads its input and writes its output once each at best, as the
//    copy does. Two schedules: the app's (256x8 tiles, blur_x staged in
//    shared memory) and blur_x inlined (each thread computes 8 outputs of a
//    row from global memory, the cache serving the overlap).
//  - matmul: float, N x N times N x N for N = 1024, 4096, 8192, against
//    cuBLAS SGEMM in plain FP32 (CUBLAS_PEDANTIC_MATH: no TF32). Schedules:
//    the app's (32x32 tiles, slices of A and B and the sums in shared
//    memory), a register-blocked one (each thread keeps a 4x8 block of sums
//    in registers and reads A and B through the cache), and register
//    blocking with slices of A and B staged in shared memory (tile shapes,
//    slice widths, A's slice transposed, spread sums: MatmulSchedule).
//  - histogram: 256 bins of 64 Mi uint8 samples, against CUB's
//    DeviceHistogram::HistogramEven. Loom: atomic() updates from a grid of
//    blocks straight into the global bins, and per-block bins in shared
//    memory (rfactor) added to the global ones at the end, each thread
//    taking 1, 4, 8 or 16 neighbouring samples per step (a vectorized
//    atomic update: one vector load, then one shared atomic per sample).
//  - first-realize latency: a child process compiles each pipeline
//    (compile_jit: lowering, CUDA C, LLVM for the host code) and realizes it
//    once (NVRTC and module load, then the run), with an empty kernel cache
//    folder (cold) and again with the folder the first child filled (warm).
//    The CUDA context is made before the clock starts (its time printed
//    apart).
// Each timed run launches the computation `reps` times and waits for the
// device; runs of the sides of one benchmark alternate (bench::time_runs).
// Printed: the medians, GB/s or GFLOP/s, and the ratio to the reference of
// this run. Outputs are checked (blur and histogram exactly against plain
// C++, matmul against cuBLAS within a relative 1e-4 of the row's magnitude).
// Asserts nothing about time. Exit code 1 on a wrong output or a failed side.
//
// Where there is no CUDA device (no GPU, no driver), the Loom sides run
// through OpenCL instead (PoCL in CI), on smaller inputs, with no references
// and the same output checks (matmul against plain C++ on sampled rows).
//
//   perf_cuda [RUNS] [blur|matmul|histogram|latency]... [--only TEXT]
//             [--tune SECONDS]
//   (--only: just the Loom sides whose name contains TEXT; blur and matmul
//   up to 4096 also have a side the heuristic auto-scheduler schedules for
//   the GPU and, with --tune, one the autotuner tunes that many seconds)
//   perf_cuda --source blur|matmul|histogram INDEX   (prints the CUDA C of
//   that benchmark's Loom side number INDEX, counted from 0, or with INDEX
//   "auto" the auto-scheduled side's schedule and CUDA C, and exits)

#include <Loom.h>

#include "../bench_util.h"
#include "cuda_references.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

using bench::Clock;
using bench::ms_since;
using bench::Side;
using bench::time_runs;
using namespace loom;

int failures = 0;
int runs = 10;
bool have_cuda = false;
std::string only_sides;  // --only TEXT: the Loom sides whose name contains TEXT
double tune_seconds = 0; // --tune SECONDS: also an autotuned side, tuned that long

/** host-cuda, or host-opencl where there is no CUDA device. */
Target gpu_target() {
    return get_host_target().with_feature(have_cuda ? Target::CUDA : Target::OpenCL);
}

/** The reference side runs only where CUDA does. */
Side reference_side(const std::string &name, std::function<void()> once, int reps);

std::string cpu_model() {
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "(unknown)";
}

void fail(const std::string &what) {
    std::printf("  FAILED: %s\n", what.c_str());
    failures++;
}

/** A side whose run is `reps` launches and a wait; its median is per launch. */
Side make_side(const std::string &name, std::function<void()> once, int reps) {
    Side s;
    s.name = name;
    s.run = [once, reps] {
        for (int i = 0; i < reps; i++) once();
    };
    try {
        s.run(); // warm-up: compiles, uploads, loads modules
        s.ok = true;
    } catch (const std::exception &e) {
        s.error = e.what();
    }
    return s;
}

Side reference_side(const std::string &name, std::function<void()> once, int reps) {
    if (have_cuda) return make_side(name, once, reps);
    Side s;
    s.name = name;
    s.error = "no CUDA device";
    return s;
}

double per_launch_ms(const Side &s, int reps) {
    return s.median_ms() / reps;
}

void print_side(const Side &s, int reps, double work, const char *unit, const Side *reference) {
    if (!s.ok) {
        // Without CUDA only the references are left out; a Loom side that
        // fails on OpenCL is a failure too.
        bool counts = have_cuda || s.name.rfind("loom:", 0) == 0;
        std::printf("    %-34s %s: %s\n", s.name.c_str(), counts ? "failed" : "not run",
                    s.error.c_str());
        if (counts) failures++;
        return;
    }
    double ms = per_launch_ms(s, reps);
    std::printf("    %-34s %9.3f ms  %9.1f %s", s.name.c_str(), ms, work / (ms * 1e-3) / 1e9, unit);
    if (reference && reference != &s && reference->ok)
        std::printf("   %5.1f%% of %s", 100.0 * per_launch_ms(*reference, reps) / ms,
                    reference->name.c_str());
    std::printf("\n");
}

/** A side that realizes p on the GPU into o and leaves it on the device. */
template <typename T>
Side realize_side(const std::string &name, Pipeline p, Buffer<T> o, int reps) {
    return make_side(
        name,
        [p, o]() mutable {
            p.realize(o, gpu_target());
            o.device_sync();
        },
        reps);
}

/** One Loom side per schedule: the Func make(schedule) returns, realized on
 *  the GPU into a new buffer of `sizes` (outs[i] is side i's output), and
 *  left on the device. */
template <typename T, typename Schedule, size_t N, typename Make>
std::vector<Side> loom_sides(const Schedule (&schedules)[N], const std::vector<int> &sizes,
                             int reps, std::vector<Buffer<T>> *outs, Make make) {
    std::vector<Side> sides;
    for (const Schedule &schedule : schedules) {
        if (std::string(schedule.name).find(only_sides) == std::string::npos) continue;
        outs->emplace_back(sizes);
        sides.push_back(realize_side(schedule.name, Pipeline(make(schedule)), outs->back(), reps));
    }
    return sides;
}

/** The automatic sides: the heuristic auto-scheduler's schedule and, with
 *  --tune SECONDS, the autotuner's winner after that long, each on its own
 *  copy of the algorithm (make() returns the output Func, unscheduled).
 *  Appended to sides and outs as loom_sides does. */
template <typename T, typename Make>
void add_automatic_sides(std::vector<Side> *sides, const std::vector<int> &sizes, int reps,
                         std::vector<Buffer<T>> *outs, Make make) {
    for (bool tuned : {false, true}) {
        std::string name = tuned ? "loom: autotuned" : "loom: auto-scheduled";
        if ((tuned && tune_seconds <= 0) || name.find(only_sides) == std::string::npos) continue;
        Pipeline p(make());
        outs->emplace_back(sizes);
        try {
            auto start = Clock::now();
            std::string source;
            if (tuned) {
                AutotuneOptions o;
                o.target = gpu_target();
                o.budget_seconds = tune_seconds;
                o.use_cache = false;
                AutotuneResult r = autotune(p, outs->back(), o);
                source = r.schedule_source;
                std::printf("    %s: %d trials (%d failed) in %.1f s, heuristic %.3f ms, best "
                            "%.3f ms per run\n",
                            name.c_str(), r.trials, r.failed, r.tuning_seconds, r.baseline_ms,
                            r.best_ms);
            } else {
                source = p.apply_autoscheduler(sizes, gpu_target()).schedule_source;
                std::printf("    %s: chosen in %.2f ms\n", name.c_str(), ms_since(start));
            }
            std::printf("%s\n", source.c_str());
        } catch (const std::exception &e) {
            Side s;
            s.name = name;
            s.error = e.what();
            sides->push_back(s);
            continue;
        }
        sides->push_back(realize_side(name, p, outs->back(), reps));
    }
}

/** Times the reference and the Loom sides together, then prints them. */
void time_and_print(Side &reference, std::vector<Side> &sides, int reps, double work,
                    const char *unit) {
    std::vector<Side *> all{&reference};
    for (Side &s : sides) all.push_back(&s);
    time_runs(all, runs);
    print_side(reference, reps, work, unit, nullptr);
    for (Side &s : sides) print_side(s, reps, work, unit, &reference);
}

// ------------------------------------------------------------------ blur

/** A blur schedule: apps/blur's (blur_x staged in shared memory per 256x8
 *  tile, 8 outputs of a row per thread), or blur_x inlined with tiles of
 *  tile_w x tile_h outputs, each thread computing `vec` neighbours of a row
 *  (vectorized) in each of `rows` rows (unrolled). */
struct BlurSchedule {
    const char *name;
    bool shared;
    int tile_w, tile_h, vec, rows;
};

const BlurSchedule blur_schedules[] = {
    {"loom: apps/blur (shared, 256x8)", true, 256, 8, 8, 1},
    {"loom: inline 256x8, 2x8 per thread", false, 256, 8, 2, 8},
    {"loom: inline 128x8, 1x8 per thread", false, 128, 8, 1, 8},
    {"loom: inline 256x8, 1x8 per thread", false, 256, 8, 1, 8},
    {"loom: inline 128x16, 2x16 per thread", false, 128, 16, 2, 16},
    {"loom: inline 128x16, 2x8 per thread", false, 128, 16, 2, 8},
    {"loom: inline 128x32, 1x16 per thread", false, 128, 32, 1, 16},
    {"loom: inline 64x8, 2x8 per thread", false, 64, 8, 2, 8},
    {"loom: inline 64x8, 2x4 per thread", false, 64, 8, 2, 4},
    {"loom: inline 256x16, 2x8 per thread", false, 256, 16, 2, 8},
    {"loom: inline 128x16, 4x8 per thread", false, 128, 16, 4, 8},
    {"loom: inline 256x16, 4x8 per thread", false, 256, 16, 4, 8},
    {"loom: inline 128x32, 2x16 per thread", false, 128, 32, 2, 16},
    {"loom: inline 64x16, 2x8 per thread", false, 64, 16, 2, 8},
    {"loom: inline 128x8, 2x8 per thread", false, 128, 8, 2, 8},
};

struct Blur {
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, xv{"xv"}, yr{"yr"};
    Func blur_x{"blur_x"}, out{"blur"};
    /** Unscheduled without a schedule (for the auto-scheduler). */
    Blur(const Buffer<uint16_t> &in, const BlurSchedule *schedule) {
        blur_x(x, y) = (in(x, y) + in(x + 1, y) + in(x + 2, y)) / 3;
        out(x, y) = (blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2)) / 3;
        if (!schedule) return;
        const BlurSchedule &s = *schedule;
        out.tile(x, y, xo, yo, xi, yi, s.tile_w, s.tile_h).split(xi, xi, xv, s.vec);
        if (s.rows > 1) out.split(yi, yi, yr, s.rows).unroll(yr);
        out.vectorize(xv).gpu_blocks(xo, yo).gpu_threads(xi, yi);
        if (s.shared)
            blur_x.compute_at(out, xo).split(x, x, xv, s.vec).vectorize(xv).gpu_threads(x, y);
    }
};

void bench_blur() {
    const int W = have_cuda ? 16384 : 2048, H = have_cuda ? 8192 : 1024;
    std::printf("blur u16, %dx%d output (%.0f MiB in, %.0f MiB out)\n", W, H,
                (W + 2.0) * (H + 2.0) * 2 / (1 << 20), double(W) * H * 2 / (1 << 20));
    Buffer<uint16_t> in(W + 2, H + 2);
    uint32_t seed = 7;
    for (int yy = 0; yy < H + 2; yy++)
        for (int xx = 0; xx < W + 2; xx++) {
            seed = seed * 1664525u + 1013904223u;
            in(xx, yy) = uint16_t((seed >> 8) % 60000);
        }
    const size_t bytes = size_t(W) * H * 2;
    const double moved = 2.0 * bytes; // read once, written once
    const int reps = 20;
    void *src = have_cuda ? cuda_ref::device_alloc(bytes) : nullptr;
    void *dst = have_cuda ? cuda_ref::device_alloc(bytes) : nullptr;
    if (have_cuda) cuda_ref::upload(src, in.data(), bytes);
    Side copy = reference_side(
        "cudaMemcpy device to device", [&] { cuda_ref::copy(dst, src, bytes, 1); }, reps);
    std::vector<Buffer<uint16_t>> outs;
    std::vector<std::unique_ptr<Blur>> blurs;
    std::vector<Side> sides = loom_sides(blur_schedules, {W, H}, reps, &outs, [&](auto &schedule) {
        blurs.push_back(std::make_unique<Blur>(in, &schedule));
        return blurs.back()->out;
    });
    add_automatic_sides(&sides, {W, H}, reps, &outs, [&] {
        blurs.push_back(std::make_unique<Blur>(in, nullptr));
        return blurs.back()->out;
    });
    time_and_print(copy, sides, reps, moved, "GB/s");
    for (size_t i = 0; i < outs.size(); i++) {
        if (!sides[i].ok) continue;
        Buffer<uint16_t> &o = outs[i];
        o.copy_to_host();
        long bad = 0;
        for (int yy = 0; yy < H; yy++)
            for (int xx = 0; xx < W; xx++) {
                auto bx = [&](int a, int b) {
                    return uint16_t(uint16_t(in(a, b) + in(a + 1, b) + in(a + 2, b)) / 3);
                };
                uint16_t e = uint16_t(uint16_t(bx(xx, yy) + bx(xx, yy + 1) + bx(xx, yy + 2)) / 3);
                bad += o(xx, yy) != e;
            }
        if (bad) fail(sides[i].name + ": " + std::to_string(bad) + " wrong pixels");
    }
    if (have_cuda) cuda_ref::device_free(src), cuda_ref::device_free(dst);
}

// ---------------------------------------------------------------- matmul

/** A matmul schedule: apps/matmul's (32x32 tiles, slices of A and B and
 *  the sums in shared memory), or register blocking: tiles of tile_w x
 *  tile_h outputs, each thread keeping rx x ry sums in registers (x
 *  vectorized, y unrolled), with the k loop unrolled by k_unroll; reading A
 *  and B through the cache (k_slice 0), or staging k_slice-wide slices of A
 *  and B in shared memory for the whole block (prod computed at the block
 *  and stored in MemoryType::Register: each thread keeps its own part).
 *  With staging:
 *  - a_k_major stores the slice of A transposed (reorder_storage: k
 *    outermost), so a thread's ry sums of one k read ry consecutive floats
 *    (float4 loads from shared memory). Row-major, nvcc combines the loads
 *    of 4 consecutive k of a row instead, which keeps 4 times as many
 *    values of A live (80 registers against 64 for 64x128, 4x8);
 *  - spread: each thread's rx x ry sums are two groups of rx/2 x ry/2, half
 *    a tile apart in x and y, instead of one block: the threads of a warp
 *    then read consecutive float4s of the B slice (no bank conflicts with
 *    8 sums of a row per thread);
 *  - a_rows_across_threads (with a_k_major): the threads next to each
 *    other in x stage the slice of A for rows next to each other, so their
 *    stores into the transposed slice hit different banks (each thread
 *    staging k values of one row conflicts in every store); the global
 *    reads are then short pieces of many rows;
 *  - a_vector_rows (with a_k_major): each thread stages 8 consecutive k of
 *    one row of A (one 32-byte vector load), the 32 lanes of a warp taking
 *    32 consecutive rows, so each of its 8 stores into the transposed
 *    slice hits 32 different banks (no conflicts, and no short reads). */
struct MatmulSchedule {
    const char *name;
    bool shared;
    int tile_w, tile_h, rx, ry, k_unroll, k_slice;
    bool a_k_major = false;
    bool spread = false;
    bool a_rows_across_threads = false;
    bool a_vector_rows = false;
};

const MatmulSchedule matmul_schedules[] = {
    {"loom: apps/matmul (shared, 32x32)", true, 32, 32, 1, 4, 1, 0},
    {"loom: regs 64x128, 4x8 per thread", false, 64, 128, 4, 8, 1, 0},
    {"loom: regs+smem 64x128, 4x8, k 16", false, 64, 128, 4, 8, 16, 16},
    {"loom: regs+smem 128x128, 8x8, k 16", false, 128, 128, 8, 8, 16, 16},
    {"loom: regs+smem 64x64, 4x4, k 16", false, 64, 64, 4, 4, 16, 16},
    {"loom: regs+smem 64x128, 4x8, k 16, A k-major", false, 64, 128, 4, 8, 16, 16, true},
    {"loom: regs+smem 128x64, 8x4, k 16, A k-major", false, 128, 64, 8, 4, 16, 16, true},
    {"loom: regs+smem 128x128, 8x8, k 16, A k-major", false, 128, 128, 8, 8, 16, 16, true},
    {"loom: regs+smem 128x128, 8x8, k 16, A k-major, spread", false, 128, 128, 8, 8, 16, 16, true,
     true},
    {"loom: regs+smem 64x128, 4x8, k 32, A k-major", false, 64, 128, 4, 8, 32, 32, true},
    {"loom: regs+smem 64x128, 4x8, k 16, A k-major by rows", false, 64, 128, 4, 8, 16, 16, true,
     false, true},
    {"loom: regs+smem 128x128, 8x8, k 16, A k-major by rows, spread", false, 128, 128, 8, 8, 16, 16,
     true, true, true},
    {"loom: regs+smem 128x128, 8x8, k 16, A k-major rows x8, spread", false, 128, 128, 8, 8, 16, 16,
     true, true, false, true},
    {"loom: regs+smem 128x128, 8x8, k 32, A k-major rows x8, spread", false, 128, 128, 8, 8, 32, 32,
     true, true, false, true},
    {"loom: regs+smem 64x128, 4x8, k 16, A k-major rows x8", false, 64, 128, 4, 8, 16, 16, true,
     false, false, true},
};

struct Matmul {
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, yr{"yr"}, xt{"xt"}, yt{"yt"},
        xr{"xr"}, xh{"xh"}, yh{"yh"};
    RVar ko{"ko"}, ki{"ki"};
    Func prod{"prod"}, a_tile{"a_tile"}, b_tile{"b_tile"}, out{"matmul"};
    /** Unscheduled without a schedule (for the auto-scheduler; then A and B
     *  are read directly, as a user would write it). */
    Matmul(const Buffer<float> &A, const Buffer<float> &B, const MatmulSchedule *schedule) {
        RDom k({{0, A.width()}}, "k");
        prod(x, y) = 0.0f;
        out(x, y) = prod(x, y);
        if (!schedule) {
            prod(x, y) += A(k, y) * B(x, k);
            return;
        }
        const MatmulSchedule &s = *schedule;
        a_tile(x, y) = A(x, y);
        b_tile(x, y) = B(x, y);
        prod(x, y) += a_tile(k, y) * b_tile(x, k);
        if (s.shared) {
            // apps/matmul's GPU schedule.
            out.tile(x, y, xo, yo, xi, yi, 32, 32)
                .split(yi, yi, yr, 4)
                .gpu_blocks(xo, yo)
                .gpu_threads(xi, yi)
                .unroll(yr);
            prod.compute_at(out, xo).split(y, y, yr, 4).gpu_threads(x, y).unroll(yr);
            prod.update()
                .split(k, ko, ki, 16)
                .split(y, y, yr, 4)
                .reorder(yr, ki, x, y, ko)
                .gpu_threads(x, y)
                .unroll(yr);
            const TailStrategy guard = TailStrategy::GuardWithIf;
            a_tile.compute_at(prod, ko).split(y, y, yr, 4, guard).gpu_threads(x, y).unroll(yr);
            b_tile.compute_at(prod, ko).split(y, y, yr, 2, guard).gpu_threads(x, y).unroll(yr);
            return;
        }
        if (s.k_slice == 0) {
            out.tile(x, y, xo, yo, xi, yi, s.tile_w, s.tile_h)
                .split(xi, xt, xr, s.rx)
                .split(yi, yt, yr, s.ry)
                .reorder(xr, yr, xt, yt, xo, yo)
                .gpu_blocks(xo, yo)
                .gpu_threads(xt, yt)
                .vectorize(xr)
                .unroll(yr);
            prod.compute_at(out, xt).vectorize(x, s.rx).unroll(y, s.ry);
            if (s.k_unroll > 1)
                prod.update()
                    .split(k, ko, ki, s.k_unroll)
                    .reorder(x, y, ki, ko)
                    .vectorize(x, s.rx)
                    .unroll(y, s.ry)
                    .unroll(ki);
            else
                prod.update().reorder(x, y, k).vectorize(x, s.rx).unroll(y, s.ry);
            return;
        }
        // The block's threads: tx x ty, each owning rx x ry sums: one block
        // of them, or (spread) two halves in x and in y, half a tile apart.
        const int tx = s.tile_w / s.rx, ty = s.tile_h / s.ry;
        const int vx = s.spread ? s.rx / 2 : s.rx, vy = s.spread ? s.ry / 2 : s.ry;
        auto own = [&](auto &st, VarOrRVar vx_outer, VarOrRVar vy_outer) {
            // x = xh * (tile_w / 2) + xt * vx + xr with spread, else xt * rx + xr.
            if (s.spread) {
                st.split(vx_outer, xh, vx_outer, s.tile_w / 2)
                    .split(vy_outer, yh, vy_outer, s.tile_h / 2);
            }
            st.split(vx_outer, xt, xr, vx).split(vy_outer, yt, yr, vy);
        };
        out.tile(x, y, xo, yo, xi, yi, s.tile_w, s.tile_h);
        own(out, xi, yi);
        if (s.spread)
            out.reorder(xr, yr, xh, yh, xt, yt, xo, yo).unroll(xh).unroll(yh);
        else
            out.reorder(xr, yr, xt, yt, xo, yo);
        out.gpu_blocks(xo, yo).gpu_threads(xt, yt).vectorize(xr).unroll(yr);
        prod.compute_at(out, xo).store_in(MemoryType::Register);
        own(prod, x, y);
        if (s.spread)
            prod.reorder(xr, yr, xh, yh, xt, yt).unroll(xh).unroll(yh);
        else
            prod.reorder(xr, yr, xt, yt);
        prod.gpu_threads(xt, yt).vectorize(xr).unroll(yr);
        Stage update = prod.update();
        update.split(k, ko, ki, s.k_slice);
        own(update, x, y);
        if (s.spread)
            update.reorder(xr, yr, xh, yh, ki, xt, yt, ko).unroll(xh).unroll(yh);
        else
            update.reorder(xr, yr, ki, xt, yt, ko);
        update.gpu_threads(xt, yt).vectorize(xr).unroll(yr).unroll(ki);
        // Each thread stages its share of the k_slice x tile_h slice of A
        // and the tile_w x k_slice slice of B.
        Var xa("xa"), ya("ya");
        a_tile.compute_at(prod, ko);
        if (s.a_vector_rows) {
            // k = kg * 8 + kv (kv one vector); row = (ya_all * 2 + yb) * tx + yl, where yl
            // is the thread in x, and the threads in y take (yb, kg, ya) with yb fastest, so
            // a warp's 32 lanes (16 in x, 2 in y) stage 32 consecutive rows of one k. What
            // does not fit in the block's threads is unrolled (yu).
            const int groups = s.k_slice / 8;
            const int row_pairs = s.tile_h / (2 * tx);
            const int per_thread = groups * row_pairs * 2 / ty;
            Var kg("kg"), kv("kv"), yl("yl"), yb("yb"), yhi("yhi"), yu("yu"), ya2("ya2"), t1("t1"),
                t2("t2");
            const TailStrategy exact = TailStrategy::RoundUp; // every split divides
            a_tile.split(x, kg, kv, 8, exact)
                .split(y, yhi, yl, tx, exact)
                .split(yhi, yhi, yb, 2, exact)
                .split(yhi, yu, ya2, row_pairs / per_thread, exact)
                .reorder(kv, yu, yl, yb, kg, ya2)
                .fuse(yb, kg, t1)
                .fuse(t1, ya2, t2)
                .vectorize(kv)
                .unroll(yu)
                .gpu_threads(yl, t2);
        } else if (s.a_rows_across_threads) {
            // y = ya * tx + y (threads in x), k split over the threads in y.
            a_tile.split(y, ya, y, tx);
            if (s.k_slice > ty) a_tile.split(x, x, xa, s.k_slice / ty).unroll(xa);
            if (s.k_slice > ty)
                a_tile.reorder(xa, ya, y, x);
            else
                a_tile.reorder(ya, y, x);
            a_tile.unroll(ya).gpu_threads(y, x);
        } else {
            a_tile.split(y, y, ya, s.tile_h / ty).unroll(ya);
            if (s.k_slice > tx) a_tile.split(x, x, xa, s.k_slice / tx).unroll(xa);
            a_tile.gpu_threads(x, y);
        }
        if (s.a_k_major) a_tile.reorder_storage(y, x);
        b_tile.compute_at(prod, ko).split(x, x, xa, s.tile_w / tx).vectorize(xa);
        if (s.k_slice > ty) b_tile.split(y, y, ya, s.k_slice / ty).unroll(ya);
        b_tile.gpu_threads(x, y);
    }
};

void bench_matmul(int N) {
    std::printf("matmul f32, %dx%d times %dx%d\n", N, N, N, N);
    Buffer<float> A(N, N, "A"), B(N, N, "B");
    uint32_t seed = 3;
    auto rnd = [&] {
        seed = seed * 1664525u + 1013904223u;
        return float(int((seed >> 9) % 2001) - 1000) / 1000.0f;
    };
    for (int yy = 0; yy < N; yy++)
        for (int xx = 0; xx < N; xx++) A(xx, yy) = rnd(), B(xx, yy) = rnd();
    const size_t bytes = size_t(N) * N * sizeof(float);
    float *dA = nullptr, *dB = nullptr, *dC = nullptr;
    if (have_cuda) {
        dA = static_cast<float *>(cuda_ref::device_alloc(bytes));
        dB = static_cast<float *>(cuda_ref::device_alloc(bytes));
        dC = static_cast<float *>(cuda_ref::device_alloc(bytes));
        cuda_ref::upload(dA, A.data(), bytes);
        cuda_ref::upload(dB, B.data(), bytes);
    }
    const double flops = 2.0 * N * double(N) * N;
    const int reps = N <= 1024 ? 20 : N <= 4096 ? 3 : 1;
    Side blas = reference_side(
        "cuBLAS SGEMM (FP32, no TF32)", [&] { cuda_ref::sgemm(N, N, N, dA, dB, dC, 1); }, reps);
    std::vector<Buffer<float>> outs;
    std::vector<std::unique_ptr<Matmul>> mms;
    std::vector<Side> sides =
        loom_sides(matmul_schedules, {N, N}, reps, &outs, [&](auto &schedule) {
            mms.push_back(std::make_unique<Matmul>(A, B, &schedule));
            return mms.back()->out;
        });
    if (N <= 4096)
        add_automatic_sides(&sides, {N, N}, reps, &outs, [&] {
            mms.push_back(std::make_unique<Matmul>(A, B, nullptr));
            return mms.back()->out;
        });
    time_and_print(blas, sides, reps, flops, "GFLOP/s");
    std::vector<float> C;
    if (have_cuda) {
        C.resize(size_t(N) * N);
        cuda_ref::download(C.data(), dC, bytes);
        cuda_ref::device_free(dA);
        cuda_ref::device_free(dB);
        cuda_ref::device_free(dC);
    }
    // Sums of N products of values in [-1, 1]: rounding grows with sqrt(N)
    // times the terms' size, whatever the order of the sum.
    const float tolerance = 1e-4f * std::sqrt(float(N)) * 8;
    for (size_t i = 0; i < outs.size(); i++) {
        if (!sides[i].ok) continue;
        Buffer<float> &o = outs[i];
        o.copy_to_host();
        long bad = 0;
        auto differs = [&](int xx, int yy, double e, const char *what) {
            if (std::fabs(o(xx, yy) - e) <= tolerance) return;
            if (bad++ < 3)
                std::printf("    %s: (%d, %d) = %g, %s %g\n", sides[i].name.c_str(), xx, yy,
                            o(xx, yy), what, e);
        };
        if (!C.empty())
            for (int yy = 0; yy < N; yy++)
                for (int xx = 0; xx < N; xx++) differs(xx, yy, C[size_t(yy) * N + xx], "cuBLAS");
        // Plain C++ on a few rows (double sums).
        for (int yy : {0, N / 3, N / 2 + 1, N - 1}) {
            std::vector<double> row(N, 0.0);
            for (int kk = 0; kk < N; kk++)
                for (int xx = 0; xx < N; xx++) row[xx] += double(A(kk, yy)) * B(xx, kk);
            for (int xx = 0; xx < N; xx++) differs(xx, yy, row[xx], "C++");
        }
        if (bad) fail(sides[i].name + ": " + std::to_string(bad) + " values differ");
    }
}

// ------------------------------------------------------------- histogram

/** A histogram schedule: every sample an atomic() on the global bins
 *  (chunk 0), or each block counting `chunk` samples into its own bins in
 *  shared memory (rfactor) with `threads` threads, then adding them to the
 *  global bins with one atomic per bin. threads_outer: each thread's loop
 *  over its samples inside the thread loop (no barrier between steps);
 *  else the block steps through the chunk together. */
struct HistogramSchedule {
    const char *name;
    int chunk, threads;
    bool threads_outer;
    int vec = 1;    // samples per thread and step, loaded as one vector
    int unroll = 1; // steps of a thread unrolled (loads of several steps in flight)
    int blocks = 0; // > 0: that many blocks, each taking every blocks-th tile of
                    // threads x vec samples (grid-stride, as CUB): an even wave
};

const HistogramSchedule histogram_schedules[] = {
    {"loom: atomic() into global bins", 0, 256, false},
    {"loom: shared bins, 8192/block, 256 thr", 8192, 256, false},
    {"loom: shared bins, 32768/block, thr outer", 32768, 256, true},
    {"loom: shared bins, 65536/block, 1024 outer", 65536, 1024, true},
    {"loom: shared bins, 131072/block, 1024 outer", 131072, 1024, true},
    {"loom: shared bins, 131072/block, 1024 outer, x4", 131072, 1024, true, 4},
    {"loom: shared bins, 65536/block, 1024 outer, x4", 65536, 1024, true, 4},
    {"loom: shared bins, 131072/block, 512 outer, x8", 131072, 512, true, 8},
    {"loom: shared bins, 131072/block, 256 outer, x16", 131072, 256, true, 16},
    {"loom: shared bins, 262144/block, 1024 outer, x4", 262144, 1024, true, 4},
    {"loom: shared bins, 65536/block, 512 outer, x4", 65536, 512, true, 4},
    {"loom: shared bins, 131072/block, 256 outer, x16, unroll 4", 131072, 256, true, 16, 4},
    {"loom: shared bins, 65536/block, 256 outer, x16", 65536, 256, true, 16},
    {"loom: shared bins, 65536/block, 256 outer, x16, unroll 2", 65536, 256, true, 16, 2},
    {"loom: shared bins, 262144/block, 512 outer, x16, unroll 2", 262144, 512, true, 16, 2},
    {"loom: shared bins, 131072/block, 128 outer, x16, unroll 2", 131072, 128, true, 16, 2},
    {"loom: shared bins, 528 blocks, 512 thr, x16, strided", 0, 512, true, 16, 1, 528},
    {"loom: shared bins, 264 blocks, 1024 thr, x16, strided", 0, 1024, true, 16, 1, 264},
};

struct Histogram {
    Func hist{"hist"};
    Histogram(const Buffer<uint8_t> &in, const HistogramSchedule &s) {
        Var x("x"), u("u"), xo("xo"), xi("xi");
        RDom r({{0, in.width()}}, "r");
        RVar ro("ro"), ri("ri"), rio("rio"), rii("rii");
        hist(x) = 0;
        hist(cast<int>(in(r))) += 1;
        hist.gpu_tile(x, xo, xi, 256);
        if (s.blocks > 0) {
            // Tiles of threads x vec samples; block b takes tiles b, b + blocks, ...
            // (the last round guarded), each thread one vector per tile.
            RVar rt("rt"), rm("rm"), rb("rb"), rv("rv");
            Func intm = hist.update()
                            .split(r.x, rt, ri, s.threads * s.vec)
                            .split(rt, rm, rb, s.blocks)
                            .rfactor(rb, u);
            hist.update().atomic().reorder(x, rb).gpu_blocks(rb).gpu_threads(x);
            intm.compute_at(hist, rb).store_in(MemoryType::GPUShared).gpu_threads(x);
            intm.update()
                .atomic()
                .split(ri, ri, rv, s.vec)
                .reorder(rv, rm, ri)
                .vectorize(rv)
                .gpu_threads(ri);
            return;
        }
        if (s.chunk == 0) {
            hist.update().atomic().split(r.x, ro, ri, s.threads).gpu_blocks(ro).gpu_threads(ri);
            return;
        }
        Func intm = hist.update().split(r.x, ro, ri, s.chunk).rfactor(ro, u);
        hist.update().atomic().reorder(x, ro).gpu_blocks(ro).gpu_threads(x);
        intm.compute_at(hist, ro).store_in(MemoryType::GPUShared).gpu_threads(x);
        Stage update = intm.update();
        // Each step of a thread takes `vec` neighbouring samples (one
        // vector load; the bins are updated one sample at a time).
        RVar rv("rv");
        update.atomic().split(ri, ri, rv, s.vec).split(ri, rio, rii, s.threads);
        if (s.threads_outer) update.reorder(rv, rio, rii);
        if (s.unroll > 1) {
            RVar rit("rit");
            update.split(rio, rio, rit, s.unroll).reorder(rv, rit, rio, rii).unroll(rit);
        }
        update.vectorize(rv).gpu_threads(rii);
    }
};

void bench_histogram() {
    const int n = have_cuda ? 64 << 20 : 4 << 20;
    std::printf("histogram, 256 bins of %d uint8 samples\n", n);
    Buffer<uint8_t> in(n);
    uint32_t seed = 11;
    std::vector<int> expected(256, 0);
    for (int i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        // Not uniform: a few bins are hot, as in a real image.
        uint32_t v = (seed >> 8) % 1024;
        uint8_t b = uint8_t(v < 512 ? v % 16 + 100 : v % 256);
        in(i) = b;
        expected[b]++;
    }
    uint8_t *d_in = nullptr;
    int *d_bins = nullptr;
    if (have_cuda) {
        d_in = static_cast<uint8_t *>(cuda_ref::device_alloc(n));
        d_bins = static_cast<int *>(cuda_ref::device_alloc(256 * sizeof(int)));
        cuda_ref::upload(d_in, in.data(), n);
    }
    const int reps = 20;
    Side cub = reference_side(
        "CUB DeviceHistogram::HistogramEven", [&] { cuda_ref::histogram(d_in, n, d_bins, 1); },
        reps);
    std::vector<Buffer<int>> outs;
    std::vector<std::unique_ptr<Histogram>> hists;
    std::vector<Side> sides =
        loom_sides(histogram_schedules, {256}, reps, &outs, [&](auto &schedule) {
            hists.push_back(std::make_unique<Histogram>(in, schedule));
            return hists.back()->hist;
        });
    time_and_print(cub, sides, reps, double(n), "Gsamples/s");
    for (size_t i = 0; i < outs.size(); i++) {
        if (!sides[i].ok) continue;
        outs[i].copy_to_host();
        for (int b = 0; b < 256; b++)
            if (outs[i](b) != expected[b]) {
                fail(sides[i].name + ": differs from plain C++ at bin " + std::to_string(b));
                break;
            }
    }
    if (have_cuda) {
        std::vector<int> c(256);
        cuda_ref::download(c.data(), d_bins, 256 * sizeof(int));
        if (c != expected) fail("CUB's histogram differs from plain C++");
        cuda_ref::device_free(d_in);
        cuda_ref::device_free(d_bins);
    }
}

// -------------------------------------------------------- first realize

// In a child process: compile and realize each pipeline once, printing one
// line per pipeline.
int latency_child() {
    std::string device, error;
    auto t0 = Clock::now();
    have_cuda = cuda_ref::init(&device, &error);
    if (have_cuda) std::printf("      CUDA context %.1f ms\n", ms_since(t0));
    Buffer<uint16_t> bin(1026, 1026);
    Buffer<float> A(256, 256, "A"), B(256, 256, "B");
    Buffer<uint8_t> hin(1 << 20);
    bin.fill(1), A.fill(1.0f), B.fill(1.0f), hin.fill(3);
    Blur blur(bin, &blur_schedules[0]);
    Matmul mm(A, B, &matmul_schedules[1]);
    Histogram hist(hin, histogram_schedules[1]);
    struct Case {
        const char *name;
        Func f;
        std::vector<int> sizes;
    } cases[] = {{"blur", blur.out, {1024, 1024}},
                 {"matmul", mm.out, {256, 256}},
                 {"histogram", hist.hist, {256}}};
    for (Case &c : cases) {
        Pipeline p(c.f);
        auto c0 = Clock::now();
        p.compile_jit(gpu_target());
        double compile_ms = ms_since(c0);
        auto r0 = Clock::now();
        Realization r = p.realize(c.sizes, gpu_target());
        r[0].device_sync();
        double realize_ms = ms_since(r0);
        std::printf("      %-10s compile_jit %7.1f ms   first realize %7.1f ms\n", c.name,
                    compile_ms, realize_ms);
    }
    if (have_cuda) cuda_ref::shutdown();
    return 0;
}

void bench_latency(const char *self) {
    std::printf("first realize (%s + one run), after compile_jit\n",
                have_cuda ? "NVRTC + module load" : "OpenCL program build");
    std::filesystem::path cache = std::filesystem::temp_directory_path() /
                                  ("loom_perf_cuda_cache." + std::to_string(getpid()));
    std::filesystem::remove_all(cache);
    std::filesystem::create_directories(cache);
    for (const char *which : {"cold (empty kernel cache)", "warm disk cache, new process"}) {
        std::printf("    %s\n", which);
        std::fflush(stdout);
        std::string cmd = "LOOM_KERNEL_CACHE_DIR='" + cache.string() + "' POCL_CACHE_DIR='" +
                          cache.string() + "/pocl' '" + self + "' --latency-child";
        if (std::system(cmd.c_str()) != 0) fail(std::string("latency child: ") + which);
    }
    std::filesystem::remove_all(cache);
}

} // namespace

// Prints the CUDA C source of one Loom side, for reading it or handing it
// to nvcc/ptxas/cuobjdump on a machine without a GPU; index -1 is the
// auto-scheduled side of blur or matmul.
int print_source(const std::string &bench, int index) {
    Target cuda = get_host_target().with_feature(Target::CUDA);
    Buffer<uint16_t> bin(1026, 1026);
    Buffer<float> A(1024, 1024, "A"), B(1024, 1024, "B");
    Buffer<uint8_t> hin(1 << 20);
    if (index == -1 && (bench == "blur" || bench == "matmul")) {
        Blur blur(bin, nullptr);
        Matmul mm(A, B, nullptr);
        Pipeline p(bench == "blur" ? blur.out : mm.out);
        std::vector<int> sizes{1024, 1024};
        std::fputs(p.apply_autoscheduler(sizes, cuda).schedule_source.c_str(), stdout);
        std::fputs(p.outputs()[0].device_source({}, cuda).c_str(), stdout);
        return 0;
    }
    auto pick = [&](const auto &schedules) -> const auto & {
        const int n = int(std::size(schedules));
        if (index < 0 || index >= n)
            throw std::runtime_error(bench + " has sides 0 to " + std::to_string(n - 1));
        return schedules[index];
    };
    Func f;
    std::unique_ptr<Blur> blur;
    std::unique_ptr<Matmul> mm;
    std::unique_ptr<Histogram> hist;
    if (bench == "blur") {
        blur = std::make_unique<Blur>(bin, &pick(blur_schedules));
        f = blur->out;
    } else if (bench == "matmul") {
        mm = std::make_unique<Matmul>(A, B, &pick(matmul_schedules));
        f = mm->out;
    } else if (bench == "histogram") {
        hist = std::make_unique<Histogram>(hin, pick(histogram_schedules));
        f = hist->hist;
    } else {
        throw std::runtime_error("--source takes blur, matmul or histogram, not " + bench);
    }
    std::fputs(f.device_source({}, cuda).c_str(), stdout);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && std::strcmp(argv[1], "--latency-child") == 0) return latency_child();
    if (argc == 4 && std::strcmp(argv[1], "--source") == 0) {
        try {
            return print_source(argv[2],
                                std::strcmp(argv[3], "auto") == 0 ? -1 : std::atoi(argv[3]));
        } catch (const std::exception &e) {
            std::fprintf(stderr, "perf_cuda: %s\n", e.what());
            return 1;
        }
    }
    std::vector<std::string> which;
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            only_sides = argv[++i];
            continue;
        }
        if (std::strcmp(argv[i], "--tune") == 0 && i + 1 < argc) {
            tune_seconds = std::atof(argv[++i]);
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(argv[i][0])))
            runs = std::max(1, std::atoi(argv[i]));
        else
            which.push_back(argv[i]);
    }
    auto wanted = [&](const char *name) {
        return which.empty() || std::find(which.begin(), which.end(), name) != which.end();
    };
    std::string device, error;
    have_cuda = cuda_ref::init(&device, &error);
    std::printf("perf_cuda: CPU %s; target %s\n", cpu_model().c_str(),
                gpu_target().to_string().c_str());
    if (have_cuda)
        std::printf("GPU %s; medians of %d runs\n", device.c_str(), runs);
    else
        std::printf("no CUDA device here (%s): the Loom sides run through OpenCL on smaller "
                    "inputs, without references; medians of %d runs\n",
                    error.c_str(), runs);
    try {
        if (wanted("blur")) bench_blur();
        if (wanted("matmul"))
            for (int N : have_cuda ? std::vector<int>{1024, 4096, 8192} : std::vector<int>{512})
                bench_matmul(N);
        if (wanted("histogram")) bench_histogram();
        if (wanted("latency")) bench_latency(argv[0]);
    } catch (const std::exception &e) {
        fail(std::string("exception: ") + e.what());
    }
    if (have_cuda) cuda_ref::shutdown();
    std::printf("perf_cuda: %s\n", failures ? "FAILURES" : "all outputs correct");
    return failures ? 1 : 0;
}
