#ifndef LOOM_APPS_HARRIS_GENERATOR_H
#define LOOM_APPS_HARRIS_GENERATOR_H

// Harris corner response of a planar float RGB image: the luminance's Sobel
// gradients Ix and Iy, their products summed over a 3x3 box (the structure
// tensor), and det - k * trace^2 of it per pixel. Edges repeat.

// perf_apps' Halide side includes this header with Halide's names (apps/bench).
#ifndef LOOM_APP_HALIDE_SIDE
#include "Loom.h"
#endif

class HarrisGenerator : public loom::Generator<HarrisGenerator> {
public:
    /** Rows per parallel task. */
    GeneratorParam<int> rows_per_task{"rows_per_task", 32, 1, 1024};
    GeneratorParam<int> vector_width{"vector_width", 16, 1, 64};

    Input<loom::Buffer<float, 3>> input{"input"};
    /** Harris' sensitivity constant (0.04 to 0.06 in the literature). */
    Input<float> k{"k", 0.04f, 0.0f, 0.25f};
    Output<loom::Buffer<float, 2>> output{"output"};

    loom::Var x{"x"}, y{"y"}, yo{"yo"}, yi{"yi"};
    loom::Func gray{"gray"}, grad_x{"grad_x"}, grad_y{"grad_y"};
    loom::Func xx{"xx"}, yy{"yy"}, xy{"xy"}, sum_xx{"sum_xx"}, sum_yy{"sum_yy"}, sum_xy{"sum_xy"};

    void generate() {
        using loom::Expr;
        loom::Func clamped = loom::BoundaryConditions::repeat_edge(input);
        gray(x, y) =
            0.299f * clamped(x, y, 0) + 0.587f * clamped(x, y, 1) + 0.114f * clamped(x, y, 2);
        // Sobel: a [1 2 1] smoothing across the derivative's direction and a
        // central difference along it, scaled by 1/12 as in Harris' paper's
        // common implementations (keeps responses of [0, 1] images small).
        grad_x(x, y) =
            (gray(x + 1, y - 1) - gray(x - 1, y - 1) + 2.0f * (gray(x + 1, y) - gray(x - 1, y)) +
             gray(x + 1, y + 1) - gray(x - 1, y + 1)) /
            12.0f;
        grad_y(x, y) =
            (gray(x - 1, y + 1) - gray(x - 1, y - 1) + 2.0f * (gray(x, y + 1) - gray(x, y - 1)) +
             gray(x + 1, y + 1) - gray(x + 1, y - 1)) /
            12.0f;
        xx(x, y) = grad_x(x, y) * grad_x(x, y);
        yy(x, y) = grad_y(x, y) * grad_y(x, y);
        xy(x, y) = grad_x(x, y) * grad_y(x, y);
        sum_xx(x, y) = box3x3(xx);
        sum_yy(x, y) = box3x3(yy);
        sum_xy(x, y) = box3x3(xy);
        Expr det = sum_xx(x, y) * sum_yy(x, y) - sum_xy(x, y) * sum_xy(x, y);
        Expr trace = sum_xx(x, y) + sum_yy(x, y);
        output(x, y) = det - k * trace * trace;
    }

    void schedule() {
        // The benchmark's sizes, for auto-schedulers (set here so that the
        // algorithm in generate() stays free of them).
        input.set_estimates({{0, 3001}, {0, 2003}, {0, 3}});
        // Scalar Inputs too: Halide 14's Adams2019 (perf_apps --auto) needs every
        // Input's estimate.
        k.set_estimate(0.04f);
        output.set_estimates({{0, 3001}, {0, 2003}});
        if (using_autoscheduler()) return;
        // Strips of rows, one task each. The luminance and both gradients
        // slide down a strip: each row of output computes one new row of
        // them into small circular buffers (stored per strip, computed per
        // row); the products and box sums are inlined into the output.
        output.split(y, yo, yi, rows_per_task).parallel(yo).vectorize(x, vector_width);
        gray.store_at(output, yo).compute_at(output, yi).vectorize(x, vector_width);
        grad_x.store_at(output, yo).compute_at(output, yi).vectorize(x, vector_width);
        grad_y.store_at(output, yo).compute_at(output, yi).vectorize(x, vector_width);
    }

private:
    /** The sum of f over the 3x3 box around (x, y), rows first. */
    loom::Expr box3x3(loom::Func f) {
        loom::Expr rows[3];
        for (int j = 0; j < 3; j++)
            rows[j] = f(x - 1, y + j - 1) + f(x, y + j - 1) + f(x + 1, y + j - 1);
        return rows[0] + rows[1] + rows[2];
    }
};

#endif
