#ifndef LOOM_APPS_CAMERA_PIPE_REFERENCE_H
#define LOOM_APPS_CAMERA_PIPE_REFERENCE_H

// Plain C++ camera pipeline to check the generated library against: each
// stage a whole-image pass over arrays, pixel by pixel on the mosaic
// (neighbours found by their offsets in it, not through planes).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "loom/Buffer.h"

namespace loom_apps {

/** The camera pipeline of CameraPipeGenerator.h on a GRBG mosaic `raw`
 * (even sizes), matrix (4, 3) in 1/256. */
inline loom::Buffer<uint8_t> camera_pipe_reference(const loom::Buffer<uint16_t> &raw,
                                                   const loom::Buffer<int16_t> &matrix, float gamma,
                                                   float contrast, int strength) {
    const int W = raw.width(), H = raw.height();
    // A mosaic sample with the edge repeated within its own colour: the
    // nearest sample of the same parity inside the image.
    auto clamp_parity = [](int v, int size) {
        int parity = ((v % 2) + 2) % 2;
        return std::clamp(v, parity, size - 2 + parity);
    };
    auto mosaic = [&](int x, int y) { return int(raw(clamp_parity(x, W), clamp_parity(y, H))); };

    // The suppressed mosaic, anywhere (beyond the image too, where the
    // samples it compares are the repeated edge's).
    auto at = [&](int x, int y) {
        int brightest =
            std::max({mosaic(x - 2, y), mosaic(x + 2, y), mosaic(x, y - 2), mosaic(x, y + 2)});
        return std::min(mosaic(x, y), brightest);
    };
    auto mean2 = [](int a, int b) { return (a + b + 1) >> 1; };
    auto mean4 = [](int a, int b, int c, int d) { return (a + b + c + d + 2) >> 2; };
    auto horizontal = [&](int x, int y) { return mean2(at(x - 1, y), at(x + 1, y)); };
    auto vertical = [&](int x, int y) { return mean2(at(x, y - 1), at(x, y + 1)); };
    auto diagonal = [&](int x, int y) {
        return mean4(at(x - 1, y - 1), at(x + 1, y - 1), at(x - 1, y + 1), at(x + 1, y + 1));
    };
    auto edge_green = [&](int x, int y) {
        int dh = std::abs(at(x - 1, y) - at(x + 1, y)), dv = std::abs(at(x, y - 1) - at(x, y + 1));
        int h = horizontal(x, y), v = vertical(x, y);
        return dh < dv ? h : dv < dh ? v : mean2(h, v);
    };

    // The tone curve, with the generator's float operations in its order.
    std::vector<uint8_t> curve(1024);
    for (int i = 0; i < 1024; i++) {
        float v = float(i) * (1.0f / 1023.0f);
        float g = std::pow(v, 1.0f / gamma);
        float s = g * g * (3.0f - 2.0f * g);
        float toned = g + contrast * (s - g);
        curve[size_t(i)] = uint8_t(std::clamp(toned * 255.0f + 0.5f, 0.0f, 255.0f));
    }

    std::vector<int> curved(size_t(W) * size_t(H) * 3);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int rgb[3];
            bool odd_x = x % 2 == 1, odd_y = y % 2 == 1;
            if (!odd_y && !odd_x) { // green of a red row
                rgb[0] = horizontal(x, y);
                rgb[1] = at(x, y);
                rgb[2] = vertical(x, y);
            } else if (!odd_y) { // red
                rgb[0] = at(x, y);
                rgb[1] = edge_green(x, y);
                rgb[2] = diagonal(x, y);
            } else if (!odd_x) { // blue
                rgb[0] = diagonal(x, y);
                rgb[1] = edge_green(x, y);
                rgb[2] = at(x, y);
            } else { // green of a blue row
                rgb[0] = vertical(x, y);
                rgb[1] = at(x, y);
                rgb[2] = horizontal(x, y);
            }
            for (int c = 0; c < 3; c++) {
                int mixed = matrix(0, c) * rgb[0] + matrix(1, c) * rgb[1] + matrix(2, c) * rgb[2] +
                            matrix(3, c);
                int corrected = std::clamp((mixed + 128) >> 8, 0, 1023);
                curved[(size_t(c) * size_t(H) + size_t(y)) * size_t(W) + size_t(x)] =
                    curve[size_t(corrected)];
            }
        }

    loom::Buffer<uint8_t> out(W, H, 3);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                auto px = [&](int dx, int dy) {
                    int u = std::clamp(x + dx, 0, W - 1), v = std::clamp(y + dy, 0, H - 1);
                    return curved[(size_t(c) * size_t(H) + size_t(v)) * size_t(W) + size_t(u)];
                };
                int blur = 0;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++)
                        blur += (2 - std::abs(dx)) * (2 - std::abs(dy)) * px(dx, dy);
                blur = (blur + 8) >> 4;
                int sharpened = px(0, 0) + (((px(0, 0) - blur) * strength + 8) >> 4);
                out(x, y, c) = uint8_t(std::clamp(sharpened, 0, 255));
            }
    return out;
}

} // namespace loom_apps

#endif
