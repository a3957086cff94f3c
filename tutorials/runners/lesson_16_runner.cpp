// Runs the three layouts of lesson_16_rgb_generate.cpp on planar and
// interleaved images and checks the results; the planar-only library must
// reject an interleaved image (an error code, not wrong output).
#include <cstdio>

#include "LoomBuffer.h"
#include "brighten_interleaved.h"
#include "brighten_planar.h"
#include "brighten_specialized.h"

using loom::Runtime::Buffer;

namespace {

int silenced_errors = 0;
void count_error(void *, const char *) {
    silenced_errors++;
}

void fill(Buffer<uint8_t, 3> &b) {
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < b.height(); y++)
            for (int x = 0; x < b.width(); x++) b(x, y, c) = uint8_t(x * 5 + y * 3 + c * 80);
}

int check(const char *what, const Buffer<uint8_t, 3> &in, const Buffer<uint8_t, 3> &out,
          int offset) {
    int failures = 0;
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < in.height(); y++)
            for (int x = 0; x < in.width(); x++) {
                int want = in(x, y, c) + offset > 255 ? 255 : in(x, y, c) + offset;
                if (out(x, y, c) != want && failures++ < 5)
                    std::printf("%s: out(%d, %d, %d) = %d, expected %d\n", what, x, y, c,
                                out(x, y, c), want);
            }
    return failures;
}

} // namespace

int main() {
    const int W = 101, H = 43;
    Buffer<uint8_t, 3> planar_in(W, H, 3), planar_out(W, H, 3);
    Buffer<uint8_t, 3> inter_in = Buffer<uint8_t, 3>::make_interleaved(W, H, 3);
    Buffer<uint8_t, 3> inter_out = Buffer<uint8_t, 3>::make_interleaved(W, H, 3);
    fill(planar_in);
    fill(inter_in);
    int failures = 0;

    if (brighten_planar(planar_in, 20, planar_out) != 0) return 1;
    failures += check("planar", planar_in, planar_out, 20);
    if (brighten_interleaved(inter_in, 30, inter_out) != 0) return 1;
    failures += check("interleaved", inter_in, inter_out, 30);

    // The specialized library takes both layouts.
    if (brighten_specialized(planar_in, 40, planar_out) != 0) return 1;
    failures += check("specialized, planar", planar_in, planar_out, 40);
    if (brighten_specialized(inter_in, 50, inter_out) != 0) return 1;
    failures += check("specialized, interleaved", inter_in, inter_out, 50);

    // The planar library checks its stride constraint.
    loom_set_error_handler(count_error);
    if (brighten_planar(inter_in, 20, inter_out) == 0 || silenced_errors != 1) {
        std::printf("brighten_planar accepted an interleaved buffer\n");
        failures++;
    }

    if (failures) {
        std::printf("lesson 16: %d mismatches\n", failures);
        return 1;
    }
    std::printf("lesson 16: planar, interleaved and specialized layouts all correct\n");
    return 0;
}
