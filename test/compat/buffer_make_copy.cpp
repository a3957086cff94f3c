// Halide's Buffer makers, copies, iteration and queries, written as a
// Halide user would (only the namespace alias changed), on Halide::Buffer
// and Halide::Runtime::Buffer alike, compared with plain C++ arithmetic.

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "Loom.h"
#include "LoomBuffer.h"

namespace Halide = loom;

namespace {

template <typename B> void check_makers() {
    SECTION("make_scalar") {
        auto s = B::make_scalar();
        REQUIRE(s.dimensions() == 0);
        REQUIRE(s.number_of_elements() == 1);
        s() = 42;
        REQUIRE(s() == 42);
        int value = 5;
        auto wrapped = B::make_scalar(&value);
        wrapped() = 6;
        REQUIRE(value == 6);
    }

    SECTION("make_interleaved and storage-order construction") {
        auto rgb = B::make_interleaved(5, 4, 3);
        REQUIRE(rgb.dim(2).stride() == 1);
        REQUIRE(rgb.dim(0).stride() == 3);
        REQUIRE(rgb.dim(1).stride() == 15);
        B same_layout(std::vector<int>{5, 4, 3}, std::vector<int>{2, 0, 1});
        for (int d = 0; d < 3; d++) REQUIRE(same_layout.dim(d).stride() == rgb.dim(d).stride());
        B column_major(std::vector<int>{3, 4}, std::vector<int>{1, 0});
        REQUIRE(column_major.dim(1).stride() == 1);
        REQUIRE(column_major.dim(0).stride() == 4);
    }

    SECTION("make_with_shape_of keeps mins, extents and nesting order") {
        auto rgb = B::make_interleaved(6, 2, 3);
        rgb.set_min(-2, 5, 0);
        auto like = B::make_with_shape_of(rgb.transposed(0, 1));
        REQUIRE(like.dim(0).extent() == 2);
        REQUIRE(like.dim(0).min() == 5);
        REQUIRE(like.dim(1).min() == -2);
        REQUIRE(like.dim(2).stride() == 1);  // channels stay innermost
        REQUIRE(like.dim(1).stride() == 3);  // then x
        REQUIRE(like.dim(0).stride() == 18); // then y
        REQUIRE(like.data() != rgb.data());
    }

    SECTION("copy, copy_from and alias") {
        B a(4, 3);
        a.fill([](int x, int y) { return 10 * x + y; });
        a.set_min(1, 1);
        auto deep = a.copy();
        REQUIRE(deep.dim(0).min() == 1);
        REQUIRE(deep(4, 3) == 32);
        deep(4, 3) = 0;
        REQUIRE(a(4, 3) == 32);

        B big(6, 5);
        big.fill(-1);
        big.copy_from(a); // only where both have coordinates: x 1..4, y 1..3
        for (int y = 0; y < 5; y++)
            for (int x = 0; x < 6; x++) {
                bool inside = x >= 1 && x <= 4 && y >= 1 && y <= 3;
                REQUIRE(big(x, y) == (inside ? 10 * (x - 1) + (y - 1) : -1));
            }

        auto al = a.alias();
        al(2, 2) = 99;
        REQUIRE(a(2, 2) == 99);
    }

    SECTION("allocate and deallocate") {
        B b(4, 2);
        b.fill(3);
        b.deallocate();
        REQUIRE(b.data() == nullptr);
        REQUIRE(b.dim(0).extent() == 4); // the shape stays
        b.allocate();
        REQUIRE(b.data() != nullptr);
        REQUIRE(b.all_equal(0)); // fresh memory is zeroed
        b.allocate(&std::malloc, &std::free);
        b(3, 1) = 8;
        REQUIRE(b(3, 1) == 8);
    }

    SECTION("for_each_element with ints and with an int array") {
        B b(3, 2);
        int calls = 0;
        b.for_each_element([&](int x, int y) {
            b(x, y) = x * 7 + y;
            calls++;
        });
        REQUIRE(calls == 6);
        int sum = 0;
        b.for_each_element([&](const int *pos) { sum += b(pos[0], pos[1]); });
        REQUIRE(sum == (0 + 7 + 14) * 2 + 3); // x*7 over x twice, plus y over three x
    }

    SECTION("for_each_value over several buffers") {
        B a(5, 2), b(5, 2), out(5, 2);
        a.fill([](int x, int y) { return x + y; });
        b.fill(3);
        b.set_min(10, 10); // positions, not coordinates, are paired
        out.for_each_value([](int &o, int x, int y) { o = x * y; }, a, b);
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 5; x++) REQUIRE(out(x, y) == 3 * (x + y));
    }

    SECTION("queries: size_in_bytes, number_of_elements, contains, dim ranges") {
        B b(5, 4, 2);
        REQUIRE(b.number_of_elements() == 40);
        REQUIRE(b.size_in_bytes() == 40 * sizeof(int));
        auto c = b.cropped(0, 1, 2);
        REQUIRE(c.number_of_elements() == 16);
        REQUIRE(c.size_in_bytes() == size_t((1 + 3 * 5 + 1 * 20) + 1) * sizeof(int));
        REQUIRE(c.contains(2, 3, 1));
        REQUIRE(!c.contains(0, 3, 1));
        REQUIRE(!c.contains(std::vector<int>{1, 1}));
        std::vector<int> xs;
        for (int x : c.dim(0)) xs.push_back(x);
        REQUIRE(xs == std::vector<int>{1, 2});
        int rows = 0;
        for (int y : b.dim(1)) rows += y;
        REQUIRE(rows == 0 + 1 + 2 + 3);
    }

    SECTION("all_equal, raw_buffer and reset") {
        B b(4);
        b.fill(2);
        REQUIRE(b.all_equal(2));
        b(3) = 1;
        REQUIRE(!b.all_equal(2));
        const loom_buffer_t *raw = b.raw_buffer();
        REQUIRE(raw->dimensions == 1);
        REQUIRE(raw->dim[0].extent == 4);
        REQUIRE(reinterpret_cast<int *>(raw->host)[3] == 1);
        b.reset();
        REQUIRE(!b.defined());
    }
}

} // namespace

TEST_CASE("Buffer makers, copies, iteration and queries", "[compat][buffer]") {
    check_makers<Halide::Buffer<int>>();
}

TEST_CASE("Runtime::Buffer makers, copies, iteration and queries", "[compat][buffer]") {
    check_makers<Halide::Runtime::Buffer<int>>();
}

TEST_CASE("Buffer copy_to_interleaved and copy_to_planar", "[compat][buffer]") {
    Halide::Buffer<uint8_t> planar(4, 3, 3);
    planar.fill([](int x, int y, int c) { return uint8_t(x + 4 * y + 12 * c); });
    Halide::Buffer<uint8_t> inter = planar.copy_to_interleaved();
    CHECK(inter.dim(2).stride() == 1);
    Halide::Buffer<uint8_t> back = inter.copy_to_planar();
    CHECK(back.dim(0).stride() == 1);
    back.for_each_element(
        [&](int x, int y, int c) { REQUIRE(back(x, y, c) == uint8_t(x + 4 * y + 12 * c)); });
}
