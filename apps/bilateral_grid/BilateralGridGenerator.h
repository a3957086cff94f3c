#ifndef LOOM_APPS_BILATERAL_GRID_GENERATOR_H
#define LOOM_APPS_BILATERAL_GRID_GENERATOR_H

// An edge-preserving smoothing of a float gray image in [0, 1] through a
// bilateral grid (Chen, Paris and Durand 2007): the image is splatted into a
// coarse 3-D grid, s_sigma pixels per cell in x and y and r_sigma of
// intensity per cell in z, keeping in each cell the sum of its pixels'
// intensities and their count; the grid is blurred with [1 4 6 4 1] in z,
// x and y; and each output pixel reads the blurred grid at (x / s_sigma,
// y / s_sigma, its intensity / r_sigma) by trilinear interpolation and
// divides the interpolated sum by the interpolated count.

// perf_apps' Halide side includes this header with Halide's names (apps/bench).
#ifndef LOOM_APP_HALIDE_SIDE
#include "Loom.h"
#endif

class BilateralGridGenerator : public loom::Generator<BilateralGridGenerator> {
public:
    /** Pixels per grid cell in x and y. */
    GeneratorParam<int> s_sigma{"s_sigma", 8, 2, 64};
    GeneratorParam<int> vector_width{"vector_width", 8, 1, 64};
    /** Rows per parallel task of the output. */
    GeneratorParam<int> rows_per_task{"rows_per_task", 32, 1, 1024};

    Input<loom::Buffer<float, 2>> input{"input"};
    /** Intensity per grid cell in z: smaller keeps more edges. */
    Input<float> r_sigma{"r_sigma", 0.1f, 0.01f, 1.0f};
    Output<loom::Buffer<float, 2>> output{"output"};

    loom::Var x{"x"}, y{"y"}, z{"z"}, c{"c"}, yo{"yo"}, yi{"yi"};
    /** c = 0: the sum of intensities; c = 1: the number of pixels. */
    loom::Func histogram{"histogram"};
    loom::Func blur_z{"blur_z"}, blur_x{"blur_x"}, blur_y{"blur_y"};
    loom::RDom cell;

    void generate() {
        using loom::cast;
        using loom::clamp;
        using loom::Expr;
        using loom::lerp;
        const int s = s_sigma;
        loom::Func clamped = loom::BoundaryConditions::repeat_edge(input);

        // Splat: grid cell (x, y) gathers the s x s pixels centred on (x s, y s).
        Expr inv_r = 1.0f / r_sigma;
        cell = loom::RDom({{0, s}, {0, s}}, "cell");
        Expr sample = clamp(clamped(x * s + cell.x - s / 2, y * s + cell.y - s / 2), 0.0f, 1.0f);
        Expr bin = cast<int>(sample * inv_r + 0.5f);
        histogram(x, y, z, c) = 0.0f;
        histogram(x, y, bin, c) += loom::select(c == 0, sample, 1.0f);

        blur_z(x, y, z, c) =
            binomial5(histogram(x, y, z - 2, c), histogram(x, y, z - 1, c), histogram(x, y, z, c),
                      histogram(x, y, z + 1, c), histogram(x, y, z + 2, c));
        blur_x(x, y, z, c) =
            binomial5(blur_z(x - 2, y, z, c), blur_z(x - 1, y, z, c), blur_z(x, y, z, c),
                      blur_z(x + 1, y, z, c), blur_z(x + 2, y, z, c));
        blur_y(x, y, z, c) =
            binomial5(blur_x(x, y - 2, z, c), blur_x(x, y - 1, z, c), blur_x(x, y, z, c),
                      blur_x(x, y + 1, z, c), blur_x(x, y + 2, z, c));

        // Slice: trilinear interpolation of the blurred grid.
        Expr value = clamp(input(x, y), 0.0f, 1.0f);
        Expr zv = value * inv_r;
        Expr zi = cast<int>(zv);
        Expr zf = zv - cast<float>(zi);
        Expr xi = x / s, yi_ = y / s;
        Expr xf = cast<float>(x % s) / float(s), yf = cast<float>(y % s) / float(s);
        auto at = [&](int dx, int dy, int dz, int channel) {
            return blur_y(xi + dx, yi_ + dy, zi + dz, channel);
        };
        auto interpolate = [&](int channel) {
            auto plane = [&](int dz) {
                return lerp(lerp(at(0, 0, dz, channel), at(1, 0, dz, channel), xf),
                            lerp(at(0, 1, dz, channel), at(1, 1, dz, channel), xf), yf);
            };
            return lerp(plane(0), plane(1), zf);
        };
        output(x, y) = interpolate(0) / interpolate(1);
    }

    void schedule() {
        // The benchmark's sizes, for auto-schedulers (set here so that the
        // algorithm in generate() stays free of them).
        input.set_estimates({{0, 3001}, {0, 2003}});
        // Scalar Inputs too: Halide 14's Adams2019 (perf_apps --auto) needs every
        // Input's estimate.
        r_sigma.set_estimate(0.1f);
        output.set_estimates({{0, 3001}, {0, 2003}});
        if (using_autoscheduler()) return;
        // The grid is small (1/s_sigma^2 of the image): each blur is a
        // whole-grid pass, parallel over grid rows and vectorized along x
        // with both channels unrolled; the splat is computed per grid row
        // of blur_z (its z and c loops inside, so its histogram rows stay
        // in the cache). The slice is parallel over strips of output rows.
        histogram.compute_at(blur_z, y);
        histogram.update().reorder(c, cell.x, cell.y, x, y).unroll(c);
        for (loom::Func f : {blur_z, blur_x, blur_y})
            f.compute_root()
                .bound(c, 0, 2)
                .reorder(c, x, z, y)
                .parallel(y)
                .vectorize(x, vector_width, loom::TailStrategy::RoundUp)
                .unroll(c);
        output.split(y, yo, yi, rows_per_task).parallel(yo).vectorize(x, vector_width);
    }

private:
    static loom::Expr binomial5(loom::Expr a, loom::Expr b, loom::Expr m, loom::Expr d,
                                loom::Expr e) {
        return a + 4.0f * b + 6.0f * m + 4.0f * d + e;
    }
};

#endif
