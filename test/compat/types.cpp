// Halide's Type, written as a Halide user would: methods, limits, widening,
// and can_represent over every pair of scalar types against a C++ reference.

#include "Loom.h"
namespace Halide = loom;

#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

using namespace Halide;
using Catch::Matchers::Contains;

namespace {

// ---- A reference for "which values does a type hold", independent of Loom:
// every value is a long double (64-bit significand: every int64, uint64 and
// double is exact in it), and a float format is (precision, min exponent,
// largest finite value).

struct FloatFormat {
    int precision; // significant bits, the implicit one included
    int min_exponent;
    long double max_finite;
};

const FloatFormat half_format{11, -14, 65504.0L};
const FloatFormat bfloat_format{8, -126, std::ldexp(255.0L, 120)};
const FloatFormat float_format{24, -126, FLT_MAX};
const FloatFormat double_format{53, -1022, DBL_MAX};

// Is v a value of the float format? (NaN and infinities are in every float format.)
bool format_holds(const FloatFormat &f, long double v) {
    if (std::isnan(v) || std::isinf(v) || v == 0) return true;
    if (std::fabs(v) > f.max_finite) return false;
    int e = 0;
    std::frexp(v, &e); // |v| = m * 2^e, m in [0.5, 1)
    int exponent = std::max(e - 1, f.min_exponent);
    long double units = std::ldexp(v, f.precision - 1 - exponent); // exact
    return units == std::floor(units);
}

struct RefType {
    Type type;
    std::vector<long double> values; // every value, or the ones at every boundary
};

// The value of 16-bit float bits with e_bits of exponent (decoded by hand).
long double decode16(uint16_t bits, int e_bits) {
    int m_bits = 15 - e_bits, bias = (1 << (e_bits - 1)) - 1;
    int e = (bits >> m_bits) & ((1 << e_bits) - 1);
    long double m = bits & ((1 << m_bits) - 1);
    long double sign = (bits & 0x8000) ? -1 : 1;
    if (e == (1 << e_bits) - 1) return m != 0 ? NAN : sign * INFINITY;
    if (e == 0) return sign * std::ldexp(m, 1 - bias - m_bits);
    return sign * std::ldexp(m + std::ldexp(1.0L, m_bits), e - bias - m_bits);
}

std::vector<long double> int_witnesses(bool is_signed, int bits) {
    std::vector<long double> v;
    long double lo = is_signed ? -std::ldexp(1.0L, bits - 1) : 0;
    long double hi = std::ldexp(1.0L, is_signed ? bits - 1 : bits) - 1;
    if (bits <= 16) {
        for (long double x = lo; x <= hi; x++) v.push_back(x);
        return v;
    }
    v = {lo, hi, lo + 1, hi - 1, 0, 1};
    for (int k = 1; k < bits; k++) {
        for (long double d : {-1.0L, 0.0L, 1.0L}) {
            long double x = std::ldexp(1.0L, k) + d;
            if (x <= hi) v.push_back(x);
            if (is_signed && -x >= lo) v.push_back(-x);
        }
    }
    return v;
}

std::vector<long double> float_witnesses(const FloatFormat &f) {
    std::vector<long double> v = {0,
                                  f.max_finite,
                                  -f.max_finite,
                                  std::ldexp(1.0L, f.min_exponent),
                                  std::ldexp(1.0L, f.min_exponent - f.precision + 1),
                                  1 + std::ldexp(1.0L, 1 - f.precision),
                                  INFINITY,
                                  -INFINITY,
                                  NAN};
    for (int k = -10; k <= 70; k++) // whole numbers that need every significand bit
        v.push_back(std::ldexp(std::ldexp(1.0L, f.precision) - 1, k));
    return v;
}

std::vector<RefType> reference_types() {
    std::vector<RefType> types = {
        {Bool(), {0, 1}},
        {Int(8), int_witnesses(true, 8)},
        {Int(16), int_witnesses(true, 16)},
        {Int(32), int_witnesses(true, 32)},
        {Int(64), int_witnesses(true, 64)},
        {UInt(8), int_witnesses(false, 8)},
        {UInt(16), int_witnesses(false, 16)},
        {UInt(32), int_witnesses(false, 32)},
        {UInt(64), int_witnesses(false, 64)},
        {Float(32), float_witnesses(float_format)},
        {Float(64), float_witnesses(double_format)},
    };
    RefType half{Float(16), {}}, bfloat{BFloat(16), {}};
    for (uint32_t b = 0; b < 65536; b++) {
        half.values.push_back(decode16(uint16_t(b), 5));
        bfloat.values.push_back(decode16(uint16_t(b), 8));
    }
    types.push_back(half);
    types.push_back(bfloat);
    return types;
}

// Is v a value of type t?
bool reference_holds(Type t, long double v) {
    if (t.is_float()) {
        const FloatFormat &f = t.is_bfloat()    ? bfloat_format
                               : t.bits() == 16 ? half_format
                               : t.bits() == 32 ? float_format
                                                : double_format;
        return format_holds(f, v);
    }
    if (std::isnan(v) || std::isinf(v) || v != std::floor(v)) return false;
    if (t.is_bool()) return v == 0 || v == 1;
    long double lo = t.is_int() ? -std::ldexp(1.0L, t.bits() - 1) : 0;
    long double hi = std::ldexp(1.0L, t.is_int() ? t.bits() - 1 : t.bits()) - 1;
    return v >= lo && v <= hi;
}

} // namespace

TEST_CASE("compat types: Type has Halide's accessors and predicates", "[compat][types]") {
    Type t = Int(16, 4);
    CHECK(t.bits() == 16);
    CHECK(t.lanes() == 4);
    CHECK(t.code() == Type::Int);
    CHECK(t.bytes() == 2);
    CHECK(t.is_int());
    CHECK(t.is_int_or_uint());
    CHECK(t.is_vector());
    CHECK_FALSE(t.is_scalar());
    CHECK(t.element_of() == Int(16));
    CHECK(t.with_bits(8) == Int(8, 4));
    CHECK(t.with_code(Type::UInt) == UInt(16, 4));
    CHECK(t.with_lanes(1).is_scalar());
    CHECK(UInt(1).is_bool());
    CHECK(Bool().is_uint());
    CHECK(Float(16).is_float());
    CHECK(BFloat(16).is_float());
    CHECK(BFloat(16).is_bfloat());
    CHECK_FALSE(Float(16).is_bfloat());
    CHECK(Handle().is_handle());
    CHECK(type_of<float16_t>() == Float(16));
    CHECK(type_of<bfloat16_t>() == BFloat(16));
    CHECK(type_of<uint16_t>().is_uint());
    CHECK(Float(64).bytes() == 8);
    CHECK(Bool().bytes() == 1);
    CHECK(Int(8) < Int(16));
    CHECK_FALSE(Int(16) < Int(16));
}

TEST_CASE("compat types: widen, narrow and can_overflow follow Halide", "[compat][types]") {
    CHECK(UInt(8).widen() == UInt(16));
    CHECK(Int(32, 8).widen() == Int(64, 8));
    CHECK(Bool().widen() == UInt(8));
    CHECK(Float(16).widen() == Float(32));
    CHECK(BFloat(16).widen() == Float(32));
    CHECK(Int(16).narrow() == Int(8));
    CHECK(UInt(8).narrow() == Bool());
    CHECK(Float(64).narrow() == Float(32));

    CHECK(Int(8).can_overflow_int());
    CHECK(Int(16).can_overflow());
    CHECK_FALSE(Int(32).can_overflow());
    CHECK_FALSE(Int(64).can_overflow());
    CHECK(UInt(32).can_overflow());
    CHECK(UInt(64).can_overflow());
    CHECK_FALSE(UInt(32).can_overflow_int());
    CHECK_FALSE(Float(32).can_overflow());
}

TEST_CASE("compat types: narrowing a 1-bit or 16-bit float type is an error", "[compat][types]") {
    CHECK_THROWS_WITH(Bool().narrow(), Contains("bool") && Contains("no narrower type"));
    CHECK_THROWS_WITH(BFloat(16).narrow(), Contains("bfloat16"));
    CHECK_THROWS_AS(Float(16).narrow(), CompileError);
}

TEST_CASE("compat types: max() and min() are constants of the type", "[compat][types]") {
    Func f;
    f() = Tuple(Int(16).max(), Int(16).min(), UInt(8).max(), UInt(8).min(), Float(32).max(),
                Float(32).min());
    Realization r = f.realize();
    CHECK(Buffer<int16_t>(r[0])() == 32767);
    CHECK(Buffer<int16_t>(r[1])() == -32768);
    CHECK(Buffer<uint8_t>(r[2])() == 255);
    CHECK(Buffer<uint8_t>(r[3])() == 0);
    CHECK(Buffer<float>(r[4])() == INFINITY);
    CHECK(Buffer<float>(r[5])() == -INFINITY);
    CHECK(Int(32, 4).max().type() == Int(32, 4));
    CHECK(UInt(64).max().type() == UInt(64));

    CHECK(Int(8).is_max(int64_t(127)));
    CHECK_FALSE(Int(8).is_max(int64_t(126)));
    CHECK(UInt(64).is_max(UINT64_MAX));
    CHECK(Int(8).is_min(int64_t(-128)));
    CHECK(UInt(8).is_min(int64_t(0)));
    CHECK(UInt(8).is_min(uint64_t(0)));
    CHECK_FALSE(Int(8).is_min(uint64_t(0)));
    CHECK_FALSE(Float(32).is_max(int64_t(1)));
}

TEST_CASE("compat types: can_represent(Type) matches the C++ reference for every pair",
          "[compat][types]") {
    // The three cases Loom once had backwards.
    CHECK(UInt(16).can_represent(UInt(8)));
    CHECK(Int(16).can_represent(UInt(8)));
    CHECK(Float(64).can_represent(Int(32)));
    CHECK_FALSE(UInt(8).can_represent(UInt(16)));
    CHECK_FALSE(Float(32).can_represent(Int(32)));

    std::vector<RefType> types = reference_types();
    for (const RefType &dst : types) {
        for (const RefType &src : types) {
            bool expected = true;
            for (long double v : src.values) expected = expected && reference_holds(dst.type, v);
            INFO(type_to_string(dst.type) << ".can_represent(" << type_to_string(src.type) << ")");
            CHECK(dst.type.can_represent(src.type) == expected);
            // Vector types of equal lanes agree; different lanes never.
            CHECK(dst.type.with_lanes(4).can_represent(src.type.with_lanes(4)) == expected);
            CHECK_FALSE(dst.type.with_lanes(4).can_represent(src.type));
        }
    }
}

TEST_CASE("compat types: can_represent(constant) matches the C++ reference", "[compat][types]") {
    std::vector<RefType> types = reference_types();
    std::vector<long double> probes = {0,
                                       1,
                                       -1,
                                       127,
                                       128,
                                       255,
                                       256,
                                       2048,
                                       2049,
                                       4096,
                                       65504,
                                       65505,
                                       65536,
                                       -32769,
                                       1e9,
                                       0.5,
                                       0.1,
                                       1.0 / 3,
                                       16777217,
                                       1e300,
                                       -1e-40,
                                       1e-45,
                                       3.75,
                                       -128.0,
                                       4294967295.0,
                                       9007199254740993.0L};
    for (const RefType &t : types) {
        for (long double v : probes) {
            INFO(type_to_string(t.type) << ".can_represent(" << double(v) << ")");
            long double as_double = double(v);
            if (as_double == v)
                CHECK(t.type.can_represent(double(v)) == reference_holds(t.type, v));
            if (v == std::floor(v) && std::fabs(v) < 9e18L)
                CHECK(t.type.can_represent(int64_t(v)) == reference_holds(t.type, v));
            if (v == std::floor(v) && v >= 0 && v < 1.8e19L)
                CHECK(t.type.can_represent(uint64_t(v)) == reference_holds(t.type, v));
        }
    }
    CHECK(Int(64).can_represent(INT64_MIN));
    CHECK_FALSE(Int(64).can_represent(UINT64_MAX));
    CHECK(UInt(64).can_represent(UINT64_MAX));
}

TEST_CASE("compat types: Types print with operator<<", "[compat][types]") {
    std::ostringstream os;
    os << UInt(8) << " " << Float(32, 4) << " " << BFloat(16) << " " << Bool() << " " << Float(16);
    CHECK(os.str() == "uint8 float32x4 bfloat16 bool float16");
}
