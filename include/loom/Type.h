#ifndef LOOM_TYPE_H
#define LOOM_TYPE_H

/** \file Scalar and vector types of Loom expressions. */

#include <cstdint>
#include <string>
#include <type_traits>

namespace loom {

/** A scalar or vector type: a kind (int, uint, float, handle), a bit width and a lane count. */
struct Type {
    enum Code : uint8_t { Int = 0, UInt = 1, Float = 2, Handle = 3 };

    Code code = Int;
    uint8_t bits = 0;
    uint16_t lanes = 0;

    Type() = default;
    constexpr Type(Code c, int b, int l) : code(c), bits(uint8_t(b)), lanes(uint16_t(l)) {}

    bool is_int() const { return code == Int; }
    bool is_uint() const { return code == UInt; }
    bool is_float() const { return code == Float; }
    bool is_handle() const { return code == Handle; }
    bool is_bool() const { return code == UInt && bits == 1; }
    bool is_scalar() const { return lanes == 1; }
    bool is_vector() const { return lanes > 1; }
    /** True for types with no value: the default-constructed Type. */
    bool is_void() const { return bits == 0; }
    int bytes() const { return (bits + 7) / 8; }

    Type with_lanes(int l) const { return Type(code, bits, l); }
    Type with_bits(int b) const { return Type(code, b, lanes); }
    Type with_code(Code c) const { return Type(c, bits, lanes); }
    Type element_of() const { return with_lanes(1); }

    /** Can every value of this type be represented exactly in type t? */
    bool can_represent(Type t) const;
    /** Can the integer x be represented exactly in this (scalar) type? */
    bool can_represent(int64_t x) const;
    bool can_represent(uint64_t x) const;
    bool can_represent(double x) const;

    /** Largest and smallest values, as int64/uint64/double (check the code). */
    int64_t min_int() const;
    int64_t max_int() const;
    uint64_t max_uint() const;

    bool operator==(const Type &o) const {
        return code == o.code && bits == o.bits && lanes == o.lanes;
    }
    bool operator!=(const Type &o) const { return !(*this == o); }
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

/** "int32", "uint8x16", "float64", "bool". */
std::string type_to_string(Type t);

} // namespace loom

#endif
