#ifndef LOOM_APPS_MAX_FILTER_GENERATOR_H
#define LOOM_APPS_MAX_FILTER_GENERATOR_H

// A square max filter (grey-level dilation) of large radius on a planar
// uint8 image: each output pixel is the largest value in the (2r+1)^2
// window around it, edges repeated. The window is separable, a vertical
// max and then a horizontal one, and each 1-D max of width w = 2r+1 is
// built by doubling: m_k(y) = max(m_{k-1}(y), m_{k-1}(y + 2^(k-1))) is the
// max of 2^k values, and with 2^K <= w < 2^(K+1) two overlapping windows of
// 2^K cover w exactly: 2 (K + 1) maxima per pixel instead of 2 w.

#include <vector>

// perf_apps' Halide side includes this header with Halide's names (apps/bench).
#ifndef LOOM_APP_HALIDE_SIDE
#include "Loom.h"
#endif

class MaxFilterGenerator : public loom::Generator<MaxFilterGenerator> {
public:
    /** The window is (2 radius + 1) pixels wide and high. */
    GeneratorParam<int> radius{"radius", 26, 1, 1000};
    /** Rows per parallel task. */
    GeneratorParam<int> rows_per_task{"rows_per_task", 128, 1, 1024};
    GeneratorParam<int> vector_width{"vector_width", 32, 1, 128};

    Input<loom::Buffer<uint8_t, 3>> input{"input"};
    Output<loom::Buffer<uint8_t, 3>> output{"output"};

    loom::Var x{"x"}, y{"y"}, c{"c"}, yo{"yo"}, yi{"yi"};
    /** vertical_steps[k] and horizontal_steps[k]: maxima of 2^(k+1) values
     * down from y and right from x. */
    std::vector<loom::Func> vertical_steps, horizontal_steps;
    loom::Func vertical{"vertical"};

    void generate() {
        using loom::Func;
        using loom::max;
        const int width = 2 * radius + 1;
        int doublings = 0;
        while ((2 << doublings) <= width) doublings++;
        const int span = 1 << doublings; // 2^K <= width < 2^(K+1)

        Func clamped = loom::BoundaryConditions::repeat_edge(input);
        Func previous = clamped;
        for (int k = 0; k < doublings; k++) {
            Func step("vertical_" + std::to_string(k + 1));
            step(x, y, c) = max(previous(x, y, c), previous(x, y + (1 << k), c));
            vertical_steps.push_back(step);
            previous = step;
        }
        vertical(x, y, c) = max(previous(x, y - radius, c), previous(x, y + radius + 1 - span, c));

        previous = vertical;
        for (int k = 0; k < doublings; k++) {
            Func step("horizontal_" + std::to_string(k + 1));
            step(x, y, c) = max(previous(x, y, c), previous(x + (1 << k), y, c));
            horizontal_steps.push_back(step);
            previous = step;
        }
        output(x, y, c) = max(previous(x - radius, y, c), previous(x + radius + 1 - span, y, c));
    }

    void schedule() {
        // The benchmark's sizes, for auto-schedulers (set here so that the
        // algorithm in generate() stays free of them).
        input.set_estimates({{0, 3001}, {0, 2003}, {0, 3}});
        output.set_estimates({{0, 3001}, {0, 2003}, {0, 3}});
        if (using_autoscheduler()) return;
        // A task per strip of rows (all channels). Per channel, the
        // vertical doublings are computed for the strip and the rows the
        // window reaches beyond it; the vertical max and the horizontal
        // doublings one row at a time, just before that output row.
        output.split(y, yo, yi, rows_per_task)
            .reorder(x, yi, c, yo)
            .parallel(yo)
            .vectorize(x, vector_width);
        //
        // The intermediate stages round their vector loops up (computing a
        // few columns more) rather than shifting the last vector inwards:
        // with ShiftInwards, Loom's bounds inference takes time exponential
        // in the length of the chain (see docs/apps.md).
        const loom::TailStrategy round_up = loom::TailStrategy::RoundUp;
        for (loom::Func f : vertical_steps)
            f.compute_at(output, c).vectorize(x, vector_width, round_up);
        vertical.compute_at(output, yi).vectorize(x, vector_width, round_up);
        for (loom::Func f : horizontal_steps)
            f.compute_at(output, yi).vectorize(x, vector_width, round_up);
    }
};

#endif
