#ifndef LOOM_APPS_DEPTHWISE_SEPARABLE_CONV_GENERATOR_H
#define LOOM_APPS_DEPTHWISE_SEPARABLE_CONV_GENERATOR_H

// A depthwise separable convolution layer (MobileNet's building block) in
// NCHW order on a float batch (x, y, channel, image; x innermost): a 3x3
// convolution of each input channel with its own filter (kx, ky, channel)
// plus a bias, ReLU, then a pointwise (1x1) convolution mixing the
// channels with weights (input channel, output channel) plus a bias, ReLU.
// "Valid" convolution: the input is 2 pixels wider and higher than the
// output.

// perf_apps' Halide side includes this header with Halide's names (apps/bench).
#ifndef LOOM_APP_HALIDE_SIDE
#include "Loom.h"
#endif

class DepthwiseSeparableConvGenerator : public loom::Generator<DepthwiseSeparableConvGenerator> {
public:
    /** Output pixels along x per register block (a multiple of vector_width). */
    GeneratorParam<int> block_x{"block_x", 32, 1, 256};
    /** Output channels per register block. */
    GeneratorParam<int> block_channels{"block_channels", 8, 1, 64};
    GeneratorParam<int> vector_width{"vector_width", 16, 1, 64};

    Input<loom::Buffer<float, 4>> input{"input"};
    Input<loom::Buffer<float, 3>> depthwise_filter{"depthwise_filter"};
    Input<loom::Buffer<float, 1>> depthwise_bias{"depthwise_bias"};
    Input<loom::Buffer<float, 2>> pointwise_filter{"pointwise_filter"};
    Input<loom::Buffer<float, 1>> pointwise_bias{"pointwise_bias"};
    Output<loom::Buffer<float, 4>> output{"output"};

    loom::Var x{"x"}, y{"y"}, c{"c"}, n{"n"}, xo{"xo"}, xi{"xi"}, co{"co"}, ci{"ci"};
    loom::Func depthwise{"depthwise"}, pointwise{"pointwise"};
    loom::RDom tap, channel;

    void generate() {
        tap = loom::RDom({{0, 3}, {0, 3}}, "tap");
        channel = loom::RDom({{0, input.dim(2).extent()}}, "channel");
        loom::Func depthwise_sum("depthwise_sum");
        depthwise_sum(x, y, c, n) = depthwise_bias(c);
        depthwise_sum(x, y, c, n) +=
            depthwise_filter(tap.x, tap.y, c) * input(x + tap.x, y + tap.y, c, n);
        depthwise(x, y, c, n) = loom::max(depthwise_sum(x, y, c, n), 0.0f);
        pointwise(x, y, c, n) = pointwise_bias(c);
        pointwise(x, y, c, n) += pointwise_filter(channel, c) * depthwise(x, y, channel, n);
        output(x, y, c, n) = loom::max(pointwise(x, y, c, n), 0.0f);
        depthwise_total = depthwise_sum;
    }

    void schedule() {
        // The benchmark's sizes (4 images of 112x112, 32 channels in, 64
        // out), for auto-schedulers.
        const int N = 4, CI = 32, CO = 64, W = 112, H = 112;
        input.set_estimates({{0, W + 2}, {0, H + 2}, {0, CI}, {0, N}});
        depthwise_filter.set_estimates({{0, 3}, {0, 3}, {0, CI}});
        depthwise_bias.set_estimates({{0, CI}});
        pointwise_filter.set_estimates({{0, CI}, {0, CO}});
        pointwise_bias.set_estimates({{0, CO}});
        output.set_estimates({{0, W}, {0, H}, {0, CO}, {0, N}});
        if (using_autoscheduler()) return;
        // A task per output row of an image: the depthwise stage for that
        // row (all channels, vectorized along x, its 9 taps unrolled), then
        // register blocks of block_x pixels by block_channels output
        // channels whose sums stay in vector registers while the reduction
        // runs over the input channels.
        const int vw = vector_width, bx = block_x, bc = block_channels;
        output.split(x, xo, xi, bx)
            .split(c, co, ci, bc)
            .reorder(xi, ci, xo, co, y, n)
            .parallel(y)
            .vectorize(xi, vw)
            .unroll(xi)
            .unroll(ci);
        depthwise_total.compute_at(output, y).vectorize(x, vw);
        depthwise_total.update()
            .reorder(x, tap.x, tap.y, c)
            .vectorize(x, vw)
            .unroll(tap.x)
            .unroll(tap.y);
        // Loom does not see the block's constant extents at xo, so the
        // unrolls name their factors.
        pointwise.compute_at(output, xo).vectorize(x, vw).unroll(x, bx / vw).unroll(c, bc);
        pointwise.update()
            .reorder(x, c, channel.x)
            .vectorize(x, vw)
            .unroll(x, bx / vw)
            .unroll(c, bc);
    }

private:
    loom::Func depthwise_total;
};

#endif
