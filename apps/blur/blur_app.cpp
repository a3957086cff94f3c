// Runs the generated blur library on a PNG (its first channel, as uint16) or
// a generated image, checks it against plain C++, and with --bench compares
// its speed with the JIT of the same generator.
//
//   blur_app [input.png [output.png]] [--bench]

#include <cstdio>
#include <cstring>
#include <string>

#include "BlurGenerator.h"
#include "app_autoschedule.h"
#include "app_bench.h"
#include "blur.h"
#include "blur_reference.h"
#include "loom_image_io.h"

using loom::Buffer;

namespace {

Buffer<uint16_t> make_input(const std::string &png, int width, int height) {
    if (!png.empty()) {
        Buffer<uint8_t> rgb = loom::image_io::load_png(png);
        Buffer<uint16_t> in(rgb.width(), rgb.height());
        for (int y = 0; y < in.height(); y++)
            for (int x = 0; x < in.width(); x++) in(x, y) = uint16_t(rgb(x, y, 0) << 6);
        return in;
    }
    Buffer<uint16_t> in(width, height);
    uint32_t seed = 12345;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            seed = seed * 1664525u + 1013904223u;
            in(x, y) = uint16_t((seed >> 8) % 20000);
        }
    return in;
}

int check(const Buffer<uint16_t> &in, const Buffer<uint16_t> &out) {
    return loom_apps::check_blur(in, out);
}

} // namespace

int main(int argc, char **argv) {
    auto [bench, in_png, out_png] = loom_apps::parse_app_args(argc, argv);
    // Sizes that are not multiples of the vector width or the rows per task.
    Buffer<uint16_t> in =
        bench && in_png.empty() ? make_input("", 6408, 4802) : make_input(in_png, 1003, 517);
    Buffer<uint16_t> out(in.width() - 2, in.height() - 2);

    if (int err = blur(in.raw_buffer(), out.raw_buffer())) {
        std::printf("blur failed with error %d\n", err);
        return 1;
    }
    if (int failures = check(in, out)) {
        std::printf("blur_app: %d mismatches\n", failures);
        return 1;
    }
    if (!out_png.empty()) loom::image_io::save_png(out, out_png);
    std::printf("blur_app: %dx%d ok\n", out.width(), out.height());

    if (loom_apps::has_flag(argc, argv, "--auto")) {
        // The auto-scheduler's and a short tuning run's schedules, checked.
        Buffer<uint16_t> auto_out(out.width(), out.height());
        auto rows = loom_apps::bench_automatic<BlurGenerator>(
            "blur", [&](BlurGenerator &g) { g.input.set(in); }, loom::Realization({auto_out}),
            [&] { return check(in, auto_out) == 0; }, 0, loom_apps::app_tune_seconds(), 3);
        if (!rows.ok) return 1;
    }
    if (bench) {
        BlurGenerator g;
        loom::Pipeline p = g.build_pipeline();
        g.input.set(in);
        p.compile_jit();
        Buffer<uint16_t> jit_out(out.width(), out.height());
        double aot_ms = loom_apps::median_ms(20, [&] { blur(in.raw_buffer(), out.raw_buffer()); });
        double jit_ms = loom_apps::median_ms(20, [&] { p.realize(loom::Realization({jit_out})); });
        if (check(in, jit_out)) {
            std::printf("blur_app: the JIT output differs\n");
            return 1;
        }
        std::printf("blur %dx%d: AOT %.3f ms, JIT %.3f ms, AOT/JIT %.2f\n", out.width(),
                    out.height(), aot_ms, jit_ms, aot_ms / jit_ms);
        auto rows = loom_apps::bench_automatic<BlurGenerator>(
            "blur", [&](BlurGenerator &g) { g.input.set(in); }, loom::Realization({jit_out}),
            [&] { return check(in, jit_out) == 0; }, jit_ms, loom_apps::app_tune_seconds(), 20);
        if (!rows.ok) return 1;
    }
    return 0;
}
