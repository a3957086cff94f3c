// Runs the generated depthwise_separable_conv library on made-up data (a
// batch of images in [-1, 1], filters and biases in [-0.3, 0.3]), checks it
// against plain C++, and with --bench compares its speed with the JIT of
// the same generator and prints GFLOP/s.
//
//   depthwise_separable_conv_app [--bench] [--auto]

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "DepthwiseSeparableConvGenerator.h"
#include "app_autoschedule.h"
#include "app_bench.h"
#include "depthwise_separable_conv.h"

using loom::Buffer;

namespace {

struct Shape {
    int n, ci, co, w, h; // batch, channels in and out, output width and height
};

float random_value(uint32_t &seed, float scale) {
    seed = seed * 1664525u + 1013904223u;
    return (float((seed >> 8) % 20001) / 10000.0f - 1.0f) * scale;
}

struct Layer {
    Buffer<float> input, dw_filter, dw_bias, pw_filter, pw_bias, output;
    explicit Layer(const Shape &s)
        : input(s.w + 2, s.h + 2, s.ci, s.n), dw_filter(3, 3, s.ci), dw_bias(s.ci),
          pw_filter(s.ci, s.co), pw_bias(s.co), output(s.w, s.h, s.co, s.n) {
        uint32_t seed = 11;
        input.for_each_value([&](float &v) { v = random_value(seed, 1.0f); });
        for (Buffer<float> *b : {&dw_filter, &dw_bias, &pw_filter, &pw_bias})
            b->for_each_value([&](float &v) { v = random_value(seed, 0.3f); });
    }
};

// Plain C++: the depthwise stage for the whole batch into an array, then
// the pointwise stage, each value summed in double.
Buffer<float> reference(const Layer &l, const Shape &s) {
    std::vector<double> depthwise(size_t(s.w) * size_t(s.h) * size_t(s.ci) * size_t(s.n));
    auto dw = [&](int x, int y, int c, int n) -> double & {
        return depthwise[((size_t(n) * size_t(s.ci) + size_t(c)) * size_t(s.h) + size_t(y)) *
                             size_t(s.w) +
                         size_t(x)];
    };
    for (int n = 0; n < s.n; n++)
        for (int c = 0; c < s.ci; c++)
            for (int y = 0; y < s.h; y++)
                for (int x = 0; x < s.w; x++) {
                    double sum = l.dw_bias(c);
                    for (int ky = 0; ky < 3; ky++)
                        for (int kx = 0; kx < 3; kx++)
                            sum += double(l.dw_filter(kx, ky, c)) * l.input(x + kx, y + ky, c, n);
                    dw(x, y, c, n) = std::max(sum, 0.0);
                }
    Buffer<float> out(s.w, s.h, s.co, s.n);
    for (int n = 0; n < s.n; n++)
        for (int c = 0; c < s.co; c++)
            for (int y = 0; y < s.h; y++)
                for (int x = 0; x < s.w; x++) {
                    double sum = l.pw_bias(c);
                    for (int k = 0; k < s.ci; k++)
                        sum += double(l.pw_filter(k, c)) * dw(x, y, k, n);
                    out(x, y, c, n) = float(std::max(sum, 0.0));
                }
    return out;
}

// Float sums in another order: 1e-4 absolute (outputs are of order 1)
// plus 1e-4 relative.
int compare(const Buffer<float> &want, const Buffer<float> &got) {
    int failures = 0;
    for (int n = 0; n < want.dim(3).extent(); n++)
        for (int c = 0; c < want.dim(2).extent(); c++)
            for (int y = 0; y < want.dim(1).extent(); y++)
                for (int x = 0; x < want.dim(0).extent(); x++) {
                    float a = want(x, y, c, n), b = got(x, y, c, n);
                    if (!(std::fabs(a - b) <= 1e-4f + 1e-4f * std::fabs(a)) && failures++ < 10)
                        std::printf("depthwise_separable_conv(%d, %d, %d, %d) = %g, expected %g\n",
                                    x, y, c, n, b, a);
                }
    return failures;
}

int run(Layer &l) {
    return depthwise_separable_conv(l.input.raw_buffer(), l.dw_filter.raw_buffer(),
                                    l.dw_bias.raw_buffer(), l.pw_filter.raw_buffer(),
                                    l.pw_bias.raw_buffer(), l.output.raw_buffer());
}

void setup(DepthwiseSeparableConvGenerator &g, Layer &l) {
    g.input.set(l.input);
    g.depthwise_filter.set(l.dw_filter);
    g.depthwise_bias.set(l.dw_bias);
    g.pointwise_filter.set(l.pw_filter);
    g.pointwise_bias.set(l.pw_bias);
}

} // namespace

int main(int argc, char **argv) {
    bool bench = loom_apps::has_flag(argc, argv, "--bench");
    // The test's sizes are not multiples of the blocks (20 channels out,
    // 117x35 pixels); rows as long as the estimates' (112) and 35 of them,
    // since the auto-scheduler's splits of the output shift inwards and
    // need at least their factor (32 rows).
    Shape shape = bench ? Shape{4, 32, 64, 112, 112} : Shape{2, 12, 20, 117, 35};
    Layer l(shape);
    if (int err = run(l)) {
        std::printf("depthwise_separable_conv failed with error %d\n", err);
        return 1;
    }
    Buffer<float> want = reference(l, shape);
    if (int failures = compare(want, l.output)) {
        std::printf("depthwise_separable_conv_app: %d mismatches\n", failures);
        return 1;
    }
    std::printf("depthwise_separable_conv_app: %d images of %dx%d, %d to %d channels ok\n", shape.n,
                shape.w, shape.h, shape.ci, shape.co);

    Buffer<float> other(shape.w, shape.h, shape.co, shape.n);
    if (loom_apps::has_flag(argc, argv, "--auto")) {
        // The auto-scheduler's and a short tuning run's schedules, checked.
        auto rows = loom_apps::bench_automatic<DepthwiseSeparableConvGenerator>(
            "depthwise_separable_conv", [&](DepthwiseSeparableConvGenerator &g) { setup(g, l); },
            loom::Realization({other}), [&] { return compare(want, other) == 0; }, 0,
            loom_apps::app_tune_seconds(), 3);
        if (!rows.ok) return 1;
    }
    if (bench) {
        loom_apps::print_machine(loom::get_host_target().to_string());
        DepthwiseSeparableConvGenerator g;
        loom::Pipeline p = g.build_pipeline();
        setup(g, l);
        p.compile_jit();
        auto [aot_ms, jit_ms] = loom_apps::alternating_median_ms(
            20, [&] { run(l); }, [&] { p.realize(loom::Realization({other})); });
        if (compare(want, other)) {
            std::printf("depthwise_separable_conv_app: the JIT output differs\n");
            return 1;
        }
        double flops = 2.0 * shape.n * shape.w * shape.h * (shape.ci * 9.0 + shape.ci * shape.co);
        std::printf("depthwise_separable_conv %d images of %dx%d, %d to %d channels: AOT %.3f ms "
                    "(%.1f GFLOP/s), JIT %.3f ms, AOT/JIT %.2f\n",
                    shape.n, shape.w, shape.h, shape.ci, shape.co, aot_ms, flops / aot_ms * 1e-6,
                    jit_ms, aot_ms / jit_ms);
        auto rows = loom_apps::bench_automatic<DepthwiseSeparableConvGenerator>(
            "depthwise_separable_conv", [&](DepthwiseSeparableConvGenerator &g) { setup(g, l); },
            loom::Realization({other}), [&] { return compare(want, other) == 0; }, jit_ms,
            loom_apps::app_tune_seconds(), 20);
        if (!rows.ok) return 1;
    }
    return 0;
}
