// Schedules that Halide accepts and that once failed or misbehaved in Loom:
// unroll/vectorize without a factor on loops made constant by bound() or by
// compute_at, and storage folding of a sliding window below an inner loop.

#include <catch2/catch.hpp>

#include "Loom.h"

using namespace loom;

TEST_CASE("unroll without a factor on a loop bounded by bound()", "[correctness][schedule]") {
    Func f("f");
    Var x("x"), y("y"), c("c");
    f(x, y, c) = x + y * 10 + c * 100;
    f.bound(c, 0, 3).reorder(c, x, y).unroll(c);
    Buffer<int> out = f.realize({5, 4, 3});
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 5; i++) REQUIRE(out(i, j, k) == i + j * 10 + k * 100);
}

TEST_CASE("vectorize without a factor on a loop bounded by bound()", "[correctness][schedule]") {
    Func f("f");
    Var x("x"), y("y");
    f(x, y) = x * 3 + y;
    f.bound(x, 0, 8).vectorize(x);
    Buffer<int> out = f.realize({8, 5});
    for (int j = 0; j < 5; j++)
        for (int i = 0; i < 8; i++) REQUIRE(out(i, j) == i * 3 + j);
}

TEST_CASE("unroll and vectorize without a factor inside a compute_at region",
          "[correctness][schedule]") {
    Buffer<int> in(23, 11);
    for (int j = 0; j < 11; j++)
        for (int i = 0; i < 23; i++) in(i, j) = (i * 7 + j * 13) % 31;
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func p("p"), q("q"), out("out");
    p(x, y) = clamped(x, y) * 2 + clamped(x + 1, y);
    q(x, y) = clamped(x, y) - y;
    out(x, y) = p(x - 1, y) + p(x, y) + p(x + 1, y) + q(x, y) + q(x, y + 1);
    out.split(x, xo, xi, 8);
    // One iteration of out's xi loop needs a 3x1 region of p and a 1x2
    // region of q: constant extents only after bounds inference.
    p.compute_at(out, xi).unroll(x);
    q.compute_at(out, xi).unroll(y).vectorize(x);
    Buffer<int> r = out.realize({21, 9});
    auto P = [&](int i, int j) {
        auto c = [&](int a, int b) {
            return in(std::min(std::max(a, 0), 22), std::min(std::max(b, 0), 10));
        };
        return c(i, j) * 2 + c(i + 1, j);
    };
    auto Q = [&](int i, int j) {
        return in(std::min(std::max(i, 0), 22), std::min(std::max(j, 0), 10)) - j;
    };
    for (int j = 0; j < 9; j++)
        for (int i = 0; i < 21; i++)
            REQUIRE(r(i, j) == P(i - 1, j) + P(i, j) + P(i + 1, j) + Q(i, j) + Q(i, j + 1));
}

TEST_CASE("unroll without a factor on an inner tile of a compute_at producer",
          "[correctness][schedule]") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func p("p"), out("out");
    p(x, y) = x * y + 1;
    out(x, y) = p(x, y) + p(x + 1, y + 1);
    out.tile(x, y, xo, yo, xi, yi, 4, 3);
    p.compute_at(out, xo).unroll(x).unroll(y);
    Buffer<int> r = out.realize({10, 7});
    for (int j = 0; j < 7; j++)
        for (int i = 0; i < 10; i++) REQUIRE(r(i, j) == i * j + 1 + (i + 1) * (j + 1) + 1);
}

TEST_CASE("a Func split by 2 at each slice of a reduction reads only its input",
          "[correctness][schedule]") {
    // The slice of `in` staged per ko has ends that vary with ko (clamped to
    // the last one); its producer's ShiftInwards split offsets the loop by
    // x.min + min(2 * x.x, extent - 2). Bounds of that taken term by term
    // once made the region of `in` read wider than the buffer ("accessed at
    // -2 to 95" for 64 values).
    const int K = 64;
    Buffer<int> in(K, 4);
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < K; i++) in(i, j) = i * 3 + j;
    Func staged("staged"), sum("sum");
    Var x("x"), y("y"), xa("xa");
    RDom k(0, K, "k");
    RVar ko("ko"), ki("ki");
    staged(x, y) = in(x, y);
    sum(y) = 0;
    sum(y) += staged(k, y);
    sum.update().split(k, ko, ki, 32);
    staged.compute_at(sum, ko).split(x, x, xa, 2).unroll(xa);
    Buffer<int> out = sum.realize({4});
    for (int j = 0; j < 4; j++) {
        int expected = 0;
        for (int i = 0; i < K; i++) expected += in(i, j);
        REQUIRE(out(j) == expected);
    }
}
