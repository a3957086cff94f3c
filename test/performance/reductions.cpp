// perf_reductions: reduction benchmarks: a float matrix multiply (992x992;
// Halide's schedule and a schedule tuned for Loom on an AVX-512 CPU) and a
// 256-bin histogram of a 4096x4096 uint8 image (serial, and rfactor over
// blocks of rows in parallel). Prints the median and minimum run time of N
// runs (default 10, argv[1]), GFLOP/s for matmul, and the JIT compile time.
// argv[2], if given, times only the benchmarks whose name starts with it:
// matmul_halide (Halide's schedule), matmul_tuned, histogram_serial,
// histogram_rfactor; e.g. "matmul" times both matrix multiplies.
// Built with LOOM_WITH_HALIDE, the same pipelines also run on Halide 14 in
// this process and Loom/Halide ratios are printed; built with
// LOOM_WITH_OPENBLAS, OpenBLAS's cblas_sgemm (as many threads as Loom's pool)
// runs beside the matmuls and Loom/OpenBLAS GFLOP/s ratios are printed. Runs
// of the sides compared alternate. Each output is checked against plain C++;
// exit code 1 on a wrong output. Asserts nothing about time.

#include <Loom.h>

#include "bench_util.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace loom_side {
namespace L = loom;
#include "reductions_pipelines.inc"
} // namespace loom_side

#ifdef LOOM_WITH_OPENBLAS
#include <cblas.h>

#include "runtime/RuntimeFunctions.h" // loom_get_num_threads
#endif

#ifdef LOOM_WITH_HALIDE
#include <Halide.h>
namespace halide_side {
namespace L = Halide;
#include "reductions_pipelines.inc"
} // namespace halide_side
#endif

namespace {

using bench::Clock;
using bench::median;
using bench::ms_since;
using bench::Side;
using bench::time_runs;

// Prints each side's median and minimum run time; with `flops` (the work of
// one run) also GFLOP/s from the median. Ratios: Loom/Halide run time, and
// for a flop count Loom/OpenBLAS GFLOP/s (1.0 = as fast as OpenBLAS).
void report(const char *what, const std::vector<Side *> &sides, double flops = 0) {
    std::printf("%s\n", what);
    const Side *loom = nullptr, *halide = nullptr, *blas = nullptr;
    for (Side *s : sides) {
        if (!s->ok) {
            std::printf("  %-8s FAILED%s%s\n", s->name.c_str(), s->error.empty() ? "" : ": ",
                        s->error.c_str());
            continue;
        }
        if (s->name == "loom") loom = s;
        if (s->name == "halide") halide = s;
        if (s->name == "openblas") blas = s;
        std::printf("  %-8s run: median %9.3f ms (min %9.3f)", s->name.c_str(), s->median_ms(),
                    s->min_ms());
        if (flops > 0)
            std::printf("  %6.1f GFLOP/s (best %6.1f)", flops / s->median_ms() * 1e-6,
                        flops / s->min_ms() * 1e-6);
        if (s->compile_ms > 0) std::printf("   jit compile: %7.1f ms", s->compile_ms);
        if (std::getenv("BENCH_CPU")) std::printf("   cpu: %7.2f ms", s->median_cpu_ms());
        std::printf("\n");
    }
    if (loom && halide)
        std::printf("  loom/halide: run time %.2fx (min %.2fx)\n",
                    loom->median_ms() / halide->median_ms(), loom->min_ms() / halide->min_ms());
    if (loom && blas && flops > 0)
        std::printf("  loom/openblas: GFLOP/s %.2fx (best %.2fx)\n",
                    blas->median_ms() / loom->median_ms(), blas->min_ms() / loom->min_ms());
}

constexpr int N = 992, W = 4096, H = 4096;

// The matrices, row-major and 64-byte aligned. Every side reads these same
// bytes (Loom's and Halide's buffers wrap them, OpenBLAS takes the pointers),
// so where an input lies in memory (its alignment, its cache sets) cannot
// favour one side.
struct FreeDeleter {
    void operator()(float *p) const { std::free(p); }
};
std::unique_ptr<float[], FreeDeleter> a_data, b_data;

std::unique_ptr<float[], FreeDeleter> aligned_matrix() {
    return std::unique_ptr<float[], FreeDeleter>(
        static_cast<float *>(std::aligned_alloc(64, sizeof(float) * size_t(N) * N)));
}
std::vector<uint8_t> image_data;

bool check_matmul(const std::function<float(int, int)> &out) {
    std::mt19937 rng(7);
    for (int t = 0; t < 200; t++) {
        int x = int(rng() % N), y = int(rng() % N);
        double s = 0;
        for (int k = 0; k < N; k++)
            s += double(a_data[size_t(y * N + k)]) * b_data[size_t(k * N + x)];
        if (std::abs(out(x, y) - s) > 1e-3 * (1 + std::abs(s))) {
            std::printf("matmul wrong at (%d, %d): %f instead of %f\n", x, y, out(x, y), s);
            return false;
        }
    }
    return true;
}

bool check_histogram(const std::function<int(int)> &out) {
    std::vector<int> ref(256, 0);
    for (uint8_t v : image_data) ref[v]++;
    for (int b = 0; b < 256; b++)
        if (out(b) != ref[size_t(b)]) {
            std::printf("histogram wrong at bin %d: %d instead of %d\n", b, out(b), ref[size_t(b)]);
            return false;
        }
    return true;
}

/** Sets up one side (Loom or Halide): the benchmarks. */
template <typename Buf32f, typename Buf8, typename Buf32i, typename MM, typename MMTuned,
          typename Hist>
struct Bench {
    Side matmul, matmul_tuned, hist_serial, hist_rfactor;
    bool correct = true;

    // Compiles a matmul pipeline, checks one output and prepares its runs.
    // The runs realize the same Func object that was compiled: a fresh copy
    // from output() has no compiled pipeline yet and would JIT again.
    template <typename P> void set_up_matmul(Side &s, const Buf32f &a, const Buf32f &b) {
        auto p = std::make_shared<P>();
        p->A.set(a);
        p->B.set(b);
        auto f = p->output();
        auto t0 = Clock::now();
        f.compile_jit();
        s.compile_ms = ms_since(t0);
        auto out = std::make_shared<Buf32f>(N, N);
        f.realize(*out);
        correct = check_matmul([&](int x, int y) { return (*out)(x, y); }) && correct;
        s.run = [p, f, out]() mutable { f.realize(*out); };
        s.ok = true;
    }

    explicit Bench(const std::string &who) {
        matmul.name = matmul_tuned.name = hist_serial.name = hist_rfactor.name = who;
        Buf32f a(a_data.get(), std::vector<int>{N, N}), b(b_data.get(), std::vector<int>{N, N});
        Buf8 im(W, H);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) im(x, y) = image_data[size_t(y * W + x)];

        set_up_matmul<MM>(matmul, a, b);
        set_up_matmul<MMTuned>(matmul_tuned, a, b);
        for (int factored = 0; factored < 2; factored++) {
            Side &s = factored ? hist_rfactor : hist_serial;
            auto p = std::make_shared<Hist>(factored != 0);
            p->input.set(im);
            auto f = p->output(); // compiled and run as one object (see set_up_matmul)
            auto t0 = Clock::now();
            f.compile_jit();
            s.compile_ms = ms_since(t0);
            auto out = std::make_shared<Buf32i>(256);
            f.realize(*out);
            correct = correct && check_histogram([&](int i) { return (*out)(i); });
            s.run = [p, f, out]() mutable { f.realize(*out); };
            s.ok = true;
        }
    }
};

#ifdef LOOM_WITH_OPENBLAS
// cblas_sgemm on the same matrices (row-major, so A(k, y) is a_data[y * N + k]),
// with as many threads as Loom's pool.
Side openblas_matmul() {
    Side s;
    s.name = "openblas";
    openblas_set_num_threads(loom_get_num_threads());
    auto out = std::make_shared<std::vector<float>>(size_t(N) * N);
    auto run = [out] {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1.0f, a_data.get(), N,
                    b_data.get(), N, 0.0f, out->data(), N);
    };
    run();
    s.ok = check_matmul([&](int x, int y) { return (*out)[size_t(y) * N + size_t(x)]; });
    if (!s.ok) s.error = "wrong output";
    s.run = run;
    return s;
}
#endif

} // namespace

int main(int argc, char **argv) {
    int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 10;
    const std::string only = argc > 2 ? argv[2] : "";
    auto wanted = [&](const std::string &name) { return name.compare(0, only.size(), only) == 0; };
    std::mt19937 rng(1);
    a_data = aligned_matrix();
    b_data = aligned_matrix();
    for (size_t i = 0; i < size_t(N) * N; i++) a_data[i] = float(int(rng() % 200) - 100) / 64.0f;
    for (size_t i = 0; i < size_t(N) * N; i++) b_data[i] = float(int(rng() % 200) - 100) / 64.0f;
    image_data.resize(size_t(W) * H);
    for (uint8_t &v : image_data) v = uint8_t(rng() >> 24);

    Bench<loom::Buffer<float>, loom::Buffer<uint8_t>, loom::Buffer<int>, loom_side::MatMul,
          loom_side::MatMulTuned, loom_side::Histogram>
        lb("loom");
    bool correct = lb.correct;
#ifdef LOOM_WITH_HALIDE
    Bench<Halide::Buffer<float>, Halide::Buffer<uint8_t>, Halide::Buffer<int>, halide_side::MatMul,
          halide_side::MatMulTuned, halide_side::Histogram>
        hb("halide");
    correct = correct && hb.correct;
    std::vector<Side *> mm{&lb.matmul, &hb.matmul}, mt{&lb.matmul_tuned, &hb.matmul_tuned},
        hs{&lb.hist_serial, &hb.hist_serial}, hr{&lb.hist_rfactor, &hb.hist_rfactor};
#else
    std::vector<Side *> mm{&lb.matmul}, mt{&lb.matmul_tuned}, hs{&lb.hist_serial},
        hr{&lb.hist_rfactor};
#endif
    // The Loom and Halide matmul sides alternate in one loop.
    std::vector<Side *> all_mm;
    if (wanted("matmul_halide")) all_mm.insert(all_mm.end(), mm.begin(), mm.end());
    if (wanted("matmul_tuned")) all_mm.insert(all_mm.end(), mt.begin(), mt.end());
    time_runs(all_mm, runs);
#ifdef LOOM_WITH_OPENBLAS
    // OpenBLAS is timed on its own, afterwards: its threads busy-wait for a
    // long time after each call and took a core from whichever side ran next
    // (Loom's medians doubled).
    Side blas = openblas_matmul();
    correct = correct && blas.ok;
    if (!all_mm.empty()) {
        time_runs({&blas}, runs);
        mm.push_back(&blas);
        mt.push_back(&blas);
    }
#endif
    if (wanted("histogram_serial")) time_runs(hs, runs);
    if (wanted("histogram_rfactor")) time_runs(hr, runs);
    const double mm_flops = 2.0 * N * N * N;
    if (wanted("matmul_halide")) report("matmul: float 992x992, Halide's schedule", mm, mm_flops);
    if (wanted("matmul_tuned"))
        report("matmul: float 992x992, Loom-tuned schedule (MatMulTuned)", mt, mm_flops);
    if (wanted("histogram_serial")) report("histogram: 256 bins of uint8 4096x4096, serial", hs);
    if (wanted("histogram_rfactor"))
        report("histogram: 256 bins of uint8 4096x4096, rfactor over blocks of 64 rows, parallel",
               hr);
    if (!correct) std::printf("WRONG OUTPUT\n");
    return correct ? 0 : 1;
}
