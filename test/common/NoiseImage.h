// A uint8 image of pseudo-random values (a linear congruential sequence),
// the same on every run and host.
#pragma once

#include <cstdint>

#include "Loom.h"

namespace loom_test {

inline loom::Buffer<uint8_t> noise_image(int width, int height, int channels, uint32_t seed) {
    loom::Buffer<uint8_t> im(width, height, channels);
    im.for_each_value([&](uint8_t &v) {
        seed = seed * 1664525u + 1013904223u;
        v = uint8_t(seed >> 24);
    });
    return im;
}

} // namespace loom_test
