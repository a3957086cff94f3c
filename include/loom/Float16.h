#ifndef LOOM_FLOAT16_H
#define LOOM_FLOAT16_H

/** \file float16_t (IEEE binary16) and bfloat16_t (the upper half of a
 * float32): 16-bit floats for Buffer elements, Param values and constants.
 *
 * Header-only, so that AOT programs can use them without libloom. Every
 * conversion rounds to nearest, ties to even; arithmetic computes in float and
 * rounds the result once, which is exactly what a pipeline computes for
 * Float(16) and BFloat(16) values (float has more than twice the precision,
 * so the single rounding gives the correctly rounded result). */

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace loom {
namespace Internal {

/** The bits of the 16-bit float nearest to x, with exponent_bits of exponent
 * and 15 - exponent_bits of mantissa (ties to even, overflow to infinity,
 * NaN to a quiet NaN). */
inline uint16_t float16_bits_from_double(double x, int exponent_bits) {
    const int mantissa_bits = 15 - exponent_bits;
    const int bias = (1 << (exponent_bits - 1)) - 1;
    const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    const uint16_t exponent_mask = uint16_t(((1 << exponent_bits) - 1) << mantissa_bits);
    if (std::isnan(x)) return uint16_t(sign | exponent_mask | (1 << (mantissa_bits - 1)));
    double a = std::fabs(x);
    if (a == 0) return sign;
    if (std::isinf(a)) return uint16_t(sign | exponent_mask);
    int e = 0;
    std::frexp(a, &e);                        // a = m * 2^e, m in [0.5, 1)
    int exponent = std::max(e - 1, 1 - bias); // subnormals share the smallest exponent
    // a in units of the last mantissa bit: exact, as it only scales by a power of two.
    double scaled = std::ldexp(a, mantissa_bits - exponent);
    double whole = std::floor(scaled);
    double rest = scaled - whole;
    if (rest > 0.5 || (rest == 0.5 && std::fmod(whole, 2.0) != 0)) whole += 1;
    if (whole >= std::ldexp(1.0, mantissa_bits + 1)) { // rounding carried into the exponent
        whole /= 2;
        exponent++;
    }
    if (exponent > bias) return uint16_t(sign | exponent_mask); // too large: infinity
    uint32_t significand = uint32_t(whole);
    if (significand < (1u << mantissa_bits)) return uint16_t(sign | significand); // subnormal
    uint32_t biased = uint32_t(exponent + bias);
    return uint16_t(sign | (biased << mantissa_bits) | (significand - (1u << mantissa_bits)));
}

/** The value of the 16-bit float with these bits (see float16_bits_from_double). */
inline double float16_bits_to_double(uint16_t bits, int exponent_bits) {
    const int mantissa_bits = 15 - exponent_bits;
    const int bias = (1 << (exponent_bits - 1)) - 1;
    const int max_exponent = (1 << exponent_bits) - 1;
    int exponent = (bits >> mantissa_bits) & max_exponent;
    uint32_t mantissa = bits & ((1u << mantissa_bits) - 1);
    double sign = (bits & 0x8000) ? -1.0 : 1.0;
    if (exponent == max_exponent) return mantissa ? std::nan("") : sign * INFINITY;
    if (exponent == 0) return sign * std::ldexp(double(mantissa), 1 - bias - mantissa_bits);
    return sign *
           std::ldexp(double(mantissa | (1u << mantissa_bits)), exponent - bias - mantissa_bits);
}

/** The shared behaviour of float16_t and bfloat16_t. */
template <typename Derived, int ExponentBits> class Float16Base {
protected:
    uint16_t data_ = 0;

    static Derived from_double(double x) {
        return Derived::make_from_bits(float16_bits_from_double(x, ExponentBits));
    }

public:
    static constexpr int exponent_bits = ExponentBits;
    static constexpr int mantissa_bits = 15 - ExponentBits;
    static constexpr uint16_t sign_mask = 0x8000;
    static constexpr uint16_t exponent_mask =
        uint16_t(((1 << ExponentBits) - 1) << (15 - ExponentBits));
    static constexpr uint16_t mantissa_mask = uint16_t((1 << (15 - ExponentBits)) - 1);

    static Derived make_from_bits(uint16_t bits) {
        Derived d;
        d.data_ = bits;
        return d;
    }
    static Derived make_zero() { return make_from_bits(0); }
    static Derived make_negative_zero() { return make_from_bits(sign_mask); }
    static Derived make_infinity() { return make_from_bits(exponent_mask); }
    static Derived make_negative_infinity() { return make_from_bits(sign_mask | exponent_mask); }
    static Derived make_nan() { return make_from_bits(exponent_mask | (mantissa_mask + 1) / 2); }

    uint16_t to_bits() const { return data_; }
    explicit operator double() const { return float16_bits_to_double(data_, ExponentBits); }
    explicit operator float() const { return float(double(*this)); }
    explicit operator int() const { return int(double(*this)); }

    bool is_nan() const {
        return (data_ & exponent_mask) == exponent_mask && (data_ & mantissa_mask);
    }
    bool is_infinity() const { return (data_ & ~sign_mask) == exponent_mask; }
    bool is_negative() const { return data_ & sign_mask; }
    bool is_zero() const { return (data_ & ~sign_mask) == 0; }

    Derived operator-() const { return make_from_bits(uint16_t(data_ ^ sign_mask)); }
    Derived operator+(Derived rhs) const { return Derived(float(*this) + float(rhs)); }
    Derived operator-(Derived rhs) const { return Derived(float(*this) - float(rhs)); }
    Derived operator*(Derived rhs) const { return Derived(float(*this) * float(rhs)); }
    Derived operator/(Derived rhs) const { return Derived(float(*this) / float(rhs)); }
    Derived &operator+=(Derived rhs) { return self() = self() + rhs; }
    Derived &operator-=(Derived rhs) { return self() = self() - rhs; }
    Derived &operator*=(Derived rhs) { return self() = self() * rhs; }
    Derived &operator/=(Derived rhs) { return self() = self() / rhs; }

    bool operator==(Derived rhs) const { return float(*this) == float(rhs); }
    bool operator!=(Derived rhs) const { return float(*this) != float(rhs); }
    bool operator<(Derived rhs) const { return float(*this) < float(rhs); }
    bool operator>(Derived rhs) const { return float(*this) > float(rhs); }
    bool operator<=(Derived rhs) const { return float(*this) <= float(rhs); }
    bool operator>=(Derived rhs) const { return float(*this) >= float(rhs); }
    /** Is either value a NaN (so that no comparison holds)? */
    bool are_unordered(Derived rhs) const { return is_nan() || rhs.is_nan(); }

private:
    Derived &self() { return static_cast<Derived &>(*this); }
};

} // namespace Internal

/** IEEE 754 half precision: 1 sign, 5 exponent and 10 mantissa bits
 * (the element type of Float(16) buffers). */
struct float16_t : Internal::Float16Base<float16_t, 5> {
    float16_t() = default;
    explicit float16_t(double value) { data_ = Internal::float16_bits_from_double(value, 5); }
    explicit float16_t(float value) : float16_t(double(value)) {}
    explicit float16_t(int value) : float16_t(double(value)) {}
};

/** Brain float: 1 sign, 8 exponent and 7 mantissa bits, i.e. a float32
 * without its low 16 bits (the element type of BFloat(16) buffers). */
struct bfloat16_t : Internal::Float16Base<bfloat16_t, 8> {
    bfloat16_t() = default;
    explicit bfloat16_t(double value) { data_ = Internal::float16_bits_from_double(value, 8); }
    explicit bfloat16_t(float value) : bfloat16_t(double(value)) {}
    explicit bfloat16_t(int value) : bfloat16_t(double(value)) {}
};

static_assert(sizeof(float16_t) == 2 && sizeof(bfloat16_t) == 2, "16-bit floats are two bytes");

} // namespace loom

#endif
