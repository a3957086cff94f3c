#include "loom/Type.h"

#include <cmath>
#include <limits>

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

bool Type::can_represent(Type t) const {
    // Is every value of *this exactly a value of t?
    if (lanes != t.lanes) return false;
    if (*this == t) return true;
    switch (code) {
    case Int:
        if (t.is_int()) return t.bits >= bits;
        if (t.is_float())
            return (t.bits == 64 && bits <= 53) || (t.bits == 32 && bits <= 24) ||
                   (t.bits == 16 && bits <= 11);
        return false;
    case UInt:
        if (t.is_uint()) return t.bits >= bits;
        if (t.is_int()) return t.bits > bits;
        if (t.is_float())
            return (t.bits == 64 && bits <= 53) || (t.bits == 32 && bits <= 24) ||
                   (t.bits == 16 && bits <= 11);
        return false;
    case Float:
        return t.is_float() && t.bits >= bits;
    case Handle:
        return t.is_handle();
    }
    return false;
}

namespace {
// Does the float/double value f hold exactly the integer x? Range checks come
// first because converting an out-of-range float to an integer is undefined.
template <typename F> bool holds_exactly(F f, int64_t x) {
    return f >= F(-9223372036854775808.0) && f < F(9223372036854775808.0) && int64_t(f) == x;
}
template <typename F> bool holds_exactly(F f, uint64_t x) {
    return f >= F(0) && f < F(18446744073709551616.0) && uint64_t(f) == x;
}
} // namespace

bool Type::can_represent(int64_t x) const {
    switch (code) {
    case Int:
        return x >= min_int() && x <= max_int();
    case UInt:
        return x >= 0 && uint64_t(x) <= max_uint();
    case Float:
        if (bits == 32) return holds_exactly(float(x), x);
        if (bits == 64) return holds_exactly(double(x), x);
        return x >= -2048 && x <= 2048; // float16: 11 significant bits
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
        if (bits == 32) return holds_exactly(float(x), x);
        if (bits == 64) return holds_exactly(double(x), x);
        return x <= 2048;
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
        if (bits == 64 || std::isnan(x)) return true;
        return double(float(x)) == x;
    case Handle:
        return false;
    }
    return false;
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
