// Runs the generated max_filter library on a PNG (all its channels) or a
// generated 3-channel image, checks it against plain C++ (exactly), and
// with --bench compares its speed with the JIT of the same generator.
//
//   max_filter_app [input.png [dilated.png]] [--bench]

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "MaxFilterGenerator.h"
#include "app_check.h"
#include "app_driver.h"
#include "loom_image_io.h"
#include "max_filter.h"

using loom::Buffer;

namespace {

// The generator's default radius (the library is built with it).
constexpr int radius = 26;

// Dim noise with a few bright specks, which the filter grows into squares.
Buffer<uint8_t> make_input(const std::string &png, int width, int height) {
    if (!png.empty()) return loom::image_io::load_png(png);
    Buffer<uint8_t> in(width, height, 3);
    uint32_t seed = 2024;
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < height; y++)
            for (int x = 0; x < width; x++) {
                seed = seed * 1664525u + 1013904223u;
                uint32_t r = seed >> 8;
                in(x, y, c) = r % 997 == 0 ? uint8_t(155 + r % 101) : uint8_t(r % 90);
            }
    return in;
}

// Plain C++: the max of each column's window, then of each row's window
// of those, one value at a time (edges repeat).
Buffer<uint8_t> reference(const Buffer<uint8_t> &in) {
    const int W = in.width(), H = in.height();
    Buffer<uint8_t> out(W, H, in.channels());
    std::vector<uint8_t> column_max(size_t(W) * size_t(H));
    for (int c = 0; c < in.channels(); c++) {
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                uint8_t m = 0;
                for (int j = y - radius; j <= y + radius; j++)
                    m = std::max(m, in(x, std::clamp(j, 0, H - 1), c));
                column_max[size_t(y) * size_t(W) + size_t(x)] = m;
            }
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                uint8_t m = 0;
                for (int i = x - radius; i <= x + radius; i++)
                    m = std::max(
                        m, column_max[size_t(y) * size_t(W) + size_t(std::clamp(i, 0, W - 1))]);
                out(x, y, c) = m;
            }
    }
    return out;
}

int compare(const Buffer<uint8_t> &want, const Buffer<uint8_t> &got) {
    return loom_apps::count_exact_mismatches("max_filter", want, got);
}

} // namespace

int main(int argc, char **argv) {
    auto args = loom_apps::parse_app_args(argc, argv);
    // Sizes that are not multiples of the vector width or the rows per task.
    Buffer<uint8_t> in = args.bench && args.in_png.empty() ? make_input("", 3001, 2003)
                                                           : make_input(args.in_png, 641, 479);
    Buffer<uint8_t> out(in.width(), in.height(), in.channels()),
        other(in.width(), in.height(), in.channels());
    loom_apps::AppDriver<MaxFilterGenerator> app;
    app.name = "max_filter";
    app.size = loom_apps::size_text(out, true);
    app.bench_note = " (radius " + std::to_string(radius) + ")";
    app.run = [&] { return max_filter(in.raw_buffer(), out.raw_buffer()); };
    app.check = [&] { return compare(reference(in), out); };
    app.save_png = [&](const std::string &path) { loom::image_io::save_png(out, path); };
    app.setup = [&](MaxFilterGenerator &g) { g.input.set(in); };
    app.other = loom::Realization({other});
    app.check_other = [&] { return compare(out, other); };
    return loom_apps::run_app_driver(argc, argv, app);
}
