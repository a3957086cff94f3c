// GPU schedules run on the GPU API of LOOM_GPU_TEST_API (OpenCL on PoCL in
// CI, CUDA on a GPU machine: gpu_test_util.h), each output compared
// with plain C++: gpu_tile in 1, 2 and 3 dimensions on ragged sizes, block-
// and thread-level producers (shared and private memory), vectorized
// threads, gpu_lanes, gpu_single_thread, specialize, boundary conditions and
// different block/thread dimensionality in one pipeline.

#include <catch2/catch.hpp>

#include "Loom.h"
#include "gpu/gpu_test_util.h"

using namespace loom;
using gpu_test::check_1d;
using gpu_test::check_2d;
using gpu_test::gpu_target;

namespace {

Buffer<int> ramp_input(int w, int h) {
    Buffer<int> in(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) in(x, y) = (x * 7 + y * 13 + (x * y) % 5) % 97;
    return in;
}

} // namespace

TEST_CASE("gpu_tile 1-D on a ragged size", "[gpu]") {
    Var x("x"), xo("xo"), xi("xi");
    Func f("f1d");
    f(x) = x * 3 + 1;
    for (TailStrategy tail : {TailStrategy::Auto, TailStrategy::GuardWithIf}) {
        Func g("g1d");
        g(x) = f(x) * 2 - x;
        g.gpu_tile(x, xo, xi, 64, tail);
        Buffer<int> out = g.realize({1000}, gpu_target());
        check_1d(out, [](int i) { return (i * 3 + 1) * 2 - i; });
    }
}

TEST_CASE("gpu_tile 2-D on ragged sizes, with and without the outer vars", "[gpu]") {
    Buffer<int> in = ramp_input(37, 23);
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    auto ref = [&](int i, int j) { return in(i, j) * 2 + i - j; };
    {
        Func f("tile2");
        f(x, y) = in(x, y) * 2 + x - y;
        f.gpu_tile(x, y, xo, yo, xi, yi, 8, 8, TailStrategy::GuardWithIf);
        Buffer<int> r = f.realize({37, 23}, gpu_target());
        check_2d(r, ref);
    }
    {
        Func f("tile2b");
        f(x, y) = in(x, y) * 2 + x - y;
        f.gpu_tile(x, y, xi, yi, 16, 4);
        Buffer<int> r = f.realize({37, 23}, gpu_target());
        check_2d(r, ref);
    }
}

TEST_CASE("gpu_tile 3-D", "[gpu]") {
    Var x("x"), y("y"), z("z"), xo("xo"), yo("yo"), zo("zo"), xi("xi"), yi("yi"), zi("zi");
    Func f("tile3");
    f(x, y, z) = x + y * 100 + z * 10000;
    f.gpu_tile(x, y, z, xo, yo, zo, xi, yi, zi, 4, 4, 2, TailStrategy::GuardWithIf);
    Buffer<int> out = f.realize({9, 7, 5}, gpu_target());
    for (int k = 0; k < 5; k++)
        for (int j = 0; j < 7; j++)
            for (int i = 0; i < 9; i++) REQUIRE(out(i, j, k) == i + j * 100 + k * 10000);
}

TEST_CASE("a producer staged in shared memory per block (blur)", "[gpu]") {
    Buffer<uint16_t> in(67, 45);
    for (int y = 0; y < 45; y++)
        for (int x = 0; x < 67; x++) in(x, y) = uint16_t((x * 31 + y * 17) % 1000);
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func bx("blur_x"), by("blur_y");
    bx(x, y) = (in(x, y) + in(x + 1, y) + in(x + 2, y)) / 3;
    by(x, y) = (bx(x, y) + bx(x, y + 1) + bx(x, y + 2)) / 3;
    by.gpu_tile(x, y, xo, yo, xi, yi, 16, 8, TailStrategy::GuardWithIf);
    bx.compute_at(by, xo).gpu_threads(x, y);
    Buffer<uint16_t> out = by.realize({65, 43}, gpu_target());
    auto bxr = [&](int i, int j) { return (in(i, j) + in(i + 1, j) + in(i + 2, j)) / 3; };
    check_2d(out, [&](int i, int j) { return (bxr(i, j) + bxr(i, j + 1) + bxr(i, j + 2)) / 3; });
}

TEST_CASE("transpose through shared memory", "[gpu]") {
    Buffer<float> in = Buffer<float>(50, 70);
    for (int y = 0; y < 70; y++)
        for (int x = 0; x < 50; x++) in(x, y) = float(x) * 0.5f + float(y);
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func tile("tile"), t("transpose");
    tile(x, y) = in(x, y);
    t(x, y) = tile(y, x);
    t.gpu_tile(x, y, xo, yo, xi, yi, 16, 16, TailStrategy::GuardWithIf);
    tile.compute_at(t, xo).gpu_threads(x, y);
    Buffer<float> out = t.realize({70, 50}, gpu_target());
    check_2d(out, [&](int i, int j) { return in(j, i); });
}

TEST_CASE("several producers share and reuse shared memory", "[gpu]") {
    Buffer<int> in = ramp_input(40, 30);
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func a("pa"), b("pb"), c("pc"), out("pout");
    a(x, y) = in(x, y) + 1;
    b(x, y) = a(x, y) + a(x + 1, y);
    c(x, y) = in(x, y) * 2;
    out(x, y) = b(x, y) + b(x, y + 1) + c(x, y);
    out.gpu_tile(x, y, xo, yo, xi, yi, 8, 8, TailStrategy::GuardWithIf);
    a.compute_at(out, xo).gpu_threads(x, y);
    b.compute_at(out, xo).gpu_threads(x, y);
    c.compute_at(out, xo).gpu_threads(x, y);
    Buffer<int> r = out.realize({38, 28}, gpu_target());
    auto ar = [&](int i, int j) { return in(i, j) + 1; };
    auto br = [&](int i, int j) { return ar(i, j) + ar(i + 1, j); };
    check_2d(r, [&](int i, int j) { return br(i, j) + br(i, j + 1) + in(i, j) * 2; });
}

TEST_CASE("tile sizes from a Param: dynamic block and shared sizes", "[gpu]") {
    Buffer<int> in = ramp_input(50, 40);
    Param<int> tile("tile_size");
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func p("dyn_p"), out("dyn_out");
    p(x, y) = in(x, y) * 3;
    out(x, y) = p(x, y) + p(x + 1, y + 1);
    out.gpu_tile(x, y, xo, yo, xi, yi, tile, tile, TailStrategy::GuardWithIf);
    p.compute_at(out, xo).gpu_threads(x, y);
    for (int t : {4, 8, 16}) {
        tile.set(t);
        Buffer<int> r = out.realize({48, 38}, gpu_target());
        check_2d(r, [&](int i, int j) { return in(i, j) * 3 + in(i + 1, j + 1) * 3; });
    }
}

TEST_CASE("per-thread producers in private memory", "[gpu]") {
    Buffer<int> in = ramp_input(33, 21);
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi"), c("c");
    Func p("per_thread"), out("pt_out");
    p(x, y, c) = in(x, y) + c;
    out(x, y) = p(x, y, 0) * p(x, y, 1) + p(x, y, 2);
    out.gpu_tile(x, y, xo, yo, xi, yi, 8, 4, TailStrategy::GuardWithIf);
    p.compute_at(out, xi).bound(c, 0, 3).unroll(c);
    Buffer<int> r = out.realize({33, 21}, gpu_target());
    check_2d(r, [&](int i, int j) { return in(i, j) * (in(i, j) + 1) + in(i, j) + 2; });
}

TEST_CASE("vectorize inside GPU threads", "[gpu]") {
    Buffer<float> in(64, 16);
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 64; x++) in(x, y) = float(x - y) * 0.25f;
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi"), xv("xv");
    Func f("vec_f");
    f(x, y) = in(x, y) * 2.0f + 1.0f;
    f.gpu_tile(x, y, xo, yo, xi, yi, 32, 4).vectorize(xi, 4);
    Buffer<float> r = f.realize({64, 16}, gpu_target());
    check_2d(r, [&](int i, int j) { return in(i, j) * 2.0f + 1.0f; });
}

TEST_CASE("gpu_single_thread runs a scan in one thread", "[gpu]") {
    Buffer<int> in(100);
    for (int i = 0; i < 100; i++) in(i) = (i * 7) % 11;
    Var x("x");
    RDom r(1, 99);
    Func scan("scan");
    scan(x) = in(x);
    scan(r) = scan(r - 1) + in(r);
    scan.gpu_single_thread();
    scan.update().gpu_single_thread();
    Buffer<int> out = scan.realize({100}, gpu_target());
    check_1d(out, [&](int i) {
        int s = 0;
        for (int k = 0; k <= i; k++) s += in(k);
        return s;
    });
}

TEST_CASE("specialize chooses between GPU schedules", "[gpu]") {
    Param<bool> wide("wide");
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func f("spec");
    f(x, y) = x * 2 + y;
    f.specialize(wide).gpu_tile(x, y, xo, yo, xi, yi, 32, 2, TailStrategy::GuardWithIf);
    f.gpu_tile(x, y, xo, yo, xi, yi, 4, 4, TailStrategy::GuardWithIf);
    for (bool w : {false, true}) {
        wide.set(w);
        Buffer<int> r = f.realize({45, 9}, gpu_target());
        check_2d(r, [](int i, int j) { return i * 2 + j; });
    }
}

TEST_CASE("boundary conditions staged in shared memory", "[gpu]") {
    Buffer<int> in = ramp_input(20, 15);
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func staged("staged"), out("bc_out");
    staged(x, y) = clamped(x, y);
    out(x, y) = staged(x - 1, y) + staged(x + 1, y) + staged(x, y - 1) + staged(x, y + 1);
    out.gpu_tile(x, y, xo, yo, xi, yi, 8, 8, TailStrategy::GuardWithIf);
    staged.compute_at(out, xo).gpu_threads(x, y);
    Buffer<int> r = out.realize({20, 15}, gpu_target());
    auto c = [&](int i, int j) {
        return in(std::min(std::max(i, 0), 19), std::min(std::max(j, 0), 14));
    };
    check_2d(r,
             [&](int i, int j) { return c(i - 1, j) + c(i + 1, j) + c(i, j - 1) + c(i, j + 1); });
}

TEST_CASE("different block and thread dimensionality in one pipeline", "[gpu]") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func a("dims_a"), b("dims_b");
    a(x, y) = x + y * 3;
    b(x, y) = a(x, y) * 2 + a(x + 1, y);
    a.compute_root().gpu_tile(x, xo, xi, 32, TailStrategy::GuardWithIf);
    b.gpu_tile(x, y, xo, yo, xi, yi, 4, 4, TailStrategy::GuardWithIf);
    Buffer<int> r = b.realize({30, 10}, gpu_target());
    check_2d(r, [](int i, int j) { return (i + j * 3) * 2 + (i + 1 + j * 3); });
}

TEST_CASE("gpu_lanes run as the innermost thread dimension", "[gpu]") {
    Var x("x"), xo("xo"), xi("xi");
    Func f("lanes");
    f(x) = x * x;
    f.split(x, xo, xi, 8, TailStrategy::GuardWithIf).gpu_blocks(xo).gpu_lanes(xi);
    Buffer<int> r = f.realize({50}, gpu_target());
    check_1d(r, [](int i) { return i * i; });
}

TEST_CASE("a stage with fewer thread dimensions than its block runs once", "[gpu]") {
    Buffer<int> in = ramp_input(20, 12);
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func p("one_d_p"), out("one_d_out");
    p(x, y) = in(x, y);
    p(x, y) += 5; // applied once per element, whatever the block's y threads
    out(x, y) = p(x, y) * 2;
    out.gpu_tile(x, y, xo, yo, xi, yi, 8, 4, TailStrategy::GuardWithIf);
    p.compute_at(out, xo).gpu_threads(x);
    p.update().gpu_threads(x);
    Buffer<int> r = out.realize({20, 12}, gpu_target());
    check_2d(r, [&](int i, int j) { return (in(i, j) + 5) * 2; });
}
