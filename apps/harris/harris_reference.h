#ifndef LOOM_APPS_HARRIS_REFERENCE_H
#define LOOM_APPS_HARRIS_REFERENCE_H

// Plain C++ Harris corner response to check the generated library against:
// whole-image passes over arrays with a 3-pixel margin, where the generator
// computes everything per strip.

#include <algorithm>
#include <vector>

#include "loom/Buffer.h"

namespace loom_apps {

inline loom::Buffer<float> harris_reference(const loom::Buffer<float> &in, float k) {
    const int W = in.width(), H = in.height(), M = 3; // margin
    const int PW = W + 2 * M, PH = H + 2 * M;
    // Padded planes indexed [(y + M) * PW + x + M].
    auto at = [&](std::vector<float> &plane, int x, int y) -> float & {
        return plane[size_t(y + M) * size_t(PW) + size_t(x + M)];
    };
    std::vector<float> gray(size_t(PW) * size_t(PH)), gx(gray.size()), gy(gray.size());
    for (int y = -M; y < H + M; y++)
        for (int x = -M; x < W + M; x++) {
            int cx = std::clamp(x, 0, W - 1), cy = std::clamp(y, 0, H - 1);
            at(gray, x, y) =
                0.299f * in(cx, cy, 0) + 0.587f * in(cx, cy, 1) + 0.114f * in(cx, cy, 2);
        }
    const float sobel_smooth[3] = {1, 2, 1}, sobel_diff[3] = {-1, 0, 1};
    for (int y = -2; y < H + 2; y++)
        for (int x = -2; x < W + 2; x++) {
            float sx = 0, sy = 0;
            for (int j = 0; j < 3; j++)
                for (int i = 0; i < 3; i++) {
                    float g = at(gray, x + i - 1, y + j - 1);
                    sx += sobel_smooth[j] * sobel_diff[i] * g;
                    sy += sobel_diff[j] * sobel_smooth[i] * g;
                }
            at(gx, x, y) = sx / 12;
            at(gy, x, y) = sy / 12;
        }
    loom::Buffer<float> out(W, H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float sxx = 0, syy = 0, sxy = 0;
            for (int j = -1; j <= 1; j++)
                for (int i = -1; i <= 1; i++) {
                    float a = at(gx, x + i, y + j), b = at(gy, x + i, y + j);
                    sxx += a * a;
                    syy += b * b;
                    sxy += a * b;
                }
            float trace = sxx + syy;
            out(x, y) = sxx * syy - sxy * sxy - k * trace * trace;
        }
    return out;
}

} // namespace loom_apps

#endif
