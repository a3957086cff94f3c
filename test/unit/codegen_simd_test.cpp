// Vector code quality of scheduled pipelines: dense vector loads and stores
// (no gathers) for stride-1 buffers, wide registers, plain vector zext/trunc
// for widening and narrowing, cheap division by constants; results compared
// with plain C++. Also the stride-1 default of buffer arguments.

#include <catch2/catch.hpp>

#include <regex>

#include "loom/Error.h"
#include "loom/Func.h"
#include "loom/IROperator.h"
#include "loom/ImageParam.h"
#include "parallel_test_util.h"

using namespace loom;
using namespace par_test;

namespace {

void vectorize_x(Func f, int lanes, bool parallel_y = false) {
    schedule(f, {{"x", lanes}},
             {{"x.i", ForType::Vectorized},
              {"x.o", ForType::Serial},
              {"y", parallel_y ? ForType::Parallel : ForType::Serial}});
}

int count(const std::string &text, const std::string &what) {
    int n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) n++;
    return n;
}

} // namespace

TEST_CASE("simd: uint16 3-tap blur uses dense 16-lane loads and a udiv by 3", "[simd]") {
    const int W = 67, H = 9; // not a multiple of the vector width
    Buffer<uint16_t> in(W + 2, H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W + 2; x++) in(x, y) = uint16_t((x * 7919 + y * 104729) % 20000);
    Var x("x"), y("y");
    Func blur("simd_blur");
    blur(x, y) = (in(x, y) + in(x + 1, y) + in(x + 2, y)) / 3;
    vectorize_x(blur, 16, true);

    Buffer<uint16_t> out = blur.realize({W, H});
    for (int yy = 0; yy < H; yy++)
        for (int xx = 0; xx < W; xx++)
            REQUIRE(out(xx, yy) == uint16_t((in(xx, yy) + in(xx + 1, yy) + in(xx + 2, yy)) / 3));

    std::string ir = llvm_ir_of(blur);
    INFO(ir);
    CHECK(std::regex_search(ir, std::regex("load <16 x i16>")));
    CHECK(std::regex_search(ir, std::regex("store <16 x i16>")));
    CHECK_FALSE((contains(ir, "masked.gather") || contains(ir, "gathered_lane")));
    CHECK_FALSE(contains(ir, "masked.scatter"));
    // Unsigned Euclidean division is a plain udiv (a multiply-high in machine code).
    CHECK(contains(ir, "udiv <16 x i16>"));
    CHECK_FALSE(contains(ir, "sdiv <"));
    CHECK_FALSE(contains(ir, "srem <"));
}

TEST_CASE("simd: float pipeline loads and stores <16 x float> densely", "[simd]") {
    const int W = 45, H = 5;
    Buffer<float> in(W + 4, H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W + 4; x++) in(x, y) = float(x * 0.5 - y * 1.25);
    Var x("x"), y("y");
    Func f("simd_float");
    f(x, y) = in(x, y) * 0.25f + in(x + 2, y) * 0.5f + in(x + 4, y) * 0.25f;
    vectorize_x(f, 16);
    Buffer<float> out = f.realize({W, H});
    for (int yy = 0; yy < H; yy++)
        for (int xx = 0; xx < W; xx++)
            REQUIRE(out(xx, yy) ==
                    Approx(in(xx, yy) * 0.25f + in(xx + 2, yy) * 0.5f + in(xx + 4, yy) * 0.25f));
    std::string ir = llvm_ir_of(f);
    INFO(ir);
    CHECK(contains(ir, "load <16 x float>"));
    CHECK(contains(ir, "store <16 x float>"));
    CHECK_FALSE((contains(ir, "masked.gather") || contains(ir, "gathered_lane")));
}

TEST_CASE("simd: widening and narrowing casts are vector zext and trunc", "[simd]") {
    const int W = 50, H = 3;
    Buffer<uint8_t> in(W, H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) in(x, y) = uint8_t(x * 31 + y * 7);
    Var x("x"), y("y");
    Func widen("simd_widen"), narrow("simd_narrow");
    widen(x, y) = cast<uint16_t>(in(x, y)) * 300;
    narrow(x, y) = cast<uint8_t>(widen(x, y) / 256);
    compute_root(widen);
    vectorize_x(widen, 16);
    vectorize_x(narrow, 16);
    Buffer<uint8_t> out = narrow.realize({W, H});
    for (int yy = 0; yy < H; yy++)
        for (int xx = 0; xx < W; xx++)
            REQUIRE(out(xx, yy) == uint8_t(uint16_t(in(xx, yy) * 300) / 256));
    std::string ir = llvm_ir_of(narrow);
    INFO(ir);
    CHECK(std::regex_search(ir, std::regex("zext <16 x i8> .* to <16 x i16>")));
    // Dividing by 256 and narrowing: a shift and a truncate.
    CHECK(std::regex_search(ir, std::regex("trunc( nuw)?( nsw)? <16 x i16> .* to <16 x i8>")));
    CHECK_FALSE((contains(ir, "masked.gather") || contains(ir, "gathered_lane")));
}

TEST_CASE("simd: signed division and modulo by constants stay Euclidean", "[simd]") {
    const int W = 83;
    Buffer<int> in(W);
    // Every third value near INT_MIN, but not past it: (x - 41) * 1237 is at
    // least -50717, and -50717 - 2147400000 still fits an int (signed
    // overflow is undefined in the reference and in Loom).
    for (int x = 0; x < W; x++) in(x) = (x - 41) * 1237 - (x % 3 == 0 ? 2147400000 : 0);
    Var x("x");
    Func f("simd_signed_div");
    f(x) = in(x) / 7 + (in(x) % 7) * 3 + in(x) / 10 * 7; // fits an int: no overflow
    schedule(f, {{"x", 16}}, {{"x.i", ForType::Vectorized}, {"x.o", ForType::Serial}});
    Buffer<int> out = f.realize({W});
    auto ediv = [](int64_t a, int64_t b) {
        int64_t q = a / b, r = a % b;
        return r < 0 ? q - 1 : q;
    };
    auto emod = [](int64_t a, int64_t b) {
        int64_t r = a % b;
        return r < 0 ? r + b : r;
    };
    for (int xx = 0; xx < W; xx++) {
        int64_t a = in(xx);
        int expected = int(ediv(a, 7) + emod(a, 7) * 3 + ediv(a, 10) * 7);
        REQUIRE(out(xx) == expected);
    }
    // Flooring division by a positive constant: xor with the sign, then an
    // unsigned division LLVM turns into a multiply-high.
    std::string ir = llvm_ir_of(f);
    CHECK(contains(ir, "udiv <16 x i32>"));
    CHECK_FALSE(contains(ir, "sdiv <"));
    CHECK_FALSE(contains(ir, "srem <"));
}

TEST_CASE("simd: LLVM's loop vectorizer is told to leave vectorized loops alone", "[simd]") {
    Var x("x"), y("y");
    Buffer<float> in(64, 4);
    Func f("simd_no_revectorize");
    f(x, y) = in(x, y) * 2.0f;
    vectorize_x(f, 8);
    std::string ir = llvm_ir_of(f);
    CHECK(contains(ir, "llvm.loop.vectorize.enable"));
    CHECK(count(ir, "<8 x float>") > 0);
}

TEST_CASE("simd: buffers are dense in dimension 0 unless the stride is relaxed", "[simd]") {
    const int W = 20, H = 6;
    Buffer<uint8_t> rgb = Buffer<uint8_t>::make_interleaved(W, H, 3);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) rgb(x, y, c) = uint8_t(x + 10 * y + 100 * c);

    auto make = [&](ImageParam &in, const std::string &name) {
        Var x("x"), y("y"), c("c");
        Func f(name);
        f(x, y, c) = cast<uint16_t>(in(x, y, c)) * 2;
        return f;
    };
    SECTION("default: an interleaved input is a clear error") {
        ImageParam in(UInt(8), 3, "interleaved_in");
        in.set(rgb);
        Func f = make(in, "simd_stride_default");
        try {
            f.realize({W, H, 3});
            FAIL("an interleaved input passed the stride-1 check");
        } catch (const RuntimeError &e) {
            std::string m = e.what();
            INFO(m);
            CHECK(contains(m, "interleaved_in.dim(0).stride()"));
            CHECK(contains(m, "(3)"));
            CHECK(contains(m, "set_stride(Expr())"));
        }
    }
    SECTION("relaxed with dim(0).set_stride(Expr())") {
        ImageParam in(UInt(8), 3, "interleaved_ok");
        in.dim(0).set_stride(Expr());
        in.set(rgb);
        Func f = make(in, "simd_stride_relaxed");
        schedule(f, {{"x", 8}},
                 {{"x.i", ForType::Vectorized},
                  {"x.o", ForType::Serial},
                  {"y", ForType::Serial},
                  {"c", ForType::Serial}});
        Buffer<uint16_t> out = f.realize({W, H, 3});
        for (int c = 0; c < 3; c++)
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) REQUIRE(out(x, y, c) == rgb(x, y, c) * 2);
    }
    SECTION("an interleaved output is checked too") {
        ImageParam in(UInt(8), 3, "planar_in");
        Buffer<uint8_t> planar(W, H, 3);
        planar.fill(1);
        in.set(planar);
        Var x("x"), y("y"), c("c");
        Func f("simd_stride_output");
        f(x, y, c) = in(x, y, c);
        Buffer<uint8_t> out = Buffer<uint8_t>::make_interleaved(W, H, 3);
        CHECK_THROWS_WITH(f.realize(out), Catch::Contains("simd_stride_output.dim(0).stride()"));
        // (Constraints are read when the pipeline compiles: relax it on a new Func.)
        Func g("simd_stride_output_relaxed");
        g(x, y, c) = in(x, y, c);
        g.output_buffer().dim(0).set_stride(Expr());
        g.realize(out);
        CHECK(out(3, 2, 1) == 1);
    }
}
