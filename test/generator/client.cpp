// Links three generated libraries (scale_offset, stencil_max and its variant
// reading the input through an in() wrapper) and only the
// static runtime; checks both against plain C++.
#include <cmath>
#include <cstdio>

#include "LoomBuffer.h"
#include "scale_offset.h"
#include "stencil_max.h"
#include "stencil_max_staged.h"

using loom::Runtime::Buffer;

int main() {
    const int W = 37, H = 13; // not multiples of any vector width
    Buffer<uint8_t, 2> in8(W, H);
    Buffer<int16_t, 2> in16(W, H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            in8(x, y) = uint8_t((x * 7 + y * 13) % 256);
            in16(x, y) = int16_t((x * 31 - y * 57) % 1000);
        }

    Buffer<float, 2> scaled(W, H);
    const float gain = 1.5f;
    if (int err = scale_offset(in8, gain, scaled)) {
        std::printf("scale_offset failed: %d\n", err);
        return 1;
    }
    int failures = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float want = float(in8(x, y)) * gain * 3.0f - 5.0f;
            if (std::fabs(scaled(x, y) - want) > 1e-4f * std::fabs(want) + 1e-4f && failures++ < 5)
                std::printf("scale_offset(%d, %d) = %f, expected %f\n", x, y, scaled(x, y), want);
        }

    // A gain outside the declared range [0, 10] is an error code, not a crash.
    if (scale_offset(in8, 11.0f, scaled) == 0) {
        std::printf("scale_offset accepted gain = 11 (range is [0, 10])\n");
        failures++;
    }

    Buffer<int32_t, 2> maxed(W, H);
    if (int err = stencil_max(in16, maxed)) {
        std::printf("stencil_max failed: %d\n", err);
        return 1;
    }
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int want = -1000000;
            for (int dx = -2; dx <= 2; dx++) {
                int xx = x + dx < 0 ? 0 : (x + dx >= W ? W - 1 : x + dx);
                want = in16(xx, y) > want ? in16(xx, y) : want;
            }
            if (maxed(x, y) != want && failures++ < 10)
                std::printf("stencil_max(%d, %d) = %d, expected %d\n", x, y, maxed(x, y), want);
        }

    // The same stencil reading its input through a wrapper staged per row.
    Buffer<int32_t, 2> staged(W, H);
    if (int err = stencil_max_staged(in16, staged)) {
        std::printf("stencil_max_staged failed: %d\n", err);
        return 1;
    }
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (staged(x, y) != maxed(x, y) && failures++ < 10)
                std::printf("stencil_max_staged(%d, %d) = %d, expected %d\n", x, y, staged(x, y),
                            maxed(x, y));

    if (failures) {
        std::printf("generator_client: %d mismatches\n", failures);
        return 1;
    }
    std::printf("generator_client: ok\n");
    return 0;
}
