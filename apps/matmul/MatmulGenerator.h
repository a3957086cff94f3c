#ifndef LOOM_APPS_MATMUL_GENERATOR_H
#define LOOM_APPS_MATMUL_GENERATOR_H

// Float matrix multiplication out = A * B (A is K wide and M tall, B is N
// wide and K tall; x is the column, y the row). Tiles of 24x32 outputs are
// parallel tasks; each 24x4 block accumulates in registers (the product is
// computed at yi with its update unrolled over the block). With gpu=true
// (for a host-opencl or host-cuda target) the schedule is a GPU one: see
// schedule_gpu().

// perf_apps' Halide side includes this header with Halide's names (apps/bench).
#ifndef LOOM_APP_HALIDE_SIDE
#include "Loom.h"
#endif

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
        A.set_estimates({{0, 512}, {0, 512}});
        B.set_estimates({{0, 512}, {0, 512}});
        output.set_estimates({{0, 512}, {0, 512}});
    }

    void schedule() {
        if (using_autoscheduler()) return;
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

    /** Register blocking with shared-memory staging: a block of 16x16
     * threads per 64x128 output tile, each thread keeping a 4x8 block of
     * sums in registers (prod is computed at the block and stored in
     * MemoryType::Register, so each thread holds its own part). For each
     * step of 16 along k the block first copies the 16x128 slice of A and
     * the 64x16 slice of B it needs into shared memory, then each thread
     * does its 4x8x16 products from there: each value read from global
     * memory serves 64 or 128 products, each shared read 4 or 8. On an
     * H200 this runs at about 70% of cuBLAS SGEMM (perf_cuda). Outputs
     * need at least 64x128 elements (ShiftInwards tails); the last slice
     * of k may be narrower (guarded). */
    void schedule_gpu() {
        loom::Var xt{"xt"}, yt{"yt"}, xr{"xr"}, xa{"xa"}, ya{"ya"};
        output.tile(x, y, xo, yo, xi, yi, 64, 128)
            .split(xi, xt, xr, 4)
            .split(yi, yt, yr, 8)
            .reorder(xr, yr, xt, yt, xo, yo)
            .gpu_blocks(xo, yo)
            .gpu_threads(xt, yt)
            .vectorize(xr)
            .unroll(yr);
        prod.compute_at(output, xo)
            .store_in(loom::MemoryType::Register)
            .split(x, xt, xr, 4)
            .split(y, yt, yr, 8)
            .reorder(xr, yr, xt, yt)
            .gpu_threads(xt, yt)
            .vectorize(xr)
            .unroll(yr);
        prod.update()
            .split(k, ko, ki, 16)
            .split(x, xt, xr, 4)
            .split(y, yt, yr, 8)
            .reorder(xr, yr, ki, xt, yt, ko)
            .gpu_threads(xt, yt)
            .vectorize(xr)
            .unroll(yr)
            .unroll(ki);
        // The slices are narrower at the last step when K is not a multiple
        // of 16: guard their splits rather than shift them.
        const loom::TailStrategy guard = loom::TailStrategy::GuardWithIf;
        a_tile.compute_at(prod, ko).split(y, y, ya, 8, guard).unroll(ya).gpu_threads(x, y);
        b_tile.compute_at(prod, ko).split(x, x, xa, 4, guard).vectorize(xa).gpu_threads(x, y);
    }
};

#endif
