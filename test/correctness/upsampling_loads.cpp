// Upsampling vector loads (index x / k + c with x vectorized, k = 2..4):
// the LLVM backend loads the few consecutive elements the lanes read and
// repeats each k times with a shuffle chosen by x's first lane modulo k,
// instead of a gather. The loads may read only what the scalar loop reads,
// whatever the alignment of the vector's first lane, so every input here
// holds exactly the elements the pipeline reads, flush against an
// inaccessible page (after its last element, or before its first): one
// element too many faults. The output's min is a run-time value, so the
// alignment is unknown when the code is compiled, and the widths leave a
// last vector that ShiftInwards moves to another alignment. Results are
// compared with plain C++; the generated LLVM IR must show dense loads and
// shuffles, not a gather.

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "Loom.h"
#include "common/GuardedArray.h"
#include "common/LLVMAssembly.h"

using namespace loom;
using Catch::Contains;

namespace {

using loom_test::avx2_llvm_assembly;
using loom_test::GuardedArray;

int floor_div(int a, int b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/** out(x) = in(x / k + offset) for x in [out_min, out_min + width),
 * vectorized by `lanes`; the input holds exactly the elements it reads,
 * against a guard page at its end or (guard_before) its start. With
 * `constant_min`, the output's min and extent are known when compiling
 * (bound), so the alignment of every vector is known too. */
template <typename T>
void check_upsample(int k, int offset, int out_min, int width, int lanes, bool guard_before,
                    bool constant_min = false) {
    int first = floor_div(out_min, k) + offset;
    int last = floor_div(out_min + width - 1, k) + offset;
    GuardedArray<T> mem(size_t(last - first + 1), guard_before);
    Buffer<T> in(mem.data, {last - first + 1}, "upsample_in");
    in.set_min({first});

    Var x("x");
    Func out("upsample_out");
    out(x) = in(x / k + offset);
    out.vectorize(x, lanes);
    if (constant_min) out.bound(x, out_min, width);
    Buffer<T> result({width}, "upsample_result");
    result.set_min({out_min});
    out.realize(result);

    for (int i = out_min; i < out_min + width; i++) {
        INFO("k " << k << ", offset " << offset << ", out_min " << out_min << ", width " << width
                  << ", lanes " << lanes << ", x " << i << ", guard_before " << guard_before);
        REQUIRE(result(i) == mem.data[floor_div(i, k) + offset - first]);
    }
}

} // namespace

TEST_CASE("upsampling loads: every alignment of the first lane, k = 2, 3, 4",
          "[correctness][upsampling_loads]") {
    for (int k : {2, 3, 4}) {
        for (int out_min = -k; out_min < k; out_min++) {
            for (bool guard_before : {false, true}) {
                check_upsample<uint8_t>(k, 0, out_min, 67, 16, guard_before);
                check_upsample<int16_t>(k, 3, out_min, 45, 8, guard_before);
                check_upsample<int32_t>(k, -2, out_min, 70, 16, guard_before);
                check_upsample<float>(k, 0, out_min, 37, 8, guard_before);
                check_upsample<double>(k, 1, out_min, 19, 4, guard_before);
            }
        }
    }
}

TEST_CASE("upsampling loads: odd, narrow and wide vectors", "[correctness][upsampling_loads]") {
    for (int k : {2, 3, 4}) {
        for (int out_min = 0; out_min < k; out_min++) {
            for (bool guard_before : {false, true}) {
                check_upsample<uint8_t>(k, 0, out_min, 200, 64, guard_before);
                check_upsample<uint16_t>(k, 0, out_min, 77, 32, guard_before);
                check_upsample<int32_t>(k, 0, out_min, 23, 3, guard_before);
                check_upsample<int32_t>(k, 0, out_min, 23, 5, guard_before);
                check_upsample<int16_t>(k, 0, out_min, 11, 2, guard_before);
                // Fewer lanes than k: a window of one or two elements.
                check_upsample<uint8_t>(k, 0, out_min, 13, 2, guard_before);
            }
        }
    }
}

TEST_CASE("upsampling loads: the alignment known when compiling",
          "[correctness][upsampling_loads]") {
    for (int k : {2, 3, 4}) {
        for (int out_min = 0; out_min < k; out_min++) {
            for (bool guard_before : {false, true}) {
                check_upsample<uint8_t>(k, 0, out_min, 64, 16, guard_before, true);
                check_upsample<int32_t>(k, 1, out_min, 35, 8, guard_before, true);
            }
        }
    }
}

TEST_CASE("upsampling loads: rows of an intermediate and of a 2-D input",
          "[correctness][upsampling_loads]") {
    // The inverse wavelet's row pass: out(x, y) reads two planes of a Func
    // computed per strip at x / 2, and a 2-D input at (x + 1) / 2 whose
    // last row ends against a guard page: 52 outputs from x = 0 or 1 read
    // columns up to 26.
    const int w = 52, h = 6, half = 27;
    GuardedArray<int16_t> mem(size_t(half * h), false);
    Buffer<int16_t> in(mem.data, {half, h}, "rows_in");
    Var x("x"), y("y"), c("c"), yo("yo"), yi("yi");
    Func planes("planes"), out("rows_out");
    planes(x, y, c) = cast<int32_t>(in(x, y)) * (c + 1);
    out(x, y) = cast<int16_t>(planes(x / 2, y, 0) - planes(x / 2, y, 1) + in((x + 1) / 2, y) +
                              in(x / 3, y));
    out.split(y, yo, yi, 2).vectorize(x, 16);
    planes.compute_at(out, yo).bound(c, 0, 2).reorder(x, c, y).vectorize(x, 8).unroll(c);
    for (int out_min : {0, 1}) {
        Buffer<int16_t> result({w, h}, "rows_result");
        result.set_min({out_min, 0});
        out.realize(result);
        for (int yy = 0; yy < h; yy++)
            for (int xx = out_min; xx < out_min + w; xx++) {
                int p = in(xx / 2, yy);
                int expected = p - 2 * p + in((xx + 1) / 2, yy) + in(xx / 3, yy);
                INFO("x " << xx << ", y " << yy << ", out_min " << out_min);
                REQUIRE(result(xx, yy) == int16_t(expected));
            }
    }
}

TEST_CASE("upsampling loads: LLVM IR loads densely and shuffles, without a gather",
          "[correctness][upsampling_loads]") {
    ImageParam in(UInt(8), 1, "ir_in");
    Var x("x");
    // 16 lanes of x / 2: 8 or 9 elements, read as two loads of 8.
    Func halves("ir_halves");
    halves(x) = in(x / 2);
    halves.vectorize(x, 16);
    std::string ir = avx2_llvm_assembly(halves, {in}, "ir_halves");
    CHECK_THAT(ir, Contains("load <8 x i8>"));
    CHECK_THAT(ir, Contains("shufflevector <8 x i8>"));
    CHECK_THAT(ir, !Contains("masked.gather") && !Contains("gathered_lane"));
    CHECK_THAT(ir, !Contains("load <16 x i8>"));

    // 16 lanes of x / 3 + 1: always 6 elements, one load.
    Func thirds("ir_thirds");
    thirds(x) = in(x / 3 + 1);
    thirds.vectorize(x, 16);
    ir = avx2_llvm_assembly(thirds, {in}, "ir_thirds");
    CHECK_THAT(ir, Contains("load <6 x i8>"));
    CHECK_THAT(ir, Contains("shufflevector <6 x i8>"));
    CHECK_THAT(ir, !Contains("masked.gather") && !Contains("gathered_lane"));

    // Two dimensions, the index named by CSE: x / 4 plus a row offset.
    Func quarters("ir_quarters");
    ImageParam in2(Float(32), 2, "ir_in2");
    Var y("y");
    quarters(x, y) = in2(x / 4, y) + in2(x / 4, y + 1);
    quarters.vectorize(x, 8);
    ir = avx2_llvm_assembly(quarters, {in2}, "ir_quarters");
    CHECK_THAT(ir, Contains("load <2 x float>"));
    CHECK_THAT(ir, Contains("shufflevector <2 x float>"));
    CHECK_THAT(ir, !Contains("masked.gather") && !Contains("gathered_lane"));
}

TEST_CASE("upsampling loads: a clamped coarse level loads densely in the steady state",
          "[correctness][upsampling_loads]") {
    // An image pyramid's upsampling: coarse(x / 2) and coarse((x + 1) / 2)
    // through repeat_edge. Loop partitioning solves the clamp through the
    // division, so the steady state reads without a clamp, densely.
    const int coarse_width = 23, width = 2 * coarse_width + 3;
    Buffer<float> small(coarse_width, "coarse_in");
    for (int i = 0; i < coarse_width; i++) small(i) = float(i * i % 17) + 0.5f * float(i);
    Func coarse = BoundaryConditions::repeat_edge(small);
    Var x("x");
    Func up("clamped_up");
    up(x) = (coarse(x / 2) + coarse((x + 1) / 2)) * 0.5f;
    up.vectorize(x, 8);
    Buffer<float> result({width}, "clamped_up_result");
    result.set_min({-2});
    up.realize(result);
    auto at = [&](int i) { return small(std::min(std::max(i, 0), coarse_width - 1)); };
    for (int i = -2; i < width - 2; i++)
        REQUIRE(result(i) == (at(floor_div(i, 2)) + at(floor_div(i + 1, 2))) * 0.5f);

    std::string ir = avx2_llvm_assembly(up, {}, "clamped_up");
    CHECK_THAT(ir, Contains("shufflevector <4 x float>") || Contains("shufflevector <5 x float>"));
}
