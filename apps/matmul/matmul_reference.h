#ifndef LOOM_APPS_MATMUL_REFERENCE_H
#define LOOM_APPS_MATMUL_REFERENCE_H

// Inputs and the plain C++ product to check the generated matmul libraries
// against (any float Buffer type with operator()(x, y), width() and height()).

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace loom_apps {

/** A width x height matrix of values in [-1, 1] from a fixed seed. */
template <typename Matrix> Matrix random_matrix(int width, int height, uint32_t seed) {
    Matrix m(width, height);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            seed = seed * 1664525u + 1013904223u;
            m(x, y) = float((seed >> 9) % 2001) / 1000.0f - 1.0f;
        }
    return m;
}

/** The number of elements of out that differ from a * b (double
 * accumulation, tolerance relative to the sum of the products' magnitudes;
 * the first ten are printed). */
template <typename Matrix> int check_matmul(const Matrix &a, const Matrix &b, const Matrix &out) {
    int failures = 0;
    const int K = a.width();
    for (int y = 0; y < out.height(); y++)
        for (int x = 0; x < out.width(); x++) {
            double want = 0, scale = 0;
            for (int k = 0; k < K; k++) {
                want += double(a(k, y)) * double(b(x, k));
                scale += std::fabs(double(a(k, y)) * double(b(x, k)));
            }
            if (std::fabs(out(x, y) - want) > 1e-5 * scale + 1e-6 && failures++ < 10)
                std::printf("matmul(%d, %d) = %f, expected %f\n", x, y, out(x, y), want);
        }
    return failures;
}

} // namespace loom_apps

#endif
