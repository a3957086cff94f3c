// perf_autoschedule_rfactor: a 256-bin histogram of a 3001x2003 uint8 image
// (the size of the hist app's benchmark) under the Loom auto-scheduler,
// which factors it (rfactor: partial histograms per chunk of rows in
// parallel, a vectorized merge), against the serial schedule it chose
// before (bins vectorized, the update serial). Runs alternate; prints the
// median and minimum of N runs each (default 15, argv[1]) and the ratio,
// with the CPU model. Each output is checked against plain C++ (exit code 1
// when wrong). Asserts nothing about time.

#include <Loom.h>

#include "bench_util.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

std::string cpu_model() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);)
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "unknown";
}

loom::Func histogram(const loom::Buffer<uint8_t> &im) {
    loom::Func hist("hist");
    loom::Var i("i");
    loom::RDom r(0, im.width(), 0, im.height(), "r");
    hist(i) = 0;
    hist(loom::cast<int>(im(r.x, r.y))) += 1;
    return hist;
}

} // namespace

int main(int argc, char **argv) {
    using namespace loom;
    const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 15;
    const int W = 3001, H = 2003;
    Buffer<uint8_t> im(W, H);
    uint32_t s = 2463534242u;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            im(x, y) = uint8_t(s >> 24);
        }
    std::vector<int> ref(256, 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) ref[im(x, y)]++;
    Target t = get_jit_target_from_environment();

    Func serial = histogram(im);
    serial.vectorize(Var("i"), t.natural_vector_size(Int(32)));
    Func automatic = histogram(im);
    Pipeline ap(automatic);
    AutoSchedulerResults chosen = ap.apply_autoscheduler({256}, t);

    bool correct = true;
    std::vector<bench::Side> sides(2);
    sides[0].name = "serial";
    sides[1].name = "auto";
    Pipeline pipelines[2] = {Pipeline(serial), ap};
    std::vector<Buffer<int>> outs = {Buffer<int>(256), Buffer<int>(256)};
    for (int k = 0; k < 2; k++) {
        bench::Side &side = sides[size_t(k)];
        Pipeline p = pipelines[k];
        Buffer<int> out = outs[size_t(k)];
        auto t0 = bench::Clock::now();
        p.compile_jit(t);
        side.compile_ms = bench::ms_since(t0);
        side.run = [p, out]() mutable { p.realize(out); };
        side.run();
        for (int b = 0; b < 256; b++)
            if (out(b) != ref[size_t(b)]) {
                std::printf("%s: bin %d is %d instead of %d\n", side.name.c_str(), b, out(b),
                            ref[size_t(b)]);
                correct = false;
                break;
            }
        side.ok = true;
    }
    bench::time_runs({&sides[0], &sides[1]}, runs);
    std::printf("CPU: %s, %u hardware threads; target %s\n", cpu_model().c_str(),
                std::thread::hardware_concurrency(), t.to_string().c_str());
    std::printf("histogram: 256 bins of uint8 %dx%d, %d runs each, alternating\n", W, H, runs);
    for (const bench::Side &side : sides)
        std::printf("  %-7s median %8.3f ms (min %8.3f)  jit compile %7.1f ms\n", side.name.c_str(),
                    side.median_ms(), side.min_ms(), side.compile_ms);
    std::printf("  serial / auto: %.2f (median), %.2f (min)\n",
                sides[0].median_ms() / sides[1].median_ms(), sides[0].min_ms() / sides[1].min_ms());
    std::printf("auto schedule:\n%s", chosen.schedule_source.c_str());
    return correct ? 0 : 1;
}
