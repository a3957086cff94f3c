// Runs the generated lens_blur library on a stereo pair made from a PNG
// (RGB) or a generated image, checks it against plain C++ (exactly), and
// with --bench compares its speed with the JIT of the same generator. The
// output PNG is the left image with the depth of field applied.
//
//   lens_blur_app [input.png [focused.png]] [--bench] [--auto]

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include "LensBlurGenerator.h"
#include "app_check.h"
#include "app_driver.h"
#include "app_images.h"
#include "lens_blur.h"
#include "lens_blur_reference.h"

using loom::Buffer;

namespace {

// The generator's defaults (the library is built with them).
constexpr int max_disparity = 16, max_radius = 4;

struct StereoPair {
    Buffer<uint8_t> left, right;
};

// The image as the left view of a made-up scene (a far background at
// disparity 2, a box at 8 and a disc at 13 in front), and the right view
// that the scene's disparities give: right(x, y) = left(x + d, y).
StereoPair make_pair(const std::string &png, int width, int height) {
    Buffer<float> rgb = loom_apps::float_rgb_input(png, width, height);
    const int W = rgb.width(), H = rgb.height();
    auto scene_disparity = [&](int x, int y) {
        int cx = 2 * W / 3, cy = H / 2, r = std::min(W, H) / 5;
        if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r) return 13;
        if (x > W / 6 && x < W / 2 && y > H / 4 && y < 3 * H / 4) return 8;
        return 2;
    };
    StereoPair pair{Buffer<uint8_t>(W, H, 3), Buffer<uint8_t>(W, H, 3)};
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                pair.left(x, y, c) = uint8_t(std::clamp(rgb(x, y, c), 0.0f, 1.0f) * 255.0f + 0.5f);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int source = std::min(x + scene_disparity(x, y), W - 1);
                pair.right(x, y, c) = pair.left(source, y, c);
            }
    return pair;
}

int compare(const Buffer<uint8_t> &want, const Buffer<uint8_t> &got) {
    return loom_apps::count_exact_mismatches("lens_blur", want, got);
}

} // namespace

int main(int argc, char **argv) {
    auto args = loom_apps::parse_app_args(argc, argv);
    // Sizes that are not multiples of the vector width or the rows per task.
    StereoPair pair = args.bench && args.in_png.empty() ? make_pair("", 1536, 1024)
                                                        : make_pair(args.in_png, 203, 137);
    const Buffer<uint8_t> &left = pair.left, &right = pair.right;
    const int focus = 8;
    Buffer<uint8_t> out(left.width(), left.height(), 3), other(left.width(), left.height(), 3);

    loom_apps::AppDriver<LensBlurGenerator> app;
    app.name = "lens_blur";
    app.size = loom_apps::size_text(left, true);
    app.run = [&] {
        return lens_blur(left.raw_buffer(), right.raw_buffer(), focus, out.raw_buffer());
    };
    app.check = [&] {
        return compare(
            loom_apps::lens_blur_reference(left, right, max_disparity, max_radius, focus), out);
    };
    app.save_png = [&](const std::string &path) { loom::image_io::save_png(out, path); };
    app.setup = [&](LensBlurGenerator &g) {
        g.left.set(left);
        g.right.set(right);
        g.focus.set(focus);
    };
    app.other = loom::Realization({other});
    app.check_other = [&] { return compare(out, other); };
    app.bench_runs = 10;
    return loom_apps::run_app_driver(argc, argv, app);
}
