#ifndef LOOM_APPS_IIR_BLUR_GENERATOR_H
#define LOOM_APPS_IIR_BLUR_GENERATOR_H

// A first-order recursive (IIR) blur of a planar float RGB image: every
// column is filtered down, y[n] = (1 - alpha) y[n-1] + alpha x[n] starting
// from its first pixel, and then up with the same filter over the result;
// then the same along the rows. Each pass filters columns and writes its
// result transposed, so the row pass is a column pass over the transposed
// image, and its transposed result is the output.

// perf_apps' Halide side includes this header with Halide's names (apps/bench).
#ifndef LOOM_APP_HALIDE_SIDE
#include "Loom.h"
#endif

class IirBlurGenerator : public loom::Generator<IirBlurGenerator> {
public:
    GeneratorParam<int> vector_width{"vector_width", 16, 1, 64};
    /** Columns of the input (rows of the transposed image) per parallel task. */
    GeneratorParam<int> columns_per_task{"columns_per_task", 64, 1, 1024};

    Input<loom::Buffer<float, 3>> input{"input"};
    /** The weight of the new pixel: 1 leaves the image as it is, smaller
     * values blur more. */
    Input<float> alpha{"alpha", 0.1f, 0.0f, 1.0f};
    Output<loom::Buffer<float, 3>> output{"output"};

    loom::Var x{"x"}, y{"y"}, c{"c"};
    loom::Func blur_columns{"blur_columns"}, transposed{"transposed"}, blur_rows{"blur_rows"};
    loom::RDom down_columns, up_columns, down_rows, up_rows;

    void generate() {
        // transposed(x, y, c) is the column-blurred input at (y, x, c).
        filter_columns(blur_columns, input, input.height(), down_columns, up_columns);
        transposed(x, y, c) = blur_columns(y, x, c);
        filter_columns(blur_rows, transposed, input.width(), down_rows, up_rows);
        output(x, y, c) = blur_rows(y, x, c);
    }

    void schedule() {
        // The benchmark's sizes, for auto-schedulers (set here so that the
        // algorithm in generate() stays free of them).
        input.set_estimates({{0, 3001}, {0, 2003}, {0, 3}});
        // Scalar Inputs too: Halide 14's Adams2019 (perf_apps --auto) needs every
        // Input's estimate.
        alpha.set_estimate(0.1f);
        output.set_estimates({{0, 3001}, {0, 2003}, {0, 3}});
        if (using_autoscheduler()) return;
        schedule_pass(transposed, blur_columns, down_columns, up_columns);
        schedule_pass(output, blur_rows, down_rows, up_rows);
    }

private:
    loom::Var xo{"xo"}, yo{"yo"}, yc{"yc"}, yt{"yt"}, xi{"xi"}, yi{"yi"};

    /** blur(x, y, c): in filtered down and up along y over rows [0, height). */
    void filter_columns(loom::Func &blur, loom::Func in, loom::Expr height, loom::RDom &down,
                        loom::RDom &up) {
        using loom::Expr;
        blur(x, y, c) = loom::undef<float>();
        blur(x, 0, c) = in(x, 0, c);
        down = loom::RDom(1, height - 1);
        blur(x, down, c) = (1 - alpha) * blur(x, down - 1, c) + alpha * in(x, down, c);
        up = loom::RDom(1, height - 1);
        Expr row = height - 1 - up;
        blur(x, row, c) = (1 - alpha) * blur(x, row + 1, c) + alpha * blur(x, row, c);
    }

    /** A strip of columns_per_task rows of `transpose` (columns of its
     * source) per task; per channel, the columns of the strip are filtered
     * (all rows at once, with vectors across the columns) and transposed
     * in square tiles of vector_width. (Fusing the strips and channels
     * into one parallel loop, as Halide's app does, breaks Loom's bounds
     * of the channel: see docs/apps.md.) */
    void schedule_pass(loom::Func transpose, loom::Func blur, loom::RDom down, loom::RDom up) {
        transpose.compute_root()
            .split(y, yo, yc, columns_per_task)
            .tile(x, yc, xo, yt, xi, yi, vector_width, vector_width)
            .reorder(xi, yi, xo, yt, c, yo)
            .vectorize(xi)
            .unroll(yi)
            .parallel(yo);
        blur.compute_at(transpose, c);
        blur.update(0).vectorize(x, vector_width);
        blur.update(1).reorder(x, down.x).vectorize(x, vector_width);
        blur.update(2).reorder(x, up.x).vectorize(x, vector_width);
    }
};

#endif
