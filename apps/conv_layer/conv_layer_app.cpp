// Runs the generated conv_layer library on made-up data (a batch of images,
// a filter bank and biases in [-1, 1] and [-0.1, 0.1]), checks it against
// plain C++, and with --bench compares its speed with the JIT of the same
// generator and prints GFLOP/s.
//
//   conv_layer_app [--bench] [--auto]

#include <cmath>
#include <cstdint>
#include <cstdio>

#include "ConvLayerGenerator.h"
#include "app_driver.h"
#include "app_tensors.h"
#include "conv_layer.h"

using loom::Buffer;

namespace {

using Shape = loom_apps::ConvShape;
using loom_apps::random_value;

struct Layer {
    Buffer<float> input, filter, bias, output;
    explicit Layer(const Shape &s)
        : input(s.w + 2, s.h + 2, s.ci, s.n), filter(3, 3, s.ci, s.co), bias(s.co),
          output(s.w, s.h, s.co, s.n) {
        uint32_t seed = 7;
        input.for_each_value([&](float &v) { v = random_value(seed, 1.0f); });
        filter.for_each_value([&](float &v) { v = random_value(seed, 0.1f); });
        bias.for_each_value([&](float &v) { v = random_value(seed, 0.1f); });
    }
};

// Plain C++: each output value summed in double, in the order of the
// formula (input channel, then ky, then kx).
Buffer<float> reference(const Layer &l) {
    const Buffer<float> &in = l.input, &f = l.filter;
    Buffer<float> out(l.output.dim(0).extent(), l.output.dim(1).extent(), l.output.dim(2).extent(),
                      l.output.dim(3).extent());
    for (int n = 0; n < out.dim(3).extent(); n++)
        for (int c = 0; c < out.dim(2).extent(); c++)
            for (int y = 0; y < out.dim(1).extent(); y++)
                for (int x = 0; x < out.dim(0).extent(); x++) {
                    double sum = l.bias(c);
                    for (int ci = 0; ci < in.dim(2).extent(); ci++)
                        for (int ky = 0; ky < 3; ky++)
                            for (int kx = 0; kx < 3; kx++)
                                sum += double(f(kx, ky, ci, c)) * in(x + kx, y + ky, ci, n);
                    out(x, y, c, n) = float(std::max(sum, 0.0));
                }
    return out;
}

// Float sums of a few hundred products in another order: 1e-4 absolute
// (outputs are of order 1) plus 1e-4 relative.
int compare(const Buffer<float> &want, const Buffer<float> &got) {
    int failures = 0;
    for (int n = 0; n < want.dim(3).extent(); n++)
        for (int c = 0; c < want.dim(2).extent(); c++)
            for (int y = 0; y < want.dim(1).extent(); y++)
                for (int x = 0; x < want.dim(0).extent(); x++) {
                    float a = want(x, y, c, n), b = got(x, y, c, n);
                    if (!(std::fabs(a - b) <= 1e-4f + 1e-4f * std::fabs(a)) && failures++ < 10)
                        std::printf("conv_layer(%d, %d, %d, %d) = %g, expected %g\n", x, y, c, n, b,
                                    a);
                }
    return failures;
}

int run(Layer &l) {
    return conv_layer(l.input.raw_buffer(), l.filter.raw_buffer(), l.bias.raw_buffer(),
                      l.output.raw_buffer());
}

void setup(ConvLayerGenerator &g, Layer &l) {
    g.input.set(l.input);
    g.filter.set(l.filter);
    g.bias.set(l.bias);
}

} // namespace

int main(int argc, char **argv) {
    bool bench = loom_apps::has_flag(argc, argv, "--bench");
    // The test's sizes are not multiples of the blocks (40 channels in,
    // 44 out, 101x35 pixels); rows as long as the estimates' (100) and 35
    // of them, since the auto-scheduler's splits of the output shift
    // inwards and need at least their factor (32 rows).
    Shape shape = bench ? Shape{5, 128, 128, 100, 80} : Shape{2, 40, 44, 101, 35};
    Layer l(shape);
    Buffer<float> want, other(shape.w, shape.h, shape.co, shape.n);
    loom_apps::AppDriver<ConvLayerGenerator> app;
    app.name = "conv_layer";
    app.size = loom_apps::conv_shape_text(shape);
    app.run = [&] { return run(l); };
    app.check = [&] {
        want = reference(l);
        return compare(want, l.output);
    };
    app.setup = [&](ConvLayerGenerator &g) { setup(g, l); };
    app.other = loom::Realization({other});
    app.check_other = [&] { return compare(want, other); };
    app.flops = 2.0 * shape.n * shape.co * shape.ci * 9.0 * shape.w * shape.h;
    app.bench_runs = 10;
    return loom_apps::run_app_driver(argc, argv, app);
}
