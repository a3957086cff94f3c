#ifndef LOOM_APPS_LOCAL_LAPLACIAN_GENERATOR_H
#define LOOM_APPS_LOCAL_LAPLACIAN_GENERATOR_H

// Local Laplacian filtering (Paris, Hasinoff and Kautz 2011, in the
// fast form of Aubry et al.: a fixed set of intensity levels) of a planar
// uint16 RGB image: edge-aware detail enhancement and tone mapping. The
// luminance is remapped around each of `levels` intensities g_k:
// r_k(v) = g_k + beta (v - g_k) + alpha d exp(-d^2 / 2), d = v - g_k (the
// detail term read from a table with linear interpolation). Each remapped
// image gets a Laplacian pyramid; the output's Laplacian pyramid takes,
// at every pixel of every level, the two remapped pyramids whose g_k
// bracket the input's Gaussian pyramid there, interpolated. The collapsed
// pyramid is the new luminance; the colours are scaled by new / old.
//
// Pyramids: [1 3 3 1] / 8 down in x then in y, every other pixel kept;
// upsampling weighs the two nearest coarse pixels 3/4 and 1/4. Level j is
// ceil(size / 2^j) pixels wide and high and every level repeats its edge.

#include <string>
#include <vector>

// perf_apps' Halide side includes this header with Halide's names (apps/bench).
#ifndef LOOM_APP_HALIDE_SIDE
#include "Loom.h"
#endif

class LocalLaplacianGenerator : public loom::Generator<LocalLaplacianGenerator> {
public:
    /** Intensity levels the luminance is remapped around. */
    GeneratorParam<int> levels{"levels", 8, 2, 32};
    /** Pyramid levels, the full-size one included. */
    GeneratorParam<int> pyramid_levels{"pyramid_levels", 8, 2, 16};
    /** Rows per parallel task of each level. */
    GeneratorParam<int> rows_per_task{"rows_per_task", 16, 1, 1024};
    GeneratorParam<int> vector_width{"vector_width", 16, 1, 64};

    Input<loom::Buffer<uint16_t, 3>> input{"input"};
    /** Detail gain (0: none, 1: doubled fine detail). */
    Input<float> alpha{"alpha", 1.0f, 0.0f, 10.0f};
    /** Tone gain of large-scale variation (below 1 compresses). */
    Input<float> beta{"beta", 1.0f, 0.0f, 10.0f};
    Output<loom::Buffer<uint16_t, 3>> output{"output"};

    loom::Var x{"x"}, y{"y"}, c{"c"}, k{"k"}, i{"i"}, yo{"yo"}, yi{"yi"};
    loom::Func detail{"detail"}, gray{"gray"}, remapped{"remapped"};
    /** Per level j: the remapped images' Gaussian pyramids (x, y, k), the
     * input's Gaussian pyramid, the output's Gaussian pyramid, and the
     * halvings in x that the Gaussian levels are made from. */
    std::vector<loom::Func> g_pyramid, in_pyramid, out_pyramid, g_half_x, in_half_x;
    std::vector<loom::Expr> width, height;

    void generate() {
        using loom::cast;
        using loom::clamp;
        using loom::Expr;
        using loom::Func;
        namespace BC = loom::BoundaryConditions;
        const int K = levels, J = pyramid_levels;
        width.assign(size_t(J), Expr());
        height.assign(size_t(J), Expr());
        width[0] = input.width();
        height[0] = input.height();
        for (size_t j = 1; j < size_t(J); j++) {
            width[j] = (width[j - 1] + 1) / 2;
            height[j] = (height[j - 1] + 1) / 2;
        }
        // Every level is read through its edge (see InterpolateGenerator.h
        // for why this also keeps bounds inference small).
        auto at = [&](const Func &f, size_t j) {
            BC::Region r{{0, width[j]}, {0, height[j]}};
            if (f.dimensions() == 3) r.push_back({Expr(), Expr()});
            return BC::repeat_edge(f, r);
        };

        // The detail curve d exp(-d^2 / 2), tabulated every 1/256 over
        // d in [-1, 1] (the luminance is in [0, 1]).
        const int steps = 256;
        Expr d = cast<float>(i) / float(steps);
        detail(i) = d * loom::exp(-d * d / 2.0f);

        Func clamped = BC::repeat_edge(input);
        Func floating("floating");
        floating(x, y, c) = cast<float>(clamped(x, y, c)) / 65535.0f;
        gray(x, y) =
            0.299f * floating(x, y, 0) + 0.587f * floating(x, y, 1) + 0.114f * floating(x, y, 2);

        // The luminance remapped around g_k = k / (K - 1).
        Expr g_k = cast<float>(k) / float(K - 1);
        // (Through its edge: the remapped levels' vectors may run past it.)
        Expr offset = at(gray, 0)(x, y) - g_k;
        Expr position = clamp(offset, -1.0f, 1.0f) * float(steps);
        Expr below = clamp(cast<int>(loom::floor(position)), -steps, steps - 1);
        Expr fraction = position - cast<float>(below);
        Expr curve = detail(below) + fraction * (detail(below + 1) - detail(below));
        remapped(x, y, k) = g_k + beta * offset + alpha * curve;

        g_pyramid.push_back(remapped);
        in_pyramid.push_back(gray);
        g_half_x.push_back(Func());
        in_half_x.push_back(Func());
        for (size_t j = 1; j < size_t(J); j++) {
            std::string n = std::to_string(j);
            Func gx("g_half_x_" + n), g("g_pyramid_" + n), ix("in_half_x_" + n),
                in("in_pyramid_" + n);
            Func g_prev = at(g_pyramid[j - 1], j - 1), in_prev = at(in_pyramid[j - 1], j - 1);
            gx(x, y, k) = down(g_prev(2 * x - 1, y, k), g_prev(2 * x, y, k),
                               g_prev(2 * x + 1, y, k), g_prev(2 * x + 2, y, k));
            g(x, y, k) = down(gx(x, 2 * y - 1, k), gx(x, 2 * y, k), gx(x, 2 * y + 1, k),
                              gx(x, 2 * y + 2, k));
            ix(x, y) = down(in_prev(2 * x - 1, y), in_prev(2 * x, y), in_prev(2 * x + 1, y),
                            in_prev(2 * x + 2, y));
            in(x, y) = down(ix(x, 2 * y - 1), ix(x, 2 * y), ix(x, 2 * y + 1), ix(x, 2 * y + 2));
            g_half_x.push_back(gx);
            g_pyramid.push_back(g);
            in_half_x.push_back(ix);
            in_pyramid.push_back(in);
        }

        // The output's Laplacian level j at (x, y): the remapped pyramids'
        // Laplacian levels at the two g_k around the input's value there.
        auto output_laplacian = [&](size_t j, Expr px, Expr py) {
            Func g = at(g_pyramid[j], j), in = at(in_pyramid[j], j);
            Expr level = in(px, py) * float(K - 1);
            Expr below_k = clamp(cast<int>(level), 0, K - 2);
            Expr t = level - cast<float>(below_k);
            auto laplacian = [&](Expr kk) -> Expr {
                if (j + 1 == size_t(J)) return g(px, py, kk);
                Func coarse = at(g_pyramid[j + 1], j + 1);
                return g(px, py, kk) - up(coarse, px, py, kk);
            };
            Expr lo = laplacian(below_k), hi = laplacian(below_k + 1);
            return lo + t * (hi - lo);
        };
        out_pyramid.resize(size_t(J));
        for (size_t j = size_t(J); j-- > 0;) {
            Func f("out_pyramid_" + std::to_string(j));
            if (j + 1 == size_t(J)) {
                f(x, y) = output_laplacian(j, x, y);
            } else {
                Func coarse = at(out_pyramid[j + 1], j + 1);
                f(x, y) = up(coarse, x, y, Expr()) + output_laplacian(j, x, y);
            }
            out_pyramid[j] = f;
        }

        // Colours scaled by the new luminance over the old (0.01 keeps dark
        // pixels from blowing up).
        Expr ratio = (out_pyramid[0](x, y) + 0.01f) / (gray(x, y) + 0.01f);
        Expr color = clamp(floating(x, y, c) * ratio, 0.0f, 1.0f);
        output(x, y, c) = cast<uint16_t>(color * 65535.0f + 0.5f);
    }

    void schedule() {
        // The benchmark's sizes, for auto-schedulers (set here so that the
        // algorithm in generate() stays free of them).
        input.set_estimates({{0, 3001}, {0, 2003}, {0, 3}});
        alpha.set_estimate(1.0f);
        beta.set_estimate(1.0f);
        output.set_estimates({{0, 3001}, {0, 2003}, {0, 3}});
        // Levels are read only through their edges, so their regions are
        // their sizes: saying so keeps bounds inference from deriving them
        // from the levels that read them (see docs/apps.md).
        const int K = levels, J = pyramid_levels;
        detail.bound(i, -256, 2 * 256 + 1);
        // Halide 14 (perf_apps' Halide side) rejects a bound() that a
        // RoundUp tail computes past, where Loom computes past it; Halide
        // needs no bounds in x, so that side leaves them out.
#ifdef LOOM_APP_HALIDE_SIDE
        const bool bound_x = false;
#else
        const bool bound_x = true;
#endif
        auto bound_level = [&](loom::Func f, size_t j) {
            if (bound_x) f.bound(x, 0, width[j]);
            return f.bound(y, 0, height[j]);
        };
        for (size_t j = 0; j < size_t(J); j++) {
            bound_level(g_pyramid[j], j).bound(k, 0, K);
            bound_level(in_pyramid[j], j);
            if (j > 0) bound_level(out_pyramid[j], j);
        }
        if (using_autoscheduler()) return;
        // The detail table, the luminance and every level of the three
        // pyramids are whole-level passes, parallel over strips of rows
        // and vectorized along x; the remapped images' levels loop over
        // the intensity levels outside the strips. A level's halving in x
        // is computed per strip. The output's Laplacian levels (which
        // gather the two remapped levels around each pixel's intensity)
        // are inlined into its Gaussian levels; the finest one is computed
        // per strip of output rows, then shared by the three channels.
        // Intermediate levels round their vectors up (see docs/apps.md).
        const loom::TailStrategy round_up = loom::TailStrategy::RoundUp;
        auto strips = [&](loom::Func f) {
            f.compute_root()
                .split(y, yo, yi, rows_per_task)
                .parallel(yo)
                .vectorize(x, vector_width, round_up);
        };
        detail.compute_root();
        strips(gray);
        for (size_t j = 0; j < size_t(J); j++) {
            strips(g_pyramid[j]);
            g_pyramid[j].reorder(x, yi, yo, k);
            if (j > 0) {
                strips(in_pyramid[j]);
                g_half_x[j].compute_at(g_pyramid[j], yo).vectorize(x, vector_width, round_up);
                in_half_x[j].compute_at(in_pyramid[j], yo).vectorize(x, vector_width, round_up);
                strips(out_pyramid[j]);
            }
        }
        output.split(y, yo, yi, rows_per_task)
            .reorder(x, yi, c, yo)
            .parallel(yo)
            .vectorize(x, vector_width);
        out_pyramid[0].compute_at(output, yo).vectorize(x, vector_width, round_up);
    }

private:
    /** [1 3 3 1] / 8. */
    static loom::Expr down(loom::Expr a, loom::Expr b, loom::Expr c, loom::Expr d) {
        return (a + 3.0f * (b + c) + d) * 0.125f;
    }

    /** f (a coarser level, read through its edge) upsampled to (px, py):
     * 3/4 of the nearest coarse pixel and 1/4 of the next nearest, in x
     * then in y; kk is the intensity level of a 3-D f. */
    static loom::Expr up(const loom::Func &f, loom::Expr px, loom::Expr py, loom::Expr kk) {
        auto read = [&](loom::Expr u, loom::Expr v) -> loom::Expr {
            return kk.defined() ? f(u, v, kk) : f(u, v);
        };
        loom::Expr near_x = px / 2, far_x = px / 2 - 1 + 2 * (px % 2);
        loom::Expr near_y = py / 2, far_y = py / 2 - 1 + 2 * (py % 2);
        auto row = [&](loom::Expr v) -> loom::Expr {
            return 0.75f * read(near_x, v) + 0.25f * read(far_x, v);
        };
        return 0.75f * row(near_y) + 0.25f * row(far_y);
    }
};

#endif
