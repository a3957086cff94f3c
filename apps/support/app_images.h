#ifndef LOOM_APP_IMAGES_H
#define LOOM_APP_IMAGES_H

// Inputs and outputs shared by the float apps' drivers: a planar float RGB
// image from a PNG (values in [0, 1]) or made up, and float images written
// back as 8-bit PNG.

#include <algorithm>
#include <cmath>
#include <string>

#include "loom/Buffer.h"
#include "loom_image_io.h"

namespace loom_apps {

/** A (width, height, 3) float image in [0, 1]: the PNG's channels (a gray
 * PNG is repeated), or without a path a smooth pattern with some edges and
 * corners (so corner detectors and edge-aware filters have work to do). */
inline loom::Buffer<float> float_rgb_input(const std::string &png, int width, int height) {
    if (!png.empty()) {
        loom::Buffer<uint8_t> rgb = loom::image_io::load_png(png);
        loom::Buffer<float> in(rgb.width(), rgb.height(), 3);
        for (int c = 0; c < 3; c++)
            for (int y = 0; y < in.height(); y++)
                for (int x = 0; x < in.width(); x++)
                    in(x, y, c) = rgb(x, y, std::min(c, rgb.channels() - 1)) / 255.0f;
        return in;
    }
    loom::Buffer<float> in(width, height, 3);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < height; y++)
            for (int x = 0; x < width; x++) {
                float smooth = 0.5f + 0.3f * std::sin(x * 0.05f + c) * std::cos(y * 0.07f);
                bool square = ((x / 37) + (y / 29)) % 2 == 0;
                in(x, y, c) = smooth + (square ? 0.15f : -0.15f);
            }
    return in;
}

/** f(x, y, c) in [0, 1] (clamped) as an 8-bit PNG of `channels` channels. */
template <typename F>
void save_float_png(const std::string &path, int width, int height, int channels, F &&f) {
    loom::Buffer<uint8_t> png(width, height, channels);
    for (int c = 0; c < channels; c++)
        for (int y = 0; y < height; y++)
            for (int x = 0; x < width; x++)
                png(x, y, c) = uint8_t(std::clamp(float(f(x, y, c)), 0.0f, 1.0f) * 255.0f + 0.5f);
    loom::image_io::save_png(png, path);
}

} // namespace loom_apps

#endif
