#ifndef LOOM_APPS_WAVELET_GENERATOR_H
#define LOOM_APPS_WAVELET_GENERATOR_H

// One level of the 2-D Haar wavelet transform of a uint8 gray image, and
// its inverse, in integers by lifting (the S-transform), so that the
// inverse gives back the input exactly. On a pair (a, b) of neighbours:
// detail h = a - b, average l = b + floor(h / 2); back: b = l - floor(h / 2),
// a = h + b. Rows first (pairs along x), then columns of both halves. The
// four bands, each half the size in x and y, are planes 0 (averages of
// averages: a half-size image), 1 (row details averaged down columns),
// 2 (row averages' column details) and 3 (details of details).

// perf_apps' Halide side includes this header with Halide's names (apps/bench).
#ifndef LOOM_APP_HALIDE_SIDE
#include "Loom.h"
#endif

/** The forward transform: (width, height) uint8 to (width / 2, height / 2,
 * 4) int16 bands (width and height even). */
class WaveletGenerator : public loom::Generator<WaveletGenerator> {
public:
    /** Band rows per parallel task. */
    GeneratorParam<int> rows_per_task{"rows_per_task", 32, 1, 1024};
    GeneratorParam<int> vector_width{"vector_width", 16, 1, 64};

    Input<loom::Buffer<uint8_t, 2>> input{"input"};
    Output<loom::Buffer<int16_t, 3>> output{"output"};

    loom::Var x{"x"}, y{"y"}, c{"c"}, yo{"yo"}, yi{"yi"};
    /** The row pass: averages (c = 0) and details (c = 1) of pairs along x. */
    loom::Func rows{"rows"};

    void generate() {
        using loom::cast;
        using loom::Expr;
        Expr a = cast<int32_t>(input(2 * x, y)), b = cast<int32_t>(input(2 * x + 1, y));
        Expr h = a - b;
        rows(x, y, c) = loom::select(c == 0, b + (h >> 1), h);
        // Columns: pairs along y of the row averages (bands 0, 2) and of
        // the row details (bands 1, 3).
        Expr half = c % 2;
        Expr top = rows(x, 2 * y, half), bottom = rows(x, 2 * y + 1, half);
        Expr column_h = top - bottom;
        output(x, y, c) = cast<int16_t>(loom::select(c < 2, bottom + (column_h >> 1), column_h));
    }

    void schedule() {
        // The benchmark's sizes, for auto-schedulers (set here so that the
        // algorithm in generate() stays free of them).
        input.set_estimates({{0, 3000}, {0, 2002}});
        output.set_estimates({{0, 1500}, {0, 1001}, {0, 4}});
        if (using_autoscheduler()) return;
        // Strips of band rows per task: the row pass for the strip's input
        // rows (both halves), then all four bands per row, vectorized along
        // x (the pairs are even and odd lanes of the input rows).
        output.bound(c, 0, 4)
            .split(y, yo, yi, rows_per_task)
            .reorder(x, c, yi, yo)
            .parallel(yo)
            .vectorize(x, vector_width)
            .unroll(c);
        rows.compute_at(output, yo)
            .bound(c, 0, 2)
            .reorder(x, c, y)
            .vectorize(x, vector_width)
            .unroll(c);
    }
};

/** The inverse transform: (width / 2, height / 2, 4) int16 bands to the
 * (width, height) image, as int16 (the bands of any image come back to
 * [0, 255]). */
class InverseWaveletGenerator : public loom::Generator<InverseWaveletGenerator> {
public:
    /** Output rows per parallel task. */
    GeneratorParam<int> rows_per_task{"rows_per_task", 32, 1, 1024};
    GeneratorParam<int> vector_width{"vector_width", 16, 1, 64};

    Input<loom::Buffer<int16_t, 3>> input{"input"};
    Output<loom::Buffer<int16_t, 2>> output{"output"};

    loom::Var x{"x"}, y{"y"}, c{"c"}, yo{"yo"}, yi{"yi"};
    /** The rows rebuilt from the bands: averages (c = 0) and details (c = 1)
     * of pairs along x, at full height. */
    loom::Func rows{"rows"};

    void generate() {
        using loom::cast;
        using loom::Expr;
        // Undo the column pass: band c holds the averages, band c + 2 the
        // details of the pairs along y.
        Expr l = cast<int32_t>(input(x, y / 2, c)), h = cast<int32_t>(input(x, y / 2, c + 2));
        Expr bottom = l - (h >> 1);
        rows(x, y, c) = loom::select(y % 2 == 0, h + bottom, bottom);
        // Undo the row pass.
        Expr average = rows(x / 2, y, 0), detail = rows(x / 2, y, 1);
        Expr right = average - (detail >> 1);
        output(x, y) = cast<int16_t>(loom::select(x % 2 == 0, detail + right, right));
    }

    void schedule() {
        input.set_estimates({{0, 1500}, {0, 1001}, {0, 4}});
        output.set_estimates({{0, 3000}, {0, 2002}});
        if (using_autoscheduler()) return;
        // Strips of rows per task; the rebuilt rows per strip (both halves),
        // then the output, vectorized along x.
        output.split(y, yo, yi, rows_per_task).parallel(yo).vectorize(x, vector_width);
        rows.compute_at(output, yo)
            .bound(c, 0, 2)
            .reorder(x, c, y)
            .vectorize(x, vector_width)
            .unroll(c);
    }
};

#endif
