#ifndef LOOM_APPS_MATMUL_GENERATOR_H
#define LOOM_APPS_MATMUL_GENERATOR_H

// Float matrix multiplication out = A * B (A is K wide and M tall, B is N
// wide and K tall; x is the column, y the row). Tiles of 24x32 outputs are
// parallel tasks; each 24x4 block accumulates in registers (the product is
// computed at yi with its update unrolled over the block).

#include "Loom.h"

class MatmulGenerator : public loom::Generator<MatmulGenerator> {
public:
    Input<loom::Buffer<float, 2>> A{"A"};
    Input<loom::Buffer<float, 2>> B{"B"};
    Output<loom::Buffer<float, 2>> output{"output"};

    loom::Var x{"x"}, y{"y"}, xi{"xi"}, yi{"yi"}, yii{"yii"}, xy{"xy"};
    loom::Func prod{"prod"};
    loom::RDom k;

    void generate() {
        k = loom::RDom({{0, A.width()}}, "k");
        prod(x, y) = 0.0f;
        prod(x, y) += A(k, y) * B(x, k);
        output(x, y) = prod(x, y);
    }

    void schedule() {
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
};

#endif
