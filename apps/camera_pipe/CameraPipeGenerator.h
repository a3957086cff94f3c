#ifndef LOOM_APPS_CAMERA_PIPE_GENERATOR_H
#define LOOM_APPS_CAMERA_PIPE_GENERATOR_H

// A camera's raw-to-RGB pipeline on a 10-bit Bayer mosaic (GRBG: green and
// red on even rows, blue and green on odd rows; even width and height), in
// integers except the tone curve's table:
// - deinterleave: the mosaic's four colour planes at half resolution
//   (0: green of red rows, 1: red, 2: blue, 3: green of blue rows), each
//   repeating its edge (the suppression and the demosaic read the planes
//   beyond it as they read them inside);
// - hot-pixel suppression: a sample is lowered to the largest of its four
//   nearest same-colour neighbours when it exceeds all of them (done on the
//   planes, where those neighbours are one sample away);
// - demosaic: bilinear, with rounded integer means; green at red and blue
//   sites follows the edge (the mean of the pair, horizontal or vertical,
//   that differs least; of both when they tie);
// - colour correction: a 3x4 matrix in 1/256 (red, green, blue and an
//   offset per output channel), rounded, clamped to [0, 1023];
// - tone curve: a 1024-entry table to 8 bits, gamma then a smoothstep
//   contrast blend, computed once in float (strict_float, so it rounds as
//   plain C++ does);
// - sharpen: the curved image plus strength/16 of its difference from a
//   [1 2 1] x [1 2 1] / 16 blur (edges repeated), clamped to [0, 255].

// perf_apps' Halide side includes this header with Halide's names (apps/bench).
#ifndef LOOM_APP_HALIDE_SIDE
#include "Loom.h"
#endif
#include "app_schedule.h"

class CameraPipeGenerator : public loom::Generator<CameraPipeGenerator> {
public:
    /** Output rows per parallel task. */
    GeneratorParam<int> rows_per_task{"rows_per_task", 32, 2, 1024};
    GeneratorParam<int> vector_width{"vector_width", 16, 1, 64};

    Input<loom::Buffer<uint16_t, 2>> input{"input"};
    /** (4, 3): per output channel (y), the weights of red, green and blue
     * and an offset (x), in 1/256. */
    Input<loom::Buffer<int16_t, 2>> color_matrix{"color_matrix"};
    Input<float> gamma{"gamma", 2.2f, 0.1f, 10.0f};
    /** 0: gamma only; 1: the full smoothstep. */
    Input<float> contrast{"contrast", 0.5f, 0.0f, 1.0f};
    /** In 1/16: 16 adds the whole difference from the blur. */
    Input<int32_t> sharpen_strength{"sharpen_strength", 16, 0, 256};
    Output<loom::Buffer<uint8_t, 3>> output{"output"};

    loom::Var x{"x"}, y{"y"}, c{"c"}, site{"site"}, i{"i"}, yo{"yo"}, yi{"yi"};
    loom::Func planes{"planes"}, denoised{"denoised"}, demosaic{"demosaic"};
    loom::Func corrected{"corrected"}, curve{"curve"}, curved_quads{"curved_quads"};
    loom::Func curved{"curved"};

    void generate() {
        using loom::cast;
        using loom::clamp;
        using loom::Expr;
        using loom::max;
        using loom::min;
        const Expr half_w = input.width() / 2, half_h = input.height() / 2;
        planes(x, y, c) =
            input(2 * clamp(x, 0, half_w - 1) + c % 2, 2 * clamp(y, 0, half_h - 1) + c / 2);
        Expr brightest = max(max(planes(x - 1, y, c), planes(x + 1, y, c)),
                             max(planes(x, y - 1, c), planes(x, y + 1, c)));
        denoised(x, y, c) = min(planes(x, y, c), brightest);

        // The demosaic, per quad (x, y) of the mosaic and per site s of the
        // quad: gr at (0, 0), r at (1, 0), b at (0, 1) and gb at (1, 1) of
        // its 2x2 pixels (so that the planes are read at whole offsets).
        auto sample = [&](int plane, int dx, int dy) {
            return cast<int32_t>(denoised(x + dx, y + dy, plane));
        };
        auto gr = [&](int dx, int dy) { return sample(0, dx, dy); };
        auto r = [&](int dx, int dy) { return sample(1, dx, dy); };
        auto b = [&](int dx, int dy) { return sample(2, dx, dy); };
        auto gb = [&](int dx, int dy) { return sample(3, dx, dy); };
        Expr green_at_r = edge_mean(gr(0, 0), gr(1, 0), gb(0, -1), gb(0, 0));
        Expr green_at_b = edge_mean(gb(-1, 0), gb(0, 0), gr(0, 0), gr(0, 1));
        auto rgb = [&](Expr red, Expr green, Expr blue) {
            return loom::mux(c, {red, green, blue});
        };
        Expr at_gr = rgb(mean2(r(-1, 0), r(0, 0)), gr(0, 0), mean2(b(0, -1), b(0, 0)));
        Expr at_r = rgb(r(0, 0), green_at_r, mean4(b(0, -1), b(1, -1), b(0, 0), b(1, 0)));
        Expr at_b = rgb(mean4(r(-1, 0), r(0, 0), r(-1, 1), r(0, 1)), green_at_b, b(0, 0));
        Expr at_gb = rgb(mean2(r(0, 0), r(0, 1)), gb(0, 0), mean2(b(0, 0), b(1, 0)));
        demosaic(x, y, c, site) = cast<uint16_t>(loom::mux(site, {at_gr, at_r, at_b, at_gb}));

        auto weight = [&](int k) { return cast<int32_t>(color_matrix(k, c)); };
        auto channel = [&](int k) { return cast<int32_t>(demosaic(x, y, k, site)); };
        Expr mixed =
            weight(0) * channel(0) + weight(1) * channel(1) + weight(2) * channel(2) + weight(3);
        corrected(x, y, c, site) = clamp((mixed + 128) >> 8, 0, 1023);

        // The table: v = i / 1023, gamma applied, then blended towards the
        // smoothstep of the result by `contrast`.
        Expr v = cast<float>(i) * (1.0f / 1023.0f);
        Expr g = loom::pow(v, 1.0f / gamma);
        Expr s = g * g * (3.0f - 2.0f * g);
        Expr toned = loom::strict_float(g + contrast * (s - g));
        curve(i) = cast<uint8_t>(clamp(loom::strict_float(toned * 255.0f + 0.5f), 0.0f, 255.0f));
        curved_quads(x, y, c, site) = curve(corrected(x, y, c, site));
        // Back to pixels: pixel (x, y) is site (x % 2, y % 2) of quad
        // (x / 2, y / 2); beyond the image, the nearest pixel's value (the
        // sharpen's edge, repeated here rather than in the sharpen's nine
        // reads, which keeps bounds inference small).
        Expr px = clamp(x, 0, input.width() - 1), py = clamp(y, 0, input.height() - 1);
        curved(x, y, c) = curved_quads(px / 2, py / 2, c, px % 2 + 2 * (py % 2));

        auto at = [&](int dx, int dy) { return cast<int32_t>(curved(x + dx, y + dy, c)); };
        Expr blur = (at(-1, -1) + 2 * at(0, -1) + at(1, -1) + 2 * at(-1, 0) + 4 * at(0, 0) +
                     2 * at(1, 0) + at(-1, 1) + 2 * at(0, 1) + at(1, 1) + 8) >>
                    4;
        Expr sharpened = at(0, 0) + (((at(0, 0) - blur) * sharpen_strength + 8) >> 4);
        output(x, y, c) = cast<uint8_t>(clamp(sharpened, 0, 255));
    }

    void schedule() {
        // The benchmark's sizes, for auto-schedulers (set here so that the
        // algorithm in generate() stays free of them).
        input.set_estimates({{0, 3000}, {0, 2002}});
        color_matrix.set_estimates({{0, 4}, {0, 3}});
        gamma.set_estimate(2.2f);
        contrast.set_estimate(0.5f);
        sharpen_strength.set_estimate(16);
        output.set_estimates({{0, 3000}, {0, 2002}, {0, 3}});
        // The table covers every corrected value.
        curve.bound(i, 0, 1024);
        if (using_autoscheduler()) return;
        // The table once (scalar: its pow calls stay libm's). Strips of
        // output rows, one task each, each stage computed for the strip
        // (and the rows the next one reaches) in turn: the deinterleaved
        // planes (strided loads) and the suppression on them; the
        // demosaic, then the colour correction and the curve, per quad
        // with its 4 sites and 3 colours unrolled (the planes read by
        // dense loads); the curved pixels taken from their quads (one
        // gather); the sharpen, per pixel. x is vectorized throughout.
        curve.compute_root();
        loom_apps::strips_of_rows(output, x, y, c, yo, yi, 3, rows_per_task, vector_width);
        loom_apps::channels_unrolled(curved.compute_at(output, yo), x, y, c, 3, vector_width);
        for (loom::Func f : {demosaic, curved_quads})
            f.compute_at(output, yo)
                .bound(c, 0, 3)
                .bound(site, 0, 4)
                .reorder(c, site, x, y)
                .vectorize(x, vector_width)
                .unroll(c)
                .unroll(site);
        for (loom::Func f : {planes, denoised})
            loom_apps::channels_unrolled(f.compute_at(output, yo), x, y, c, 4, vector_width);
    }

private:
    static loom::Expr mean2(loom::Expr a, loom::Expr b) { return (a + b + 1) >> 1; }
    static loom::Expr mean4(loom::Expr a, loom::Expr b, loom::Expr c, loom::Expr d) {
        return (a + b + c + d + 2) >> 2;
    }
    /** Green from a horizontal pair (h0, h1) and a vertical pair (v0, v1):
     * the mean of the pair that differs least, of both pairs on a tie. */
    static loom::Expr edge_mean(loom::Expr h0, loom::Expr h1, loom::Expr v0, loom::Expr v1) {
        loom::Expr dh = loom::abs(h0 - h1), dv = loom::abs(v0 - v1);
        loom::Expr h = mean2(h0, h1), v = mean2(v0, v1);
        return loom::select(dh < dv, h, loom::select(dv < dh, v, mean2(h, v)));
    }
};

#endif
