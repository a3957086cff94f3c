// Bad arguments to Buffer views and helpers: Halide asserts (or crashes);
// Loom throws, naming the buffer and saying what is legal. Halide::Buffer
// throws RuntimeError, Halide::Runtime::Buffer throws BufferError.

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "Loom.h"
#include "LoomBuffer.h"

namespace Halide = loom;

using Catch::Matchers::Contains;

TEST_CASE("Buffer: out-of-range crops and slices name the buffer and its range",
          "[compat][buffer][error]") {
    Halide::Buffer<int> b({8, 4}, "image");
    CHECK_THROWS_WITH(b.cropped(0, 6, 4), Contains("Buffer \"image\"") &&
                                              Contains("crop of dimension 0 to min 6, extent 4") &&
                                              Contains("outside the buffer's [0, 7]"));
    CHECK_THROWS_WITH(b.cropped(0, -1, 2), Contains("outside the buffer's [0, 7]"));
    CHECK_THROWS_WITH(b.cropped(0, 0, -1), Contains("extent -1"));
    CHECK_THROWS_WITH(b.cropped(2, 0, 1),
                      Contains("dimension 2 does not exist; the buffer has 2 dimensions"));
    CHECK_THROWS_WITH(b.cropped({{0, 1}, {0, 1}, {0, 1}}), Contains("3 ranges for 2 dimensions"));
    CHECK_THROWS_WITH(b.sliced(1, 4), Contains("slice of dimension 1 at 4") &&
                                          Contains("outside the buffer's [0, 3]"));
    CHECK_THROWS_AS(b.sliced(1, 4), Halide::RuntimeError);

    // A failed in-place crop leaves the buffer as it was.
    CHECK_THROWS(b.crop({{0, 2}, {3, 9}}));
    CHECK(b.dim(0).extent() == 8);
    CHECK(b.dim(1).extent() == 4);

    auto scalar = Halide::Buffer<float>::make_scalar("s");
    CHECK_THROWS_WITH(scalar.sliced(0),
                      Contains("Buffer \"s\"") && Contains("slice of a 0-dimensional buffer"));
    CHECK_THROWS_WITH(scalar.sliced(0, 0), Contains("slice of a 0-dimensional buffer"));
}

TEST_CASE("Buffer: views as another type, bad orders, mismatched iteration",
          "[compat][buffer][error]") {
    Halide::Buffer<int32_t> b({4, 3}, "ints");
    Halide::Buffer<> any = b;
    CHECK_THROWS_WITH(any.as<float>(), Contains("ints") && Contains("of type int32 as float32"));
    CHECK_THROWS_WITH(any.as<int16_t>(), Contains("of type int32 as int16"));
    CHECK_THROWS_WITH((any.as<int32_t, 3>()),
                      Contains("Cannot view Buffer \"ints\" of 2 dimensions as one of 3"));
    CHECK_THROWS_WITH(b.transposed({0, 0}), Contains("must name each dimension 0..1 once"));
    CHECK_THROWS_WITH(b.transposed(0, 5), Contains("dimension 5 does not exist"));
    CHECK_THROWS_WITH(b.embedded(3), Contains("embed at dimension 3") && Contains("0..2"));
    CHECK_THROWS_WITH(b.translated({1, 2, 3}), Contains("3 offsets for 2 dimensions"));
    CHECK_THROWS_WITH(b.set_min(1, 2, 3), Contains("3 mins for 2 dimensions"));
    CHECK_THROWS_WITH(b.dim(2), Contains("dimension 2 does not exist"));

    Halide::Buffer<int32_t> other({4, 2}, "short");
    CHECK_THROWS_WITH(b.for_each_value([](int &, int) {}, other),
                      Contains("ints") && Contains("buffer 1 does not have the extents"));
    CHECK_THROWS_WITH(b.for_each_element([](int, int, int) {}),
                      Contains("takes 3 coordinates but the buffer has 2 dimensions"));
    Halide::Buffer<float> floats({4, 3}, "floats");
    CHECK_THROWS_WITH(b.copy_from(floats),
                      Contains("copy_from a buffer of float32") && Contains("into one of int32"));
    Halide::Buffer<int32_t> flat(std::vector<int>{12}, "flat");
    CHECK_THROWS_WITH(b.copy_from(flat), Contains("copy_from a buffer of 1 dimensions"));
    CHECK_THROWS_WITH(Halide::Buffer<int>(std::vector<int>{3, 4}, std::vector<int>{1, 1}),
                      Contains("storage order must name each dimension 0..1 once"));
    CHECK_THROWS_WITH(Halide::Buffer<int>(std::vector<int>{3, -4}),
                      Contains("size -4 of dimension 1 is negative"));
}

TEST_CASE("Runtime::Buffer: bad arguments throw BufferError", "[compat][buffer][error]") {
    Halide::Runtime::Buffer<uint8_t> b(6, 2);
    CHECK_THROWS_AS(b.cropped(0, 4, 4), Halide::Runtime::BufferError);
    CHECK_THROWS_WITH(b.cropped(0, 4, 4), Contains("outside the buffer's [0, 5]"));
    auto s = Halide::Runtime::Buffer<uint8_t>::make_scalar();
    CHECK_THROWS_WITH(s.sliced(0), Contains("slice of a 0-dimensional buffer"));
    Halide::Runtime::Buffer<> any = b;
    CHECK_THROWS_WITH(any.as<uint16_t>(), Contains("cannot view a buffer of uint8 as uint16"));
    CHECK_THROWS_WITH((Halide::Runtime::Buffer<uint8_t, 3>(any)),
                      Contains("cannot view a buffer of 2 dimensions as one of 3"));
    CHECK_THROWS_WITH(b.for_each_element([](int) {}),
                      Contains("takes 1 coordinates but the buffer has 2 dimensions"));

    // A crop of device memory needs the device interface that owns it.
    loom_buffer_t raw = *b.raw_buffer();
    raw.device = 1;
    Halide::Runtime::Buffer<uint8_t> with_device(raw);
    CHECK_THROWS_WITH(with_device.cropped(0, 0, 1),
                      Contains("crop of a buffer with a device handle but no device interface"));
    CHECK_THROWS_WITH(with_device.sliced(1, 0),
                      Contains("slice of a buffer with a device handle but no device interface"));
}
