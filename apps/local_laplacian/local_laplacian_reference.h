#ifndef LOOM_APPS_LOCAL_LAPLACIAN_REFERENCE_H
#define LOOM_APPS_LOCAL_LAPLACIAN_REFERENCE_H

// Plain C++ local Laplacian filter to check the generated library against:
// every pyramid level a whole array of its own size (one per intensity
// level for the remapped images), read with clamped coordinates, the
// Laplacian levels stored rather than recomputed.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "loom/Buffer.h"

namespace loom_apps {

/** A w x h float image, read with its edge repeated. */
struct Plane {
    int w = 0, h = 0;
    std::vector<float> v;
    Plane() = default;
    Plane(int w_, int h_) : w(w_), h(h_), v(size_t(w_) * size_t(h_)) {}
    float &at(int x, int y) { return v[size_t(y) * size_t(w) + size_t(x)]; }
    float get(int x, int y) const {
        return v[size_t(std::clamp(y, 0, h - 1)) * size_t(w) + size_t(std::clamp(x, 0, w - 1))];
    }
};

/** The next pyramid level: [1 3 3 1] / 8 in x, then in y. */
inline Plane pyramid_down(const Plane &p) {
    Plane half_x(std::max(1, (p.w + 1) / 2), p.h), out(half_x.w, (p.h + 1) / 2);
    auto taps = [](float a, float b, float c, float d) {
        return (a + 3.0f * (b + c) + d) * 0.125f;
    };
    for (int y = 0; y < p.h; y++)
        for (int x = 0; x < half_x.w; x++)
            half_x.at(x, y) = taps(p.get(2 * x - 1, y), p.get(2 * x, y), p.get(2 * x + 1, y),
                                   p.get(2 * x + 2, y));
    for (int y = 0; y < out.h; y++)
        for (int x = 0; x < out.w; x++)
            out.at(x, y) = taps(half_x.get(x, 2 * y - 1), half_x.get(x, 2 * y),
                                half_x.get(x, 2 * y + 1), half_x.get(x, 2 * y + 2));
    return out;
}

/** The coarser level p upsampled at (x, y) of the level below it. */
inline float pyramid_up(const Plane &p, int x, int y) {
    // Euclidean halves and parities (x >= 0 here).
    int nx = x / 2, fx = x % 2 ? nx + 1 : nx - 1;
    int ny = y / 2, fy = y % 2 ? ny + 1 : ny - 1;
    auto row = [&](int v) { return 0.75f * p.get(nx, v) + 0.25f * p.get(fx, v); };
    return 0.75f * row(ny) + 0.25f * row(fy);
}

inline loom::Buffer<uint16_t> local_laplacian_reference(const loom::Buffer<uint16_t> &in,
                                                        int levels, int pyramid_levels, float alpha,
                                                        float beta) {
    const int W = in.width(), H = in.height(), K = levels, J = pyramid_levels;
    const int steps = 256;
    std::vector<float> table(2 * steps + 1);
    for (int i = -steps; i <= steps; i++) {
        float d = float(i) / float(steps);
        table[size_t(i + steps)] = d * std::exp(-d * d / 2.0f);
    }
    Plane gray(W, H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            gray.at(x, y) = 0.299f * (float(in(x, y, 0)) / 65535.0f) +
                            0.587f * (float(in(x, y, 1)) / 65535.0f) +
                            0.114f * (float(in(x, y, 2)) / 65535.0f);

    // Gaussian pyramids: [level][k] of the remapped images, [level] of the input.
    std::vector<std::vector<Plane>> g(size_t(J), std::vector<Plane>{size_t(K), Plane()});
    for (int k = 0; k < K; k++) {
        float g_k = float(k) / float(K - 1);
        Plane r(W, H);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                float offset = gray.at(x, y) - g_k;
                float position = std::clamp(offset, -1.0f, 1.0f) * float(steps);
                int below = std::clamp(int(std::floor(position)), -steps, steps - 1);
                float fraction = position - float(below);
                float lo = table[size_t(below + steps)], hi = table[size_t(below + steps + 1)];
                r.at(x, y) = g_k + beta * offset + alpha * (lo + fraction * (hi - lo));
            }
        g[0][size_t(k)] = std::move(r);
        for (int j = 1; j < J; j++)
            g[size_t(j)][size_t(k)] = pyramid_down(g[size_t(j - 1)][size_t(k)]);
    }
    std::vector<Plane> input_g{size_t(J), Plane()};
    input_g[0] = gray;
    for (int j = 1; j < J; j++) input_g[size_t(j)] = pyramid_down(input_g[size_t(j - 1)]);

    // Collapse the output's Laplacian pyramid from the coarsest level.
    Plane collapsed;
    for (int j = J - 1; j >= 0; j--) {
        const Plane &in_j = input_g[size_t(j)];
        Plane level(in_j.w, in_j.h);
        for (int y = 0; y < level.h; y++)
            for (int x = 0; x < level.w; x++) {
                float position = in_j.get(x, y) * float(K - 1);
                int below = std::clamp(int(position), 0, K - 2);
                float t = position - float(below);
                auto laplacian = [&](int kk) {
                    float v = g[size_t(j)][size_t(kk)].get(x, y);
                    return j == J - 1 ? v : v - pyramid_up(g[size_t(j + 1)][size_t(kk)], x, y);
                };
                float lo = laplacian(below), hi = laplacian(below + 1);
                float value = lo + t * (hi - lo);
                level.at(x, y) = j == J - 1 ? value : pyramid_up(collapsed, x, y) + value;
            }
        collapsed = std::move(level);
    }

    loom::Buffer<uint16_t> out(W, H, 3);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                float ratio = (collapsed.at(x, y) + 0.01f) / (gray.at(x, y) + 0.01f);
                float color = std::clamp(float(in(x, y, c)) / 65535.0f * ratio, 0.0f, 1.0f);
                out(x, y, c) = uint16_t(color * 65535.0f + 0.5f);
            }
    return out;
}

} // namespace loom_apps

#endif
