// Programs the pipeline fuzzer (test/fuzz, docs/guide/fuzzing.md) found
// wrong, reduced by hand; each compared with plain C++.

#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>

#include "Loom.h"

using namespace loom;

TEST_CASE("fuzz: a Func with an update read at a coordinate computed from itself",
          "[fuzz][reduction]") {
    // f is left inline but has an update, so it is computed at the
    // innermost loop of g; the region g needs depends on f's own values,
    // which do not exist yet there: the clamp bounds it instead (this was an
    // InternalError "call to Func f, which has no storage").
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = x + y;
    RDom r(1, 12);
    f(r, y) = f(r - 1, y) + y;
    g(x, y) = f(x, clamp(f(x, y), 2, 8));
    Buffer<int> out = g.realize({5, 4});

    // The scan adds j at x = 1..12 to f(0, j) = j.
    auto f_ref = [](int i, int j) { return i >= 0 && i <= 12 ? j + i * j : i + j; };
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 5; i++) {
            INFO("at (" << i << ", " << j << ")");
            CHECK(out(i, j) == f_ref(i, std::clamp(f_ref(i, j), 2, 8)));
        }
}

TEST_CASE("fuzz: a scheduled Func read only where an inlined Func ignores the read", "[fuzz]") {
    // g reads f only in a coordinate that the inlined h does not use, so no
    // use of f is left after inlining: f is not computed (this was an
    // InternalError "Func f is scheduled but never used").
    for (int placement = 0; placement < 3; placement++) {
        INFO("placement " << placement);
        Var x("x"), y("y");
        Func h("h"), f("f"), g("g");
        h(x, y) = 2 * y;
        f(x, y) = x + y;
        g(x, y) = h(f(x, y), y) + x;
        if (placement == 0) f.compute_at(g, y);
        if (placement == 1) f.compute_root();
        if (placement == 2) f.compute_at(g, x).store_root();
        Buffer<int> out = g.realize({6, 5});
        for (int j = 0; j < 5; j++)
            for (int i = 0; i < 6; i++) CHECK(out(i, j) == 2 * j + i);
    }
}

TEST_CASE("fuzz: a Func read at a coordinate computed from another Func computed at the same "
          "loop",
          "[fuzz][reduction]") {
    // a and b have updates, so left inline each is computed at the innermost
    // loop of c; b's region depends on a's values, which are computed after
    // b's region is needed (this was an InternalError "call to Func a, which
    // has no storage"). The clamp bounds the read instead.
    for (int schedule = 0; schedule < 3; schedule++) {
        INFO("schedule " << schedule);
        Var x("x"), y("y");
        Func a("a"), b("b"), c("c");
        a(x, y) = x - y;
        RDom ra(0, 3);
        a(x, y) = a(x, y) + ra;
        b(x, y) = x * 10 + y;
        RDom rb(3, 2);
        b(rb, y) = b(rb - 1, y) + 1;
        c(x, y) = b(clamp(a(y - 2, y), 0, 17), y);
        if (schedule == 1) b.compute_at(c, x);
        if (schedule == 2) a.compute_at(c, x);
        Buffer<int> out = c.realize({7, 5});

        auto a_ref = [](int i, int j) { return i - j + 3; }; // + 0 + 1 + 2
        auto b_ref = [](int i, int j) {
            if (i == 3) return 20 + j + 1;
            if (i == 4) return 20 + j + 2;
            return i * 10 + j;
        };
        for (int j = 0; j < 5; j++)
            for (int i = 0; i < 7; i++) {
                INFO("at (" << i << ", " << j << ")");
                CHECK(out(i, j) == b_ref(std::clamp(a_ref(j - 2, j), 0, 17), j));
            }
    }
}

TEST_CASE("fuzz: a clamped coordinate computed from an out-of-range float-to-int cast", "[fuzz]") {
    // cast<uint8_t> of a negative float has no defined value, but the clamp
    // around the coordinate must still hold: the LLVM backend's poison went
    // through the clamp and a 16-lane gather read far out of bounds.
    const int w = 15, h = 13;
    Buffer<float> in(w, h);
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) in(i, j) = float((i * 37 + j * 11) % 41) * 0.75f - 15.0f;
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func e = BoundaryConditions::repeat_edge(in);
    Func a("a"), b("b"), out("out");
    a(x, y) = clamp(e(x, clamp(cast<int>(e(x, y / 2 - 2)), 4, 6)), -8.75f, 6.0f);
    b(x, y) = a(x, clamp(cast<int>(cast<uint8_t>(a(x, y / 2 + 1))), 0, 18));
    out(x, y) = cast<int>(b(x, y));
    b.split(y, yo, yi, 2, TailStrategy::RoundUp).vectorize(yo, 16, TailStrategy::RoundUp);
    b.compute_root();
    Buffer<int> result(19, 19);
    result.set_min({-6, 7});
    out.realize(result);

    auto at = [&](int i, int j) { return in(std::clamp(i, 0, w - 1), std::clamp(j, 0, h - 1)); };
    auto a_ref = [&](int i, int j) {
        int row = std::clamp(int(at(i, j / 2 - 2 - (j % 2 != 0 && j < 0))), 4, 6);
        return std::clamp(at(i, row), -8.75f, 6.0f);
    };
    // Only where the cast to uint8 is in range is the value defined.
    int checked = 0;
    for (int j = 7; j < 26; j++)
        for (int i = -6; i < 13; i++) {
            float v = a_ref(i, (j >= 0 ? j / 2 : (j - 1) / 2) + 1);
            if (v <= -1.0f) continue;
            int row = std::clamp(int(uint8_t(v)), 0, 18);
            INFO("at (" << i << ", " << j << ")");
            CHECK(result(i, j) == int(a_ref(i, row)));
            checked++;
        }
    CHECK(checked > 50);
}

// Each read through an inlined boundary condition uses its coordinates
// several times, so a chain of reads whose coordinates come from the previous
// read is exponential as a tree (inlining binds the shared parts to lets).
// Partition_loops substituted the lets back into the likely() conditions and
// bounds inference into the coordinates: 8 levels took 7 s to compile, 36
// (what the fuzzer found) never finished. Now large lets stay names there
// (a variable over its range for bounds), and 36 levels compile in ~0.1 s.
TEST_CASE("fuzz: nested data-dependent reads through an inlined boundary condition", "[fuzz]") {
    Buffer<float> in(1, 9);
    for (int j = 0; j < 9; j++) in(0, j) = float(j % 3);
    Var x("x"), y("y");
    Func e = BoundaryConditions::constant_exterior(in, -3.5f);
    Expr index = y;
    for (int i = 0; i < 36; i++) index = clamp(cast<int>(e(x, index)), 0, 8);
    Func f("f");
    f(x, y) = e(x, index);
    Buffer<float> out = f.realize({1, 9});
    for (int j = 0; j < 9; j++) {
        int row = j;
        for (int i = 0; i < 36; i++) row = std::clamp(int(in(0, row)), 0, 8);
        CHECK(out(0, j) == in(0, row));
    }
}

TEST_CASE("fuzz: a Func read at a halved coordinate computed from itself", "[fuzz][reduction]") {
    // As above, but the self-read coordinate is divided after the clamp: the
    // division was taken as a fixed value and kept the read (an
    // InternalError "call to Func f, which has no storage").
    const int w = 17, h = 12;
    Buffer<uint8_t> in(w, h);
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) in(i, j) = uint8_t(i * 13 + j * 7);
    Var x("x"), y("y");
    Func e = BoundaryConditions::constant_exterior(in, (uint8_t)8);
    Func f("f"), g("g");
    f(x, y) = cast<uint16_t>(e(2 * x, y));
    RDom r(5, 5);
    f(x, r) = f(x, r - 1) + ~cast<uint16_t>(e(x - 2, r - 1));
    g(x, y) = cast<int>(f(x, clamp(cast<int>(cast<uint8_t>(f(y + 1, x + 2))), 0, 10) / 2 - 1));
    Buffer<int> out = g.realize({9, 13});

    auto e_ref = [&](int i, int j) -> uint16_t {
        return i >= 0 && i < w && j >= 0 && j < h ? in(i, j) : 8;
    };
    std::function<uint16_t(int, int)> f_ref = [&](int i, int j) -> uint16_t {
        if (j >= 5 && j < 10) return uint16_t(f_ref(i, j - 1) + uint16_t(~e_ref(i - 2, j - 1)));
        return e_ref(2 * i, j);
    };
    for (int j = 0; j < 13; j++)
        for (int i = 0; i < 9; i++) {
            int c = std::clamp(int(uint8_t(f_ref(j + 1, i + 2))), 0, 10);
            INFO("at (" << i << ", " << j << ")");
            CHECK(out(i, j) == int(f_ref(i, c / 2 - 1)));
        }
}
