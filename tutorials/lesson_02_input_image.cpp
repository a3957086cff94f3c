// Lesson 2: processing an image.
//
// Loads a PNG, brightens it by 50% in a pipeline that reads the input Buffer,
// and saves the result. Arithmetic happens in float and is cast back to uint8
// after clamping, because uint8 arithmetic would wrap around.

#include <Loom.h>
#include <loom_image_io.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

int main() {
    const char *data = std::getenv("LOOM_TUTORIAL_DATA");
    std::string dir = data ? data : "images";
    loom::Buffer<uint8_t> input = loom::image_io::load_png<uint8_t>(dir + "/rgb.png");

    loom::Func brighter("brighter");
    loom::Var x("x"), y("y"), c("c");

    // Convert to float, scale, clamp to the uint8 range and convert back.
    loom::Expr value = input(x, y, c);
    value = loom::cast<float>(value);
    value = value * 1.5f;
    value = loom::min(value, 255.0f);
    value = loom::cast<uint8_t>(value);
    brighter(x, y, c) = value;

    // The output has the same size as the input.
    loom::Buffer<uint8_t> output =
        brighter.realize({input.width(), input.height(), input.channels()});
    loom::image_io::save_png(output, "brighter.png");

    for (int k = 0; k < input.channels(); k++)
        for (int j = 0; j < input.height(); j++)
            for (int i = 0; i < input.width(); i++) {
                uint8_t expected = uint8_t(std::min(float(input(i, j, k)) * 1.5f, 255.0f));
                if (output(i, j, k) != expected) {
                    std::printf("brighter(%d, %d, %d) = %d, expected %d\n", i, j, k,
                                output(i, j, k), expected);
                    return 1;
                }
            }
    std::printf("Success! Wrote brighter.png (%d x %d x %d)\n", output.width(), output.height(),
                output.channels());
    return 0;
}
