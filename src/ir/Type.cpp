#include "loom/Type.h"

#include <cmath>
#include <limits>

#include "ir/Error.h"
#include "ir/IR.h"

namespace loom {

int64_t Type::min_int() const {
    if (is_int())
        return bits >= 64 ? std::numeric_limits<int64_t>::min() : -(int64_t(1) << (bits - 1));
    return 0;
}

int64_t Type::max_int() const {
    if (is_int())
        return bits >= 64 ? std::numeric_limits<int64_t>::max() : (int64_t(1) << (bits - 1)) - 1;
    if (is_uint())
        return bits >= 63 ? std::numeric_limits<int64_t>::max() : (int64_t(1) << bits) - 1;
    return 0;
}

uint64_t Type::max_uint() const {
    if (is_uint())
        return bits >= 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t(1) << bits) - 1;
    if (is_int()) return uint64_t(max_int());
    return 0;
}

Type Type::widen() const {
    if (is_bfloat()) return loom::Float(32, lanes);
    return with_bits(bits == 1 ? 8 : bits * 2);
}

Type Type::narrow() const {
    if (bits == 1 || is_bfloat() || (is_float() && bits == 16))
        user_error("Type " << type_to_string(*this) << " has no narrower type");
    return with_bits(bits == 8 ? 1 : bits / 2);
}

namespace {

// Significant bits of a float type (the implicit leading bit included).
int float_precision(Type t) {
    if (t.is_bfloat()) return 8;
    return t.bits == 16 ? 11 : t.bits == 32 ? 24 : 53;
}

// Bits of the exponent field of a float type.
int float_exponent_bits(Type t) {
    if (t.is_bfloat()) return 8;
    return t.bits == 16 ? 5 : t.bits == 32 ? 8 : 11;
}

// Does the double x survive a round trip through the float type t?
bool float_holds(Type t, double x) {
    if (std::isnan(x) || std::isinf(x)) return true;
    if (t.is_bfloat()) return double(bfloat16_t(x)) == x;
    if (t.bits == 16) return double(float16_t(x)) == x;
    if (t.bits == 32) return double(float(x)) == x;
    return true;
}

// Does the float/double value f hold exactly the integer x? Range checks come
// first because converting an out-of-range float to an integer is undefined.
bool holds_exactly(double f, int64_t x) {
    return f >= -9223372036854775808.0 && f < 9223372036854775808.0 && int64_t(f) == x;
}
bool holds_exactly(double f, uint64_t x) {
    return f >= 0 && f < 18446744073709551616.0 && uint64_t(f) == x;
}

} // namespace

bool Type::can_represent(Type other) const {
    if (lanes != other.lanes) return false;
    if (*this == other) return true;
    if (is_void() || other.is_void()) return false;
    switch (code) {
    case Int:
        return (other.is_int() && other.bits <= bits) || (other.is_uint() && other.bits < bits);
    case UInt:
        return other.is_uint() && other.bits <= bits;
    case Float:
    case BFloat:
        // Integers need their magnitude bits in the significand; floats need
        // no more precision and no wider exponent range.
        if (other.is_int()) return other.bits - 1 <= float_precision(*this);
        if (other.is_uint()) return other.bits <= float_precision(*this);
        if (other.is_float())
            return float_precision(other) <= float_precision(*this) &&
                   float_exponent_bits(other) <= float_exponent_bits(*this);
        return false;
    case Handle:
        return false;
    }
    return false;
}

bool Type::can_represent(int64_t x) const {
    switch (code) {
    case Int:
        return x >= min_int() && x <= max_int();
    case UInt:
        return x >= 0 && uint64_t(x) <= max_uint();
    case Float:
    case BFloat:
        return holds_exactly(double(x), x) && float_holds(element_of(), double(x));
    case Handle:
        return false;
    }
    return false;
}

bool Type::can_represent(uint64_t x) const {
    switch (code) {
    case Int:
        return x <= uint64_t(max_int());
    case UInt:
        return x <= max_uint();
    case Float:
    case BFloat:
        return holds_exactly(double(x), x) && float_holds(element_of(), double(x));
    case Handle:
        return false;
    }
    return false;
}

bool Type::can_represent(double x) const {
    switch (code) {
    case Int:
        if (!(x >= double(min_int()) && x < -double(min_int()))) return false;
        return double(int64_t(x)) == x && int64_t(x) <= max_int();
    case UInt:
        if (!(x >= 0 && x < double(max_uint()) + 1.0)) return false;
        return double(uint64_t(x)) == x && uint64_t(x) <= max_uint();
    case Float:
    case BFloat:
        return float_holds(element_of(), x);
    case Handle:
        return false;
    }
    return false;
}

bool Type::is_max(int64_t x) const {
    return x > 0 && is_max(uint64_t(x));
}

bool Type::is_max(uint64_t x) const {
    if (is_int()) return x == uint64_t(max_int());
    if (is_uint()) return x == max_uint();
    return false;
}

bool Type::is_min(int64_t x) const {
    if (is_int()) return x == min_int();
    if (is_uint()) return x == 0;
    return false;
}

bool Type::is_min(uint64_t x) const {
    return is_uint() && x == 0; // signed minimums are negative
}

namespace {

Expr type_extreme(Type t, bool largest) {
    using namespace Internal;
    Type s = t.element_of();
    Expr e;
    if (s.is_int()) {
        e = IntImm::make(s, largest ? s.max_int() : s.min_int());
    } else if (s.is_uint()) {
        e = UIntImm::make(s, largest ? s.max_uint() : 0);
    } else if (s.is_float()) {
        double inf = std::numeric_limits<double>::infinity();
        e = FloatImm::make(s, largest ? inf : -inf);
    } else {
        user_error("Type " << type_to_string(t) << " has no " << (largest ? "max()" : "min()"));
    }
    return t.is_vector() ? Broadcast::make(e, t.lanes) : e;
}

} // namespace

Expr Type::max() const {
    return type_extreme(*this, true);
}

Expr Type::min() const {
    return type_extreme(*this, false);
}

std::string type_to_string(Type t) {
    std::string s;
    if (t.is_void()) return "void";
    if (t.is_bool()) {
        s = "bool";
    } else {
        switch (t.code) {
        case Type::Int:
            s = "int";
            break;
        case Type::UInt:
            s = "uint";
            break;
        case Type::Float:
            s = "float";
            break;
        case Type::BFloat:
            s = "bfloat";
            break;
        case Type::Handle:
            s = "handle";
            break;
        }
        if (!t.is_handle()) s += std::to_string(int(t.bits));
    }
    if (t.lanes > 1) s += "x" + std::to_string(int(t.lanes));
    return s;
}

} // namespace loom
