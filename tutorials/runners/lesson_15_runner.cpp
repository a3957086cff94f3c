// Runs the libraries tutorials/CMakeLists.txt generated from
// lesson_15_generators.cpp and checks them against plain C++. It links only
// the generated libraries and Loom::Runtime, and uses the header-only
// loom::Runtime::Buffer.
#include <cmath>
#include <cstdio>

#include "LoomBuffer.h"
#include "my_first_generator.h"
#include "my_first_generator_baseline.h"
#include "my_second_generator_flipped.h"
#include "my_second_generator_float.h"

using loom::Runtime::Buffer;

int main() {
    const int W = 203, H = 37;
    Buffer<uint8_t, 2> input(W, H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) input(x, y) = uint8_t(x ^ (y * 3));
    int failures = 0;

    // my_first_generator, for the host and for a baseline x86-64 target.
    Buffer<uint8_t, 2> brighter(W, H), brighter_baseline(W, H);
    if (my_first_generator(input, 7, brighter) != 0 ||
        my_first_generator_baseline(input, 7, brighter_baseline) != 0)
        return 1;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            uint8_t want = uint8_t(input(x, y) + 7);
            if ((brighter(x, y) != want || brighter_baseline(x, y) != want) && failures++ < 5)
                std::printf("brighter(%d, %d) = %d / %d, expected %d\n", x, y, brighter(x, y),
                            brighter_baseline(x, y), want);
        }

    // my_second_generator with scale=3 output_type=float32.
    Buffer<float, 2> scaled(W, H);
    if (my_second_generator_float(input, scaled) != 0) return 1;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (scaled(x, y) != input(x, y) * 3.0f && failures++ < 5)
                std::printf("scaled(%d, %d) = %f\n", x, y, scaled(x, y));

    // my_second_generator with flip=horizontal output_type=uint16 parallel=false.
    Buffer<uint16_t, 2> flipped(W, H);
    if (my_second_generator_flipped(input, flipped) != 0) return 1;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (flipped(x, y) != input(W - 1 - x, y) && failures++ < 5)
                std::printf("flipped(%d, %d) = %d\n", x, y, flipped(x, y));

    if (failures) {
        std::printf("lesson 15: %d mismatches\n", failures);
        return 1;
    }
    std::printf("lesson 15: all four generated libraries agree with C++\n");
    return 0;
}
