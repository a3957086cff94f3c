// Runs the generated nl_means library on a PNG (RGB) or a generated planar
// RGB image, both with noise added, checks it against plain C++, and with
// --bench compares its speed with the JIT of the same generator. The
// output PNG is the denoised image.
//
//   nl_means_app [input.png [denoised.png]] [--bench] [--auto]

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include "NlMeansGenerator.h"
#include "app_check.h"
#include "app_driver.h"
#include "app_images.h"
#include "nl_means.h"
#include "nl_means_reference.h"

using loom::Buffer;

namespace {

// The generator's default patch and search window (the library is built
// with them).
constexpr int patch_size = 7, search_size = 7;

// The image with uniform noise of +-0.08 added (and clamped to [0, 1]).
Buffer<float> make_input(const std::string &png, int width, int height) {
    Buffer<float> in = loom_apps::float_rgb_input(png, width, height);
    uint32_t seed = 3;
    in.for_each_value([&](float &v) {
        seed = seed * 1664525u + 1013904223u;
        v = std::clamp(v + (float((seed >> 8) % 1601) / 10000.0f - 0.08f), 0.0f, 1.0f);
    });
    return in;
}

// Float sums in another order, and fast_exp (3e-6 relative) against
// double exp: the weights agree to about 1e-5 relative, so the means (in
// [0, 1], weighted means of nearby values) to well within 1e-4.
int compare(const Buffer<float> &want, const Buffer<float> &got) {
    return loom_apps::count_float_mismatches("nl_means", want, got, 1e-4f, 0.0f);
}

} // namespace

int main(int argc, char **argv) {
    auto args = loom_apps::parse_app_args(argc, argv);
    // Sizes that are not multiples of the vector width or the tiles.
    Buffer<float> in = args.bench && args.in_png.empty() ? make_input("", 1536, 1024)
                                                         : make_input(args.in_png, 203, 137);
    const float sigma = 0.1f;
    Buffer<float> out(in.width(), in.height(), 3), other(in.width(), in.height(), 3);

    loom_apps::AppDriver<NlMeansGenerator> app;
    app.name = "nl_means";
    app.size = loom_apps::size_text(in, true);
    app.run = [&] { return nl_means(in.raw_buffer(), sigma, out.raw_buffer()); };
    app.check = [&] {
        return compare(loom_apps::nl_means_reference(in, patch_size, search_size, sigma), out);
    };
    app.save_png = [&](const std::string &path) {
        loom_apps::save_float_png(path, out.width(), out.height(), 3,
                                  [&](int x, int y, int c) { return out(x, y, c); });
    };
    app.setup = [&](NlMeansGenerator &g) {
        g.input.set(in);
        g.sigma.set(sigma);
    };
    app.other = loom::Realization({other});
    app.check_other = [&] { return compare(out, other); };
    app.bench_runs = 5;
    return loom_apps::run_app_driver(argc, argv, app);
}
