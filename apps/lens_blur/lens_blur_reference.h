#ifndef LOOM_APPS_LENS_BLUR_REFERENCE_H
#define LOOM_APPS_LENS_BLUR_REFERENCE_H

// Plain C++ lens blur to check the generated library against: the
// disparity of every pixel by a direct 5x5 sum of costs per disparity, the
// circles' pixel counts by counting, then each output pixel's sums over
// the box of offsets.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "loom/Buffer.h"

namespace loom_apps {

/** The disparity of every pixel of the pair (index y * W + x). */
inline std::vector<int> lens_blur_disparity(const loom::Buffer<uint8_t> &left,
                                            const loom::Buffer<uint8_t> &right, int max_disparity) {
    const int W = left.width(), H = left.height();
    auto pixel = [](const loom::Buffer<uint8_t> &b, int x, int y, int c) {
        return int(b(std::clamp(x, 0, b.width() - 1), std::clamp(y, 0, b.height() - 1), c));
    };
    std::vector<int> disparity(size_t(W) * size_t(H));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int best = 0, best_cost = 0;
            for (int z = 0; z < max_disparity; z++) {
                int cost = 0;
                for (int j = -2; j <= 2; j++)
                    for (int i = -2; i <= 2; i++)
                        for (int c = 0; c < 3; c++)
                            cost += std::abs(pixel(left, x + i, y + j, c) -
                                             pixel(right, x + i - z, y + j, c));
                if (z == 0 || cost < best_cost) {
                    best = z;
                    best_cost = cost;
                }
            }
            disparity[size_t(y) * size_t(W) + size_t(x)] = best;
        }
    return disparity;
}

/** The lens blur of LensBlurGenerator.h. */
inline loom::Buffer<uint8_t> lens_blur_reference(const loom::Buffer<uint8_t> &left,
                                                 const loom::Buffer<uint8_t> &right,
                                                 int max_disparity, int max_radius, int focus) {
    const int W = left.width(), H = left.height(), R = max_radius;
    std::vector<int> disparity = lens_blur_disparity(left, right, max_disparity);
    auto depth = [&](int x, int y) {
        return disparity[size_t(std::clamp(y, 0, H - 1)) * size_t(W) +
                         size_t(std::clamp(x, 0, W - 1))];
    };
    std::vector<int> share(size_t(R) + 1);
    for (int r = 0; r <= R; r++) {
        int count = 0;
        for (int j = -R; j <= R; j++)
            for (int i = -R; i <= R; i++) count += i * i + j * j <= r * r;
        share[size_t(r)] = 65536 / count;
    }
    loom::Buffer<uint8_t> out(W, H, 3);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int sums[3] = {0, 0, 0}, total = 0;
            for (int j = -R; j <= R; j++)
                for (int i = -R; i <= R; i++) {
                    int d = depth(x + i, y + j), r = std::min(std::abs(d - focus), R);
                    if (i * i + j * j > r * r || d < depth(x, y)) continue;
                    int u = std::clamp(x + i, 0, W - 1), v = std::clamp(y + j, 0, H - 1);
                    for (int c = 0; c < 3; c++) sums[c] += share[size_t(r)] * left(u, v, c);
                    total += share[size_t(r)];
                }
            for (int c = 0; c < 3; c++) out(x, y, c) = uint8_t((sums[c] + total / 2) / total);
        }
    return out;
}

} // namespace loom_apps

#endif
