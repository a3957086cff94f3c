// float16_t and bfloat16_t end to end, as a Halide user writes them: the C++
// types against an independent rounding reference, and pipelines over
// Buffer<float16_t> / Buffer<bfloat16_t> on the LLVM and the C backend,
// whose every operation must round as the C++ types do.

#include "Loom.h"
namespace Halide = loom;

#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/ScopedEnv.h"

using namespace Halide;

namespace {

// Round v to the nearest value of a binary float format (ties to even),
// computed in long double: the reference, independent of Loom.
long double round_to_format(long double v, int precision, int min_exponent, int max_exponent) {
    if (std::isnan(v) || std::isinf(v) || v == 0) return v;
    int e = 0;
    std::frexp(v, &e);
    int exponent = std::max(e - 1, min_exponent);
    long double unit = std::ldexp(1.0L, exponent - precision + 1);
    long double units = v / unit; // exact
    long double whole = std::floor(units), rest = units - whole;
    if (rest > 0.5L || (rest == 0.5L && std::fmod(whole, 2.0L) != 0)) whole += 1;
    long double r = whole * unit;
    long double max_finite = std::ldexp(2.0L - std::ldexp(1.0L, 1 - precision), max_exponent);
    if (std::fabs(r) > max_finite) return r > 0 ? INFINITY : -INFINITY;
    return r;
}

long double ref_half(long double v) {
    return round_to_format(v, 11, -14, 15);
}
long double ref_bfloat(long double v) {
    return round_to_format(v, 8, -126, 127);
}

bool same(long double a, long double b) {
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

// Values to compute with: all kinds of magnitudes, ties, specials.
template <typename F> std::vector<F> test_values(uint32_t seed, int n) {
    std::mt19937 rng(seed);
    std::vector<F> v = {F(0.0), F(-0.0), F(1.0), F(-1.5), F(3.0), F(0.1), F(1000.0), F(-7.25)};
    std::uniform_real_distribution<double> mantissa(-2.0, 2.0);
    std::uniform_int_distribution<int> exponent(-12, 12);
    while (int(v.size()) < n) v.push_back(F(std::ldexp(mantissa(rng), exponent(rng))));
    return v;
}

} // namespace

TEST_CASE("compat float16: float16_t and bfloat16_t round like the reference",
          "[compat][float16]") {
    // Every bit pattern survives a trip through float.
    for (uint32_t b = 0; b < 65536; b++) {
        float16_t h = float16_t::make_from_bits(uint16_t(b));
        bfloat16_t g = bfloat16_t::make_from_bits(uint16_t(b));
        if (!h.is_nan()) CHECK(float16_t(float(h)).to_bits() == b);
        if (!g.is_nan()) CHECK(bfloat16_t(float(g)).to_bits() == b);
        if (h.is_nan()) CHECK(float16_t(float(h)).is_nan());
        if (g.is_nan()) CHECK(bfloat16_t(double(g)).is_nan());
    }
    // Conversions from double and float round to nearest even, overflow to infinity.
    std::mt19937 rng(7);
    std::uniform_int_distribution<uint64_t> any_bits;
    for (int i = 0; i < 20000; i++) {
        double d;
        uint64_t bits = any_bits(rng);
        std::memcpy(&d, &bits, sizeof(d));
        if (std::isnan(d) || std::isinf(d)) continue;
        int e = 0;
        d = std::ldexp(std::frexp(d, &e), int(bits % 300) - 150); // magnitudes near both ranges
        INFO("d = " << d);
        CHECK(same(double(float16_t(d)), ref_half(d)));
        CHECK(same(double(bfloat16_t(d)), ref_bfloat(d)));
        float f = float(d);
        CHECK(same(double(float16_t(f)), ref_half(f)));
        CHECK(same(double(bfloat16_t(f)), ref_bfloat(f)));
    }
    // Ties go to even.
    CHECK(float(float16_t(1.0 + std::ldexp(1.0, -11))) == 1.0f);
    CHECK(float(float16_t(1.0 + 3 * std::ldexp(1.0, -11))) == 1.0f + std::ldexp(1.0f, -9));
    CHECK(float16_t(65520.0).is_infinity());
    CHECK(float(float16_t(65519.0)) == 65504.0f);
    CHECK(float(bfloat16_t(1.0 + std::ldexp(1.0, -8))) == 1.0f);
    CHECK(float16_t::make_infinity().is_infinity());
    CHECK(float16_t::make_nan().is_nan());
    CHECK(float16_t::make_negative_zero().is_zero());
    CHECK(float16_t::make_negative_zero().is_negative());
    CHECK(int(float16_t(-3.75f)) == -3);
}

TEST_CASE("compat float16: arithmetic on the C++ types rounds once per operation",
          "[compat][float16]") {
    std::vector<float16_t> h = test_values<float16_t>(1, 60);
    std::vector<bfloat16_t> g = test_values<bfloat16_t>(2, 60);
    for (size_t i = 0; i < h.size(); i++) {
        for (size_t j = 0; j < h.size(); j++) {
            long double a = double(h[i]), b = double(h[j]);
            CHECK(same(double(h[i] + h[j]), ref_half(a + b)));
            CHECK(same(double(h[i] - h[j]), ref_half(a - b)));
            CHECK(same(double(h[i] * h[j]), ref_half(a * b)));
            if (b != 0) CHECK(same(double(h[i] / h[j]), ref_half(a / b)));
            CHECK((h[i] < h[j]) == (a < b));
            long double c = double(g[i]), d = double(g[j]);
            CHECK(same(double(g[i] + g[j]), ref_bfloat(c + d)));
            CHECK(same(double(g[i] * g[j]), ref_bfloat(c * d)));
            if (d != 0) CHECK(same(double(g[i] / g[j]), ref_bfloat(c / d)));
        }
    }
    float16_t x(2.0f);
    x += float16_t(1.0f);
    x *= float16_t(0.5f);
    CHECK(float(x) == 1.5f);
    CHECK(float(-x) == -1.5f);
}

namespace {

// f16 / bf16 pipeline: the same algorithm for both element types, checked
// against the C++ type's arithmetic.
template <typename F> void check_pipeline(const char *backend, bool vectorized) {
    std::vector<F> av = test_values<F>(3, 64), bv = test_values<F>(4, 64);
    const int n = int(av.size());
    Buffer<F> a(n, "a"), b(n, "b");
    Buffer<double> d(n, "d");
    Buffer<int> k(n, "k");
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> wide(-70000, 70000);
    for (int i = 0; i < n; i++) {
        a(i) = av[size_t(i)];
        b(i) = bv[size_t(i)];
        d(i) = i % 2 ? wide(rng) : double(av[size_t(i)]) * (1 + std::ldexp(1.0, -30));
        k(i) = int(rng() % 600000) - 300000;
    }
    Param<F> offset("offset", F(0.75f));

    Var x("x");
    Func f("f");
    // Several operations in a row, each rounding to 16 bits; math in float.
    f(x) = Tuple(a(x) * b(x) + a(x) - offset, a(x) / select(b(x) == F(0.0f), F(1.0f), b(x)),
                 cast<F>(d(x)), cast<F>(k(x)), sqrt(abs(a(x))), cast<float>(a(x)) * 2.0f,
                 select(a(x) < b(x), a(x), b(x)), max(a(x), b(x)) + F(0.1f));
    if (vectorized) f.vectorize(x, 8);

    // As for float32, a multiply feeding an add may fuse into one rounding
    // unless the target has strict_float.
    loom_test::ScopedEnv env("LOOM_JIT_BACKEND", backend);
    Realization r =
        f.realize({n}, get_jit_target_from_environment().with_feature(Target::StrictFloat));
    Buffer<F> r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3], r4 = r[4], r6 = r[6], r7 = r[7];
    Buffer<float> r5 = r[5];
    F off(0.75f), one(1.0f), point_one(0.1f);
    for (int i = 0; i < n; i++) {
        F x_a = av[size_t(i)], x_b = bv[size_t(i)];
        INFO(backend << (vectorized ? " vectorized" : "") << ", i = " << i << ": a = " << float(x_a)
                     << ", b = " << float(x_b));
        CHECK(r0(i).to_bits() == (x_a * x_b + x_a - off).to_bits());
        CHECK(r1(i).to_bits() == (x_a / (float(x_b) == 0 ? one : x_b)).to_bits());
        CHECK(r2(i).to_bits() == F(d(i)).to_bits());
        CHECK(r3(i).to_bits() == F(double(k(i))).to_bits());
        CHECK(r4(i).to_bits() == F(std::sqrt(std::fabs(float(x_a)))).to_bits());
        CHECK(r5(i) == float(x_a) * 2.0f);
        CHECK(r6(i).to_bits() == (x_a < x_b ? x_a : x_b).to_bits());
        CHECK(r7(i).to_bits() == ((x_a < x_b ? x_b : x_a) + point_one).to_bits());
    }
}

} // namespace

TEST_CASE("compat float16: Float(16) pipelines compute as float16_t does", "[compat][float16]") {
    check_pipeline<float16_t>("llvm", false);
    check_pipeline<float16_t>("llvm", true);
    check_pipeline<float16_t>("c", false);
    check_pipeline<float16_t>("c", true);
}

TEST_CASE("compat float16: BFloat(16) pipelines compute as bfloat16_t does", "[compat][float16]") {
    check_pipeline<bfloat16_t>("llvm", false);
    check_pipeline<bfloat16_t>("llvm", true);
    check_pipeline<bfloat16_t>("c", false);
    check_pipeline<bfloat16_t>("c", true);
}

TEST_CASE("compat float16: 16-bit float constants, params and conversions", "[compat][float16]") {
    Var x;
    Func f;
    Expr h = Expr(float16_t(1.5f));
    CHECK(h.type() == Float(16));
    CHECK(Expr(bfloat16_t(2.0f)).type() == BFloat(16));
    f(x) = Tuple(cast<float16_t>(x) * h, cast<bfloat16_t>(cast<float16_t>(x) / 3));
    Realization r = f.realize({300});
    Buffer<float16_t> a = r[0];
    Buffer<bfloat16_t> b = r[1];
    for (int i = 0; i < 300; i++) {
        CHECK(a(i).to_bits() == (float16_t(i) * float16_t(1.5f)).to_bits());
        CHECK(b(i).to_bits() == bfloat16_t(float(float16_t(i) / float16_t(3))).to_bits());
    }
    Param<bfloat16_t> p("p");
    p.set(bfloat16_t(3.0f));
    CHECK(float(p.get()) == 3.0f);
    Param<float16_t> q("q", float16_t(0.5f));
    CHECK(float(q.get()) == 0.5f);
}
