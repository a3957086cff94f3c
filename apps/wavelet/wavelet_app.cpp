// Runs the generated wavelet (forward Haar) and inverse_wavelet libraries on
// a PNG (its first channel) or a generated uint8 gray image, checks the
// bands against plain C++ and the inverse against the input (both exactly),
// and with --bench compares their speed with the JIT of the same
// generators. The output PNG shows the four bands side by side (details
// around mid-gray).
//
//   wavelet_app [input.png [bands.png]] [--bench] [--auto]

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include "WaveletGenerator.h"
#include "app_autoschedule.h"
#include "app_bench.h"
#include "app_images.h"
#include "inverse_wavelet.h"
#include "wavelet.h"

using loom::Buffer;

namespace {

// A gray image of even width and height (an odd PNG loses its last column
// or row).
Buffer<uint8_t> make_input(const std::string &png, int width, int height) {
    Buffer<float> rgb = loom_apps::float_rgb_input(png, width, height);
    Buffer<uint8_t> in(rgb.width() & ~1, rgb.height() & ~1);
    for (int y = 0; y < in.height(); y++)
        for (int x = 0; x < in.width(); x++)
            in(x, y) = uint8_t(std::clamp(rgb(x, y, 1), 0.0f, 1.0f) * 255.0f + 0.5f);
    return in;
}

// Plain C++: each 2x2 block's four values, rows first, with C++'s shifts
// (arithmetic on negative values, as the generator's).
Buffer<int16_t> reference(const Buffer<uint8_t> &in) {
    Buffer<int16_t> bands(in.width() / 2, in.height() / 2, 4);
    auto lift = [](int a, int b, int &l, int &h) {
        h = a - b;
        l = b + (h >> 1);
    };
    for (int y = 0; y < bands.height(); y++)
        for (int x = 0; x < bands.width(); x++) {
            int l_top, h_top, l_bottom, h_bottom;
            lift(in(2 * x, 2 * y), in(2 * x + 1, 2 * y), l_top, h_top);
            lift(in(2 * x, 2 * y + 1), in(2 * x + 1, 2 * y + 1), l_bottom, h_bottom);
            int ll, lh, hl, hh;
            lift(l_top, l_bottom, ll, lh);
            lift(h_top, h_bottom, hl, hh);
            bands(x, y, 0) = int16_t(ll);
            bands(x, y, 1) = int16_t(hl);
            bands(x, y, 2) = int16_t(lh);
            bands(x, y, 3) = int16_t(hh);
        }
    return bands;
}

template <typename A, typename B> int compare(const char *what, const A &want, const B &got) {
    int failures = 0;
    const int channels = want.dimensions() > 2 ? want.channels() : 1;
    for (int c = 0; c < channels; c++)
        for (int y = 0; y < want.height(); y++)
            for (int x = 0; x < want.width(); x++) {
                int a = want.dimensions() > 2 ? int(want(x, y, c)) : int(want(x, y));
                int b = got.dimensions() > 2 ? int(got(x, y, c)) : int(got(x, y));
                if (a != b && failures++ < 10)
                    std::printf("%s(%d, %d, %d) = %d, expected %d\n", what, x, y, c, b, a);
            }
    return failures;
}

} // namespace

int main(int argc, char **argv) {
    auto [bench, in_png, out_png] = loom_apps::parse_app_args(argc, argv);
    // Band sizes that are not multiples of the vector width or the rows per task.
    Buffer<uint8_t> in =
        bench && in_png.empty() ? make_input("", 3000, 2002) : make_input(in_png, 642, 478);
    Buffer<int16_t> bands(in.width() / 2, in.height() / 2, 4);
    Buffer<int16_t> back(in.width(), in.height());

    if (int err = wavelet(in.raw_buffer(), bands.raw_buffer())) {
        std::printf("wavelet failed with error %d\n", err);
        return 1;
    }
    if (int failures = compare("wavelet", reference(in), bands)) {
        std::printf("wavelet_app: %d mismatches in the bands\n", failures);
        return 1;
    }
    if (int err = inverse_wavelet(bands.raw_buffer(), back.raw_buffer())) {
        std::printf("inverse_wavelet failed with error %d\n", err);
        return 1;
    }
    if (int failures = compare("inverse_wavelet", in, back)) {
        std::printf("wavelet_app: the inverse differs from the input in %d pixels\n", failures);
        return 1;
    }
    if (!out_png.empty()) {
        const int w = bands.width(), h = bands.height();
        loom_apps::save_float_png(out_png, 2 * w, 2 * h, 1, [&](int x, int y, int) {
            int band = (x >= w ? 1 : 0) + (y >= h ? 2 : 0);
            float v = bands(x % w, y % h, band);
            return band == 0 ? v / 255.0f : 0.5f + v / 255.0f;
        });
    }
    std::printf("wavelet_app: %dx%d to 4 bands and back ok\n", in.width(), in.height());

    const bool automatic = loom_apps::has_flag(argc, argv, "--auto");
    if (!automatic && !bench) return 0;
    if (bench) loom_apps::print_machine(loom::get_host_target().to_string());
    Buffer<int16_t> other_bands(bands.width(), bands.height(), 4);
    Buffer<int16_t> other_back(in.width(), in.height());
    const double seconds = loom_apps::app_tune_seconds();
    const int runs = bench ? 20 : 3;
    double forward_ms = 0, inverse_ms = 0;
    if (bench) {
        WaveletGenerator g;
        loom::Pipeline p = g.build_pipeline();
        g.input.set(in);
        p.compile_jit();
        InverseWaveletGenerator gi;
        loom::Pipeline pi = gi.build_pipeline();
        gi.input.set(bands);
        pi.compile_jit();
        auto [aot_ms, jit_ms] = loom_apps::alternating_median_ms(
            runs, [&] { wavelet(in.raw_buffer(), bands.raw_buffer()); },
            [&] { p.realize(loom::Realization({other_bands})); });
        auto [inv_aot_ms, inv_jit_ms] = loom_apps::alternating_median_ms(
            runs, [&] { inverse_wavelet(bands.raw_buffer(), back.raw_buffer()); },
            [&] { pi.realize(loom::Realization({other_back})); });
        if (compare("wavelet", bands, other_bands) || compare("inverse_wavelet", in, other_back)) {
            std::printf("wavelet_app: the JIT output differs\n");
            return 1;
        }
        std::printf("wavelet %dx%d: AOT %.3f ms, JIT %.3f ms, AOT/JIT %.2f; inverse: AOT %.3f ms, "
                    "JIT %.3f ms, AOT/JIT %.2f\n",
                    in.width(), in.height(), aot_ms, jit_ms, aot_ms / jit_ms, inv_aot_ms,
                    inv_jit_ms, inv_aot_ms / inv_jit_ms);
        forward_ms = jit_ms;
        inverse_ms = inv_jit_ms;
    }
    // The auto-scheduler's and a tuning run's schedules, checked.
    auto rows = loom_apps::bench_automatic<WaveletGenerator>(
        "wavelet", [&](WaveletGenerator &g) { g.input.set(in); }, loom::Realization({other_bands}),
        [&] { return compare("wavelet", bands, other_bands) == 0; }, forward_ms, seconds, runs);
    auto inverse_rows = loom_apps::bench_automatic<InverseWaveletGenerator>(
        "inverse_wavelet", [&](InverseWaveletGenerator &g) { g.input.set(bands); },
        loom::Realization({other_back}),
        [&] { return compare("inverse_wavelet", in, other_back) == 0; }, inverse_ms, seconds, runs);
    return rows.ok && inverse_rows.ok ? 0 : 1;
}
