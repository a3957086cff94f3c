// Runs the generated bilateral_grid library on a PNG (its luminance) or a
// generated gray image, checks it against plain C++, and with --bench
// compares its speed with the JIT of the same generator.
//
//   bilateral_grid_app [input.png [smoothed.png]] [--bench]

#include <cmath>
#include <cstdio>
#include <string>

#include "BilateralGridGenerator.h"
#include "app_autoschedule.h"
#include "app_bench.h"
#include "app_check.h"
#include "app_images.h"
#include "bilateral_grid.h"
#include "bilateral_grid_reference.h"

using loom::Buffer;

namespace {

// The generator's default cell size (the library is built with it).
constexpr int s_sigma = 8;

// The luminance of the PNG or of the generated RGB pattern, rounded to
// multiples of 1/255 as an 8-bit image's would be (so no intensity lies
// on a boundary between two grid bins, where the last bit of the product
// with 1 / r_sigma would decide the bin).
Buffer<float> make_input(const std::string &png, int width, int height) {
    Buffer<float> rgb = loom_apps::float_rgb_input(png, width, height);
    Buffer<float> gray(rgb.width(), rgb.height());
    for (int y = 0; y < gray.height(); y++)
        for (int x = 0; x < gray.width(); x++) {
            float v = 0.299f * rgb(x, y, 0) + 0.587f * rgb(x, y, 1) + 0.114f * rgb(x, y, 2);
            gray(x, y) = std::round(v * 255.0f) / 255.0f;
        }
    return gray;
}

// Sums of up to s_sigma^2 values in another order and fused multiply-adds
// change the last bits; the output is in [0, 1].
int compare(const Buffer<float> &want, const Buffer<float> &got) {
    return loom_apps::count_float_mismatches("bilateral_grid", want, got, 1e-4f, 0.0f);
}

} // namespace

int main(int argc, char **argv) {
    auto [bench, in_png, out_png] = loom_apps::parse_app_args(argc, argv);
    // Sizes that are not multiples of the cell size or the vector width.
    Buffer<float> in =
        bench && in_png.empty() ? make_input("", 3001, 2003) : make_input(in_png, 641, 479);
    Buffer<float> out(in.width(), in.height());
    const float r_sigma = 0.1f;

    if (int err = bilateral_grid(in.raw_buffer(), r_sigma, out.raw_buffer())) {
        std::printf("bilateral_grid failed with error %d\n", err);
        return 1;
    }
    if (int failures = compare(loom_apps::bilateral_grid_reference(in, s_sigma, r_sigma), out)) {
        std::printf("bilateral_grid_app: %d mismatches\n", failures);
        return 1;
    }
    if (!out_png.empty())
        loom_apps::save_float_png(out_png, out.width(), out.height(), 1,
                                  [&](int x, int y, int) { return out(x, y); });
    std::printf("bilateral_grid_app: %dx%d ok\n", out.width(), out.height());

    if (loom_apps::has_flag(argc, argv, "--auto")) {
        // The auto-scheduler's and a short tuning run's schedules, checked.
        Buffer<float> auto_out(out.width(), out.height());
        auto rows = loom_apps::bench_automatic<BilateralGridGenerator>(
            "bilateral_grid",
            [&](BilateralGridGenerator &g) {
                g.input.set(in);
                g.r_sigma.set(r_sigma);
            },
            loom::Realization({auto_out}), [&] { return compare(out, auto_out) == 0; }, 0,
            loom_apps::app_tune_seconds(), 3);
        if (!rows.ok) return 1;
    }
    if (bench) {
        loom_apps::print_machine(loom::get_host_target().to_string());
        BilateralGridGenerator g;
        loom::Pipeline p = g.build_pipeline();
        g.input.set(in);
        g.r_sigma.set(r_sigma);
        p.compile_jit();
        Buffer<float> jit_out(out.width(), out.height());
        auto [aot_ms, jit_ms] = loom_apps::alternating_median_ms(
            20, [&] { bilateral_grid(in.raw_buffer(), r_sigma, out.raw_buffer()); },
            [&] { p.realize(loom::Realization({jit_out})); });
        if (compare(out, jit_out)) {
            std::printf("bilateral_grid_app: the JIT output differs\n");
            return 1;
        }
        std::printf("bilateral_grid %dx%d: AOT %.3f ms, JIT %.3f ms, AOT/JIT %.2f\n", out.width(),
                    out.height(), aot_ms, jit_ms, aot_ms / jit_ms);
        auto rows = loom_apps::bench_automatic<BilateralGridGenerator>(
            "bilateral_grid",
            [&](BilateralGridGenerator &g) {
                g.input.set(in);
                g.r_sigma.set(r_sigma);
            },
            loom::Realization({jit_out}), [&] { return compare(out, jit_out) == 0; }, jit_ms,
            loom_apps::app_tune_seconds(), 20);
        if (!rows.ok) return 1;
    }
    return 0;
}
