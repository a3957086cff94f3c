#ifndef LOOM_APP_CHECK_H
#define LOOM_APP_CHECK_H

// Comparison of a pipeline's output with the drivers' plain C++
// references: exact for integer pipelines, within a stated tolerance for
// float ones.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "loom/Buffer.h"

namespace loom_apps {

/** The number of elements of got (2 or 3 dimensions, mins 0) that differ
 * from want by more than abs_tol + rel_tol * |want| (the first ten are
 * printed, named after `what`). */
inline int count_float_mismatches(const char *what, const loom::Buffer<float> &want,
                                  const loom::Buffer<float> &got, float abs_tol, float rel_tol) {
    int failures = 0;
    const int channels = want.dimensions() > 2 ? want.channels() : 1;
    for (int c = 0; c < channels; c++)
        for (int y = 0; y < want.height(); y++)
            for (int x = 0; x < want.width(); x++) {
                std::vector<int> at{x, y};
                if (want.dimensions() > 2) at.push_back(c);
                float a = want(at), b = got(at);
                if (!(std::fabs(a - b) <= abs_tol + rel_tol * std::fabs(a)) && failures++ < 10)
                    std::printf("%s(%d, %d, %d) = %g, expected %g\n", what, x, y, c, b, a);
            }
    return failures;
}

/** The number of elements of got (width, height, channels; mins 0) that
 * differ from want at all, for integer pipelines (the first ten are
 * printed, named after `what`). */
template <typename T>
int count_exact_mismatches(const char *what, const loom::Buffer<T> &want,
                           const loom::Buffer<T> &got) {
    int failures = 0;
    for (int c = 0; c < want.channels(); c++)
        for (int y = 0; y < want.height(); y++)
            for (int x = 0; x < want.width(); x++)
                if (want(x, y, c) != got(x, y, c) && failures++ < 10)
                    std::printf("%s(%d, %d, %d) = %d, expected %d\n", what, x, y, c,
                                int(got(x, y, c)), int(want(x, y, c)));
    return failures;
}

/** The largest |value| of a float buffer (for tolerances relative to the
 * output's scale). */
inline float max_abs(const loom::Buffer<float> &b) {
    float m = 0;
    b.for_each_value([&](float v) { m = std::max(m, std::fabs(v)); });
    return m;
}

} // namespace loom_apps

#endif
