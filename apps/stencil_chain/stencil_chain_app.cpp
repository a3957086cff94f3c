// Runs the generated stencil_chain library on a PNG (its first channel, as
// uint16) or a generated image, checks it against plain C++ (exactly), and
// with --bench compares its speed with the JIT of the same generator.
//
//   stencil_chain_app [input.png [smoothed.png]] [--bench]

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "StencilChainGenerator.h"
#include "app_autoschedule.h"
#include "app_bench.h"
#include "loom_image_io.h"
#include "stencil_chain.h"

using loom::Buffer;

namespace {

// The generator's default number of stages (the library is built with it).
constexpr int stages = 8;

Buffer<uint16_t> make_input(const std::string &png, int width, int height) {
    if (!png.empty()) {
        Buffer<uint8_t> rgb = loom::image_io::load_png(png);
        Buffer<uint16_t> in(rgb.width(), rgb.height());
        for (int y = 0; y < in.height(); y++)
            for (int x = 0; x < in.width(); x++) in(x, y) = uint16_t(rgb(x, y, 0) * 257);
        return in;
    }
    Buffer<uint16_t> in(width, height);
    uint32_t seed = 7;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            seed = seed * 1664525u + 1013904223u;
            in(x, y) = uint16_t(seed >> 16);
        }
    return in;
}

// Plain C++: each stage over the whole image plus the margin the later
// stages read (2 pixels per later stage), in padded arrays.
Buffer<uint16_t> reference(const Buffer<uint16_t> &in) {
    const int W = in.width(), H = in.height();
    int margin = 2 * stages;
    int PW = W + 2 * margin;
    auto index = [&](int x, int y) { return size_t(y + margin) * size_t(PW) + size_t(x + margin); };
    std::vector<uint16_t> cur(size_t(PW) * size_t(H + 2 * margin)), next(cur.size());
    for (int y = -margin; y < H + margin; y++)
        for (int x = -margin; x < W + margin; x++)
            cur[index(x, y)] = in(std::clamp(x, 0, W - 1), std::clamp(y, 0, H - 1));
    for (int s = 1; s <= stages; s++) {
        int m = 2 * (stages - s); // the margin this stage's result needs
        for (int y = -m; y < H + m; y++)
            for (int x = -m; x < W + m; x++) {
                uint32_t sum = 0;
                for (int j = -2; j <= 2; j++)
                    for (int i = -2; i <= 2; i++) sum += cur[index(x + i, y + j)];
                next[index(x, y)] = uint16_t((sum + 12) / 25);
            }
        std::swap(cur, next);
    }
    Buffer<uint16_t> out(W, H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) out(x, y) = cur[index(x, y)];
    return out;
}

int compare(const Buffer<uint16_t> &want, const Buffer<uint16_t> &got) {
    int failures = 0;
    for (int y = 0; y < want.height(); y++)
        for (int x = 0; x < want.width(); x++)
            if (want(x, y) != got(x, y) && failures++ < 10)
                std::printf("stencil_chain(%d, %d) = %d, expected %d\n", x, y, got(x, y),
                            want(x, y));
    return failures;
}

} // namespace

int main(int argc, char **argv) {
    auto [bench, in_png, out_png] = loom_apps::parse_app_args(argc, argv);
    // Sizes that are not multiples of the vector width or the rows per task.
    Buffer<uint16_t> in =
        bench && in_png.empty() ? make_input("", 3001, 2003) : make_input(in_png, 641, 479);
    Buffer<uint16_t> out(in.width(), in.height());

    if (int err = stencil_chain(in.raw_buffer(), out.raw_buffer())) {
        std::printf("stencil_chain failed with error %d\n", err);
        return 1;
    }
    if (int failures = compare(reference(in), out)) {
        std::printf("stencil_chain_app: %d mismatches\n", failures);
        return 1;
    }
    if (!out_png.empty()) loom::image_io::save_png(out, out_png);
    std::printf("stencil_chain_app: %dx%d ok\n", out.width(), out.height());

    if (loom_apps::has_flag(argc, argv, "--auto")) {
        // The auto-scheduler's and a short tuning run's schedules, checked.
        Buffer<uint16_t> auto_out(out.width(), out.height());
        auto rows = loom_apps::bench_automatic<StencilChainGenerator>(
            "stencil_chain", [&](StencilChainGenerator &g) { g.input.set(in); },
            loom::Realization({auto_out}), [&] { return compare(out, auto_out) == 0; }, 0,
            loom_apps::app_tune_seconds(), 3);
        if (!rows.ok) return 1;
    }
    if (bench) {
        loom_apps::print_machine(loom::get_host_target().to_string());
        StencilChainGenerator g;
        loom::Pipeline p = g.build_pipeline();
        g.input.set(in);
        p.compile_jit();
        Buffer<uint16_t> jit_out(out.width(), out.height());
        auto [aot_ms, jit_ms] = loom_apps::alternating_median_ms(
            20, [&] { stencil_chain(in.raw_buffer(), out.raw_buffer()); },
            [&] { p.realize(loom::Realization({jit_out})); });
        if (compare(out, jit_out)) {
            std::printf("stencil_chain_app: the JIT output differs\n");
            return 1;
        }
        std::printf("stencil_chain %dx%d (%d stages): AOT %.3f ms, JIT %.3f ms, AOT/JIT %.2f\n",
                    out.width(), out.height(), stages, aot_ms, jit_ms, aot_ms / jit_ms);
        auto rows = loom_apps::bench_automatic<StencilChainGenerator>(
            "stencil_chain", [&](StencilChainGenerator &g) { g.input.set(in); },
            loom::Realization({jit_out}), [&] { return compare(out, jit_out) == 0; }, jit_ms,
            loom_apps::app_tune_seconds(), 20);
        if (!rows.ok) return 1;
    }
    return 0;
}
