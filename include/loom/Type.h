#ifndef LOOM_TYPE_H
#define LOOM_TYPE_H

/** \file Scalar and vector types of Loom expressions. */

#include <cstdint>
#include <iosfwd>
#include <string>
#include <type_traits>

#include "loom/Float16.h"

namespace loom {

struct Expr;

namespace Internal {

/** One field of Type. Halide reads it with a call (`t.bits()`), older Loom
 * code as a value (`t.bits`); both work. */
template <typename Value, typename Storage> struct TypeField {
    Storage stored;
    constexpr operator Value() const { return Value(stored); } // NOLINT: implicit on purpose
    constexpr Value operator()() const { return Value(stored); }
};

} // namespace Internal

/** A scalar or vector type: a kind (int, uint, float, bfloat, handle), a bit
 * width and a lane count. */
struct Type {
    /** Kinds of types; the values match loom_type_code_t (and Halide's codes). */
    enum Code : uint8_t { Int = 0, UInt = 1, Float = 2, Handle = 3, BFloat = 4 };

    /** The kind, the bits of one element and the number of vector lanes. */
    Internal::TypeField<Code, Code> code{Int};
    Internal::TypeField<int, uint8_t> bits{0};
    Internal::TypeField<int, uint16_t> lanes{0};

    /** The void type (no value): bits() and lanes() are 0. */
    constexpr Type() = default;
    constexpr Type(Code c, int b, int l) : code{c}, bits{uint8_t(b)}, lanes{uint16_t(l)} {}

    bool is_int() const { return code == Int; }
    bool is_uint() const { return code == UInt; }
    bool is_int_or_uint() const { return is_int() || is_uint(); }
    /** True for Float and BFloat types, as in Halide. */
    bool is_float() const { return code == Float || code == BFloat; }
    bool is_bfloat() const { return code == BFloat; }
    bool is_handle() const { return code == Handle; }
    bool is_bool() const { return code == UInt && bits == 1; }
    bool is_scalar() const { return lanes == 1; }
    bool is_vector() const { return lanes > 1; }
    /** True for types with no value: the default-constructed Type. */
    bool is_void() const { return bits == 0; }
    /** Bytes of one element (lanes are not counted). */
    int bytes() const { return (bits + 7) / 8; }

    Type with_lanes(int l) const { return Type(code, bits, l); }
    Type with_bits(int b) const { return Type(code, b, lanes); }
    Type with_code(Code c) const { return Type(c, bits, lanes); }
    Type element_of() const { return with_lanes(1); }
    /** At least twice the bits, same kind and lanes: bool widens to 8 bits,
     * bfloat16 to float32. */
    Type widen() const;
    /** Half the bits, same kind and lanes: 8-bit types narrow to 1 bit.
     * Throws CompileError for 1-bit types and bfloat16. */
    Type narrow() const;

    /** Wrapping is defined for this type: unsigned integers and signed
     * integers of at most 16 bits (as in Halide, 32- and 64-bit signed
     * arithmetic is assumed not to overflow). */
    bool can_overflow_int() const { return is_int() && bits <= 16; }
    bool can_overflow() const { return is_uint() || can_overflow_int(); }

    /** Can this type represent every value of type other exactly? (Lane
     * counts must match.) E.g. Int(16) can represent UInt(8), Float(64) can
     * represent Int(32), Float(32) cannot represent Int(32). */
    bool can_represent(Type other) const;
    /** Can this (scalar) type represent the constant x exactly? */
    bool can_represent(int64_t x) const;
    bool can_represent(uint64_t x) const;
    bool can_represent(double x) const;
    bool can_represent(int x) const { return can_represent(int64_t(x)); }

    /** Is x the largest / smallest value of this integer type? */
    bool is_max(int64_t x) const;
    bool is_max(uint64_t x) const;
    bool is_min(int64_t x) const;
    bool is_min(uint64_t x) const;

    /** The largest and smallest values as constant Exprs of this type
     * (broadcast for vectors); +/- infinity for floats, as in Halide. */
    Expr max() const;
    Expr min() const;

    /** Largest and smallest values, as int64/uint64 (check the code). */
    int64_t min_int() const;
    int64_t max_int() const;
    uint64_t max_uint() const;

    bool operator==(const Type &o) const {
        return code == o.code && bits == o.bits && lanes == o.lanes;
    }
    bool operator!=(const Type &o) const { return !(*this == o); }
    /** An order for use in sorted containers. */
    bool operator<(const Type &o) const {
        if (code != o.code) return code < o.code;
        if (bits != o.bits) return bits < o.bits;
        return lanes < o.lanes;
    }
};

inline Type Int(int bits, int lanes = 1) {
    return Type(Type::Int, bits, lanes);
}
inline Type UInt(int bits, int lanes = 1) {
    return Type(Type::UInt, bits, lanes);
}
inline Type Float(int bits, int lanes = 1) {
    return Type(Type::Float, bits, lanes);
}
/** Brain float; only 16 bits exist. */
inline Type BFloat(int bits, int lanes = 1) {
    return Type(Type::BFloat, bits, lanes);
}
inline Type Bool(int lanes = 1) {
    return UInt(1, lanes);
}
inline Type Handle(int lanes = 1) {
    return Type(Type::Handle, 64, lanes);
}

/** The Loom type that corresponds to the C++ type T. */
template <typename T> Type type_of() {
    using U = std::remove_cv_t<T>;
    if constexpr (std::is_same_v<U, bool>) {
        return Bool();
    } else if constexpr (std::is_same_v<U, float16_t>) {
        return Float(16);
    } else if constexpr (std::is_same_v<U, bfloat16_t>) {
        return BFloat(16);
    } else if constexpr (std::is_floating_point_v<U>) {
        return Float(int(sizeof(U) * 8));
    } else if constexpr (std::is_integral_v<U> && std::is_signed_v<U>) {
        return Int(int(sizeof(U) * 8));
    } else if constexpr (std::is_integral_v<U>) {
        return UInt(int(sizeof(U) * 8));
    } else if constexpr (std::is_pointer_v<U>) {
        return Handle();
    } else {
        static_assert(std::is_pointer_v<U>, "type_of<T>: T has no Loom type");
        return Type();
    }
}

/** "int32", "uint8x16", "float64", "bfloat16", "bool". */
std::string type_to_string(Type t);

/** Prints type_to_string(t). */
std::ostream &operator<<(std::ostream &os, const Type &t);

} // namespace loom

#endif
