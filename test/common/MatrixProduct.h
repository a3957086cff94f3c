// A float matrix product of small integers, as the auto-scheduler tests
// write it (prod(x, y) += A(k, y) * B(x, k), out(x, y) = prod(x, y)): the
// inputs, the unscheduled pipeline and its exact reference.

#ifndef LOOM_TEST_COMMON_MATRIX_PRODUCT_H
#define LOOM_TEST_COMMON_MATRIX_PRODUCT_H

#include "Loom.h"

namespace loom_test {

struct MatrixProduct {
    loom::Buffer<float> a, b; // a: K x N (k, y), b: M x K (x, k)
    int m, n, k;

    /** Values are small integers, so every order of the sums is exact. */
    MatrixProduct(int m_, int n_, int k_) : a(k_, n_), b(m_, k_), m(m_), n(n_), k(k_) {
        for (int j = 0; j < n; j++)
            for (int q = 0; q < k; q++) a(q, j) = float((j * 3 + q * 5) % 17) - 8;
        for (int q = 0; q < k; q++)
            for (int i = 0; i < m; i++) b(i, q) = float((i * 7 + q) % 13) - 6;
    }

    /** A fresh, unscheduled copy of the algorithm (Funcs "prod" and "out"). */
    loom::Pipeline pipeline() const {
        loom::Var x("x"), y("y");
        loom::RDom r(0, k, "k");
        loom::Func prod("prod"), out("out");
        prod(x, y) = 0.0f;
        prod(x, y) += a(r, y) * b(x, r);
        out(x, y) = prod(x, y);
        return loom::Pipeline(out);
    }

    float reference(int i, int j) const {
        float s = 0;
        for (int q = 0; q < k; q++) s += a(q, j) * b(i, q);
        return s;
    }
};

} // namespace loom_test

#endif
