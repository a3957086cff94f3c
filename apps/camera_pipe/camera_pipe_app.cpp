// Runs the generated camera_pipe library on a Bayer mosaic made from a PNG
// (RGB) or from a generated image, checks it against plain C++ (exactly),
// and with --bench compares its speed with the JIT of the same generator.
// The output PNG is the developed RGB image.
//
//   camera_pipe_app [input.png [developed.png]] [--bench] [--auto]

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include "CameraPipeGenerator.h"
#include "app_check.h"
#include "app_driver.h"
#include "app_images.h"
#include "camera_pipe.h"
#include "camera_pipe_reference.h"

using loom::Buffer;

namespace {

// A 10-bit GRBG mosaic of the image (cropped to even sizes): each pixel
// keeps the channel of its site, with a little noise and about one hot
// pixel in 400.
Buffer<uint16_t> make_mosaic(const std::string &png, int width, int height) {
    Buffer<float> rgb = loom_apps::float_rgb_input(png, width, height);
    Buffer<uint16_t> raw(rgb.width() / 2 * 2, rgb.height() / 2 * 2);
    uint32_t seed = 17;
    for (int y = 0; y < raw.height(); y++)
        for (int x = 0; x < raw.width(); x++) {
            seed = seed * 1664525u + 1013904223u;
            int channel = y % 2 == 0 ? (x % 2 == 0 ? 1 : 0) : (x % 2 == 0 ? 2 : 1);
            int value =
                int(std::clamp(rgb(x, y, channel), 0.0f, 1.0f) * 1000.0f) + int((seed >> 8) % 16);
            raw(x, y) = (seed >> 16) % 400 == 0 ? uint16_t(1023) : uint16_t(value);
        }
    return raw;
}

// A warm sensor's correction: rows sum to about 256 (1.0), offsets of -2.
Buffer<int16_t> make_matrix() {
    const int16_t weights[3][4] = {
        {420, -120, -44, -512}, {-60, 380, -64, -512}, {-20, -150, 426, -512}};
    Buffer<int16_t> m(4, 3);
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < 4; k++) m(k, c) = weights[c][k];
    return m;
}

int compare(const Buffer<uint8_t> &want, const Buffer<uint8_t> &got) {
    return loom_apps::count_exact_mismatches("camera_pipe", want, got);
}

} // namespace

int main(int argc, char **argv) {
    auto args = loom_apps::parse_app_args(argc, argv);
    // Sizes that are not multiples of the vector width or the rows per task.
    Buffer<uint16_t> raw = args.bench && args.in_png.empty() ? make_mosaic("", 3000, 2002)
                                                             : make_mosaic(args.in_png, 646, 478);
    Buffer<int16_t> matrix = make_matrix();
    const float gamma = 2.2f, contrast = 0.5f;
    const int strength = 16;
    Buffer<uint8_t> out(raw.width(), raw.height(), 3), other(raw.width(), raw.height(), 3);

    loom_apps::AppDriver<CameraPipeGenerator> app;
    app.name = "camera_pipe";
    app.size = loom_apps::size_text(raw, false);
    app.run = [&] {
        return camera_pipe(raw.raw_buffer(), matrix.raw_buffer(), gamma, contrast, strength,
                           out.raw_buffer());
    };
    app.check = [&] {
        return compare(loom_apps::camera_pipe_reference(raw, matrix, gamma, contrast, strength),
                       out);
    };
    app.save_png = [&](const std::string &path) { loom::image_io::save_png(out, path); };
    app.setup = [&](CameraPipeGenerator &g) {
        g.input.set(raw);
        g.color_matrix.set(matrix);
        g.gamma.set(gamma);
        g.contrast.set(contrast);
        g.sharpen_strength.set(strength);
    };
    app.other = loom::Realization({other});
    app.check_other = [&] { return compare(out, other); };
    return loom_apps::run_app_driver(argc, argv, app);
}
