// Runs the generated interpolate library on a PNG or a generated image with
// holes punched in it (alpha 0 except on a sparse set of pixels), checks it
// against plain C++, and with --bench compares its speed with the JIT of
// the same generator. The output PNG is the filled RGB image.
//
//   interpolate_app [input.png [filled.png]] [--bench] [--auto]

#include <cstdint>
#include <cstdio>
#include <string>

#include "InterpolateGenerator.h"
#include "app_autoschedule.h"
#include "app_bench.h"
#include "app_check.h"
#include "app_images.h"
#include "interpolate.h"
#include "interpolate_reference.h"

using loom::Buffer;

namespace {

// The generator's default number of levels (the library is built with it).
constexpr int levels = 10;

// The RGB image with an alpha channel that keeps about one pixel in 16
// (random) and whole blocks of 8x8 on a coarse grid; the rest are holes.
Buffer<float> make_input(const std::string &png, int width, int height) {
    Buffer<float> rgb = loom_apps::float_rgb_input(png, width, height);
    Buffer<float> in(rgb.width(), rgb.height(), 4);
    uint32_t seed = 17;
    for (int y = 0; y < in.height(); y++)
        for (int x = 0; x < in.width(); x++) {
            seed = seed * 1664525u + 1013904223u;
            bool kept = (seed >> 12) % 16 == 0 || (x % 64 < 8 && y % 64 < 8);
            for (int c = 0; c < 3; c++) in(x, y, c) = rgb(x, y, c);
            in(x, y, 3) = kept ? 1.0f : 0.0f;
        }
    return in;
}

// Float sums in another order (and fused multiply-adds) differ in the
// last bits; values are in [0, 1].
int compare(const Buffer<float> &want, const Buffer<float> &got) {
    return loom_apps::count_float_mismatches("interpolate", want, got, 1e-5f, 1e-4f);
}

} // namespace

int main(int argc, char **argv) {
    auto [bench, in_png, out_png] = loom_apps::parse_app_args(argc, argv);
    // Sizes that are not multiples of the vector width, the rows per task
    // or a power of two.
    Buffer<float> in =
        bench && in_png.empty() ? make_input("", 3001, 2003) : make_input(in_png, 641, 479);
    Buffer<float> out(in.width(), in.height(), 3);

    if (int err = interpolate(in.raw_buffer(), out.raw_buffer())) {
        std::printf("interpolate failed with error %d\n", err);
        return 1;
    }
    if (int failures = compare(loom_apps::interpolate_reference(in, levels), out)) {
        std::printf("interpolate_app: %d mismatches\n", failures);
        return 1;
    }
    if (!out_png.empty())
        loom_apps::save_float_png(out_png, out.width(), out.height(), 3,
                                  [&](int x, int y, int c) { return out(x, y, c); });
    std::printf("interpolate_app: %dx%d ok\n", out.width(), out.height());

    if (loom_apps::has_flag(argc, argv, "--auto")) {
        // The auto-scheduler's and a short tuning run's schedules, checked.
        Buffer<float> auto_out(out.width(), out.height(), 3);
        auto rows = loom_apps::bench_automatic<InterpolateGenerator>(
            "interpolate", [&](InterpolateGenerator &g) { g.input.set(in); },
            loom::Realization({auto_out}), [&] { return compare(out, auto_out) == 0; }, 0,
            loom_apps::app_tune_seconds(), 3);
        if (!rows.ok) return 1;
    }
    if (bench) {
        loom_apps::print_machine(loom::get_host_target().to_string());
        InterpolateGenerator g;
        loom::Pipeline p = g.build_pipeline();
        g.input.set(in);
        p.compile_jit();
        Buffer<float> jit_out(out.width(), out.height(), 3);
        auto [aot_ms, jit_ms] = loom_apps::alternating_median_ms(
            20, [&] { interpolate(in.raw_buffer(), out.raw_buffer()); },
            [&] { p.realize(loom::Realization({jit_out})); });
        if (compare(out, jit_out)) {
            std::printf("interpolate_app: the JIT output differs\n");
            return 1;
        }
        std::printf("interpolate %dx%d (%d levels): AOT %.3f ms, JIT %.3f ms, AOT/JIT %.2f\n",
                    out.width(), out.height(), levels, aot_ms, jit_ms, aot_ms / jit_ms);
        auto rows = loom_apps::bench_automatic<InterpolateGenerator>(
            "interpolate", [&](InterpolateGenerator &g) { g.input.set(in); },
            loom::Realization({jit_out}), [&] { return compare(out, jit_out) == 0; }, jit_ms,
            loom_apps::app_tune_seconds(), 20);
        if (!rows.ok) return 1;
    }
    return 0;
}
