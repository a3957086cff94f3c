// Runs the generated resize libraries (bicubic and Lanczos-3) on a PNG or
// a generated planar RGB image, enlarging and shrinking it, checks each
// result against plain C++, and with --bench compares their speed with the
// JIT of the same generator. The output PNG is the bicubic enlargement.
//
//   resize_app [input.png [resized.png]] [--bench] [--auto]

#include <cstdio>
#include <string>

#include "ResizeGenerator.h"
#include "app_autoschedule.h"
#include "app_bench.h"
#include "app_check.h"
#include "app_images.h"
#include "resize.h"
#include "resize_lanczos.h"
#include "resize_reference.h"

using loom::Buffer;

namespace {

// Float sums in another order and single-precision weights (the reference
// uses doubles); values are in [0, 1] with overshoot near edges.
int compare(const char *what, const Buffer<float> &want, const Buffer<float> &got) {
    return loom_apps::count_float_mismatches(what, want, got, 2e-5f, 1e-4f);
}

struct Case {
    const char *name;
    ResizeKernel kernel;
    float scale;
};
// Enlarging and shrinking by factors that are not ratios of small integers.
const Case cases[] = {{"cubic up", ResizeKernel::Cubic, 1.6f},
                      {"cubic down", ResizeKernel::Cubic, 0.37f},
                      {"lanczos up", ResizeKernel::Lanczos, 1.6f},
                      {"lanczos down", ResizeKernel::Lanczos, 0.37f}};

Buffer<float> output_for(const Buffer<float> &in, float scale) {
    return Buffer<float>(std::max(1, int(in.width() * scale)),
                         std::max(1, int(in.height() * scale)), in.channels());
}

int run_library(const Case &c, Buffer<float> &in, Buffer<float> &out) {
    return c.kernel == ResizeKernel::Cubic
               ? resize(in.raw_buffer(), c.scale, out.raw_buffer())
               : resize_lanczos(in.raw_buffer(), c.scale, out.raw_buffer());
}

loom_apps::ResizeFilter filter_of(ResizeKernel k) {
    return k == ResizeKernel::Cubic ? loom_apps::ResizeFilter::Cubic
                                    : loom_apps::ResizeFilter::Lanczos;
}

void setup(ResizeGenerator &g, const Case &c, Buffer<float> &in) {
    g.set_generator_param("kernel", c.kernel == ResizeKernel::Cubic ? "cubic" : "lanczos");
    g.input.set(in);
    g.scale.set(c.scale);
}

} // namespace

int main(int argc, char **argv) {
    auto [bench, in_png, out_png] = loom_apps::parse_app_args(argc, argv);
    // Sizes that are not multiples of the vector width or the rows per task.
    Buffer<float> in = bench && in_png.empty() ? loom_apps::float_rgb_input("", 1501, 1001)
                                               : loom_apps::float_rgb_input(in_png, 641, 479);
    std::vector<Buffer<float>> outs;
    for (const Case &c : cases) {
        Buffer<float> out = output_for(in, c.scale);
        if (int err = run_library(c, in, out)) {
            std::printf("resize (%s) failed with error %d\n", c.name, err);
            return 1;
        }
        Buffer<float> want = loom_apps::resize_reference(in, filter_of(c.kernel), c.scale,
                                                         out.width(), out.height());
        if (int failures = compare(c.name, want, out)) {
            std::printf("resize_app (%s): %d mismatches\n", c.name, failures);
            return 1;
        }
        std::printf("resize_app: %s, %dx%d to %dx%d ok\n", c.name, in.width(), in.height(),
                    out.width(), out.height());
        outs.push_back(out);
    }
    if (!out_png.empty())
        loom_apps::save_float_png(out_png, outs[0].width(), outs[0].height(), 3,
                                  [&](int x, int y, int c) { return outs[0](x, y, c); });

    if (loom_apps::has_flag(argc, argv, "--auto")) {
        // The auto-scheduler's and a short tuning run's schedules, checked
        // on one enlargement and one reduction.
        for (int i : {0, 3}) {
            const Case &c = cases[i];
            Buffer<float> auto_out = output_for(in, c.scale);
            auto rows = loom_apps::bench_automatic<ResizeGenerator>(
                c.name, [&](ResizeGenerator &g) { setup(g, c, in); }, loom::Realization({auto_out}),
                [&] { return compare(c.name, outs[size_t(i)], auto_out) == 0; }, 0,
                loom_apps::app_tune_seconds(), 3);
            if (!rows.ok) return 1;
        }
    }
    if (bench) {
        loom_apps::print_machine(loom::get_host_target().to_string());
        for (size_t i = 0; i < std::size(cases); i++) {
            const Case &c = cases[i];
            ResizeGenerator g;
            setup(g, c, in);
            loom::Pipeline p = g.build_pipeline();
            p.compile_jit();
            Buffer<float> &out = outs[i];
            Buffer<float> jit_out = output_for(in, c.scale);
            auto [aot_ms, jit_ms] = loom_apps::alternating_median_ms(
                20, [&] { run_library(c, in, out); },
                [&] { p.realize(loom::Realization({jit_out})); });
            if (compare(c.name, out, jit_out)) {
                std::printf("resize_app (%s): the JIT output differs\n", c.name);
                return 1;
            }
            std::printf("resize %s %dx%d to %dx%d: AOT %.3f ms, JIT %.3f ms, AOT/JIT %.2f\n",
                        c.name, in.width(), in.height(), out.width(), out.height(), aot_ms, jit_ms,
                        aot_ms / jit_ms);
            auto rows = loom_apps::bench_automatic<ResizeGenerator>(
                c.name, [&](ResizeGenerator &g) { setup(g, c, in); }, loom::Realization({jit_out}),
                [&] { return compare(c.name, out, jit_out) == 0; }, jit_ms,
                loom_apps::app_tune_seconds(), 20);
            if (!rows.ok) return 1;
        }
    }
    return 0;
}
