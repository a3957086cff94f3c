// Buffer views handed to pipelines, as Halide code does it: realizing into
// a crop of a larger buffer, reading slices, transposed and embedded views,
// and binding a crop to an ImageParam. Each result is compared with the
// same computation in plain C++.

#include <catch2/catch.hpp>

#include <cstdint>

#include "Loom.h"

namespace Halide = loom;
using namespace Halide;

TEST_CASE("realize into a crop of a larger buffer", "[compat][buffer][pipeline]") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x * 10 + y;
    Buffer<int> whole(12, 9);
    whole.fill(-1);
    Buffer<int> window = whole.cropped({{3, 5}, {2, 4}});
    f.realize(window);
    for (int j = 0; j < 9; j++)
        for (int i = 0; i < 12; i++) {
            bool inside = i >= 3 && i < 8 && j >= 2 && j < 6;
            REQUIRE(whole(i, j) == (inside ? i * 10 + j : -1));
        }

    // In place, through a handle that shares the buffer.
    Buffer<int> same = whole;
    same.crop(0, 0, 2);
    f.realize(same);
    CHECK(whole.dim(0).extent() == 2);
    CHECK(whole(1, 8) == 18);
}

TEST_CASE("pipelines read sliced, transposed and embedded views", "[compat][buffer][pipeline]") {
    Buffer<uint8_t> rgb = Buffer<uint8_t>::make_interleaved(7, 5, 3);
    rgb.fill([](int x, int y, int c) { return uint8_t(x + 8 * y + 64 * c); });
    Var x("x"), y("y"), z("z");

    Buffer<uint8_t> green = rgb.sliced(2, 1);
    Func g("g");
    g(x, y) = cast<int>(green(x, y)) * 2;
    Buffer<int> gout = g.realize({7, 5});
    gout.for_each_element([&](int i, int j) { REQUIRE(gout(i, j) == 2 * (i + 8 * j + 64)); });

    Buffer<int> plain(6, 4);
    plain.fill([](int i, int j) { return i - 3 * j; });
    Buffer<int> flipped = plain.transposed(0, 1);
    Func t("t");
    t(x, y) = flipped(x, y) + 1;
    Buffer<int> tout = t.realize({4, 6});
    tout.for_each_element([&](int i, int j) { REQUIRE(tout(i, j) == (j - 3 * i) + 1); });

    Buffer<int> row(5);
    row.fill([](int i) { return i * i; });
    Buffer<int> row3d = row.embedded(1, 2).embedded(2);
    Func e("e");
    e(x, y, z) = row3d(x, 2, 0) + y + z;
    Buffer<int> eout = e.realize({5, 2, 2});
    eout.for_each_element([&](int i, int j, int k) { REQUIRE(eout(i, j, k) == i * i + j + k); });
}

TEST_CASE("an ImageParam bound to a translated crop", "[compat][buffer][pipeline]") {
    Buffer<float> image(16, 16);
    image.fill([](int x, int y) { return float(x) + 0.5f * float(y); });
    ImageParam in(Float(32), 2, "in");
    Var x("x"), y("y");
    Func blur("blur");
    blur(x, y) = (in(x - 1, y) + in(x + 1, y)) * 0.5f;
    // The crop covers [3, 12] x [4, 9]; translated it starts at 0 in x.
    in.set(image.cropped({{3, 10}, {4, 6}}).translated(0, -3));
    Buffer<float> out(8, 6);
    out.set_min(1, 4);
    blur.realize(out);
    out.for_each_element([&](int i, int j) {
        float expected = (image(i - 1 + 3, j) + image(i + 1 + 3, j)) * 0.5f;
        REQUIRE(out(i, j) == Approx(expected));
    });
}
