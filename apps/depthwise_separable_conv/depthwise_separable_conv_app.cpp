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
#include "app_driver.h"
#include "app_tensors.h"
#include "depthwise_separable_conv.h"

using loom::Buffer;

namespace {

using Shape = loom_apps::ConvShape;
using loom_apps::random_value;

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
    Buffer<float> want, other(shape.w, shape.h, shape.co, shape.n);
    loom_apps::AppDriver<DepthwiseSeparableConvGenerator> app;
    app.name = "depthwise_separable_conv";
    app.size = loom_apps::conv_shape_text(shape);
    app.run = [&] { return run(l); };
    app.check = [&] {
        want = reference(l, shape);
        return compare(want, l.output);
    };
    app.setup = [&](DepthwiseSeparableConvGenerator &g) { setup(g, l); };
    app.other = loom::Realization({other});
    app.check_other = [&] { return compare(want, other); };
    app.flops = 2.0 * shape.n * shape.w * shape.h * (shape.ci * 9.0 + shape.ci * shape.co);
    return loom_apps::run_app_driver(argc, argv, app);
}
