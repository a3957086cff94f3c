// Runs the generated harris library on a PNG or a generated planar RGB
// image, checks it against plain C++, and with --bench compares its speed
// with the JIT of the same generator. The output PNG shows the corner
// response scaled so that the strongest corner is white (edges, with
// negative responses, are black).
//
//   harris_app [input.png [corners.png]] [--bench]

#include <algorithm>
#include <cstdio>
#include <string>

#include "HarrisGenerator.h"
#include "app_autoschedule.h"
#include "app_bench.h"
#include "app_check.h"
#include "app_images.h"
#include "harris.h"
#include "harris_reference.h"

using loom::Buffer;

namespace {

// Float sums in another order (and fused multiply-adds) differ in the last
// bits; det - k * trace^2 cancels, so the tolerance is relative to the
// image's strongest response rather than to each pixel's.
int compare(const Buffer<float> &want, const Buffer<float> &got) {
    return loom_apps::count_float_mismatches("harris", want, got, 1e-5f * loom_apps::max_abs(want),
                                             1e-4f);
}

} // namespace

int main(int argc, char **argv) {
    auto [bench, in_png, out_png] = loom_apps::parse_app_args(argc, argv);
    // Sizes that are not multiples of the vector width or the rows per task.
    Buffer<float> in = bench && in_png.empty() ? loom_apps::float_rgb_input("", 3001, 2003)
                                               : loom_apps::float_rgb_input(in_png, 641, 479);
    Buffer<float> out(in.width(), in.height());
    const float k = 0.04f;

    if (int err = harris(in.raw_buffer(), k, out.raw_buffer())) {
        std::printf("harris failed with error %d\n", err);
        return 1;
    }
    Buffer<float> want = loom_apps::harris_reference(in, k);
    if (int failures = compare(want, out)) {
        std::printf("harris_app: %d mismatches\n", failures);
        return 1;
    }
    if (!out_png.empty()) {
        float peak = std::max(loom_apps::max_abs(out), 1e-12f);
        loom_apps::save_float_png(out_png, out.width(), out.height(), 1,
                                  [&](int x, int y, int) { return out(x, y) / peak; });
    }
    std::printf("harris_app: %dx%d ok\n", out.width(), out.height());

    if (loom_apps::has_flag(argc, argv, "--auto")) {
        // The auto-scheduler's and a short tuning run's schedules, checked.
        Buffer<float> auto_out(out.width(), out.height());
        auto rows = loom_apps::bench_automatic<HarrisGenerator>(
            "harris",
            [&](HarrisGenerator &g) {
                g.input.set(in);
                g.k.set(k);
            },
            loom::Realization({auto_out}), [&] { return compare(out, auto_out) == 0; }, 0,
            loom_apps::app_tune_seconds(), 3);
        if (!rows.ok) return 1;
    }
    if (bench) {
        loom_apps::print_machine(loom::get_host_target().to_string());
        HarrisGenerator g;
        loom::Pipeline p = g.build_pipeline();
        g.input.set(in);
        g.k.set(k);
        p.compile_jit();
        Buffer<float> jit_out(out.width(), out.height());
        auto [aot_ms, jit_ms] = loom_apps::alternating_median_ms(
            20, [&] { harris(in.raw_buffer(), k, out.raw_buffer()); },
            [&] { p.realize(loom::Realization({jit_out})); });
        if (compare(out, jit_out)) {
            std::printf("harris_app: the JIT output differs\n");
            return 1;
        }
        std::printf("harris %dx%d: AOT %.3f ms, JIT %.3f ms, AOT/JIT %.2f\n", out.width(),
                    out.height(), aot_ms, jit_ms, aot_ms / jit_ms);
        auto rows = loom_apps::bench_automatic<HarrisGenerator>(
            "harris",
            [&](HarrisGenerator &g) {
                g.input.set(in);
                g.k.set(k);
            },
            loom::Realization({jit_out}), [&] { return compare(out, jit_out) == 0; }, jit_ms,
            loom_apps::app_tune_seconds(), 20);
        if (!rows.ok) return 1;
    }
    return 0;
}
