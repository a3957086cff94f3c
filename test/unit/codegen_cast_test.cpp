// Casts between every kind of type: widening by the source's signedness,
// wrapping narrowings, truncating float->int, bools as 0/1.

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "codegen_test_util.h"

using namespace loom;
using namespace loom::Internal;
using namespace loom::test;

namespace {

// out(x) = cast<To>(in(x)) over the given inputs.
template <typename From, typename To>
std::vector<To> run_cast(const std::vector<From> &input, const std::string &name) {
    int n = int(input.size());
    Buffer<From> in(n);
    for (int i = 0; i < n; i++) in(i) = input[size_t(i)];
    Buffer<To> out(n);
    LoweredFunc f = pointwise(name, type_of<To>(), {buffer_arg("in", type_of<From>(), 1, false)},
                              Cast::make(type_of<To>(), load(type_of<From>(), "in", var("x"))));
    void *argv[] = {nullptr, in.raw_buffer(), out.raw_buffer()};
    REQUIRE(JITModule::compile(f, get_host_target()).argv_function()(argv) == 0);
    std::vector<To> result;
    for (int i = 0; i < n; i++) result.push_back(out(i));
    return result;
}

} // namespace

TEST_CASE("codegen: float to int casts truncate toward zero", "[codegen][jit]") {
    std::vector<float> in{-2.7f, -0.5f, 0.5f, 2.7f, 100.9f};
    REQUIRE(run_cast<float, int32_t>(in, "cg_f2i") == std::vector<int32_t>{-2, 0, 0, 2, 100});
    REQUIRE(run_cast<double, uint8_t>({0.9, 1.5, 254.99}, "cg_d2u8") ==
            std::vector<uint8_t>{0, 1, 254});
}

TEST_CASE("codegen: integer casts sign- or zero-extend by the source and wrap when narrowing",
          "[codegen][jit]") {
    REQUIRE(run_cast<int8_t, int32_t>({-1, -128, 127}, "cg_i8_i32") ==
            std::vector<int32_t>{-1, -128, 127});
    REQUIRE(run_cast<uint8_t, int32_t>({255, 128, 0}, "cg_u8_i32") ==
            std::vector<int32_t>{255, 128, 0});
    REQUIRE(run_cast<int8_t, uint16_t>({-1, 5}, "cg_i8_u16") == std::vector<uint16_t>{65535, 5});
    REQUIRE(run_cast<int32_t, int8_t>({300, -129, 127}, "cg_i32_i8") ==
            std::vector<int8_t>{44, 127, 127});
    REQUIRE(run_cast<uint64_t, uint32_t>({0x123456789ull}, "cg_u64_u32") ==
            std::vector<uint32_t>{0x23456789u});
}

TEST_CASE("codegen: int/float conversions respect signedness", "[codegen][jit]") {
    REQUIRE(run_cast<uint32_t, float>({4000000000u, 3u}, "cg_u32_f") ==
            std::vector<float>{4000000000.0f, 3.0f});
    REQUIRE(run_cast<int16_t, double>({-3, 7}, "cg_i16_d") == std::vector<double>{-3.0, 7.0});
    REQUIRE(run_cast<double, float>({0.1}, "cg_d_f") == std::vector<float>{0.1f});
    REQUIRE(run_cast<float, double>({0.1f}, "cg_f_d") == std::vector<double>{double(0.1f)});
}

TEST_CASE("codegen: bools are 0/1 in memory and compare nonzero on conversion", "[codegen][jit]") {
    REQUIRE(run_cast<int32_t, bool>({0, 5, -1}, "cg_i2b") == std::vector<bool>{false, true, true});
    REQUIRE(run_cast<float, bool>({0.0f, -0.0f, 0.5f}, "cg_f2b") ==
            std::vector<bool>{false, false, true});
    REQUIRE(run_cast<bool, float>({true, false}, "cg_b2f") == std::vector<float>{1.0f, 0.0f});
    REQUIRE(run_cast<bool, int8_t>({true, false}, "cg_b2i8") == std::vector<int8_t>{1, 0});
}

TEST_CASE("codegen: reinterpret keeps the bits", "[codegen][jit]") {
    Buffer<float> in(2);
    in(0) = 1.0f;
    in(1) = -2.0f;
    Buffer<uint32_t> out(2);
    LoweredFunc f = pointwise("cg_reinterpret", UInt(32), {buffer_arg("in", Float(32), 1, false)},
                              Reinterpret::make(UInt(32), load(Float(32), "in", var("x"))));
    void *argv[] = {nullptr, in.raw_buffer(), out.raw_buffer()};
    REQUIRE(JITModule::compile(f, get_host_target()).argv_function()(argv) == 0);
    REQUIRE(out(0) == 0x3f800000u);
    REQUIRE(out(1) == 0xc0000000u);
}
