#ifndef LOOM_APPS_BLUR_REFERENCE_H
#define LOOM_APPS_BLUR_REFERENCE_H

// Plain C++ blur to check the generated libraries against (any Buffer type
// with operator()(x, y), width() and height()).

#include <cstdint>
#include <cstdio>

namespace loom_apps {

// The same arithmetic as the generator: uint16 sums (they wrap, like Loom's)
// divided by 3.
inline uint16_t blur3(uint16_t a, uint16_t b, uint16_t c) {
    return uint16_t(uint16_t(a + b + c) / 3);
}

/** The number of pixels of out that differ from the blur of in (the first
 * ten are printed). */
template <typename In, typename Out> int check_blur(const In &in, const Out &out) {
    int failures = 0;
    for (int y = 0; y < out.height(); y++)
        for (int x = 0; x < out.width(); x++) {
            uint16_t bx[3];
            for (int j = 0; j < 3; j++)
                bx[j] = blur3(in(x, y + j), in(x + 1, y + j), in(x + 2, y + j));
            uint16_t want = blur3(bx[0], bx[1], bx[2]);
            if (out(x, y) != want && failures++ < 10)
                std::printf("blur(%d, %d) = %d, expected %d\n", x, y, out(x, y), want);
        }
    return failures;
}

} // namespace loom_apps

#endif
