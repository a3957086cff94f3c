// Buffers of float16_t and bfloat16_t use the whole Buffer API, as a Halide
// user writes it: loom::Buffer and the AOT loom::Runtime::Buffer alike, with
// fill, for_each_value, all_equal, copies and views checked against plain C++.

#include "Loom.h"
namespace Halide = loom;

#include <catch2/catch.hpp>

#include <vector>

using namespace Halide;
using Catch::Matchers::Contains;

namespace {

template <typename F> void check_helpers(Type expected_type) {
    Buffer<F> b(6, 4, "halves");
    CHECK(b.type() == expected_type);
    CHECK(b.size_in_bytes() == size_t(6 * 4 * 2));
    b.fill(F(1.5f));
    CHECK(b.all_equal(F(1.5f)));
    b(2, 3) = F(-3.0f);
    CHECK_FALSE(b.all_equal(F(1.5f)));

    // for_each_value over two buffers, against the same arithmetic in C++.
    Buffer<F> c(6, 4);
    c.for_each_element([&](int x, int y) { c(x, y) = F(float(x + 10 * y)); });
    b.for_each_value([](F &v, F w) { v = v * w + F(0.25f); }, c);
    for (int y = 0; y < 4; y++) {
        for (int x = 0; x < 6; x++) {
            F before = (x == 2 && y == 3) ? F(-3.0f) : F(1.5f);
            F want = before * F(float(x + 10 * y)) + F(0.25f);
            CHECK(b(x, y).to_bits() == want.to_bits());
        }
    }

    // Copies and views keep the values (bit for bit).
    Buffer<F> copy = b.copy();
    Buffer<F> crop = b.cropped(0, 1, 3);
    CHECK(crop(1, 3).to_bits() == b(1, 3).to_bits());
    CHECK(copy(5, 2).to_bits() == b(5, 2).to_bits());
    Buffer<> untyped = b;
    CHECK(untyped.as<F>()(4, 1).to_bits() == b(4, 1).to_bits());
    CHECK_THROWS_WITH(untyped.as<float>(), Contains("halves"));

    // The runtime buffer of an AOT caller.
    Runtime::Buffer<F> r(5, 3);
    r.fill(F(2.0f));
    CHECK(r.all_equal(F(2.0f)));
    r.for_each_value([](F &v) { v = v / F(3.0f); });
    CHECK(r(4, 2).to_bits() == (F(2.0f) / F(3.0f)).to_bits());
    CHECK(r.raw_buffer()->type.code == uint8_t(expected_type.code()));
    CHECK(r.raw_buffer()->type.bits == 16);
    Buffer<F> wrapped(r, "wrapped");
    CHECK(wrapped(4, 2).to_bits() == r(4, 2).to_bits());
}

} // namespace

TEST_CASE("compat float16: Buffer<float16_t> fill, for_each_value, all_equal, views",
          "[compat][float16][buffer]") {
    check_helpers<float16_t>(Float(16));
}

TEST_CASE("compat float16: Buffer<bfloat16_t> fill, for_each_value, all_equal, views",
          "[compat][float16][buffer]") {
    check_helpers<bfloat16_t>(BFloat(16));
}
