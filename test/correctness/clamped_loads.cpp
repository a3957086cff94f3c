// Vector loads at a clamped index (clamp(x + c, lo, hi) with x vectorized,
// a boundary condition where loop partitioning does not remove it): the
// LLVM backend loads the lanes inside [lo, hi] with one masked dense load
// and gives the lanes past an end the first or the last lane's element,
// instead of a gather; where the target has no masked load of that element
// size, it loads densely when no lane is clamped and gathers otherwise. Each input holds exactly
// [lo, hi], flush against an inaccessible page at either end, so a load of one element too many
// faults. The outputs reach past both ends, so vectors before, across,
// inside and after the input all run (on the host: AVX2 machines take the
// second form for 8- and 16-bit elements). Results are compared with plain
// C++; the LLVM IR must show the form the target calls for.

#include <catch2/catch.hpp>

#include <algorithm>
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

/** out(x) = in(clamp(x + offset, lo, hi)) for x in [out_min, out_min +
 * width), vectorized by `lanes`, with lo and hi Params (so the loop is
 * not partitioned and every vector loads through the clamp); the input
 * holds exactly [lo, hi]. `min_inside` writes the clamp as
 * max(min(v, hi), lo), else as min(max(v, lo), hi). */
template <typename T>
void check_clamped(int lo, int hi, int offset, int out_min, int width, int lanes, bool guard_before,
                   bool min_inside) {
    GuardedArray<T> mem(size_t(hi - lo + 1), guard_before);
    Buffer<T> in(mem.data, {hi - lo + 1}, "clamped_in");
    in.set_min({lo});
    Param<int> p_lo("p_lo"), p_hi("p_hi");
    p_lo.set(lo);
    p_hi.set(hi);

    Var x("x");
    Func out("clamped_out");
    Expr v = x + offset;
    out(x) = in(min_inside ? max(min(v, p_hi), p_lo) : min(max(v, p_lo), p_hi));
    out.vectorize(x, lanes);
    Buffer<T> result({width}, "clamped_result");
    result.set_min({out_min});
    out.realize(result);

    for (int i = out_min; i < out_min + width; i++) {
        int at = std::min(std::max(i + offset, lo), hi);
        INFO("lo " << lo << ", hi " << hi << ", offset " << offset << ", out_min " << out_min
                   << ", lanes " << lanes << ", x " << i << ", guard_before " << guard_before);
        REQUIRE(result(i) == mem.data[at - lo]);
    }
}

} // namespace

TEST_CASE("clamped loads: vectors before, across, inside and after the input",
          "[correctness][clamped_loads]") {
    for (bool guard_before : {false, true}) {
        for (bool min_inside : {true, false}) {
            for (int out_min : {-40, -3, 0, 5}) {
                check_clamped<uint8_t>(0, 99, 0, out_min, 180, 16, guard_before, min_inside);
                check_clamped<int16_t>(-7, 60, 3, out_min, 101, 8, guard_before, min_inside);
                check_clamped<float>(10, 50, -12, out_min, 97, 4, guard_before, min_inside);
                check_clamped<double>(0, 30, 0, out_min, 70, 4, guard_before, min_inside);
                check_clamped<uint8_t>(0, 200, 1, out_min, 301, 32, guard_before, min_inside);
            }
            // An input shorter than a vector: no vector is ever inside.
            check_clamped<int32_t>(0, 5, 0, -20, 50, 8, guard_before, min_inside);
            // One element: every vector is at an end or across both.
            check_clamped<uint16_t>(3, 3, 0, -10, 30, 8, guard_before, min_inside);
        }
    }
}

TEST_CASE("clamped loads: repeat_edge of a 2-D input in the unpartitioned edges",
          "[correctness][clamped_loads]") {
    const int w = 45, h = 7;
    for (bool guard_before : {false, true}) {
        GuardedArray<uint8_t> mem(size_t(w * h), guard_before);
        Buffer<uint8_t> in(mem.data, {w, h}, "edge_in");
        Var x("x"), y("y");
        Func clamped = BoundaryConditions::repeat_edge(in);
        Func out("edge_out");
        out(x, y) = cast<uint16_t>(clamped(x - 20, y - 1)) + clamped(x + 3, y + 1);
        out.vectorize(x, 16);
        Buffer<uint16_t> result = out.realize({w + 40, h + 2});
        for (int yy = 0; yy < h + 2; yy++)
            for (int xx = 0; xx < w + 40; xx++) {
                auto at = [&](int i, int j) {
                    return int(
                        in(std::min(std::max(i, 0), w - 1), std::min(std::max(j, 0), h - 1)));
                };
                INFO("x " << xx << ", y " << yy << ", guard_before " << guard_before);
                REQUIRE(result(xx, yy) == uint16_t(at(xx - 20, yy - 1) + at(xx + 3, yy + 1)));
            }
    }
}

namespace {

/** The LLVM IR of f(x) = in(clamp(x, lo, hi) + 1) of type t, vectorized by
 * `lanes`, for `target`. */
std::string clamped_ir(Type t, int lanes, const std::string &target) {
    ImageParam in(t, 1, "ir_in");
    Param<int> lo("lo"), hi("hi");
    Var x("x");
    Func f("ir_clamped");
    f(x) = in(clamp(x, lo, hi) + 1);
    f.vectorize(x, lanes);
    return loom_test::llvm_assembly_for(f, {in, lo, hi}, "ir_clamped", target);
}

} // namespace

TEST_CASE("clamped loads: LLVM IR has a masked dense load where the target has one",
          "[correctness][clamped_loads]") {
    // AVX-512BW loads bytes under a mask; AVX2 loads 32-bit lanes so.
    std::string bytes = clamped_ir(UInt(8), 16, "x86-64-linux-avx512_skylake");
    CHECK_THAT(bytes, Contains("call <16 x i8> @llvm.masked.load.v16i8"));
    CHECK_THAT(bytes, !Contains("masked.gather") && !Contains("gathered_lane"));
    std::string floats = clamped_ir(Float(32), 8, "x86-64-linux-avx2-fma");
    CHECK_THAT(floats, Contains("<8 x float> @llvm.masked.load.v8f32"));
    CHECK_THAT(floats, !Contains("masked.gather") && !Contains("gathered_lane"));
}

TEST_CASE("clamped loads: without masked loads of its elements, a dense load where no lane is "
          "clamped and a gather at the edges",
          "[correctness][clamped_loads]") {
    // AVX2 has no masked load of bytes; LLVM would expand one into a branch
    // per lane.
    std::string ir = clamped_ir(UInt(8), 16, "x86-64-linux-avx2-fma");
    CHECK_THAT(ir, !Contains("masked.load"));
    CHECK_THAT(ir, Contains("unclamped_load:"));
    CHECK_THAT(ir, Contains("load <16 x i8>"));
    // The edge's gather: AVX2 has no byte gather, so a load per lane.
    CHECK_THAT(ir, Contains("gathered_lane"));
    CHECK_THAT(ir, !Contains("masked.gather"));
}
