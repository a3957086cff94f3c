#ifndef LOOM_APPS_INTERPOLATE_REFERENCE_H
#define LOOM_APPS_INTERPOLATE_REFERENCE_H

// Plain C++ pyramid interpolation to check the generated library against:
// each level is a whole array of its own size, read with clamped
// coordinates, where the generator reads Funcs through boundary conditions.

#include <algorithm>
#include <vector>

#include "loom/Buffer.h"

namespace loom_apps {

/** One pyramid level: w x h pixels of 4 channels. */
struct RgbaLevel {
    int w = 0, h = 0;
    std::vector<float> v;
    RgbaLevel(int w_, int h_) : w(w_), h(h_), v(size_t(w_) * size_t(h_) * 4) {}
    float &at(int x, int y, int c) {
        return v[(size_t(c) * size_t(h) + size_t(y)) * size_t(w) + size_t(x)];
    }
    /** The edge-repeated value. */
    float get(int x, int y, int c) const {
        x = std::clamp(x, 0, w - 1);
        y = std::clamp(y, 0, h - 1);
        return v[(size_t(c) * size_t(h) + size_t(y)) * size_t(w) + size_t(x)];
    }
};

inline loom::Buffer<float> interpolate_reference(const loom::Buffer<float> &in, int levels) {
    std::vector<RgbaLevel> down;
    down.emplace_back(in.width(), in.height());
    for (int c = 0; c < 4; c++)
        for (int y = 0; y < in.height(); y++)
            for (int x = 0; x < in.width(); x++)
                down[0].at(x, y, c) = in(x, y, c) * (c == 3 ? 1.0f : in(x, y, 3));
    for (int l = 1; l < levels; l++) {
        const RgbaLevel &p = down.back();
        RgbaLevel d((p.w + 1) / 2, (p.h + 1) / 2);
        auto half_x = [&](int x, int y, int c) {
            return (p.get(2 * x - 1, y, c) + 2.0f * p.get(2 * x, y, c) + p.get(2 * x + 1, y, c)) *
                   0.25f;
        };
        for (int c = 0; c < 4; c++)
            for (int y = 0; y < d.h; y++)
                for (int x = 0; x < d.w; x++)
                    d.at(x, y, c) = (half_x(x, 2 * y - 1, c) + 2.0f * half_x(x, 2 * y, c) +
                                     half_x(x, 2 * y + 1, c)) *
                                    0.25f;
        down.push_back(std::move(d));
    }
    RgbaLevel coarse = down.back();
    for (int l = levels - 2; l >= 0; l--) {
        RgbaLevel &d = down[size_t(l)];
        RgbaLevel fine(d.w, d.h);
        // Linear upsampling: even pixels sit on a coarse pixel, odd ones
        // halfway between two.
        auto up_x = [&](int x, int y, int c) {
            return (coarse.get(x / 2, y, c) + coarse.get((x + 1) / 2, y, c)) * 0.5f;
        };
        for (int c = 0; c < 4; c++)
            for (int y = 0; y < d.h; y++)
                for (int x = 0; x < d.w; x++) {
                    float up = (up_x(x, y / 2, c) + up_x(x, (y + 1) / 2, c)) * 0.5f;
                    fine.at(x, y, c) = d.at(x, y, c) + (1.0f - d.at(x, y, 3)) * up;
                }
        coarse = std::move(fine);
    }
    loom::Buffer<float> out(in.width(), in.height(), 3);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < in.height(); y++)
            for (int x = 0; x < in.width(); x++)
                out(x, y, c) = coarse.at(x, y, c) / coarse.at(x, y, 3);
    return out;
}

} // namespace loom_apps

#endif
