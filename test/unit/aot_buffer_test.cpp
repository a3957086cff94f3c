// loom::Runtime::Buffer (include/LoomBuffer.h), the header-only buffer for
// programs that call AOT-generated code: shapes, element access, mins,
// interleaved layouts, wrapping, copies and the raw loom_buffer_t view.

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "LoomBuffer.h"

using loom::Runtime::Buffer;

TEST_CASE("runtime buffer: dense allocation, shape and element access", "[aot][buffer]") {
    Buffer<uint16_t> b(5, 3);
    REQUIRE(b.dimensions() == 2);
    REQUIRE(b.width() == 5);
    REQUIRE(b.height() == 3);
    REQUIRE(b.channels() == 1);
    REQUIRE(b.dim(0).stride() == 1);
    REQUIRE(b.dim(1).stride() == 5);
    REQUIRE(b.dim(1).max() == 2);
    REQUIRE(b.number_of_elements() == 15);
    REQUIRE(b(4, 2) == 0); // zero-initialized
    b(4, 2) = 7;
    REQUIRE(b.data()[4 + 2 * 5] == 7);

    loom_buffer_t *raw = b;
    REQUIRE(raw == b.raw_buffer());
    REQUIRE(raw->type.code == loom_type_uint);
    REQUIRE(raw->type.bits == 16);
    REQUIRE(raw->dimensions == 2);
    REQUIRE(raw->dim[1].extent == 3);
    REQUIRE(raw->host == reinterpret_cast<uint8_t *>(b.data()));
}

TEST_CASE("runtime buffer: set_min moves the coordinates, not the memory", "[aot][buffer]") {
    Buffer<int> b(4, 4);
    b(0, 0) = 42;
    b.set_min(-1, 10);
    REQUIRE(b.dim(0).min() == -1);
    REQUIRE(b.dim(1).min() == 10);
    REQUIRE(b(-1, 10) == 42);
    REQUIRE(b.raw_buffer()->dim[1].min == 10);
}

TEST_CASE("runtime buffer: interleaved layout and wrapping user memory", "[aot][buffer]") {
    auto rgb = Buffer<uint8_t>::make_interleaved(4, 2, 3);
    REQUIRE(rgb.channels() == 3);
    REQUIRE(rgb.dim(0).stride() == 3);
    REQUIRE(rgb.dim(1).stride() == 12);
    REQUIRE(rgb.dim(2).stride() == 1);
    rgb(1, 1, 2) = 9;
    REQUIRE(rgb.data()[1 * 3 + 1 * 12 + 2] == 9);

    std::vector<float> memory(6, 1.5f);
    Buffer<float> wrapped(memory.data(), 3, 2);
    wrapped(2, 1) = 4.0f;
    REQUIRE(memory[5] == 4.0f);
    Buffer<float, 2> shaped(memory.data(), {2, 3});
    REQUIRE(shaped.width() == 2);
}

TEST_CASE("runtime buffer: fill, for_each_value, shared copies and deep copy()", "[aot][buffer]") {
    Buffer<int> a(3, 2);
    a.fill(5);
    int sum = 0;
    a.for_each_value([&](int v) { sum += v; });
    REQUIRE(sum == 30);

    Buffer<int> shared = a;
    shared(0, 0) = 1;
    REQUIRE(a(0, 0) == 1);                                    // copies share memory
    REQUIRE(shared.raw_buffer()->dim != a.raw_buffer()->dim); // but not the shape

    a.set_min(2, 2);
    Buffer<int> deep = a.copy();
    deep(2, 2) = 100;
    REQUIRE(a(2, 2) == 1);
    REQUIRE(deep.dim(0).min() == 2);
    REQUIRE(deep(3, 3) == 5);

    Buffer<int> moved = std::move(deep);
    REQUIRE(moved(2, 2) == 100);
    REQUIRE(moved.raw_buffer()->dim[0].min == 2);
}

TEST_CASE("runtime buffer: element type chosen at run time", "[aot][buffer]") {
    Buffer<> b(loom_type_t{loom_type_float, 32, 1}, {4, 4, 2});
    REQUIRE(b.dimensions() == 3);
    REQUIRE(b.type().code == loom_type_float);
    REQUIRE(b.raw_buffer()->type.bits == 32);
    Buffer<bool> flags(3);
    REQUIRE(flags.type().bits == 1);
}
