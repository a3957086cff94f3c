// Buffer constructors in Halide's forms: sizes with a trailing name,
// run-time types, wrapped memory (dense, with a shape, C arrays).

#include "Loom.h"
namespace Halide = loom;

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace Halide;
using Catch::Matchers::Contains;

TEST_CASE("compat buffers: sizes as ints with an optional name", "[compat][buffers]") {
    Buffer<int> a(3, 4, "named");
    CHECK(a.name() == "named");
    CHECK(a.dimensions() == 2);
    CHECK(a.dim(0).extent() == 3);
    CHECK(a.dim(1).extent() == 4);
    Buffer<float, 3> b(2, 3, 4, std::string("cube"));
    CHECK(b.name() == "cube");
    CHECK(b.dim(2).extent() == 4);
    Buffer<uint8_t> c(7);
    CHECK(c.dimensions() == 1);
    Buffer<> d(UInt(16), 5, 6, "dyn");
    CHECK(d.type() == UInt(16));
    CHECK(d.name() == "dyn");
    CHECK(d.dim(1).extent() == 6);
    Buffer<> e(Float(64), 8);
    CHECK(e.dim(0).extent() == 8);
}

TEST_CASE("compat buffers: wrapping memory the caller owns", "[compat][buffers]") {
    std::vector<float> data(12);
    for (size_t i = 0; i < data.size(); i++) data[i] = float(i);
    Buffer<float> dense(data.data(), 4, 3, "dense");
    CHECK(dense(1, 2) == 9.0f);
    CHECK(dense.name() == "dense");
    Buffer<> untyped(Float(32), data.data(), 4, 3);
    CHECK(Buffer<float>(untyped)(3, 1) == 7.0f);
    Buffer<> from_vector(Float(32), data.data(), std::vector<int>{6, 2}, "v");
    CHECK(Buffer<float>(from_vector)(5, 1) == 11.0f);

    // A transposed view given as {min, extent, stride} per dimension.
    loom_dimension_t shape[2] = {{0, 3, 4, 0}, {10, 4, 1, 0}};
    Buffer<float> transposed(data.data(), 2, shape, "t");
    CHECK(transposed.dim(1).min() == 10);
    CHECK(transposed(2, 11) == data[2 * 4 + 1]);
    Buffer<> shaped(Float(32), data.data(), 2, shape);
    CHECK(shaped.dim(0).stride() == 4);

    // Writes through the Buffer reach the caller's memory.
    dense(0, 0) = 100.0f;
    CHECK(data[0] == 100.0f);
}

TEST_CASE("compat buffers: a C array becomes a Buffer, last index innermost", "[compat][buffers]") {
    int grid[3][4];
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 4; x++) grid[y][x] = x + 10 * y;
    Buffer<int> b(grid, "grid");
    CHECK(b.dimensions() == 2);
    CHECK(b.dim(0).extent() == 4);
    CHECK(b.dim(1).extent() == 3);
    CHECK(b.name() == "grid");
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = b(x, y) * 2;
    Buffer<int> out = f.realize({4, 3});
    for (int yy = 0; yy < 3; yy++)
        for (int xx = 0; xx < 4; xx++) CHECK(out(xx, yy) == grid[yy][xx] * 2);
    double line[5] = {1, 2, 3, 4, 5};
    Buffer<double> l(line);
    CHECK(l.dim(0).extent() == 5);
    CHECK(l(4) == 5.0);
}

TEST_CASE("compat buffers: constructors check types and shapes", "[compat][buffers]") {
    std::vector<int> data(4);
    CHECK_THROWS_WITH(Buffer<int>(Float(32), 2, 2), Contains("type mismatch"));
    CHECK_THROWS_WITH(Buffer<int>(UInt(8), data.data(), 2, 2), Contains("type mismatch"));
    CHECK_THROWS_WITH(Buffer<int>(-1, 2), Contains("negative"));
    const loom_dimension_t *no_shape = nullptr;
    CHECK_THROWS_WITH(Buffer<>(Int(32), data.data(), 2, no_shape), Contains("2 dimensions"));
}
