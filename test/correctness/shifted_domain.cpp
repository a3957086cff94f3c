// Realizing over output buffers whose mins are not zero, and output buffer
// constraints.

#include <catch2/catch.hpp>

#include "Loom.h"

using namespace loom;

TEST_CASE("realizing into a buffer with shifted mins computes those coordinates",
          "[correctness][shifted]") {
    Var x("x"), y("y");
    Func f("shifted");
    f(x, y) = x * 1000 + y;
    Buffer<int> out(10, 5);
    out.set_min(-3, 7);
    f.realize(out);
    for (int yy = 7; yy < 12; yy++)
        for (int xx = -3; xx < 7; xx++) CHECK(out(xx, yy) == xx * 1000 + yy);
}

TEST_CASE("a shifted output reads a shifted input", "[correctness][shifted]") {
    Buffer<int16_t> in(20);
    in.set_min(-10);
    for (int i = -10; i < 10; i++) in(i) = int16_t(i * 3);
    Var x("x");
    Func f("shift_reader");
    f(x) = in(x - 1) + in(x + 1);
    Buffer<int16_t> out(12);
    out.set_min(-8);
    f.realize(out);
    for (int i = -8; i < 4; i++) CHECK(out(i) == int16_t((i - 1) * 3 + (i + 1) * 3));
}

TEST_CASE("Realization converts to a Buffer and realize accepts typed Buffers",
          "[correctness][shifted]") {
    Var x("x");
    Func f("realization_user");
    f(x) = cast<uint8_t>(x);
    Realization r = f.realize({5});
    REQUIRE(r.size() == 1);
    Buffer<uint8_t> b = r;
    CHECK(b(4) == 4);
    Buffer<uint8_t, 1> typed(3);
    typed.set_min(100);
    f.realize(typed);
    CHECK(typed(102) == 102);
}

TEST_CASE("output buffer constraints are checked", "[correctness][shifted]") {
    Var x("x"), y("y");
    Func f("constrained");
    f(x, y) = x + y;
    f.output_buffer().dim(0).set_min(0);
    f.output_buffer().dim(1).set_extent(4);
    Buffer<int> ok(6, 4);
    f.realize(ok);
    CHECK(ok(5, 3) == 8);

    Buffer<int> shifted(6, 4);
    shifted.set_min(1, 0);
    CHECK_THROWS_WITH(f.realize(shifted), Catch::Contains("constrained"));
    Buffer<int> tall(6, 5);
    CHECK_THROWS_AS(f.realize(tall), RuntimeError);
}
