#ifndef LOOM_APPS_STENCIL_CHAIN_GENERATOR_H
#define LOOM_APPS_STENCIL_CHAIN_GENERATOR_H

// A chain of 5x5 stencils on a uint16 image: every stage is the rounded
// mean of the 25 values around each pixel of the stage before (summed in
// uint32), the first one reading the input with its edges repeated. Each
// stage widens the region it needs by 2 pixels on every side, so the
// schedule decides how much of that overlap to recompute.

#include <vector>

// perf_apps' Halide side includes this header with Halide's names (apps/bench).
#ifndef LOOM_APP_HALIDE_SIDE
#include "Loom.h"
#endif

class StencilChainGenerator : public loom::Generator<StencilChainGenerator> {
public:
    /** The number of 5x5 stages. */
    GeneratorParam<int> stages{"stages", 8, 1, 32};
    /** Rows per parallel task. */
    GeneratorParam<int> rows_per_task{"rows_per_task", 64, 1, 1024};
    GeneratorParam<int> vector_width{"vector_width", 16, 1, 64};

    Input<loom::Buffer<uint16_t, 2>> input{"input"};
    Output<loom::Buffer<uint16_t, 2>> output{"output"};

    loom::Var x{"x"}, y{"y"}, yo{"yo"}, yi{"yi"};
    /** The stages before the output, first to last. */
    std::vector<loom::Func> chain;

    void generate() {
        using loom::Expr;
        loom::Func previous = loom::BoundaryConditions::repeat_edge(input);
        for (int s = 0; s < stages; s++) {
            Expr sum = loom::cast<uint32_t>(0);
            for (int j = -2; j <= 2; j++)
                for (int i = -2; i <= 2; i++)
                    sum = sum + loom::cast<uint32_t>(previous(x + i, y + j));
            Expr mean = loom::cast<uint16_t>((sum + 12) / 25);
            if (s == stages - 1) {
                output(x, y) = mean;
            } else {
                loom::Func stage("stage_" + std::to_string(s + 1));
                stage(x, y) = mean;
                chain.push_back(stage);
                previous = stage;
            }
        }
    }

    void schedule() {
        // The benchmark's sizes, for auto-schedulers (set here so that the
        // algorithm in generate() stays free of them).
        input.set_estimates({{0, 3001}, {0, 2003}});
        output.set_estimates({{0, 3001}, {0, 2003}});
        if (using_autoscheduler()) return;
        // A task per strip of rows; every stage is computed for the whole
        // strip (plus the rows its consumers reach beyond it) right before
        // the next, so a strip's stages stay in the cache. The stages round
        // their vector loops up rather than shifting the last vector
        // inwards: with ShiftInwards, Loom's bounds inference takes time
        // exponential in the length of the chain (see docs/apps.md).
        output.split(y, yo, yi, rows_per_task).parallel(yo).vectorize(x, vector_width);
        for (loom::Func f : chain)
            f.compute_at(output, yo).vectorize(x, vector_width, loom::TailStrategy::RoundUp);
    }
};

#endif
