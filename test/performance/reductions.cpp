// perf_reductions: reduction benchmarks: a float matrix multiply (992x992,
// Halide's schedule) and a 256-bin histogram of a 4096x4096 uint8 image
// (serial, and rfactor with parallel rows). Prints the median run time of N
// runs (default 10, argv[1]) and the JIT compile time. Built with
// LOOM_WITH_HALIDE, the same pipelines also run on Halide 14 in this process
// (runs alternate) and Loom/Halide ratios are printed. Each output is
// checked against plain C++; exit code 1 on a wrong output. Asserts nothing
// about time.

#include <Loom.h>

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

#ifdef LOOM_WITH_HALIDE
#include <Halide.h>
namespace halide_side {
namespace L = Halide;
#include "reductions_pipelines.inc"
} // namespace halide_side
#endif

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Side {
    std::string name;
    bool ok = false;
    double compile_ms = 0;
    std::function<void()> run;
    std::vector<double> times;
};

void time_runs(std::vector<Side *> sides, int runs) {
    for (int i = 0; i < runs; i++)
        for (Side *s : sides) {
            if (!s->ok) continue;
            auto t0 = Clock::now();
            s->run();
            s->times.push_back(ms_since(t0));
        }
}

void report(const char *what, const std::vector<Side *> &sides) {
    std::printf("%s\n", what);
    for (Side *s : sides) {
        if (!s->ok) {
            std::printf("  %-7s FAILED\n", s->name.c_str());
            continue;
        }
        std::printf("  %-7s run: median %9.3f ms (min %9.3f)   jit compile: %7.1f ms\n",
                    s->name.c_str(), median(s->times),
                    *std::min_element(s->times.begin(), s->times.end()), s->compile_ms);
    }
    if (sides.size() == 2 && sides[0]->ok && sides[1]->ok)
        std::printf("  loom/halide: run time %.2fx\n",
                    median(sides[0]->times) / median(sides[1]->times));
}

constexpr int N = 992, W = 4096, H = 4096;

std::vector<float> a_data, b_data;
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

/** Sets up one side (Loom or Halide): the three benchmarks. */
template <typename Buf32f, typename Buf8, typename Buf32i, typename MM, typename Hist>
struct Bench {
    Side matmul, hist_serial, hist_rfactor;
    bool correct = true;

    explicit Bench(const std::string &who) {
        matmul.name = hist_serial.name = hist_rfactor.name = who;
        Buf32f a(N, N), b(N, N);
        for (int y = 0; y < N; y++)
            for (int x = 0; x < N; x++) {
                a(x, y) = a_data[size_t(y * N + x)];
                b(x, y) = b_data[size_t(y * N + x)];
            }
        Buf8 im(W, H);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) im(x, y) = image_data[size_t(y * W + x)];

        {
            auto p = std::make_shared<MM>();
            p->A.set(a);
            p->B.set(b);
            auto t0 = Clock::now();
            p->output().compile_jit();
            matmul.compile_ms = ms_since(t0);
            auto out = std::make_shared<Buf32f>(N, N);
            p->output().realize(*out);
            correct = correct && check_matmul([&](int x, int y) { return (*out)(x, y); });
            matmul.run = [p, out] { p->output().realize(*out); };
            matmul.ok = true;
        }
        for (int factored = 0; factored < 2; factored++) {
            Side &s = factored ? hist_rfactor : hist_serial;
            auto p = std::make_shared<Hist>(factored != 0);
            p->input.set(im);
            auto t0 = Clock::now();
            p->output().compile_jit();
            s.compile_ms = ms_since(t0);
            auto out = std::make_shared<Buf32i>(256);
            p->output().realize(*out);
            correct = correct && check_histogram([&](int i) { return (*out)(i); });
            s.run = [p, out] { p->output().realize(*out); };
            s.ok = true;
        }
    }
};

} // namespace

int main(int argc, char **argv) {
    int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 10;
    std::mt19937 rng(1);
    a_data.resize(size_t(N) * N);
    b_data.resize(size_t(N) * N);
    for (float &v : a_data) v = float(int(rng() % 200) - 100) / 64.0f;
    for (float &v : b_data) v = float(int(rng() % 200) - 100) / 64.0f;
    image_data.resize(size_t(W) * H);
    for (uint8_t &v : image_data) v = uint8_t(rng() >> 24);

    Bench<loom::Buffer<float>, loom::Buffer<uint8_t>, loom::Buffer<int>, loom_side::MatMul,
          loom_side::Histogram>
        lb("loom");
    bool correct = lb.correct;
#ifdef LOOM_WITH_HALIDE
    Bench<Halide::Buffer<float>, Halide::Buffer<uint8_t>, Halide::Buffer<int>, halide_side::MatMul,
          halide_side::Histogram>
        hb("halide");
    correct = correct && hb.correct;
    std::vector<Side *> mm{&lb.matmul, &hb.matmul}, hs{&lb.hist_serial, &hb.hist_serial},
        hr{&lb.hist_rfactor, &hb.hist_rfactor};
#else
    std::vector<Side *> mm{&lb.matmul}, hs{&lb.hist_serial}, hr{&lb.hist_rfactor};
#endif
    time_runs(mm, runs);
    time_runs(hs, runs);
    time_runs(hr, runs);
    report("matmul: float 992x992, Halide's schedule", mm);
    report("histogram: 256 bins of uint8 4096x4096, serial", hs);
    report("histogram: 256 bins of uint8 4096x4096, rfactor over rows, parallel", hr);
    if (!correct) std::printf("WRONG OUTPUT\n");
    return correct ? 0 : 1;
}
