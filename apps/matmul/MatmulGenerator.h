#ifndef LOOM_APPS_MATMUL_GENERATOR_H
#define LOOM_APPS_MATMUL_GENERATOR_H

// Float matrix multiplication out = A * B (A is K wide and M tall, B is N
// wide and K tall; x is the column, y the row). Tiles of 24x32 outputs are
// parallel tasks; each 24x4 block accumulates in registers (the product is
// computed at yi with its update unrolled over the block). With gpu=true
// (for a host-opencl or host-cuda target) the schedule is a GPU one: see
// schedule_gpu().

#include "Loom.h"

class MatmulGenerator : public loom::Generator<MatmulGenerator> {
public:
    /** Schedule for the target's GPU API (the target needs opencl or cuda). */
    GeneratorParam<bool> gpu{"gpu", false};

    Input<loom::Buffer<float, 2>> A{"A"};
    Input<loom::Buffer<float, 2>> B{"B"};
    Output<loom::Buffer<float, 2>> output{"output"};

    loom::Var x{"x"}, y{"y"}, xi{"xi"}, yi{"yi"}, yii{"yii"}, xy{"xy"};
    loom::Var xo{"xo"}, yo{"yo"}, yr{"yr"};
    loom::RVar ko{"ko"}, ki{"ki"};
    loom::Func prod{"prod"}, a_tile{"a_tile"}, b_tile{"b_tile"};
    loom::RDom k;

    void generate() {
        k = loom::RDom({{0, A.width()}}, "k");
        prod(x, y) = 0.0f;
        // The GPU schedule stages slices of A and B in shared memory; on the
        // CPU a_tile and b_tile are inlined (plain reads of A and B).
        a_tile(x, y) = A(x, y);
        b_tile(x, y) = B(x, y);
        prod(x, y) += a_tile(k, y) * b_tile(x, k);
        output(x, y) = prod(x, y);
    }

    void schedule() {
        if (gpu) return schedule_gpu();
        output.tile(x, y, xi, yi, 24, 32)
            .fuse(x, y, xy)
            .parallel(xy)
            .split(yi, yi, yii, 4)
            .vectorize(xi, 8)
            .unroll(xi)
            .unroll(yii);
        // The product's region at yi is 24x4; Loom does not yet see constant
        // extents there, so the unrolls name their factors (3 vectors of 8
        // by 4 rows) instead of unrolling whole loops.
        prod.compute_at(output, yi).vectorize(x, 8).unroll(y, 4);
        prod.update().reorder(x, y, k).vectorize(x, 8).unroll(x, 3).unroll(y, 4);
    }

    /** A block of 32x8 threads per 32x32 output tile; each thread owns a
     * 1x4 column of the tile (its 4 rows unrolled, so each value of B it
     * loads serves 4 products). The tile's sums live in shared memory; for
     * each step of 16 along k the block first copies the 16x32 slice of A
     * and the 32x16 slice of B it needs into shared memory, so each value
     * read from global memory is used 32 times. Outputs need at least 32x32
     * elements (ShiftInwards tails). */
    void schedule_gpu() {
        output.tile(x, y, xo, yo, xi, yi, 32, 32)
            .split(yi, yi, yr, 4)
            .gpu_blocks(xo, yo)
            .gpu_threads(xi, yi)
            .unroll(yr);
        prod.compute_at(output, xo).split(y, y, yr, 4).gpu_threads(x, y).unroll(yr);
        prod.update()
            .split(k, ko, ki, 16)
            .split(y, y, yr, 4)
            .reorder(yr, ki, x, y, ko)
            .gpu_threads(x, y)
            .unroll(yr);
        // The slices are narrower at the last step when K is not a multiple
        // of 16: guard their splits rather than shift them.
        const loom::TailStrategy guard = loom::TailStrategy::GuardWithIf;
        a_tile.compute_at(prod, ko).split(y, y, yr, 4, guard).gpu_threads(x, y).unroll(yr);
        b_tile.compute_at(prod, ko).split(y, y, yr, 2, guard).gpu_threads(x, y).unroll(yr);
    }
};

#endif
