// Vector loads with a small constant stride (index s * x + k, s = 2..4): the
// LLVM backend loads the dense span and shuffles out every s-th lane, instead
// of loading lane by lane. The dense span may only reach past the lanes where
// other loads of the same code read that far, so every input here lies
// against an inaccessible page (after its last element, or before its first)
// and sits exactly where the pipeline reads: one element read too many
// faults (and ASan reports it). Results are compared with plain C++; the
// generated LLVM IR must show dense loads and shuffles, not a gather.

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

/** out(x) = sum over k in `residues` of in(stride * x + k + offset), for x in
 * [0, width), vectorized by `lanes`; the input holds exactly the elements it
 * reads, against a guard page at its end or (guard_before) its start. */
template <typename T>
void check_strided_sum(int stride, std::vector<int> residues, int offset, int width, int lanes,
                       bool guard_before) {
    int lo = residues.front(), hi = residues.back();
    int first = lo + offset, last = stride * (width - 1) + hi + offset;
    GuardedArray<T> mem(size_t(last - first + 1), guard_before);
    Buffer<T> in(mem.data, {last - first + 1}, "strided_in");
    in.set_min({first});

    Var x("x");
    Func out("strided_out");
    Expr sum = cast<T>(0);
    for (int k : residues) sum = sum + in(stride * x + (k + offset));
    out(x) = sum;
    out.vectorize(x, lanes);
    Buffer<T> result = out.realize({width});

    for (int i = 0; i < width; i++) {
        T expected = T(0);
        for (int k : residues) expected = T(expected + mem.data[stride * i + k + offset - first]);
        INFO("stride " << stride << ", x " << i << ", lanes " << lanes << ", offset " << offset);
        REQUIRE(result(i) == expected);
    }
}

} // namespace

TEST_CASE("strided loads: every residue of strides 2, 3, 4 against the end of the input",
          "[correctness][strided_loads]") {
    for (int stride : {2, 3, 4}) {
        std::vector<int> all;
        for (int k = 0; k < stride; k++) all.push_back(k);
        for (int offset : {0, 1, 5}) {
            for (bool guard_before : {false, true}) {
                check_strided_sum<uint8_t>(stride, all, offset, 67, 16, guard_before);
                check_strided_sum<int16_t>(stride, all, offset, 45, 8, guard_before);
                check_strided_sum<float>(stride, all, offset, 37, 8, guard_before);
                check_strided_sum<int32_t>(stride, all, offset, 70, 32, guard_before);
            }
        }
    }
}

TEST_CASE("strided loads: one residue reads no element beyond its own lanes",
          "[correctness][strided_loads]") {
    for (int stride : {2, 3, 4}) {
        for (int k = 0; k < stride; k++) {
            for (bool guard_before : {false, true}) {
                check_strided_sum<uint8_t>(stride, {k}, 0, 50, 16, guard_before);
                check_strided_sum<uint16_t>(stride, {k}, 3, 29, 8, guard_before);
                check_strided_sum<int32_t>(stride, {k}, 1, 23, 4, guard_before);
                check_strided_sum<double>(stride, {k}, 0, 19, 4, guard_before);
            }
        }
    }
}

TEST_CASE("strided loads: some residues, odd vector widths and wide spans",
          "[correctness][strided_loads]") {
    for (bool guard_before : {false, true}) {
        check_strided_sum<uint8_t>(3, {0, 2}, 0, 40, 16, guard_before);
        check_strided_sum<uint8_t>(4, {1, 3}, 2, 40, 16, guard_before);
        check_strided_sum<int16_t>(4, {0, 1, 2}, 0, 33, 8, guard_before);
        check_strided_sum<int32_t>(2, {0, 1}, 0, 31, 3, guard_before);
        check_strided_sum<int32_t>(3, {1}, 0, 31, 5, guard_before);
        // Past the widest dense span: stays a gather.
        check_strided_sum<int32_t>(4, {0, 1, 2, 3}, 0, 130, 64, guard_before);
        check_strided_sum<uint8_t>(2, {0, 1}, 0, 300, 64, guard_before);
    }
}

TEST_CASE("strided loads: even and odd columns of an image and of an intermediate",
          "[correctness][strided_loads]") {
    // The wavelet's row pass: pairs along x of a 2-D input whose last row
    // ends against a guard page, and of a Func computed at the root.
    const int w = 37, h = 5;
    GuardedArray<uint8_t> mem(size_t(2 * w * h), false);
    Buffer<uint8_t> in(mem.data, {2 * w, h}, "pairs_in");
    Var x("x"), y("y");
    Func doubled("doubled"), rows("pairs_rows"), out("pairs_out");
    doubled(x, y) = cast<int16_t>(in(x, y)) * 2;
    rows(x, y) = cast<int16_t>(in(2 * x, y)) - cast<int16_t>(in(2 * x + 1, y));
    out(x, y) = rows(x, y) + doubled(2 * x + 1, y) - doubled(2 * x, y);
    rows.compute_root().vectorize(x, 16);
    doubled.compute_root().vectorize(x, 16);
    out.vectorize(x, 8);
    Buffer<int16_t> result = out.realize({w, h});
    for (int yy = 0; yy < h; yy++)
        for (int xx = 0; xx < w; xx++) {
            int a = in(2 * xx, yy), b = in(2 * xx + 1, yy);
            INFO("x " << xx << ", y " << yy);
            REQUIRE(result(xx, yy) == int16_t((a - b) + 2 * b - 2 * a));
        }
}

TEST_CASE("strided loads: LLVM IR loads densely and shuffles, without a gather",
          "[correctness][strided_loads]") {
    Buffer<uint8_t> in({256}, "ir_in");
    Var x("x");
    // Both residues: one shared dense load of 32 bytes, two shuffles.
    Func pair("ir_pair");
    pair(x) = in(2 * x) + in(2 * x + 1);
    pair.vectorize(x, 16);
    std::string ir = avx2_llvm_assembly(pair, {}, "ir_pair");
    CHECK_THAT(ir, Contains("load <32 x i8>"));
    CHECK_THAT(ir, Contains("shufflevector <32 x i8>"));
    CHECK_THAT(ir, !Contains("masked.gather") && !Contains("gathered_lane"));
    CHECK_THAT(ir, !Contains("insertelement <16 x i8>"));

    // One residue: two loads of half the span, neither past the last lane.
    Func odd("ir_odd");
    odd(x) = in(3 * x + 1);
    odd.vectorize(x, 16);
    ir = avx2_llvm_assembly(odd, {}, "ir_odd");
    CHECK_THAT(ir, Contains("load <24 x i8>"));
    CHECK_THAT(ir, Contains("shufflevector <24 x i8>"));
    CHECK_THAT(ir, !Contains("masked.gather") && !Contains("gathered_lane"));
}
