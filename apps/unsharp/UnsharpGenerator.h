#ifndef LOOM_APPS_UNSHARP_GENERATOR_H
#define LOOM_APPS_UNSHARP_GENERATOR_H

// Unsharp masking of a planar float RGB image: the luminance is blurred with
// a 5-tap binomial kernel in y then x, the sharpened luminance divided by
// the original gives a per-pixel ratio that scales all three channels.

// perf_apps' Halide side includes this header with Halide's names (apps/bench).
#ifndef LOOM_APP_HALIDE_SIDE
#include "Loom.h"
#endif

class UnsharpGenerator : public loom::Generator<UnsharpGenerator> {
public:
    GeneratorParam<int> rows_per_task{"rows_per_task", 32, 1, 1024};
    GeneratorParam<int> vector_width{"vector_width", 16, 1, 64};

    Input<loom::Buffer<float, 3>> input{"input"};
    /** 0 leaves the image as it is; larger values sharpen more. */
    Input<float> strength{"strength", 1.0f, 0.0f, 8.0f};
    Output<loom::Buffer<float, 3>> output{"output"};

    loom::Var x{"x"}, y{"y"}, c{"c"}, yo{"yo"}, yi{"yi"};
    loom::Func gray{"gray"}, blur_y{"blur_y"}, blur_x{"blur_x"}, ratio{"ratio"};

    void generate() {
        using loom::Expr;
        loom::Func clamped = loom::BoundaryConditions::repeat_edge(input);
        gray(x, y) =
            0.299f * clamped(x, y, 0) + 0.587f * clamped(x, y, 1) + 0.114f * clamped(x, y, 2);
        const float w[5] = {1 / 16.0f, 4 / 16.0f, 6 / 16.0f, 4 / 16.0f, 1 / 16.0f};
        Expr by = w[0] * gray(x, y - 2);
        for (int k = 1; k < 5; k++) by = by + w[k] * gray(x, y + k - 2);
        blur_y(x, y) = by;
        Expr bx = w[0] * blur_y(x - 2, y);
        for (int k = 1; k < 5; k++) bx = bx + w[k] * blur_y(x + k - 2, y);
        blur_x(x, y) = bx;
        Expr sharpened = gray(x, y) + strength * (gray(x, y) - blur_x(x, y));
        ratio(x, y) = sharpened / loom::max(gray(x, y), 1e-3f);
        output(x, y, c) = ratio(x, y) * input(x, y, c);
        input.set_estimates({{0, 3001}, {0, 2003}, {0, 3}});
        // Scalar Inputs too: Halide 14's Adams2019 (perf_apps --auto) needs every
        // Input's estimate.
        strength.set_estimate(1.0f);
        output.set_estimates({{0, 3001}, {0, 2003}, {0, 3}});
    }

    void schedule() {
        if (using_autoscheduler()) return;
        // Rows are computed in strips (one task each); within a strip the
        // luminance is kept for the whole strip, the blurs and the ratio one
        // row at a time, shared by the three channels.
        output.reorder(x, c, y)
            .split(y, yo, yi, rows_per_task)
            .parallel(yo)
            .vectorize(x, vector_width);
        gray.compute_at(output, yo).vectorize(x, vector_width);
        blur_y.compute_at(output, yi).vectorize(x, vector_width);
        ratio.compute_at(output, yi).vectorize(x, vector_width);
    }
};

#endif
