// Bad input to the operators of Halide's IROperator.h: each is a
// CompileError (or, for require, a RuntimeError) whose message says what is
// wrong and what is legal.

#include "CompatCommon.h"

using namespace Halide;
using Catch::Matchers::Contains;

TEST_CASE("fixed-point operators reject what has no meaning", "[compat][errors]") {
    Var x("x");
    Expr i64 = cast<int64_t>(x), u8 = cast<uint8_t>(x), f64 = cast<double>(x);
    CHECK_THROWS_WITH(widening_add(i64, i64),
                      Contains("widening_add of int64") && Contains("up to 32 bits"));
    CHECK_THROWS_WITH(widening_mul(f64, f64), Contains("widening_mul of float64"));
    CHECK_THROWS_WITH(widening_shift_left(i64, 3), Contains("widening_shift_left"));
    CHECK_THROWS_WITH(mul_shift_right(i64, i64, 3), Contains("no integer type twice as wide"));
    CHECK_THROWS_AS(widen_right_add(u8, u8), CompileError);
    CHECK_THROWS_WITH(widen_right_add(cast<int16_t>(x), u8),
                      Contains("a must be uint16") && Contains("not int16"));
    CHECK_THROWS_WITH(mul_shift_right(u8, u8, cast<int8_t>(x)), Contains("must be unsigned"));
    CHECK_THROWS_WITH(saturating_add(x > 0, x > 1), Contains("integer or float operands"));
    CHECK_THROWS_WITH(rounding_shift_right(cast<float>(x), 2), Contains("integer operands"));
    CHECK_THROWS_WITH(rounding_shift_right(u8, 300), Contains("does not fit in uint8"));
    CHECK_THROWS_WITH(widening_mul(cast<float>(x), cast<int32_t>(x)),
                      Contains("does not convert exactly"));
}

TEST_CASE("bit operators reject mismatched widths and types", "[compat][errors]") {
    Var x("x");
    Expr f32 = cast<float>(x), u8 = cast<uint8_t>(x);
    CHECK_THROWS_WITH(reinterpret<uint16_t>(f32), Contains("total bit widths differ"));
    CHECK_THROWS_WITH(reinterpret(Int(64), u8), Contains("Cannot reinterpret uint8"));
    CHECK_THROWS_WITH(popcount(f32), Contains("popcount needs an integer"));
    CHECK_THROWS_WITH(count_leading_zeros(x > 0), Contains("needs an integer"));
    CHECK_THROWS_WITH(f32 & u8, Contains("bitwise operators need integer"));
    CHECK_THROWS_WITH(concat_bits({u8, u8, u8}), Contains("power of two"));
    CHECK_THROWS_WITH(concat_bits({u8, cast<int8_t>(x)}), Contains("one type"));
    CHECK_THROWS_WITH(concat_bits({cast<uint64_t>(x), cast<uint64_t>(x)}), Contains("at most 64"));
    CHECK_THROWS_WITH(extract_bits<uint8_t>(u8, f32), Contains("integer operands"));
}

TEST_CASE("math, random and hint operators reject bad arguments", "[compat][errors]") {
    Var x("x");
    CHECK_THROWS_WITH(erf(cast<double>(x)), Contains("erf needs a float32"));
    CHECK_THROWS_WITH(fast_sin(x), Contains("fast_sin needs a float32"));
    CHECK_THROWS_WITH(random_float(cast<float>(x)),
                      Contains("seed of random_float") && Contains("Int(32)"));
    CHECK_THROWS_WITH(require(x, x), Contains("condition of require must be bool"));
    CHECK_THROWS_WITH(select(Tuple(x, x), Tuple(x, x, x), Tuple(x, x)),
                      Contains("Tuples of different sizes"));
    CHECK_THROWS_WITH(mux(x, std::vector<Tuple>{}), Contains("at least one value"));
    CHECK_THROWS_WITH(saturating_sum(x > 0), Contains("uses no RVar"));
    RDom r1(0, 3), r2(0, 3);
    CHECK_THROWS_WITH(sum(r1 + r2), Contains("two different RDoms") && Contains("sum(r, e)"));
}

TEST_CASE("require fails at run time with its message and the condition", "[compat][errors]") {
    Buffer<int> in(16);
    for (int i = 0; i < 16; i++) in(i) = i - 3;
    Var x("x");
    Func f("needs_positive");
    f(x) = require(in(x) >= 0, in(x), "in(x) is", in(x), "at", x);
    CHECK_THROWS_WITH(f.realize({16}), Contains("Requirement failed") && Contains(">= 0") &&
                                           Contains("in(x) is -3 at 0"));
}
