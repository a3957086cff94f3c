// JIT compile time of a one-stage pointwise pipeline: the first in a process
// (includes LLVM start-up) and the median of later ones (fresh Funcs, so
// nothing is cached). Run on demand; prints figures, asserts nothing.

#include <Loom.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <vector>

struct Timing {
    double wall_ms, cpu_ms;
};

// Thread CPU time is reported beside wall time: on a loaded machine it still
// shows what the compile itself costs.
static double thread_cpu_ms() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

static Timing compile_once(int i) {
    loom::Var x("x"), y("y");
    loom::ImageParam in(loom::Float(32), 2, "in");
    loom::Func f("pointwise_" + std::to_string(i));
    f(x, y) = in(x, y) * 2.0f + float(i);
    double c0 = thread_cpu_ms();
    auto t0 = std::chrono::steady_clock::now();
    f.compile_jit();
    auto t1 = std::chrono::steady_clock::now();
    return {std::chrono::duration<double, std::milli>(t1 - t0).count(), thread_cpu_ms() - c0};
}

static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main(int argc, char **argv) {
    int runs = argc > 1 ? std::atoi(argv[1]) : 20;
    Timing first = compile_once(0);
    std::vector<double> wall, cpu;
    for (int i = 1; i <= runs; i++) {
        Timing t = compile_once(i);
        wall.push_back(t.wall_ms);
        cpu.push_back(t.cpu_ms);
    }
    std::printf("jit compile, first Func in process: %.1f ms wall, %.1f ms thread CPU\n",
                first.wall_ms, first.cpu_ms);
    std::printf("jit compile, later Funcs (median of %d): %.2f ms wall, %.2f ms thread CPU\n", runs,
                median(wall), median(cpu));
    return 0;
}
