#ifndef LOOM_APPS_NL_MEANS_REFERENCE_H
#define LOOM_APPS_NL_MEANS_REFERENCE_H

// Plain C++ non-local means to check the generated library against: per
// offset of the search window, the squared differences of the whole image,
// then every pixel's patch distance summed directly over its patch (in
// double), its weight, and its contributions added to the sums.

#include <algorithm>
#include <cmath>
#include <vector>

#include "loom/Buffer.h"

namespace loom_apps {

/** Non-local means of a (W, H, 3) image: patch and search window sizes
 * odd, strength sigma; edges repeat. */
inline loom::Buffer<float> nl_means_reference(const loom::Buffer<float> &in, int patch_size,
                                              int search_size, float sigma) {
    const int W = in.width(), H = in.height(), p = patch_size / 2, s = search_size / 2;
    auto pixel = [&](int x, int y, int c) {
        return double(in(std::clamp(x, 0, W - 1), std::clamp(y, 0, H - 1), c));
    };
    // Squared differences over a margin of p pixels around the image.
    const int MW = W + 2 * p, MH = H + 2 * p;
    std::vector<double> diff(size_t(MW) * size_t(MH));
    std::vector<double> sums(size_t(W) * size_t(H) * 4, 0.0);
    const double scale = 1.0 / (3.0 * patch_size * patch_size * double(sigma) * double(sigma));
    for (int oy = -s; oy <= s; oy++)
        for (int ox = -s; ox <= s; ox++) {
            for (int y = -p; y < H + p; y++)
                for (int x = -p; x < W + p; x++) {
                    double d = 0;
                    for (int c = 0; c < 3; c++) {
                        double e = pixel(x, y, c) - pixel(x + ox, y + oy, c);
                        d += e * e;
                    }
                    diff[size_t(y + p) * size_t(MW) + size_t(x + p)] = d;
                }
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    double d = 0;
                    for (int j = 0; j < patch_size; j++)
                        for (int i = 0; i < patch_size; i++)
                            d += diff[size_t(y + j) * size_t(MW) + size_t(x + i)];
                    double w = std::exp(-d * scale);
                    double *sum = &sums[(size_t(y) * size_t(W) + size_t(x)) * 4];
                    for (int c = 0; c < 3; c++) sum[c] += w * pixel(x + ox, y + oy, c);
                    sum[3] += w;
                }
        }
    loom::Buffer<float> out(W, H, 3);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                const double *sum = &sums[(size_t(y) * size_t(W) + size_t(x)) * 4];
                out(x, y, c) = float(sum[c] / sum[3]);
            }
    return out;
}

} // namespace loom_apps

#endif
