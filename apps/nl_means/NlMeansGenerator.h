#ifndef LOOM_APPS_NL_MEANS_GENERATOR_H
#define LOOM_APPS_NL_MEANS_GENERATOR_H

// Non-local means denoising (Buades, Coll and Morel 2005) of a planar float
// RGB image: every pixel becomes the weighted mean of the pixels in a
// search window around it, each weighted by how alike the patches around
// the two are: w = exp(-d / h^2), d the mean over the patch and the three
// channels of the squared differences. The weights are normalized by
// their sum. Edges repeat. Per offset (dx, dy) of the search window the
// patch distance of every pixel is a box sum (rows, then columns) of the
// per-pixel squared differences, so its cost does not grow with the
// patch's area. The weights use fast_exp (a polynomial, about 3e-6
// relative error, computed lane-parallel rather than by libm per lane).

// perf_apps' Halide side includes this header with Halide's names (apps/bench).
#ifndef LOOM_APP_HALIDE_SIDE
#include "Loom.h"
#endif
#include "app_schedule.h"

class NlMeansGenerator : public loom::Generator<NlMeansGenerator> {
public:
    /** Patch width and height (odd). */
    GeneratorParam<int> patch_size{"patch_size", 7, 1, 31};
    /** Search window width and height (odd). */
    GeneratorParam<int> search_size{"search_size", 7, 1, 31};
    /** Output rows per parallel task. */
    GeneratorParam<int> rows_per_task{"rows_per_task", 16, 1, 1024};
    GeneratorParam<int> vector_width{"vector_width", 16, 1, 64};

    Input<loom::Buffer<float, 3>> input{"input"};
    /** The filter's strength h (in the image's units, [0, 1]). */
    Input<float> sigma{"sigma", 0.1f, 0.001f, 10.0f};
    Output<loom::Buffer<float, 3>> output{"output"};

    loom::Var x{"x"}, y{"y"}, c{"c"}, dx{"dx"}, dy{"dy"};
    loom::Var yo{"yo"}, yi{"yi"};
    /** Squared differences summed over channels, their sums over the
     * patch's rows, then its columns, and the weights, each per pixel and
     * offset. */
    loom::Func difference{"difference"}, patch_rows{"patch_rows"}, patch_sum{"patch_sum"};
    loom::Func weight{"weight"};
    /** c = 0, 1, 2: weighted sums of the channels; c = 3: sum of weights. */
    loom::Func weighted_sum{"weighted_sum"};
    loom::RDom patch_y, patch_x, window;

    void generate() {
        using loom::Expr;
        const int p = patch_size / 2, s = search_size / 2;
        loom::Func clamped = loom::BoundaryConditions::repeat_edge(input);

        Expr d = 0.0f;
        for (int k = 0; k < 3; k++) {
            Expr diff = clamped(x, y, k) - clamped(x + dx, y + dy, k);
            d = d + diff * diff;
        }
        difference(x, y, dx, dy) = d;
        // (Sums by RDoms rather than written-out additions: bounds
        // inference and the simplifier then see one term each, which keeps
        // lowering fast under any schedule.)
        patch_y = loom::RDom({{-p, int(patch_size)}}, "patch_y");
        patch_x = loom::RDom({{-p, int(patch_size)}}, "patch_x");
        patch_rows(x, y, dx, dy) = 0.0f;
        patch_rows(x, y, dx, dy) += difference(x, y + patch_y.x, dx, dy);
        patch_sum(x, y, dx, dy) = 0.0f;
        patch_sum(x, y, dx, dy) += patch_rows(x + patch_x.x, y, dx, dy);
        // Mean over the patch's pixels and channels, over h^2.
        Expr scale = 1.0f / (float(3 * patch_size * patch_size) * sigma * sigma);
        weight(x, y, dx, dy) = loom::fast_exp(-patch_sum(x, y, dx, dy) * scale);

        window = loom::RDom({{-s, 2 * s + 1}, {-s, 2 * s + 1}}, "window");
        Expr w = weight(x, y, window.x, window.y);
        weighted_sum(x, y, c) = 0.0f;
        weighted_sum(x, y, c) += loom::select(c < 3, w * clamped(x + window.x, y + window.y, c), w);
        output(x, y, c) = weighted_sum(x, y, c) / weighted_sum(x, y, 3);
    }

    void schedule() {
        // The benchmark's sizes, for auto-schedulers (set here so that the
        // algorithm in generate() stays free of them).
        input.set_estimates({{0, 1536}, {0, 1024}, {0, 3}});
        sigma.set_estimate(0.1f);
        output.set_estimates({{0, 1536}, {0, 1024}, {0, 3}});
        if (using_autoscheduler()) return;
        // Strips of output rows, one task each. Per strip, the sums loop
        // over the search window's offsets outside the strip's pixels; per
        // offset, the squared differences (the strip and the patch's
        // halo), their patch sums (rows, then columns; the terms unrolled
        // inside each vector) and the weights are computed for the
        // strip (about 300 KB for 1536-pixel rows: they stay in L2), then
        // the four sums are accumulated, vectorized along x with the
        // channels unrolled. The output divides per strip.
        loom_apps::strips_of_rows(output, x, y, c, yo, yi, 3, rows_per_task, vector_width);
        loom_apps::channels_unrolled(weighted_sum.compute_at(output, yo), x, y, c, 4, vector_width);
        weighted_sum.update()
            .reorder(c, x, y, window.x, window.y)
            .vectorize(x, vector_width)
            .unroll(c);
        for (loom::Func f : {difference, patch_rows, patch_sum, weight})
            f.compute_at(weighted_sum, window.x).vectorize(x, vector_width);
        patch_rows.update().reorder(patch_y.x, x, y).vectorize(x, vector_width).unroll(patch_y.x);
        patch_sum.update().reorder(patch_x.x, x, y).vectorize(x, vector_width).unroll(patch_x.x);
    }
};

#endif
