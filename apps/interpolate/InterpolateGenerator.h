#ifndef LOOM_APPS_INTERPOLATE_GENERATOR_H
#define LOOM_APPS_INTERPOLATE_GENERATOR_H

// Multi-scale interpolation of a planar float RGBA image: pixels with alpha
// 0 are holes, filled smoothly from the pixels around them. The colours
// are premultiplied by alpha and halved repeatedly ([1 2 1] / 4 in x, then
// in y, every other pixel kept) into a pyramid; from the coarsest level
// down, each level is composited over the one above it upsampled by
// linear interpolation (the level's own alpha says how much of it shows);
// the finest level, divided by its alpha, is the output (RGB).
//
// Level l is ceil(size / 2^l) pixels wide and high, and every level
// repeats its own edge.

#include <vector>

// perf_apps' Halide side includes this header with Halide's names (apps/bench).
#ifndef LOOM_APP_HALIDE_SIDE
#include "Loom.h"
#endif

class InterpolateGenerator : public loom::Generator<InterpolateGenerator> {
public:
    /** Pyramid levels, the input included. */
    GeneratorParam<int> levels{"levels", 10, 2, 16};
    /** Rows per parallel task of each level. */
    GeneratorParam<int> rows_per_task{"rows_per_task", 16, 1, 1024};
    GeneratorParam<int> vector_width{"vector_width", 16, 1, 64};

    Input<loom::Buffer<float, 3>> input{"input"};
    Output<loom::Buffer<float, 3>> output{"output"};

    loom::Var x{"x"}, y{"y"}, c{"c"}, yo{"yo"}, yi{"yi"};
    /** downsampled[l] and interpolated[l]: level l of each pyramid;
     * down_x[l]: level l - 1 halved in x only. */
    std::vector<loom::Func> downsampled, down_x, interpolated;
    /** The size of each level. */
    std::vector<loom::Expr> width, height;

    void generate() {
        using loom::Expr;
        using loom::Func;
        namespace BC = loom::BoundaryConditions;
        const int n = levels;
        width.assign(size_t(n), Expr());
        height.assign(size_t(n), Expr());
        width[0] = input.width();
        height[0] = input.height();
        for (size_t l = 1; l < size_t(n); l++) {
            width[l] = (width[l - 1] + 1) / 2;
            height[l] = (height[l - 1] + 1) / 2;
        }
        auto level_bounds = [&](int l) {
            return BC::Region{{0, width[size_t(l)]}, {0, height[size_t(l)]}, {Expr(), Expr()}};
        };

        Func clamped = BC::repeat_edge(input);
        Func premultiplied("downsampled_0");
        premultiplied(x, y, c) = clamped(x, y, c) * loom::select(c == 3, 1.0f, clamped(x, y, 3));
        downsampled.push_back(premultiplied);
        down_x.push_back(Func()); // level 0 has no halving
        for (int l = 1; l < n; l++) {
            Func prev = l == 1 ? premultiplied
                               : BC::repeat_edge(downsampled[size_t(l - 1)], level_bounds(l - 1));
            Func dx("down_x_" + std::to_string(l)), d("downsampled_" + std::to_string(l));
            dx(x, y, c) =
                (prev(2 * x - 1, y, c) + 2.0f * prev(2 * x, y, c) + prev(2 * x + 1, y, c)) * 0.25f;
            d(x, y, c) =
                (dx(x, 2 * y - 1, c) + 2.0f * dx(x, 2 * y, c) + dx(x, 2 * y + 1, c)) * 0.25f;
            down_x.push_back(dx);
            downsampled.push_back(d);
        }

        interpolated.resize(size_t(n));
        interpolated[size_t(n - 1)] = downsampled[size_t(n - 1)];
        for (int l = n - 2; l >= 0; l--) {
            Func coarse = BC::repeat_edge(interpolated[size_t(l + 1)], level_bounds(l + 1));
            Func up_x("up_x_" + std::to_string(l)), up("up_" + std::to_string(l));
            up_x(x, y, c) = (coarse(x / 2, y, c) + coarse((x + 1) / 2, y, c)) * 0.5f;
            up(x, y, c) = (up_x(x, y / 2, c) + up_x(x, (y + 1) / 2, c)) * 0.5f;
            Func f("interpolated_" + std::to_string(l));
            // (Through its edge too: the composite's vectors may run past
            // the level's width.)
            Func d =
                l == 0 ? downsampled[0] : BC::repeat_edge(downsampled[size_t(l)], level_bounds(l));
            f(x, y, c) = d(x, y, c) + (1.0f - d(x, y, 3)) * up(x, y, c);
            interpolated[size_t(l)] = f;
        }
        output(x, y, c) = interpolated[0](x, y, c) / interpolated[0](x, y, 3);
    }

    void schedule() {
        // The benchmark's sizes, for auto-schedulers (set here so that the
        // algorithm in generate() stays free of them).
        input.set_estimates({{0, 3001}, {0, 2003}, {0, 4}});
        output.set_estimates({{0, 3001}, {0, 2003}, {0, 3}});
        // Every level is read through its boundary condition, so only its
        // own size is ever needed: saying so keeps bounds inference from
        // deriving each level's region from the levels that read it (in
        // Loom those expressions grow exponentially with the number of
        // levels: see docs/apps.md).
        // Halide 14 (perf_apps' Halide side) rejects a bound() that a tail
        // computes past (a RoundUp vector in x; in y, a strip of rows
        // shifted inwards on a level shorter than the strip), where Loom
        // computes past it; Halide needs no such bounds, so that side
        // leaves them out.
#ifdef LOOM_APP_HALIDE_SIDE
        const bool bound_sizes = false;
#else
        const bool bound_sizes = true;
#endif
        for (size_t l = 1; l < size_t(int(levels)); l++) {
            for (loom::Func f : {downsampled[l], interpolated[l]}) {
                if (bound_sizes) f.bound(x, 0, width[l]).bound(y, 0, height[l]);
                f.bound(c, 0, 4);
            }
        }
        if (using_autoscheduler()) return;
        // Every level of both pyramids below the finest is a whole-level
        // pass, parallel over strips of rows and vectorized along x; a
        // level's halving in x is computed per strip (the rows its halving
        // in y reads), the upsampling inlined into the composite. The
        // finest composite is computed per strip of output rows, then
        // divided. Each stage computes the four channels of a vector of x
        // together (c innermost, unrolled): they share the alpha channel's
        // loads and every index (Zen 5: 14.4 -> 12.2 ms). Intermediate
        // levels round their vectors up (see docs/apps.md on chains of
        // vectorized stages).
        const loom::TailStrategy round_up = loom::TailStrategy::RoundUp;
        const int n = levels;
        for (int l = 1; l < n; l++) {
            downsampled[size_t(l)]
                .compute_root()
                .split(y, yo, yi, rows_per_task)
                .reorder(c, x, yi, yo)
                .parallel(yo)
                .vectorize(x, vector_width, round_up)
                .unroll(c);
            down_x[size_t(l)]
                .compute_at(downsampled[size_t(l)], yo)
                .reorder(c, x, y)
                .vectorize(x, vector_width, round_up)
                .unroll(c);
        }
        for (int l = 1; l < n - 1; l++)
            interpolated[size_t(l)]
                .compute_root()
                .split(y, yo, yi, rows_per_task)
                .reorder(c, x, yi, yo)
                .parallel(yo)
                .vectorize(x, vector_width, round_up)
                .unroll(c);
        output.bound(c, 0, 3)
            .split(y, yo, yi, rows_per_task)
            .reorder(x, yi, c, yo)
            .parallel(yo)
            .vectorize(x, vector_width);
        interpolated[0]
            .compute_at(output, yo)
            .reorder(c, x, y)
            .vectorize(x, vector_width, round_up)
            .unroll(c);
    }
};

#endif
