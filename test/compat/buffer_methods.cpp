// The rest of Halide's Buffer methods, as a Halide user writes them (only
// the namespace alias changed), on Halide::Buffer and Halide::Runtime::Buffer
// alike: add_dimension_with_stride, is_bounds_query, static_halide_type and
// the other static queries, can_convert_from, check_overflow,
// owns_host_memory. Each result is compared with what plain C++ index
// arithmetic says it must be.

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "Loom.h"
#include "LoomBuffer.h"

namespace Halide = loom;

using Catch::Matchers::Contains;

namespace {

// The static queries are compile-time constants on both classes.
static_assert(Halide::Buffer<float, 2>::has_static_halide_type);
static_assert(!Halide::Buffer<>::has_static_halide_type);
static_assert(Halide::Buffer<float, 2>::has_static_dimensions);
static_assert(!Halide::Buffer<float>::has_static_dimensions);
static_assert(Halide::Buffer<float, 2>::static_dimensions() == 2);
static_assert(Halide::Runtime::Buffer<int16_t, 3>::static_dimensions() == 3);
static_assert(Halide::Runtime::Buffer<int16_t>::static_halide_type().bits == 16);
static_assert(Halide::Runtime::Buffer<int16_t>::has_static_halide_type);
static_assert(!Halide::Runtime::Buffer<void>::has_static_dimensions);

// An interleaved image made by adding the channel dimension with its own
// stride to a planar one-channel view, as Halide users build one by hand.
template <typename B> void check_add_dimension_with_stride() {
    const int w = 5, h = 4, channels = 3;
    std::vector<int> storage(size_t(w * h * channels));
    for (size_t i = 0; i < storage.size(); i++) storage[i] = int(i) * 7 + 1;
    std::vector<loom_dimension_t> shape = {{0, w, channels, 0}, {0, h, w * channels, 0}};
    B b(storage.data(), shape);
    b.add_dimension_with_stride(1);
    REQUIRE(b.dimensions() == 3);
    REQUIRE(b.dim(2).min() == 0);
    REQUIRE(b.dim(2).extent() == 1);
    REQUIRE(b.dim(2).stride() == 1);
    // Widen the new dimension to the three channels the stride steps through.
    std::vector<loom_dimension_t> wide = {
        {0, w, channels, 0}, {0, h, w * channels, 0}, {0, channels, 1, 0}};
    B c(storage.data(), wide);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            REQUIRE(b(x, y, 0) == storage[size_t(y * w * channels + x * channels)]);
            for (int ch = 0; ch < channels; ch++)
                REQUIRE(c(x, y, ch) == storage[size_t(y * w * channels + x * channels + ch)]);
        }
    // A stride that skips: the new dimension steps by whole images.
    B d(storage.data(), std::vector<loom_dimension_t>{{0, 4, 1, 0}});
    d.add_dimension_with_stride(20);
    REQUIRE(d.dim(1).stride() == 20);
    REQUIRE(d(3, 0) == storage[3]);
}

template <typename B> void check_bounds_query_and_ownership() {
    B owned(6, 2);
    REQUIRE(!owned.is_bounds_query());
    REQUIRE(owned.owns_host_memory());
    int wrapped_data[12] = {};
    B wrapped(wrapped_data, 6, 2);
    REQUIRE(!wrapped.is_bounds_query());
    REQUIRE(!wrapped.owns_host_memory());
    owned.deallocate(); // the shape stays: what a bounds query passes
    REQUIRE(owned.is_bounds_query());
    REQUIRE(owned.dim(0).extent() == 6);
    owned.allocate();
    REQUIRE(!owned.is_bounds_query());
    // Without device memory, dropping it is a no-op that succeeds.
    REQUIRE(!owned.has_device_allocation());
    REQUIRE(owned.device_deallocate() == 0);
    REQUIRE(!owned.is_bounds_query());
}

template <template <typename, int> class B> void check_can_convert_from() {
    B<int, 2> ints(4, 4);
    B<void, -1> any = ints;
    REQUIRE(B<int, 2>::can_convert_from(any));
    REQUIRE(B<int, -1>::can_convert_from(any));
    REQUIRE(B<void, 2>::can_convert_from(any));
    REQUIRE(!B<float, 2>::can_convert_from(any));
    REQUIRE(!B<int, 3>::can_convert_from(any));
    REQUIRE(!B<uint32_t, -1>::can_convert_from(any)); // same size, other type
    // Exactly when as<>() works.
    REQUIRE_NOTHROW(any.template as<int, 2>());
    REQUIRE_NOTHROW(B<int, 2>::assert_can_convert_from(any));
}

} // namespace

TEST_CASE("add_dimension_with_stride on both buffer classes", "[compat][buffer]") {
    SECTION("Halide::Buffer") {
        check_add_dimension_with_stride<Halide::Buffer<int>>();
    }
    SECTION("Halide::Runtime::Buffer") {
        check_add_dimension_with_stride<Halide::Runtime::Buffer<int>>();
    }
}

TEST_CASE("is_bounds_query and owns_host_memory on both buffer classes", "[compat][buffer]") {
    SECTION("Halide::Buffer") {
        check_bounds_query_and_ownership<Halide::Buffer<int>>();
    }
    SECTION("Halide::Runtime::Buffer") {
        check_bounds_query_and_ownership<Halide::Runtime::Buffer<int>>();
    }
}

TEST_CASE("static_halide_type names the element type", "[compat][buffer]") {
    using Halide::Buffer;
    REQUIRE(Buffer<uint8_t>::static_halide_type() == Halide::UInt(8));
    REQUIRE(Buffer<int16_t, 2>::static_halide_type() == Halide::Int(16));
    REQUIRE(Buffer<float>::static_halide_type() == Halide::Float(32));
    REQUIRE(Buffer<double>::static_halide_type() == Halide::Float(64));
    REQUIRE(Buffer<bool>::static_halide_type() == Halide::Bool());
    REQUIRE(Buffer<Halide::float16_t>::static_halide_type() == Halide::Float(16));
    REQUIRE(Buffer<const int>::static_halide_type() == Halide::Int(32));
    // It matches what a buffer of that type reports at run time.
    Buffer<uint16_t> b(3);
    REQUIRE(b.type() == Buffer<uint16_t>::static_halide_type());
    loom_type_t rt = Halide::Runtime::Buffer<int64_t>::static_halide_type();
    REQUIRE(int(rt.code) == int(loom_type_int));
    REQUIRE(rt.bits == 64);
    REQUIRE(rt.lanes == 1);
}

TEST_CASE("can_convert_from agrees with as<>() on both buffer classes", "[compat][buffer]") {
    SECTION("Halide::Buffer") {
        check_can_convert_from<Halide::Buffer>();
    }
    SECTION("Halide::Runtime::Buffer") {
        check_can_convert_from<Halide::Runtime::Buffer>();
    }
}

TEST_CASE("assert_can_convert_from names the mismatch", "[compat][buffer][error]") {
    Halide::Buffer<> any = Halide::Buffer<int>(4, 4);
    CHECK_THROWS_WITH(Halide::Buffer<float>::assert_can_convert_from(any), Contains("as float32"));
    CHECK_THROWS_WITH((Halide::Buffer<int, 3>::assert_can_convert_from(any)),
                      Contains("2 dimensions as one of 3"));
    Halide::Runtime::Buffer<> rany = Halide::Runtime::Buffer<int>(4, 4);
    CHECK_THROWS_WITH(Halide::Runtime::Buffer<float>::assert_can_convert_from(rany),
                      Contains("cannot view a buffer of int32 as float32"));
}

TEST_CASE("check_overflow accepts sizes below 2^63 bytes and names the others",
          "[compat][buffer][error]") {
    // Shapes over memory nobody reads: check_overflow looks at the extents only.
    static uint8_t dummy[8];
    std::vector<loom_dimension_t> fits = {{0, 1 << 30, 1, 0}, {0, 1 << 30, 1, 0}};
    Halide::Runtime::Buffer<uint8_t> ok(dummy, fits);
    REQUIRE_NOTHROW(ok.check_overflow()); // 2^60 bytes
    Halide::Buffer<uint8_t> ok2(dummy, fits);
    REQUIRE_NOTHROW(ok2.check_overflow());

    std::vector<loom_dimension_t> huge = {
        {0, 1 << 30, 1, 0}, {0, 1 << 30, 1, 0}, {0, 1 << 3, 1, 0}};
    Halide::Runtime::Buffer<uint8_t> bad(dummy, huge); // 2^63 bytes
    CHECK_THROWS_WITH(bad.check_overflow(), Contains("extents {1073741824, 1073741824, 8}") &&
                                                Contains("the size overflows"));
    Halide::Runtime::Buffer<int16_t> bad16(
        reinterpret_cast<int16_t *>(dummy),
        std::vector<loom_dimension_t>{{0, 1 << 30, 1, 0}, {0, 1 << 30, 1, 0}, {0, 1 << 2, 1, 0}});
    CHECK_THROWS_WITH(bad16.check_overflow(), Contains("int16"));
    Halide::Buffer<uint8_t> bad2(dummy, huge, "huge");
    CHECK_THROWS_WITH(bad2.check_overflow(), Contains("huge") && Contains("the size overflows"));
}
