// Runs the generated iir_blur library on a PNG or a generated planar RGB
// image, checks it against plain C++, and with --bench compares its speed
// with the JIT of the same generator.
//
//   iir_blur_app [input.png [blurred.png]] [--bench]

#include <cstdio>
#include <string>
#include <vector>

#include "IirBlurGenerator.h"
#include "app_autoschedule.h"
#include "app_bench.h"
#include "app_check.h"
#include "app_images.h"
#include "iir_blur.h"

using loom::Buffer;

namespace {

// Filters n values at p[0], p[stride], ... in place: down from the first,
// then up from the last over the result.
void filter_line(float *p, int n, long stride, float alpha) {
    for (int i = 1; i < n; i++)
        p[i * stride] = (1 - alpha) * p[(i - 1) * stride] + alpha * p[i * stride];
    for (int i = n - 2; i >= 0; i--)
        p[i * stride] = (1 - alpha) * p[(i + 1) * stride] + alpha * p[i * stride];
}

// Plain C++: every column, then every row, of each channel in place (no
// transposes).
Buffer<float> reference(const Buffer<float> &in, float alpha) {
    const int W = in.width(), H = in.height();
    std::vector<float> plane(size_t(W) * size_t(H));
    Buffer<float> out(W, H, 3);
    for (int c = 0; c < 3; c++) {
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) plane[size_t(y) * size_t(W) + size_t(x)] = in(x, y, c);
        for (int x = 0; x < W; x++) filter_line(&plane[size_t(x)], H, W, alpha);
        for (int y = 0; y < H; y++) filter_line(&plane[size_t(y) * size_t(W)], W, 1, alpha);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) out(x, y, c) = plane[size_t(y) * size_t(W) + size_t(x)];
    }
    return out;
}

// Values stay in [0, 1]; fused multiply-adds change the last bits of each
// step, and the filter forgets old errors at the rate (1 - alpha).
int compare(const Buffer<float> &want, const Buffer<float> &got) {
    return loom_apps::count_float_mismatches("iir_blur", want, got, 1e-5f, 0.0f);
}

} // namespace

int main(int argc, char **argv) {
    auto [bench, in_png, out_png] = loom_apps::parse_app_args(argc, argv);
    // Sizes that are not multiples of the vector width or the strip width.
    Buffer<float> in = bench && in_png.empty() ? loom_apps::float_rgb_input("", 3001, 2003)
                                               : loom_apps::float_rgb_input(in_png, 641, 479);
    Buffer<float> out(in.width(), in.height(), 3);
    const float alpha = 0.1f;

    if (int err = iir_blur(in.raw_buffer(), alpha, out.raw_buffer())) {
        std::printf("iir_blur failed with error %d\n", err);
        return 1;
    }
    if (int failures = compare(reference(in, alpha), out)) {
        std::printf("iir_blur_app: %d mismatches\n", failures);
        return 1;
    }
    if (!out_png.empty())
        loom_apps::save_float_png(out_png, out.width(), out.height(), 3,
                                  [&](int x, int y, int c) { return out(x, y, c); });
    std::printf("iir_blur_app: %dx%d ok\n", out.width(), out.height());

    if (loom_apps::has_flag(argc, argv, "--auto")) {
        // The auto-scheduler's and a short tuning run's schedules, checked.
        Buffer<float> auto_out(out.width(), out.height(), 3);
        auto rows = loom_apps::bench_automatic<IirBlurGenerator>(
            "iir_blur",
            [&](IirBlurGenerator &g) {
                g.input.set(in);
                g.alpha.set(alpha);
            },
            loom::Realization({auto_out}), [&] { return compare(out, auto_out) == 0; }, 0,
            loom_apps::app_tune_seconds(), 3);
        if (!rows.ok) return 1;
    }
    if (bench) {
        loom_apps::print_machine(loom::get_host_target().to_string());
        IirBlurGenerator g;
        loom::Pipeline p = g.build_pipeline();
        g.input.set(in);
        g.alpha.set(alpha);
        p.compile_jit();
        Buffer<float> jit_out(out.width(), out.height(), 3);
        auto [aot_ms, jit_ms] = loom_apps::alternating_median_ms(
            20, [&] { iir_blur(in.raw_buffer(), alpha, out.raw_buffer()); },
            [&] { p.realize(loom::Realization({jit_out})); });
        if (compare(out, jit_out)) {
            std::printf("iir_blur_app: the JIT output differs\n");
            return 1;
        }
        std::printf("iir_blur %dx%d: AOT %.3f ms, JIT %.3f ms, AOT/JIT %.2f\n", out.width(),
                    out.height(), aot_ms, jit_ms, aot_ms / jit_ms);
        auto rows = loom_apps::bench_automatic<IirBlurGenerator>(
            "iir_blur",
            [&](IirBlurGenerator &g) {
                g.input.set(in);
                g.alpha.set(alpha);
            },
            loom::Realization({jit_out}), [&] { return compare(out, jit_out) == 0; }, jit_ms,
            loom_apps::app_tune_seconds(), 20);
        if (!rows.ok) return 1;
    }
    return 0;
}
