#ifndef LOOM_APPS_CONV_LAYER_GENERATOR_H
#define LOOM_APPS_CONV_LAYER_GENERATOR_H

// A convolutional network layer in NCHW order: a 3x3 convolution of a
// float batch (x, y, input channel, image; x innermost) with a filter bank
// (kx, ky, input channel, output channel), plus a bias per output channel,
// then ReLU. "Valid" convolution: the input is 2 pixels wider and higher
// than the output, so no boundary condition.

// perf_apps' Halide side includes this header with Halide's names (apps/bench).
#ifndef LOOM_APP_HALIDE_SIDE
#include "Loom.h"
#endif

class ConvLayerGenerator : public loom::Generator<ConvLayerGenerator> {
public:
    /** Output pixels along x per register block (a multiple of vector_width). */
    GeneratorParam<int> block_x{"block_x", 32, 1, 256};
    /** Output channels per register block. */
    GeneratorParam<int> block_channels{"block_channels", 8, 1, 64};
    GeneratorParam<int> vector_width{"vector_width", 16, 1, 64};

    Input<loom::Buffer<float, 4>> input{"input"};
    Input<loom::Buffer<float, 4>> filter{"filter"};
    Input<loom::Buffer<float, 1>> bias{"bias"};
    Output<loom::Buffer<float, 4>> output{"output"};

    loom::Var x{"x"}, y{"y"}, c{"c"}, n{"n"}, xo{"xo"}, xi{"xi"}, co{"co"}, ci{"ci"};
    loom::Func conv{"conv"};
    loom::RDom r;

    void generate() {
        r = loom::RDom({{0, 3}, {0, 3}, {0, input.dim(2).extent()}}, "r");
        conv(x, y, c, n) = bias(c);
        conv(x, y, c, n) += filter(r.x, r.y, r.z, c) * input(x + r.x, y + r.y, r.z, n);
        output(x, y, c, n) = loom::max(conv(x, y, c, n), 0.0f);
    }

    void schedule() {
        // The benchmark's sizes (Halide's conv_layer app: 5 images of
        // 100x80, 128 channels in and out), for auto-schedulers.
        const int N = 5, CI = 128, CO = 128, W = 100, H = 80;
        input.set_estimates({{0, W + 2}, {0, H + 2}, {0, CI}, {0, N}});
        filter.set_estimates({{0, 3}, {0, 3}, {0, CI}, {0, CO}});
        bias.set_estimates({{0, CO}});
        output.set_estimates({{0, W}, {0, H}, {0, CO}, {0, N}});
        if (using_autoscheduler()) return;
        // Register blocks of block_x pixels of a row by block_channels
        // output channels: the sums stay in vector registers (2 vectors x
        // 8 channels) while the reduction runs over the input channels and
        // the 3x3 taps, each step one broadcast weight per channel and one
        // unaligned input vector per 16 pixels. Tasks are groups of output
        // channels of one image (all rows).
        const int vw = vector_width, bx = block_x, bc = block_channels;
        output.split(x, xo, xi, bx)
            .split(c, co, ci, bc)
            .reorder(xi, ci, xo, y, co, n)
            .parallel(co)
            .vectorize(xi, vw)
            .unroll(xi)
            .unroll(ci);
        // Loom does not see the block's constant extents at xo, so the
        // unrolls name their factors.
        conv.compute_at(output, xo).vectorize(x, vw).unroll(x, bx / vw).unroll(c, bc);
        conv.update()
            .reorder(x, c, r.x, r.y, r.z)
            .vectorize(x, vw)
            .unroll(x, bx / vw)
            .unroll(c, bc);
    }
};

#endif
