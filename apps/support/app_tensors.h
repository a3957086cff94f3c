#ifndef LOOM_APP_TENSORS_H
#define LOOM_APP_TENSORS_H

// Made-up tensors for the convolution apps' drivers: their shape and the
// pseudo-random values they are filled with.

#include <cstdint>
#include <string>

namespace loom_apps {

/** A convolution layer's sizes. */
struct ConvShape {
    int n, ci, co, w, h; // batch, channels in and out, output width and height
};

/** "2 images of 101x35, 40 to 44 channels". */
inline std::string conv_shape_text(const ConvShape &s) {
    return std::to_string(s.n) + " images of " + std::to_string(s.w) + "x" + std::to_string(s.h) +
           ", " + std::to_string(s.ci) + " to " + std::to_string(s.co) + " channels";
}

/** The next value in [-scale, scale] of a linear congruential sequence. */
inline float random_value(uint32_t &seed, float scale) {
    seed = seed * 1664525u + 1013904223u;
    return (float((seed >> 8) % 20001) / 10000.0f - 1.0f) * scale;
}

} // namespace loom_apps

#endif
