// Runs the generated hist library on a PNG (RGB) or a generated low-contrast
// uint8 RGB image, checks it against plain C++ (exactly), and with --bench
// compares its speed with the JIT of the same generator. The output PNG is
// the equalized image.
//
//   hist_app [input.png [equalized.png]] [--bench] [--auto]

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "HistGenerator.h"
#include "app_check.h"
#include "app_driver.h"
#include "app_images.h"
#include "hist.h"

using loom::Buffer;

namespace {

// A dim, low-contrast image (values in [40, 140]) with noise, so that
// equalization has a visible effect and many bins are empty.
Buffer<uint8_t> make_input(const std::string &png, int width, int height) {
    Buffer<float> rgb = loom_apps::float_rgb_input(png, width, height);
    Buffer<uint8_t> in(rgb.width(), rgb.height(), 3);
    uint32_t seed = 5;
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < in.height(); y++)
            for (int x = 0; x < in.width(); x++) {
                seed = seed * 1664525u + 1013904223u;
                float v = 40.0f + 100.0f * std::clamp(rgb(x, y, c), 0.0f, 1.0f) +
                          float((seed >> 8) % 7) - 3.0f;
                in(x, y, c) = uint8_t(std::clamp(v, 0.0f, 255.0f));
            }
    return in;
}

// Plain C++, written from the same integer formulas: the histogram and its
// running sum over the whole image, then every pixel converted.
Buffer<uint8_t> reference(const Buffer<uint8_t> &in) {
    const int W = in.width(), H = in.height();
    auto luma = [&](int x, int y) {
        int r = in(x, y, 0), g = in(x, y, 1), b = in(x, y, 2);
        return (77 * r + 150 * g + 29 * b + 128) >> 8;
    };
    std::vector<int64_t> count(256, 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) count[size_t(std::clamp(luma(x, y), 0, 255))]++;
    std::vector<int> table(256);
    int64_t running = 0, pixels = int64_t(W) * int64_t(H);
    for (int i = 0; i < 256; i++) {
        running += count[size_t(i)];
        table[size_t(i)] = int(running * 255 / pixels);
    }
    Buffer<uint8_t> out(W, H, 3);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int r = in(x, y, 0), g = in(x, y, 1), b = in(x, y, 2);
            int cb = ((-43 * r - 85 * g + 128 * b + 128) >> 8) + 128;
            int cr = ((128 * r - 107 * g - 21 * b + 128) >> 8) + 128;
            int y2 = table[size_t(std::clamp(luma(x, y), 0, 255))];
            int db = cb - 128, dr = cr - 128;
            int rgb[3] = {y2 + ((359 * dr + 128) >> 8), y2 + ((-88 * db - 183 * dr + 128) >> 8),
                          y2 + ((454 * db + 128) >> 8)};
            for (int c = 0; c < 3; c++) out(x, y, c) = uint8_t(std::clamp(rgb[c], 0, 255));
        }
    return out;
}

int compare(const Buffer<uint8_t> &want, const Buffer<uint8_t> &got) {
    return loom_apps::count_exact_mismatches("hist", want, got);
}

} // namespace

int main(int argc, char **argv) {
    auto args = loom_apps::parse_app_args(argc, argv);
    // Sizes that are not multiples of the vector width or the rows per task.
    Buffer<uint8_t> in = args.bench && args.in_png.empty() ? make_input("", 3001, 2003)
                                                           : make_input(args.in_png, 641, 479);
    Buffer<uint8_t> out(in.width(), in.height(), 3), other(in.width(), in.height(), 3);
    loom_apps::AppDriver<HistGenerator> app;
    app.name = "hist";
    app.size = loom_apps::size_text(out, false);
    app.run = [&] { return hist(in.raw_buffer(), out.raw_buffer()); };
    app.check = [&] { return compare(reference(in), out); };
    app.save_png = [&](const std::string &path) { loom::image_io::save_png(out, path); };
    app.setup = [&](HistGenerator &g) { g.input.set(in); };
    app.other = loom::Realization({other});
    app.check_other = [&] { return compare(out, other); };
    return loom_apps::run_app_driver(argc, argv, app);
}
