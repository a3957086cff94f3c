#ifndef LOOM_APPS_BLUR_GENERATOR_H
#define LOOM_APPS_BLUR_GENERATOR_H

// A 3x3 box blur of a uint16 image (computed as two 3-tap passes). The
// generator program compiles it ahead of time; the app's driver also builds
// it in-process for the JIT side of the benchmark, so both run the same
// algorithm and schedule.

#include "Loom.h"

class BlurGenerator : public loom::Generator<BlurGenerator> {
public:
    /** Rows per parallel task. */
    GeneratorParam<int> rows_per_task{"rows_per_task", 32, 1, 1024};
    GeneratorParam<int> vector_width{"vector_width", 16, 1, 64};

    /** The output is 2 pixels narrower and shorter than the input. */
    Input<loom::Buffer<uint16_t, 2>> input{"input"};
    Output<loom::Buffer<uint16_t, 2>> output{"output"};

    loom::Var x{"x"}, y{"y"}, yi{"yi"};
    loom::Func blur_x{"blur_x"};

    void generate() {
        blur_x(x, y) = (input(x, y) + input(x + 1, y) + input(x + 2, y)) / 3;
        output(x, y) = (blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2)) / 3;
    }

    void schedule() {
        output.split(y, y, yi, rows_per_task).parallel(y).vectorize(x, vector_width);
        blur_x.store_at(output, y).compute_at(output, x).vectorize(x, vector_width);
    }
};

#endif
