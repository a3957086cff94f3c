#ifndef LOOM_APPS_BLUR_GENERATOR_H
#define LOOM_APPS_BLUR_GENERATOR_H

// A 3x3 box blur of a uint16 image (computed as two 3-tap passes). The
// generator program compiles it ahead of time; the app's driver also builds
// it in-process for the JIT side of the benchmark, so both run the same
// algorithm and schedule. With gpu=true (for a host-opencl or host-cuda
// target) the schedule is a GPU one instead: see schedule_gpu().

// perf_apps' Halide side includes this header with Halide's names (apps/bench).
#ifndef LOOM_APP_HALIDE_SIDE
#include "Loom.h"
#endif

class BlurGenerator : public loom::Generator<BlurGenerator> {
public:
    /** Rows per parallel task. */
    GeneratorParam<int> rows_per_task{"rows_per_task", 32, 1, 1024};
    GeneratorParam<int> vector_width{"vector_width", 16, 1, 64};
    /** Schedule for the target's GPU API (the target needs opencl or cuda). */
    GeneratorParam<bool> gpu{"gpu", false};

    /** The output is 2 pixels narrower and shorter than the input. */
    Input<loom::Buffer<uint16_t, 2>> input{"input"};
    Output<loom::Buffer<uint16_t, 2>> output{"output"};

    loom::Var x{"x"}, y{"y"}, yi{"yi"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, xv{"xv"};
    loom::Func blur_x{"blur_x"};

    void generate() {
        blur_x(x, y) = (input(x, y) + input(x + 1, y) + input(x + 2, y)) / 3;
        output(x, y) = (blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2)) / 3;
        // The benchmark's size, for auto-schedulers ahead of time.
        input.set_estimates({{0, 6408}, {0, 4802}});
        output.set_estimates({{0, 6406}, {0, 4800}});
    }

    void schedule() {
        if (using_autoscheduler()) return;
        if (gpu) return schedule_gpu();
        output.split(y, y, yi, rows_per_task).parallel(y).vectorize(x, vector_width);
        blur_x.store_at(output, y).compute_at(output, x).vectorize(x, vector_width);
    }

    /** A block per 256x8 tile of the output; blur_x's 256x10 values for the
     * tile are computed into shared memory first. Each thread handles 8
     * uint16 of a row (16 bytes), so its shared-memory loads and stores are
     * 16-byte vector accesses (the tile's rows are 256 wide, a multiple of
     * 8); global accesses go lane by lane, since an image row may start
     * anywhere. Outputs need at least 256x8 pixels (ShiftInwards tails). */
    void schedule_gpu() {
        output.tile(x, y, xo, yo, xi, yi, 256, 8)
            .split(xi, xi, xv, 8)
            .vectorize(xv)
            .gpu_blocks(xo, yo)
            .gpu_threads(xi, yi);
        blur_x.compute_at(output, xo).split(x, x, xv, 8).vectorize(xv).gpu_threads(x, y);
    }
};

#endif
