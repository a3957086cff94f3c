// BoundaryConditions with Tuple values (Funcs of several values) and with
// Buffer and ImageParam sources given explicit bounds, in Halide's overloads,
// compared with the same rule written in plain C++.

#include "Loom.h"
namespace Halide = loom;

#include <catch2/catch.hpp>

#include <algorithm>

using namespace Halide;
using Catch::Matchers::Contains;

namespace {

bool inside(int v, int min, int extent) {
    return v >= min && v < min + extent;
}

} // namespace

TEST_CASE("compat boundary tuples: constant_exterior of a Tuple-valued Func",
          "[compat][boundary_tuples]") {
    Func f("f");
    Var x("x"), y("y");
    f(x, y) = Tuple(x + y * 10, cast<float>(x) * 0.5f);
    Func a = BoundaryConditions::constant_exterior(f, Tuple(-1, 2.5f), {{0, 4}, {0, 3}});
    Func b = BoundaryConditions::constant_exterior(f, Tuple(7, 1.0f), 1, 2, Expr(), Expr());
    Func out("out");
    out(x, y) = Tuple(a(x, y)[0] + b(x, y)[0], a(x, y)[1] + b(x, y)[1]);
    // Realize over a shifted window so that both sides of the bounds show.
    Buffer<int> s0(10, 7);
    Buffer<float> s1(10, 7);
    s0.set_min(-3, -2);
    s1.set_min(-3, -2);
    out.realize(Realization({s0, s1}));
    for (int j = -2; j < 5; j++) {
        for (int i = -3; i < 7; i++) {
            bool in_a = inside(i, 0, 4) && inside(j, 0, 3);
            bool in_b = inside(i, 1, 2); // y unbounded
            int e0 = (in_a ? i + j * 10 : -1) + (in_b ? i + j * 10 : 7);
            float e1 = (in_a ? i * 0.5f : 2.5f) + (in_b ? i * 0.5f : 1.0f);
            CHECK(s0(i, j) == e0);
            CHECK(s1(i, j) == e1);
        }
    }
}

TEST_CASE("compat boundary tuples: repeat_edge and mirror_image of a Tuple-valued Func",
          "[compat][boundary_tuples]") {
    Func f("f");
    Var x("x");
    f(x) = Tuple(x * 3, cast<uint8_t>(x + 100));
    Func e = BoundaryConditions::repeat_edge(f, {{2, 5}});
    Func m = BoundaryConditions::mirror_image(f, 2, 5);
    Buffer<int> e0(16), m0(16);
    Buffer<uint8_t> e1(16), m1(16);
    e0.set_min(-4);
    e1.set_min(-4);
    m0.set_min(-4);
    m1.set_min(-4);
    e.realize(Realization({e0, e1}));
    m.realize(Realization({m0, m1}));
    for (int i = -4; i < 12; i++) {
        int c = std::min(std::max(i, 2), 6);
        CHECK(e0(i) == c * 3);
        CHECK(e1(i) == uint8_t(c + 100));
        int t = ((i - 2) % 10 + 10) % 10;
        int mirrored = 2 + (t < 5 ? t : 9 - t);
        CHECK(m0(i) == mirrored * 3);
        CHECK(m1(i) == uint8_t(mirrored + 100));
    }
}

TEST_CASE("compat boundary tuples: Buffer and ImageParam sources with explicit bounds",
          "[compat][boundary_tuples]") {
    Buffer<int> in(8, 6);
    in.for_each_element([&](int i, int j) { in(i, j) = i * 100 + j; });
    Var x("x"), y("y");
    // Bounds inside the buffer's own: only that part is read.
    Func c = BoundaryConditions::constant_exterior(in, Tuple(-5), {{1, 4}, {2, 3}});
    Func d = BoundaryConditions::constant_exterior(in, 9, 2, 3, 0, 6);
    ImageParam im(Int(32), 2, "im");
    Func e = BoundaryConditions::repeat_edge(im, 1, 5, 1, 4);
    Func g = BoundaryConditions::constant_exterior(im, Tuple(11), {{0, 8}, {1, 2}});
    im.set(in);
    Buffer<int> co(12, 10), dout(12, 10), eo(12, 10), go(12, 10);
    for (Buffer<int> *b : {&co, &dout, &eo, &go}) b->set_min(-2, -2);
    c.realize(co);
    d.realize(dout);
    e.realize(eo);
    g.realize(go);
    for (int j = -2; j < 8; j++) {
        for (int i = -2; i < 10; i++) {
            CHECK(co(i, j) == (inside(i, 1, 4) && inside(j, 2, 3) ? in(i, j) : -5));
            CHECK(dout(i, j) == (inside(i, 2, 3) && inside(j, 0, 6) ? in(i, j) : 9));
            int ci = std::min(std::max(i, 1), 5), cj = std::min(std::max(j, 1), 4);
            CHECK(eo(i, j) == in(ci, cj));
            CHECK(go(i, j) == (inside(i, 0, 8) && inside(j, 1, 2) ? in(i, j) : 11));
        }
    }
}

TEST_CASE("compat boundary tuples: a value of the wrong size is an error naming the Func",
          "[compat][boundary_tuples]") {
    Func f("pair"), one("one");
    Var x("x");
    f(x) = Tuple(x, x * 2);
    one(x) = x;
    CHECK_THROWS_WITH(BoundaryConditions::constant_exterior(f, 0, {{0, 4}}),
                      Contains("constant_exterior of Func pair, which has 2 value(s), was given an "
                               "exterior value of 1 element(s)"));
    CHECK_THROWS_WITH(BoundaryConditions::constant_exterior(one, Tuple(1, 2, 3), 0, 4),
                      Contains("constant_exterior of Func one, which has 1 value(s)") &&
                          Contains("of 3 element(s)"));
    CHECK_THROWS_WITH(BoundaryConditions::constant_exterior(f, Tuple(1, 2), {{0, 4}, {0, 4}}),
                      Contains("was given bounds for 2 dimensions"));
}

TEST_CASE("compat boundary tuples: a Halide::Region for the bounds and for an RDom",
          "[compat][boundary_tuples]") {
    Buffer<int> in(6, 4);
    in.for_each_element([&](int i, int j) { in(i, j) = i * 7 + j; });
    Region bounds = {{1, 4}, Range(0, 3)};
    Func c = BoundaryConditions::constant_exterior(in, -1, bounds);
    Region domain;
    domain.push_back(Range(1, 4));
    domain.emplace_back(0, 3);
    RDom r(domain, "r");
    CHECK(r.x.name() == "r$x");
    Func total("total");
    total() = 0;
    total() += c(r.x, r.y) + c(r.x - 1, r.y + 1);
    Buffer<int> out = total.realize();
    int expected = 0;
    for (int j = 0; j < 3; j++) {
        for (int i = 1; i < 5; i++) {
            auto at = [&](int x, int y) {
                return inside(x, 1, 4) && inside(y, 0, 3) ? in(x, y) : -1;
            };
            expected += at(i, j) + at(i - 1, j + 1);
        }
    }
    CHECK(out() == expected);
}
