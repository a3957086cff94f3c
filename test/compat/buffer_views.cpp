// Halide's Buffer views, as a Halide user writes them (only the namespace
// alias changed): crop, slice, embed, translate, transpose, set_min, alias,
// as<T>/as_const, on Halide::Buffer and on Halide::Runtime::Buffer alike.
// Every view is compared with the element the plain C++ index arithmetic
// says it must show.

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "Loom.h"
#include "LoomBuffer.h"

namespace Halide = loom;

namespace {

// The value stored at (x, y, c) by fill_xyc.
int value_at(int x, int y, int c) {
    return x + 100 * y + 10000 * c;
}

template <typename B> void fill_xyc(B &b) {
    b.for_each_element([&](int x, int y, int c) { b(x, y, c) = value_at(x, y, c); });
}

// Runs the same checks on both buffer classes.
template <typename B> void check_views() {
    B b(8, 6, 3);
    fill_xyc(b);

    SECTION("cropped shares memory and keeps its coordinates") {
        B c = b.cropped(0, 2, 4);
        REQUIRE(c.dim(0).min() == 2);
        REQUIRE(c.dim(0).extent() == 4);
        REQUIRE(c.dim(1).extent() == 6);
        REQUIRE(c(2, 0, 0) == value_at(2, 0, 0));
        REQUIRE(c(5, 5, 2) == value_at(5, 5, 2));
        c(3, 1, 1) = -1;
        REQUIRE(b(3, 1, 1) == -1);
        REQUIRE(b.dim(0).extent() == 8); // the source keeps its shape

        B r = b.cropped({{1, 3}, {2, 2}});
        REQUIRE(r.dim(0).min() == 1);
        REQUIRE(r.dim(1).min() == 2);
        REQUIRE(r.dim(2).extent() == 3);
        REQUIRE(r(3, 3, 2) == value_at(3, 3, 2));
    }

    SECTION("crop in place") {
        B c = b.alias();
        c.crop(1, 3, 2);
        REQUIRE(c.dim(1).min() == 3);
        REQUIRE(c.dim(1).extent() == 2);
        REQUIRE(c(7, 4, 1) == value_at(7, 4, 1));
        c.crop({{0, 1}});
        REQUIRE(c.dim(0).extent() == 1);
    }

    SECTION("sliced removes a dimension") {
        auto s = b.sliced(2, 1); // the green plane
        REQUIRE(s.dimensions() == 2);
        REQUIRE(s(4, 3) == value_at(4, 3, 1));
        auto row = s.sliced(1, 5);
        REQUIRE(row.dimensions() == 1);
        REQUIRE(row(6) == value_at(6, 5, 1));
        auto first = b.sliced(0); // at the min
        REQUIRE(first(2, 2) == value_at(0, 2, 2));
        row(0) = 7;
        REQUIRE(b(0, 5, 1) == 7);
    }

    SECTION("slice in place") {
        B s = b.alias();
        s.slice(1, 4);
        REQUIRE(s.dimensions() == 2);
        REQUIRE(s(3, 2) == value_at(3, 4, 2));
        s.slice(1);
        REQUIRE(s.dimensions() == 1);
        REQUIRE(s(5) == value_at(5, 4, 0));
    }

    SECTION("embedded adds a dimension of extent one") {
        auto e = b.embedded(1, 7);
        REQUIRE(e.dimensions() == 4);
        REQUIRE(e.dim(1).min() == 7);
        REQUIRE(e.dim(1).extent() == 1);
        REQUIRE(e(3, 7, 2, 1) == value_at(3, 2, 1));
        B in_place = b.alias();
        in_place.embed(3);
        REQUIRE(in_place.dimensions() == 4);
        REQUIRE(in_place(1, 1, 1, 0) == value_at(1, 1, 1));
    }

    SECTION("translated moves the coordinates, not the memory") {
        B t = b.translated({10, -5});
        REQUIRE(t.dim(0).min() == 10);
        REQUIRE(t.dim(1).min() == -5);
        REQUIRE(t(10, -5, 0) == value_at(0, 0, 0));
        REQUIRE(t(17, 0, 2) == value_at(7, 5, 2));
        B u = b.translated(2, 4);
        REQUIRE(u(0, 0, 6) == value_at(0, 0, 2));
        REQUIRE(b.dim(0).min() == 0);
        B in_place = b.alias();
        in_place.translate(0, -3);
        REQUIRE(in_place(-3, 0, 0) == value_at(0, 0, 0));
    }

    SECTION("transposed swaps or permutes dimensions") {
        B t = b.transposed(0, 1);
        REQUIRE(t.dim(0).extent() == 6);
        REQUIRE(t.dim(1).extent() == 8);
        REQUIRE(t(5, 7, 2) == value_at(7, 5, 2));
        B p = b.transposed({2, 0, 1}); // new dim i is old dim order[i]
        REQUIRE(p.dim(0).extent() == 3);
        REQUIRE(p.dim(1).extent() == 8);
        REQUIRE(p.dim(2).extent() == 6);
        REQUIRE(p(2, 7, 5) == value_at(7, 5, 2));
        B in_place = b.alias();
        in_place.transpose(1, 2);
        REQUIRE(in_place(1, 2, 3) == value_at(1, 3, 2));
    }

    SECTION("set_min") {
        B m = b.alias();
        m.set_min(-1, -2, 5);
        REQUIRE(m(-1, -2, 5) == value_at(0, 0, 0));
        REQUIRE(m.dim(2).max() == 7);
        m.set_min({4});
        REQUIRE(m(4, -2, 5) == value_at(0, 0, 0));
    }

    SECTION("views keep the memory alive") {
        B view;
        {
            B temp(5, 4, 2);
            fill_xyc(temp);
            view = temp.cropped(1, 1, 2).translated(0, 100);
        }
        REQUIRE(view(104, 2, 1) == value_at(4, 2, 1));
        view.for_each_element(
            [&](int x, int y, int c) { REQUIRE(view(x, y, c) == value_at(x - 100, y, c)); });
    }
}

} // namespace

TEST_CASE("Buffer views: crop, slice, embed, translate, transpose, set_min", "[compat][buffer]") {
    check_views<Halide::Buffer<int>>();
}

TEST_CASE("Runtime::Buffer views: crop, slice, embed, translate, transpose, set_min",
          "[compat][buffer]") {
    check_views<Halide::Runtime::Buffer<int>>();
}

TEST_CASE("Buffer copies share the shape, views and alias do not", "[compat][buffer]") {
    Halide::Buffer<float> a({4, 4}, "a");
    Halide::Buffer<float> same = a;
    same.set_min(3, 3);
    CHECK(a.dim(0).min() == 3); // a Halide::Buffer is a handle
    Halide::Buffer<float> alias = a.alias();
    alias.set_min(0, 0);
    CHECK(a.dim(0).min() == 3);
    CHECK(alias.data() == a.data());
    CHECK(alias.name() != a.name());

    // Runtime::Buffer copies are values that share the memory.
    Halide::Runtime::Buffer<float> r(4, 4);
    Halide::Runtime::Buffer<float> r2 = r;
    r2.set_min(3, 3);
    CHECK(r.dim(0).min() == 0);
    CHECK(r2.data() == r.data());
}

TEST_CASE("as<T>, as_const and Buffer<void> conversions", "[compat][buffer]") {
    Halide::Buffer<uint16_t> typed(3, 2);
    typed.fill(7);
    Halide::Buffer<> untyped = typed;
    CHECK(untyped.type() == Halide::UInt(16));
    Halide::Buffer<uint16_t> back = untyped.as<uint16_t>();
    CHECK(back(2, 1) == 7);
    Halide::Buffer<uint16_t, 2> two = untyped.as<uint16_t, 2>();
    CHECK(two.dimensions() == 2);
    Halide::Buffer<const uint16_t> ro = typed.as_const();
    CHECK(ro(1, 1) == 7);
    typed(1, 1) = 9;
    CHECK(ro(1, 1) == 9); // the same memory

    Halide::Runtime::Buffer<int16_t> rt(5);
    rt.fill(-2);
    Halide::Runtime::Buffer<> rt_any = rt;
    CHECK(rt_any.as<int16_t>()(4) == -2);
    Halide::Runtime::Buffer<const int16_t> rt_ro = rt.as_const();
    CHECK(rt_ro(0) == -2);

    // Between the two classes: the same memory.
    Halide::Buffer<int16_t> wrapped(rt);
    CHECK(wrapped(3) == -2);
    wrapped(3) = 4;
    CHECK(rt(3) == 4);
    Halide::Runtime::Buffer<int16_t> unwrapped = wrapped.runtime_buffer();
    CHECK(unwrapped(3) == 4);
}
