// Runs the generated unsharp library on a PNG or a generated planar RGB
// image, checks it against plain C++, and with --bench compares its speed
// with the JIT of the same generator.
//
//   unsharp_app [input.png [output.png]] [--bench]

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "UnsharpGenerator.h"
#include "app_autoschedule.h"
#include "app_bench.h"
#include "loom_image_io.h"
#include "unsharp.h"

using loom::Buffer;

namespace {

Buffer<float> make_input(const std::string &png, int width, int height) {
    Buffer<float> in;
    if (!png.empty()) {
        Buffer<uint8_t> rgb = loom::image_io::load_png(png);
        in = Buffer<float>(rgb.width(), rgb.height(), 3);
        for (int c = 0; c < 3; c++)
            for (int y = 0; y < in.height(); y++)
                for (int x = 0; x < in.width(); x++)
                    in(x, y, c) = rgb(x, y, std::min(c, rgb.channels() - 1)) / 255.0f;
        return in;
    }
    in = Buffer<float>(width, height, 3);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < height; y++)
            for (int x = 0; x < width; x++)
                in(x, y, c) = 0.5f + 0.4f * std::sin(x * 0.05f + c) * std::cos(y * 0.07f);
    return in;
}

// Plain C++ unsharp mask with the same formula (edges repeat).
Buffer<float> reference(const Buffer<float> &in, float strength) {
    const int W = in.width(), H = in.height();
    auto at = [&](int x, int y, int c) {
        return in(std::clamp(x, 0, W - 1), std::clamp(y, 0, H - 1), c);
    };
    auto gray = [&](int x, int y) {
        return 0.299f * at(x, y, 0) + 0.587f * at(x, y, 1) + 0.114f * at(x, y, 2);
    };
    const float w[5] = {1 / 16.0f, 4 / 16.0f, 6 / 16.0f, 4 / 16.0f, 1 / 16.0f};
    Buffer<float> out(W, H, 3);
    std::vector<float> blur_y(size_t(W + 4));
    for (int y = 0; y < H; y++) {
        for (int x = -2; x < W + 2; x++) {
            float s = 0;
            for (int k = 0; k < 5; k++) s += w[k] * gray(x, y + k - 2);
            blur_y[size_t(x + 2)] = s;
        }
        for (int x = 0; x < W; x++) {
            float bx = 0;
            for (int k = 0; k < 5; k++) bx += w[k] * blur_y[size_t(x + k)];
            float g = gray(x, y);
            float ratio = (g + strength * (g - bx)) / std::max(g, 1e-3f);
            for (int c = 0; c < 3; c++) out(x, y, c) = ratio * in(x, y, c);
        }
    }
    return out;
}

int compare(const Buffer<float> &want, const Buffer<float> &got) {
    int failures = 0;
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < want.height(); y++)
            for (int x = 0; x < want.width(); x++) {
                float a = want(x, y, c), b = got(x, y, c);
                if (std::fabs(a - b) > 1e-4f * std::max(1.0f, std::fabs(a)) && failures++ < 10)
                    std::printf("unsharp(%d, %d, %d) = %f, expected %f\n", x, y, c, b, a);
            }
    return failures;
}

} // namespace

int main(int argc, char **argv) {
    auto [bench, in_png, out_png] = loom_apps::parse_app_args(argc, argv);
    Buffer<float> in =
        bench && in_png.empty() ? make_input("", 3001, 2003) : make_input(in_png, 301, 203);
    Buffer<float> out(in.width(), in.height(), 3);
    const float strength = 1.5f;

    if (int err = unsharp(in.raw_buffer(), strength, out.raw_buffer())) {
        std::printf("unsharp failed with error %d\n", err);
        return 1;
    }
    if (int failures = compare(reference(in, strength), out)) {
        std::printf("unsharp_app: %d mismatches\n", failures);
        return 1;
    }
    if (!out_png.empty()) {
        Buffer<uint8_t> png(out.width(), out.height(), 3);
        for (int c = 0; c < 3; c++)
            for (int y = 0; y < out.height(); y++)
                for (int x = 0; x < out.width(); x++)
                    png(x, y, c) = uint8_t(std::clamp(out(x, y, c), 0.0f, 1.0f) * 255.0f + 0.5f);
        loom::image_io::save_png(png, out_png);
    }
    std::printf("unsharp_app: %dx%d ok\n", out.width(), out.height());

    if (loom_apps::has_flag(argc, argv, "--auto")) {
        Buffer<float> auto_out(out.width(), out.height(), 3);
        auto rows = loom_apps::bench_automatic<UnsharpGenerator>(
            "unsharp",
            [&](UnsharpGenerator &g) {
                g.input.set(in);
                g.strength.set(strength);
            },
            loom::Realization({auto_out}), [&] { return compare(out, auto_out) == 0; }, 0,
            loom_apps::app_tune_seconds(), 3);
        if (!rows.ok) return 1;
    }
    if (bench) {
        UnsharpGenerator g;
        loom::Pipeline p = g.build_pipeline();
        g.input.set(in);
        g.strength.set(strength);
        p.compile_jit();
        Buffer<float> jit_out(out.width(), out.height(), 3);
        double aot_ms =
            loom_apps::median_ms(20, [&] { unsharp(in.raw_buffer(), strength, out.raw_buffer()); });
        double jit_ms = loom_apps::median_ms(20, [&] { p.realize(loom::Realization({jit_out})); });
        if (compare(out, jit_out)) {
            std::printf("unsharp_app: the JIT output differs\n");
            return 1;
        }
        std::printf("unsharp %dx%d: AOT %.3f ms, JIT %.3f ms, AOT/JIT %.2f\n", out.width(),
                    out.height(), aot_ms, jit_ms, aot_ms / jit_ms);
        auto rows = loom_apps::bench_automatic<UnsharpGenerator>(
            "unsharp",
            [&](UnsharpGenerator &g) {
                g.input.set(in);
                g.strength.set(strength);
            },
            loom::Realization({jit_out}), [&] { return compare(out, jit_out) == 0; }, jit_ms,
            loom_apps::app_tune_seconds(), 20);
        if (!rows.ok) return 1;
    }
    return 0;
}
