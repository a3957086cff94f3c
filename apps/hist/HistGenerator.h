#ifndef LOOM_APPS_HIST_GENERATOR_H
#define LOOM_APPS_HIST_GENERATOR_H

// Histogram equalization of a planar uint8 RGB image, all in integers (so
// the result is exact): each pixel's luma Y and chroma Cb, Cr (full-range
// BT.601 in 8-bit fixed point, JPEG's conversion); a 256-bin histogram of
// Y over the image; its running sum (the CDF); Y mapped to
// 255 * cdf(Y) / pixels; and the new Y with the old chroma converted
// back to RGB.

// perf_apps' Halide side includes this header with Halide's names (apps/bench).
#ifndef LOOM_APP_HALIDE_SIDE
#include "Loom.h"
#endif
#include "app_schedule.h"

class HistGenerator : public loom::Generator<HistGenerator> {
public:
    /** Image rows per partial histogram (one parallel task each). */
    GeneratorParam<int> rows_per_histogram{"rows_per_histogram", 64, 1, 4096};
    /** Output rows per parallel task. */
    GeneratorParam<int> rows_per_task{"rows_per_task", 32, 1, 1024};
    GeneratorParam<int> vector_width{"vector_width", 16, 1, 64};

    Input<loom::Buffer<uint8_t, 3>> input{"input"};
    Output<loom::Buffer<uint8_t, 3>> output{"output"};

    loom::Var x{"x"}, y{"y"}, c{"c"}, i{"i"}, u{"u"}, yo{"yo"}, yi{"yi"};
    loom::Func luma{"luma"}, histogram{"histogram"}, cdf{"cdf"}, equalize{"equalize"};
    loom::RDom pixel, bin;

    void generate() {
        using loom::cast;
        using loom::clamp;
        using loom::Expr;
        auto channel = [&](int k) { return cast<int32_t>(input(x, y, k)); };
        Expr r = channel(0), g = channel(1), b = channel(2);
        luma(x, y) = (77 * r + 150 * g + 29 * b + 128) >> 8;
        Expr cb = ((-43 * r - 85 * g + 128 * b + 128) >> 8) + 128;
        Expr cr = ((128 * r - 107 * g - 21 * b + 128) >> 8) + 128;

        pixel = loom::RDom({{0, input.width()}, {0, input.height()}}, "pixel");
        histogram(i) = 0;
        // (The bin is clamped so that its region is known: Y is in [0, 255].)
        histogram(clamp(luma(pixel.x, pixel.y), 0, 255)) += 1;

        bin = loom::RDom({{1, 255}}, "bin");
        cdf(i) = histogram(0);
        cdf(bin) = cdf(bin - 1) + histogram(bin);

        Expr pixels = cast<int64_t>(input.width()) * cast<int64_t>(input.height());
        equalize(i) = cast<int32_t>(cast<int64_t>(cdf(i)) * 255 / pixels);

        Expr y2 = equalize(clamp(luma(x, y), 0, 255));
        Expr db = cb - 128, dr = cr - 128;
        Expr red = y2 + ((359 * dr + 128) >> 8);
        Expr green = y2 + ((-88 * db - 183 * dr + 128) >> 8);
        Expr blue = y2 + ((454 * db + 128) >> 8);
        output(x, y, c) = cast<uint8_t>(clamp(loom::mux(c, {red, green, blue}), 0, 255));
    }

    void schedule() {
        // The benchmark's sizes, for auto-schedulers (set here so that the
        // algorithm in generate() stays free of them).
        input.set_estimates({{0, 3001}, {0, 2003}, {0, 3}});
        output.set_estimates({{0, 3001}, {0, 2003}, {0, 3}});
        if (using_autoscheduler()) return;
        // The histogram: the image's rows in blocks, one partial histogram
        // per block (rfactor; blocks in parallel, the luma computed as the
        // pixels are counted), then a vectorized sum of the partial
        // histograms. The CDF and the equalization table are 256 values,
        // computed once. The output: strips of rows per task, channels
        // unrolled inside, vectorized along x (the table read is a gather).
        loom::RVar block{"block"}, row{"row"};
        histogram.compute_root();
        histogram.update().split(pixel.y, block, row, rows_per_histogram);
        loom::Func partial = histogram.update().rfactor(block, u);
        partial.compute_root().vectorize(i, 8).update().parallel(u).unroll(pixel.x, 4);
        histogram.update().vectorize(i, 8);
        cdf.compute_root();
        equalize.compute_root().vectorize(i, 8);
        loom_apps::strips_of_rows(output, x, y, c, yo, yi, 3, rows_per_task, vector_width);
    }
};

#endif
