// Boundary conditions over Buffers, ImageParams and Funcs, compared with the
// index mapping computed in plain C++.

#include <catch2/catch.hpp>

#include <algorithm>

#include "Loom.h"

using namespace loom;

namespace {

constexpr int W = 7, H = 5;

Buffer<int> make_input() {
    Buffer<int> in(W, H);
    in.set_name("bc_input");
    in.set_min(2, -1);
    in.for_each_element([&](const std::vector<int> &p) { in(p) = p[0] * 100 + p[1] * 7 + 3; });
    return in;
}

int euclid_mod(int a, int b) {
    int r = a % b;
    return r < 0 ? r + b : r;
}

int clamp_coord(int x, int m, int e) {
    return std::min(std::max(x, m), m + e - 1);
}
int repeat_coord(int x, int m, int e) {
    return m + euclid_mod(x - m, e);
}
int mirror_coord(int x, int m, int e) {
    int t = euclid_mod(x - m, 2 * e);
    return m + (t < e ? t : 2 * e - 1 - t);
}
int mirror_interior_coord(int x, int m, int e) {
    if (e == 1) return m;
    int p = 2 * e - 2;
    int t = euclid_mod(x - m, p);
    return m + (t < e ? t : p - t);
}

/** Realize f over a window larger than the input and compare with ref(x, y). */
template <typename Ref> void check_over_window(Func f, Ref ref) {
    Buffer<int> out(W + 20, H + 12);
    out.set_min(2 - 10, -1 - 6);
    f.realize(out);
    out.for_each_element([&](const std::vector<int> &p) {
        int expected = ref(p[0], p[1]);
        if (out(p) != expected)
            FAIL_CHECK("at (" << p[0] << ", " << p[1] << "): expected " << expected << ", got "
                              << out(p));
    });
}

int value_at(const Buffer<int> &in, int x, int y) {
    return in(x, y);
}

} // namespace

TEST_CASE("repeat_edge on a Buffer", "[correctness][boundary]") {
    Buffer<int> in = make_input();
    Func f = BoundaryConditions::repeat_edge(in);
    check_over_window(
        f, [&](int x, int y) { return value_at(in, clamp_coord(x, 2, W), clamp_coord(y, -1, H)); });
}

TEST_CASE("constant_exterior on a Buffer", "[correctness][boundary]") {
    Buffer<int> in = make_input();
    Func f = BoundaryConditions::constant_exterior(in, -42);
    check_over_window(f, [&](int x, int y) {
        bool inside = x >= 2 && x < 2 + W && y >= -1 && y < -1 + H;
        return inside ? value_at(in, x, y) : -42;
    });
}

TEST_CASE("repeat_image on a Buffer", "[correctness][boundary]") {
    Buffer<int> in = make_input();
    Func f = BoundaryConditions::repeat_image(in);
    check_over_window(f, [&](int x, int y) {
        return value_at(in, repeat_coord(x, 2, W), repeat_coord(y, -1, H));
    });
}

TEST_CASE("mirror_image on a Buffer", "[correctness][boundary]") {
    Buffer<int> in = make_input();
    Func f = BoundaryConditions::mirror_image(in);
    check_over_window(f, [&](int x, int y) {
        return value_at(in, mirror_coord(x, 2, W), mirror_coord(y, -1, H));
    });
}

TEST_CASE("mirror_interior on a Buffer", "[correctness][boundary]") {
    Buffer<int> in = make_input();
    Func f = BoundaryConditions::mirror_interior(in);
    check_over_window(f, [&](int x, int y) {
        return value_at(in, mirror_interior_coord(x, 2, W), mirror_interior_coord(y, -1, H));
    });
}

TEST_CASE("boundary conditions on an ImageParam use the bound buffer's shape",
          "[correctness][boundary]") {
    Buffer<int> in = make_input();
    ImageParam p(Int(32), 2, "bc_param");
    p.set(in);
    Func f = BoundaryConditions::mirror_image(p);
    check_over_window(f, [&](int x, int y) {
        return value_at(in, mirror_coord(x, 2, W), mirror_coord(y, -1, H));
    });
}

TEST_CASE("boundary conditions on a Func with explicit bounds", "[correctness][boundary]") {
    Var x("x"), y("y");
    Func g("bc_source");
    g(x, y) = x * 10 + y;
    // Only the first dimension is bounded; the second passes through.
    Func f = BoundaryConditions::repeat_edge(g, {{0, 4}, {Expr(), Expr()}});
    check_over_window(f, [&](int x, int y) { return clamp_coord(x, 0, 4) * 10 + y; });

    Func c = BoundaryConditions::constant_exterior(g, 5, {{1, 3}, {0, 2}});
    check_over_window(
        c, [&](int x, int y) { return (x >= 1 && x < 4 && y >= 0 && y < 2) ? x * 10 + y : 5; });
}

TEST_CASE("boundary conditions with explicit bounds on a Buffer", "[correctness][boundary]") {
    Buffer<int> in = make_input();
    Func f = BoundaryConditions::repeat_image(in, {{3, 4}, {0, 2}});
    check_over_window(f, [&](int x, int y) {
        return value_at(in, repeat_coord(x, 3, 4), repeat_coord(y, 0, 2));
    });
}

TEST_CASE("boundary condition errors name the Func", "[correctness][boundary][error]") {
    Var x("x");
    Func g("bc_one_dim");
    g(x) = x;
    CHECK_THROWS_WITH(BoundaryConditions::repeat_edge(g, {{0, 4}, {0, 4}}),
                      Catch::Contains("bc_one_dim"));
    Func undefined("bc_undefined");
    CHECK_THROWS_WITH(BoundaryConditions::repeat_edge(undefined, {{0, 4}}),
                      Catch::Contains("bc_undefined"));
}
