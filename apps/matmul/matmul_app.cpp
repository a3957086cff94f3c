// Runs the generated matmul library on generated matrices, checks it
// against plain C++ (double accumulation, relative tolerance), and with
// --bench compares its speed with the JIT of the same generator.
//
//   matmul_app [--bench]

#include <cmath>
#include <cstdio>
#include <cstring>

#include "MatmulGenerator.h"
#include "app_autoschedule.h"
#include "app_bench.h"
#include "matmul.h"
#include "matmul_reference.h"

using loom::Buffer;

int main(int argc, char **argv) {
    bool bench = argc > 1 && !std::strcmp(argv[1], "--bench");
    // M x K times K x N; not multiples of the 24x32 tiles.
    const int M = bench ? 512 : 203, K = bench ? 512 : 77, N = bench ? 512 : 101;
    Buffer<float> a = loom_apps::random_matrix<Buffer<float>>(K, M, 1),
                  b = loom_apps::random_matrix<Buffer<float>>(N, K, 2);
    Buffer<float> out(N, M);
    if (int err = matmul(a.raw_buffer(), b.raw_buffer(), out.raw_buffer())) {
        std::printf("matmul failed with error %d\n", err);
        return 1;
    }
    if (int failures = loom_apps::check_matmul(a, b, out)) {
        std::printf("matmul_app: %d mismatches\n", failures);
        return 1;
    }
    std::printf("matmul_app: %dx%d * %dx%d ok\n", K, M, N, K);
    if (loom_apps::has_flag(argc, argv, "--auto")) {
        Buffer<float> auto_out(N, M);
        auto rows = loom_apps::bench_automatic<MatmulGenerator>(
            "matmul",
            [&](MatmulGenerator &g) {
                g.A.set(a);
                g.B.set(b);
            },
            loom::Realization({auto_out}),
            [&] { return loom_apps::check_matmul(a, b, auto_out) == 0; }, 0,
            loom_apps::app_tune_seconds(), 3);
        if (!rows.ok) return 1;
    }
    if (bench) {
        MatmulGenerator g;
        loom::Pipeline p = g.build_pipeline();
        g.A.set(a);
        g.B.set(b);
        p.compile_jit();
        Buffer<float> jit_out(N, M);
        double aot_ms = loom_apps::median_ms(
            10, [&] { matmul(a.raw_buffer(), b.raw_buffer(), out.raw_buffer()); });
        double jit_ms = loom_apps::median_ms(10, [&] { p.realize(loom::Realization({jit_out})); });
        if (loom_apps::check_matmul(a, b, jit_out)) {
            std::printf("matmul_app: the JIT output differs\n");
            return 1;
        }
        std::printf("matmul %dx%d: AOT %.3f ms, JIT %.3f ms, AOT/JIT %.2f\n", N, M, aot_ms, jit_ms,
                    aot_ms / jit_ms);
        auto rows = loom_apps::bench_automatic<MatmulGenerator>(
            "matmul",
            [&](MatmulGenerator &g) {
                g.A.set(a);
                g.B.set(b);
            },
            loom::Realization({jit_out}),
            [&] { return loom_apps::check_matmul(a, b, jit_out) == 0; }, jit_ms,
            loom_apps::app_tune_seconds(), 10);
        if (!rows.ok) return 1;
    }
    return 0;
}
