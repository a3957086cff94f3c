// Lesson 5: vectorize, parallelize, unroll and tile your code.
//
// A Func's algorithm says *what* each pixel is; its schedule says *how* the
// loops that compute it run. Every schedule below computes the same values:
// each section realizes the Func, checks it against plain C++, and prints
// the loop nest that the schedule produced.

#include <Loom.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

bool ok = true;

/** Realize f over w x h, compare with x + y, and look for the expected
 * loops, outermost first. */
void run(loom::Func f, int w, int h, const std::vector<std::string> &loops) {
    std::printf("==== %s: %d x %d\n", f.name().c_str(), w, h);
    std::string nest = loom::Pipeline(f).loop_nest();
    std::printf("%s", nest.c_str());
    size_t at = 0;
    for (const std::string &l : loops) {
        at = nest.find(l, at);
        if (at == std::string::npos) {
            std::printf("Expected the loop nest to contain \"%s\" (in this order)\n", l.c_str());
            ok = false;
            return;
        }
    }
    loom::Buffer<int> out = f.realize({w, h});
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            if (out(x, y) != x + y) {
                std::printf("%s(%d, %d) = %d instead of %d\n", f.name().c_str(), x, y, out(x, y),
                            x + y);
                ok = false;
                return;
            }
        }
    }
}

} // namespace

int main() {
    loom::Var x("x"), y("y");

    // By default the loops run over the arguments with the first innermost:
    // for y, for x (row-major traversal).
    {
        loom::Func gradient("gradient");
        gradient(x, y) = x + y;
        run(gradient, 4, 4, {"for y:", "for x:"});
    }

    // reorder lists the loops innermost first: y innermost, a column-major walk.
    {
        loom::Func gradient("gradient_col_major");
        gradient(x, y) = x + y;
        gradient.reorder(y, x);
        run(gradient, 4, 4, {"for x:", "for y:"});
    }

    // split turns one loop into two: x = x_outer * 2 + x_inner. The new loops
    // are named after their origin, x.x_outer and x.x_inner.
    {
        loom::Func gradient("gradient_split");
        gradient(x, y) = x + y;
        loom::Var x_outer("x_outer"), x_inner("x_inner");
        gradient.split(x, x_outer, x_inner, 2);
        run(gradient, 4, 4, {"for x.x_outer:", "for x.x_inner:"});
    }

    // fuse joins two loops into one that runs over their product.
    {
        loom::Func gradient("gradient_fused");
        gradient(x, y) = x + y;
        loom::Var fused("fused");
        gradient.fuse(x, y, fused);
        run(gradient, 4, 4, {"for x.fused:"});
    }

    // tile splits x and y and orders the loops y_outer, x_outer, y_inner,
    // x_inner: the image is walked in 4x4 tiles.
    {
        loom::Func gradient("gradient_tiled");
        gradient(x, y) = x + y;
        loom::Var x_outer("x_outer"), y_outer("y_outer"), x_inner("x_inner"), y_inner("y_inner");
        gradient.tile(x, y, x_outer, y_outer, x_inner, y_inner, 4, 4);
        run(gradient, 8, 8,
            {"for y.y_outer:", "for x.x_outer:", "for y.y_inner:", "for x.x_inner:"});
    }

    // vectorize computes the inner loop's iterations at once in SIMD lanes.
    // Its extent must be a constant, so split first (or use vectorize(x, 4),
    // which does both).
    {
        loom::Func gradient("gradient_in_vectors");
        gradient(x, y) = x + y;
        loom::Var x_outer("x_outer"), x_inner("x_inner");
        gradient.split(x, x_outer, x_inner, 4).vectorize(x_inner);
        run(gradient, 8, 4, {"vectorized x.x_inner in [0, 3]:"});
    }

    // unroll repeats the loop body instead of looping.
    {
        loom::Func gradient("gradient_unroll");
        gradient(x, y) = x + y;
        loom::Var x_outer("x_outer"), x_inner("x_inner");
        gradient.split(x, x_outer, x_inner, 2).unroll(x_inner);
        run(gradient, 4, 4, {"unrolled x.x_inner in [0, 1]:"});
    }

    // A factor that does not divide the extent: 7 = 3 + 3 + 1. By default
    // (TailStrategy::Auto, which is ShiftInwards for a pure definition) the
    // last iteration of x_outer shifts back to start at 4, so x = 4, 5, 6:
    // x = 4 is computed twice, which is harmless for a pure Func, and nothing
    // is computed outside [0, 7). GuardWithIf would skip the extra points
    // instead, and RoundUp would compute up to 9 (the output must then be a
    // multiple of 3 wide).
    {
        loom::Func gradient("gradient_split_7x2");
        gradient(x, y) = x + y;
        loom::Var x_outer("x_outer"), x_inner("x_inner");
        gradient.split(x, x_outer, x_inner, 3);
        run(gradient, 7, 2, {"for x.x_outer:", "for x.x_inner:"});

        loom::Func guarded("gradient_split_guarded");
        guarded(x, y) = x + y;
        guarded.split(x, x_outer, x_inner, 3, loom::TailStrategy::GuardWithIf);
        run(guarded, 7, 2, {"for x.x_inner:"});
    }

    // Fuse the tile loops into one and run the tiles in parallel: each tile
    // is a task for the thread pool.
    {
        loom::Func gradient("gradient_fused_tiles");
        gradient(x, y) = x + y;
        loom::Var x_outer("x_outer"), y_outer("y_outer"), x_inner("x_inner"), y_inner("y_inner"),
            tile_index("tile_index");
        gradient.tile(x, y, x_outer, y_outer, x_inner, y_inner, 4, 4)
            .fuse(x_outer, y_outer, tile_index)
            .parallel(tile_index);
        run(gradient, 8, 8, {"parallel x.x_outer.tile_index:"});
    }

    // All together: parallel 64x64 tiles, each computed in vectors of 4 x
    // values with the inner y loop unrolled by 2, on a size that no factor
    // divides.
    {
        loom::Func gradient("gradient_fast");
        gradient(x, y) = x + y;
        loom::Var x_outer("x_outer"), y_outer("y_outer"), x_inner("x_inner"), y_inner("y_inner"),
            tile_index("tile_index");
        gradient.tile(x, y, x_outer, y_outer, x_inner, y_inner, 64, 64)
            .fuse(x_outer, y_outer, tile_index)
            .parallel(tile_index);
        loom::Var x_inner_outer("x_inner_outer"), y_inner_outer("y_inner_outer"),
            x_vectors("x_vectors"), y_pairs("y_pairs");
        gradient.tile(x_inner, y_inner, x_inner_outer, y_inner_outer, x_vectors, y_pairs, 4, 2)
            .vectorize(x_vectors)
            .unroll(y_pairs);
        run(gradient, 350, 250,
            {"parallel x.x_outer.tile_index:", "unrolled y.y_inner.y_pairs in [0, 1]:",
             "vectorized x.x_inner.x_vectors in [0, 3]:"});
    }

    if (!ok) return 1;
    std::printf("Success!\n");
    return 0;
}
