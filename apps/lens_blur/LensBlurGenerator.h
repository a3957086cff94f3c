#ifndef LOOM_APPS_LENS_BLUR_GENERATOR_H
#define LOOM_APPS_LENS_BLUR_GENERATOR_H

// A synthetic depth of field for the left image of a rectified stereo pair
// of planar uint8 RGB images, all in integers. Depth from the pair: for
// every disparity z in [0, max_disparity) the cost of matching left (x, y)
// with right (x - z, y) is the sum of the channels' absolute differences,
// summed over a 5x5 box; each pixel takes the disparity of least cost (the
// smallest on a tie). Focus: a pixel whose disparity is `focus` is sharp;
// one k disparities off has a circle of confusion of radius min(k,
// max_radius) pixels. Blur, a gather that behaves like a scatter: each
// pixel spreads its colour uniformly over its own circle (weight
// 65536 / the circle's pixel count), and an output pixel sums what reaches
// it from pixels no farther than itself (disparity at least its own, so an
// in-focus foreground is not covered by a blurred background), divided by
// the sum of those weights (rounded). Edges repeat.

#include <limits>

// perf_apps' Halide side includes this header with Halide's names (apps/bench).
#ifndef LOOM_APP_HALIDE_SIDE
#include "Loom.h"
#endif
#include "app_schedule.h"

class LensBlurGenerator : public loom::Generator<LensBlurGenerator> {
public:
    GeneratorParam<int> max_disparity{"max_disparity", 16, 1, 64};
    GeneratorParam<int> max_radius{"max_radius", 4, 0, 16};
    /** Output rows per parallel task. */
    GeneratorParam<int> rows_per_task{"rows_per_task", 32, 1, 1024};
    GeneratorParam<int> vector_width{"vector_width", 16, 1, 64};

    Input<loom::Buffer<uint8_t, 3>> left{"left"};
    Input<loom::Buffer<uint8_t, 3>> right{"right"};
    /** The disparity in focus. */
    Input<int32_t> focus{"focus", 8, 0, 64};
    Output<loom::Buffer<uint8_t, 3>> output{"output"};

    loom::Var x{"x"}, y{"y"}, z{"z"}, c{"c"}, k{"k"}, yo{"yo"}, yi{"yi"};
    loom::Func cost{"cost"}, cost_rows{"cost_rows"}, disparity{"disparity"};
    loom::Func left_edged{"left_edged"}, right_edged{"right_edged"};
    loom::Func area{"area"}, spread{"spread"}, depth{"depth"}, circle_squared{"circle_squared"};
    loom::Func share{"share"}, blurred{"blurred"};
    loom::RDom depths, circle, box;

    void generate() {
        using loom::cast;
        using loom::clamp;
        using loom::Expr;
        using loom::select;
        namespace BC = loom::BoundaryConditions;
        const int R = max_radius;
        // The views with their edges repeated (computed per strip, so
        // that the stages below read them with dense loads).
        left_edged(x, y, c) = BC::repeat_edge(left)(x, y, c);
        right_edged(x, y, c) = BC::repeat_edge(right)(x, y, c);
        auto channel = [&](loom::Func f, Expr u, Expr v, Expr ch) {
            return cast<int32_t>(f(u, v, ch));
        };

        Expr sad = 0;
        for (int ch = 0; ch < 3; ch++)
            sad =
                sad + loom::abs(channel(left_edged, x, y, ch) - channel(right_edged, x - z, y, ch));
        cost(x, y, z) = cast<uint16_t>(sad);
        Expr rows = cast<int32_t>(cost(x, y - 2, z));
        for (int j = -1; j <= 2; j++) rows = rows + cast<int32_t>(cost(x, y + j, z));
        cost_rows(x, y, z) = rows;
        auto box_cost = [&](Expr zz) {
            Expr sum = cost_rows(x - 2, y, zz);
            for (int i = -1; i <= 2; i++) sum = sum + cost_rows(x + i, y, zz);
            return sum;
        };

        // (disparity, its cost): the first least cost over the disparities.
        depths = loom::RDom({{0, int(max_disparity)}}, "depths");
        disparity(x, y) = loom::Tuple(0, std::numeric_limits<int32_t>::max());
        Expr candidate = box_cost(depths.x);
        Expr better = candidate < disparity(x, y)[1];
        disparity(x, y) = loom::Tuple(select(better, depths.x, disparity(x, y)[0]),
                                      select(better, candidate, disparity(x, y)[1]));

        // Pixels of the circle of each radius, and each pixel's share.
        circle = loom::RDom({{-R, 2 * R + 1}, {-R, 2 * R + 1}}, "circle");
        area(k) = 0;
        area(k) += select(circle.x * circle.x + circle.y * circle.y <= k * k, 1, 0);
        spread(k) = 65536 / area(k);

        // Per pixel (edges repeated): its disparity, the square of its
        // circle's radius and its share.
        depth(x, y) = disparity(clamp(x, 0, left.width() - 1), clamp(y, 0, left.height() - 1))[0];
        // (Clamped below too, so that the table's index has bounds.)
        Expr radius = clamp(cast<int32_t>(loom::abs(depth(x, y) - focus)), 0, R);
        circle_squared(x, y) = radius * radius;
        share(x, y) = spread(radius);

        box = loom::RDom({{-R, 2 * R + 1}, {-R, 2 * R + 1}}, "box");
        Expr u = x + box.x, v = y + box.y;
        Expr reaches =
            box.x * box.x + box.y * box.y <= circle_squared(u, v) && depth(u, v) >= depth(x, y);
        Expr w = select(reaches, share(u, v), 0);
        // c = 0, 1, 2: weighted colour sums; c = 3: sum of weights.
        blurred(x, y, c) = 0;
        blurred(x, y, c) += w * select(c < 3, channel(left_edged, u, v, loom::min(c, 2)), 1);
        Expr total = blurred(x, y, 3);
        output(x, y, c) = cast<uint8_t>((blurred(x, y, c) + total / 2) / total);
    }

    void schedule() {
        // The benchmark's sizes, for auto-schedulers (set here so that the
        // algorithm in generate() stays free of them).
        left.set_estimates({{0, 1536}, {0, 1024}, {0, 3}});
        right.set_estimates({{0, 1536}, {0, 1024}, {0, 3}});
        focus.set_estimate(8);
        output.set_estimates({{0, 1536}, {0, 1024}, {0, 3}});
        const int R = max_radius;
        area.bound(k, 0, R + 1);
        spread.bound(k, 0, R + 1);
        if (using_autoscheduler()) return;
        // The circle table once. Strips of output rows, one task each:
        // the strip's views with their edges (so that every read below is
        // a dense load, not a gather of clamped coordinates); the strip's
        // disparities (and the rows the blur reaches), row by
        // row: the row's box-summed costs for every disparity, from the
        // per-pixel costs of the five rows around it; the search over the
        // disparities vectorized along x. Then the strip's sums, over the
        // box of offsets outside the pixels, vectorized along x with the
        // four sums unrolled, reading the depth, circle and share of each
        // source pixel, computed per strip; the output divides.
        area.compute_root();
        spread.compute_root();
        for (loom::Func f : {left_edged, right_edged, depth, circle_squared, share})
            f.compute_at(output, yo).vectorize(x, vector_width);
        loom_apps::strips_of_rows(output, x, y, c, yo, yi, 3, rows_per_task, vector_width);
        loom_apps::channels_unrolled(blurred.compute_at(output, yo), x, y, c, 4, vector_width);
        blurred.update().reorder(c, x, box.x, box.y, y).vectorize(x, vector_width).unroll(c);
        disparity.compute_at(output, yo).vectorize(x, vector_width);
        disparity.update().reorder(x, depths.x, y).vectorize(x, vector_width);
        cost_rows.compute_at(disparity, y).reorder(x, z, y).vectorize(x, vector_width);
        cost.store_at(output, yo)
            .compute_at(disparity, y)
            .reorder(x, z, y)
            .vectorize(x, vector_width);
    }
};

#endif
