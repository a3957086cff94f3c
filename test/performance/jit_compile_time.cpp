// JIT compile time of a one-stage pointwise pipeline: the first in a process
// (includes LLVM start-up) and the median of later ones (fresh Funcs, so
// nothing is cached). Run on demand; prints figures, asserts nothing.

#include <Loom.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

static double compile_once(int i) {
    loom::Var x("x"), y("y");
    loom::ImageParam in(loom::Float(32), 2, "in");
    loom::Func f("pointwise_" + std::to_string(i));
    f(x, y) = in(x, y) * 2.0f + float(i);
    auto t0 = std::chrono::steady_clock::now();
    f.compile_jit();
    auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

int main(int argc, char **argv) {
    int runs = argc > 1 ? std::atoi(argv[1]) : 20;
    double first = compile_once(0);
    std::vector<double> later;
    for (int i = 1; i <= runs; i++) later.push_back(compile_once(i));
    std::sort(later.begin(), later.end());
    std::printf("jit compile, first Func in process: %.1f ms\n", first);
    std::printf("jit compile, later Funcs: median %.2f ms, min %.2f ms, max %.2f ms (%d runs)\n",
                later[later.size() / 2], later.front(), later.back(), runs);
    return 0;
}
