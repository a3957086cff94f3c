// Runs the generated local_laplacian library on a PNG (8-bit values spread
// over 16 bits) or a generated planar uint16 RGB image, checks it against
// plain C++, and with --bench compares its speed with the JIT of the same
// generator. The output PNG is the enhanced image (8 bits).
//
//   local_laplacian_app [input.png [enhanced.png]] [--bench] [--auto]

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "LocalLaplacianGenerator.h"
#include "app_autoschedule.h"
#include "app_bench.h"
#include "app_images.h"
#include "local_laplacian.h"
#include "local_laplacian_reference.h"

using loom::Buffer;

namespace {

// The generator's defaults (the library is built with them).
constexpr int levels = 8, pyramid_levels = 8;
const float alpha = 1.0f, beta = 1.0f;

Buffer<uint16_t> make_input(const std::string &png, int width, int height) {
    Buffer<float> rgb = loom_apps::float_rgb_input(png, width, height);
    Buffer<uint16_t> in(rgb.width(), rgb.height(), 3);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < in.height(); y++)
            for (int x = 0; x < in.width(); x++)
                in(x, y, c) = uint16_t(std::clamp(rgb(x, y, c), 0.0f, 1.0f) * 65535.0f + 0.5f);
    return in;
}

// The pipeline is float inside: sums in another order (and fused
// multiply-adds) move the last bits, which can round an output value the
// other way. Tolerance: 2 of 65535.
int compare(const Buffer<uint16_t> &want, const Buffer<uint16_t> &got) {
    int failures = 0;
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < want.height(); y++)
            for (int x = 0; x < want.width(); x++)
                if (std::abs(int(want(x, y, c)) - int(got(x, y, c))) > 2 && failures++ < 10)
                    std::printf("local_laplacian(%d, %d, %d) = %d, expected %d\n", x, y, c,
                                got(x, y, c), want(x, y, c));
    return failures;
}

// The tuner starts from the unscheduled pipeline (every level inlined into
// the output), whose lowering does not finish in minutes: only the
// auto-scheduler's schedule is checked and timed.
constexpr double no_tuning = 0;

void setup(LocalLaplacianGenerator &g, Buffer<uint16_t> &in) {
    g.input.set(in);
    g.alpha.set(alpha);
    g.beta.set(beta);
}

} // namespace

int main(int argc, char **argv) {
    auto [bench, in_png, out_png] = loom_apps::parse_app_args(argc, argv);
    // Sizes that are not multiples of the vector width, the rows per task
    // or a power of two.
    Buffer<uint16_t> in =
        bench && in_png.empty() ? make_input("", 3001, 2003) : make_input(in_png, 641, 479);
    Buffer<uint16_t> out(in.width(), in.height(), 3);

    if (int err = local_laplacian(in.raw_buffer(), alpha, beta, out.raw_buffer())) {
        std::printf("local_laplacian failed with error %d\n", err);
        return 1;
    }
    Buffer<uint16_t> want =
        loom_apps::local_laplacian_reference(in, levels, pyramid_levels, alpha, beta);
    if (int failures = compare(want, out)) {
        std::printf("local_laplacian_app: %d mismatches\n", failures);
        return 1;
    }
    if (!out_png.empty())
        loom_apps::save_float_png(out_png, out.width(), out.height(), 3,
                                  [&](int x, int y, int c) { return out(x, y, c) / 65535.0f; });
    std::printf("local_laplacian_app: %dx%d ok\n", out.width(), out.height());

    if (loom_apps::has_flag(argc, argv, "--auto")) {
        // The auto-scheduler's schedule, checked.
        Buffer<uint16_t> auto_out(out.width(), out.height(), 3);
        auto rows = loom_apps::bench_automatic<LocalLaplacianGenerator>(
            "local_laplacian", [&](LocalLaplacianGenerator &g) { setup(g, in); },
            loom::Realization({auto_out}), [&] { return compare(out, auto_out) == 0; }, 0,
            no_tuning, 3);
        if (!rows.ok) return 1;
    }
    if (bench) {
        loom_apps::print_machine(loom::get_host_target().to_string());
        LocalLaplacianGenerator g;
        loom::Pipeline p = g.build_pipeline();
        setup(g, in);
        p.compile_jit();
        Buffer<uint16_t> jit_out(out.width(), out.height(), 3);
        auto [aot_ms, jit_ms] = loom_apps::alternating_median_ms(
            20, [&] { local_laplacian(in.raw_buffer(), alpha, beta, out.raw_buffer()); },
            [&] { p.realize(loom::Realization({jit_out})); });
        if (compare(out, jit_out)) {
            std::printf("local_laplacian_app: the JIT output differs\n");
            return 1;
        }
        std::printf("local_laplacian %dx%d (%d levels, %d pyramid levels): AOT %.3f ms, JIT %.3f "
                    "ms, AOT/JIT %.2f\n",
                    out.width(), out.height(), levels, pyramid_levels, aot_ms, jit_ms,
                    aot_ms / jit_ms);
        auto rows = loom_apps::bench_automatic<LocalLaplacianGenerator>(
            "local_laplacian", [&](LocalLaplacianGenerator &g) { setup(g, in); },
            loom::Realization({jit_out}), [&] { return compare(out, jit_out) == 0; }, jit_ms,
            no_tuning, 20);
        if (!rows.ok) return 1;
    }
    return 0;
}
