// Lesson 10, part 2: calling an ahead-of-time compiled pipeline.
//
// This program includes the header part 1 wrote and links the static
// library with Loom::Runtime (the small runtime library for thread pools,
// memory and error reporting). It does not link libloom or LLVM.
//
// LoomBuffer.h provides loom::Runtime::Buffer, a header-only image type that
// converts to the loom_buffer_t * the generated function takes.

#include "lesson_10_halide.h"

#include <LoomBuffer.h>

#include <cstdint>
#include <cstdio>

int main() {
    // The generated function's signature (see lesson_10_halide.h) is
    //   int brighter(loom_buffer_t *input, uint8_t offset, loom_buffer_t *brighter);
    loom::Runtime::Buffer<uint8_t> input(640, 480), output(640, 480);
    for (int y = 0; y < input.height(); y++)
        for (int x = 0; x < input.width(); x++) input(x, y) = uint8_t(x ^ (y + 1));

    const uint8_t offset = 5;
    int error = brighter(input, offset, output);
    if (error) {
        // The error handler has printed a message to stderr already.
        std::printf("brighter failed with error code %d\n", error);
        return 1;
    }

    // Check against plain C++ (8-bit arithmetic wraps around, as in the pipeline).
    for (int y = 0; y < output.height(); y++)
        for (int x = 0; x < output.width(); x++) {
            uint8_t expected = uint8_t(input(x, y) + offset);
            if (output(x, y) != expected) {
                std::printf("output(%d, %d) = %d instead of %d\n", x, y, output(x, y), expected);
                return 1;
            }
        }

    // Bad input is reported, never a crash: a buffer too small for the
    // output makes the call return an error code (and print why).
    loom::Runtime::Buffer<uint8_t> small(10, 10);
    if (brighter(small, offset, output) == 0) {
        std::printf("a too-small input was not reported\n");
        return 1;
    }

    std::printf("Success!\n");
    return 0;
}
