#include "IRInterpreter.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "ir/IRPrinter.h"

namespace loom {
namespace Internal {

namespace {

using Int128 = __int128;

int64_t wrap_signed(Int128 v, int bits) {
    uint64_t low = uint64_t(v);
    if (bits >= 64) return int64_t(low);
    uint64_t shift = uint64_t(64 - bits);
    return int64_t(low << shift) >> shift;
}

uint64_t wrap_unsigned(uint64_t v, int bits) {
    return bits >= 64 ? v : v & ((uint64_t(1) << bits) - 1);
}

// Int(32) and Int(64) arithmetic must not overflow (it is undefined in Loom).
bool overflow_is_undefined(Type t) {
    return t.is_int() && t.bits >= 32;
}

bool fits_int(Int128 v, Type t) {
    return v >= t.min_int() && v <= t.max_int();
}

int64_t euclid_div(int64_t a, int64_t b) {
    if (b == 0) return 0;
    if (b == -1) return int64_t(0 - uint64_t(a));
    int64_t q = a / b, r = a % b;
    if (r < 0) q = b > 0 ? q - 1 : q + 1;
    return q;
}

int64_t euclid_mod(int64_t a, int64_t b) {
    if (b == 0 || b == -1) return 0;
    int64_t r = a % b;
    if (r < 0) r = b > 0 ? r + b : r - b;
    return r;
}

template <typename T> ScalarValue compare(IRNodeType op, T a, T b) {
    switch (op) {
    case IRNodeType::EQ:
        return ScalarValue::make_bool(a == b);
    case IRNodeType::NE:
        return ScalarValue::make_bool(a != b);
    case IRNodeType::LT:
        return ScalarValue::make_bool(a < b);
    case IRNodeType::LE:
        return ScalarValue::make_bool(a <= b);
    case IRNodeType::GT:
        return ScalarValue::make_bool(a > b);
    case IRNodeType::GE:
        return ScalarValue::make_bool(a >= b);
    default:
        throw std::runtime_error("IRInterpreter: bad comparison");
    }
}

template <typename F> ScalarValue float_op(IRNodeType op, Type t, F a, F b) {
    switch (op) {
    case IRNodeType::Add:
        return ScalarValue::make_float(t, F(a + b));
    case IRNodeType::Sub:
        return ScalarValue::make_float(t, F(a - b));
    case IRNodeType::Mul:
        return ScalarValue::make_float(t, F(a * b));
    case IRNodeType::Div:
        return ScalarValue::make_float(t, F(a / b));
    case IRNodeType::Mod:
        return ScalarValue::make_float(t, F(a - F(b * std::floor(F(a / b)))));
    case IRNodeType::Min:
        return ScalarValue::make_float(t, a < b ? a : b);
    case IRNodeType::Max:
        return ScalarValue::make_float(t, a > b ? a : b);
    default:
        return compare(op, a, b);
    }
}

bool is_comparison(IRNodeType op) {
    return op == IRNodeType::EQ || op == IRNodeType::NE || op == IRNodeType::LT ||
           op == IRNodeType::LE || op == IRNodeType::GT || op == IRNodeType::GE;
}

} // namespace

ScalarValue ScalarValue::make_int(Type t, int64_t v) {
    ScalarValue r;
    r.type = t.element_of();
    r.i = wrap_signed(v, t.bits);
    return r;
}

ScalarValue ScalarValue::make_uint(Type t, uint64_t v) {
    ScalarValue r;
    r.type = t.element_of();
    r.u = wrap_unsigned(v, t.bits);
    return r;
}

ScalarValue ScalarValue::make_float(Type t, double v) {
    ScalarValue r;
    r.type = t.element_of();
    r.f = t.bits == 32 ? double(float(v)) : v;
    return r;
}

ScalarValue ScalarValue::make_bool(bool v) {
    return make_uint(Bool(), v ? 1 : 0);
}

ScalarValue ScalarValue::from_int(Type t, int64_t v) {
    if (t.is_int()) return make_int(t, v);
    if (t.is_uint()) return make_uint(t, uint64_t(v));
    return make_float(t, double(v));
}

double ScalarValue::as_double() const {
    if (type.is_int()) return double(i);
    if (type.is_uint()) return double(u);
    return f;
}

bool ScalarValue::same_as(const ScalarValue &o) const {
    if (type != o.type) return false;
    if (type.is_int()) return i == o.i;
    if (type.is_uint()) return u == o.u;
    return f == o.f || (std::isnan(f) && std::isnan(o.f));
}

std::string ScalarValue::to_string() const {
    std::ostringstream os;
    os << type_to_string(type) << "(";
    if (type.is_int()) {
        os << i;
    } else if (type.is_uint()) {
        os << u;
    } else {
        os.precision(17);
        os << f;
    }
    os << ")";
    return os.str();
}

ScalarValue IRInterpreter::binary(IRNodeType op, const ScalarValue &a, const ScalarValue &b) {
    Type t = a.type;
    if (t.is_float()) {
        if (t.bits == 32) return float_op<float>(op, t, float(a.f), float(b.f));
        return float_op<double>(op, t, a.f, b.f);
    }
    if (is_comparison(op)) return t.is_int() ? compare(op, a.i, b.i) : compare(op, a.u, b.u);
    if (op == IRNodeType::And) return ScalarValue::make_bool(a.is_true() && b.is_true());
    if (op == IRNodeType::Or) return ScalarValue::make_bool(a.is_true() || b.is_true());
    if (t.is_uint()) {
        uint64_t x = a.u, y = b.u;
        switch (op) {
        case IRNodeType::Add:
            return ScalarValue::make_uint(t, x + y);
        case IRNodeType::Sub:
            return ScalarValue::make_uint(t, x - y);
        case IRNodeType::Mul:
            return ScalarValue::make_uint(t, x * y);
        case IRNodeType::Div:
            return ScalarValue::make_uint(t, y == 0 ? 0 : x / y);
        case IRNodeType::Mod:
            return ScalarValue::make_uint(t, y == 0 ? 0 : x % y);
        case IRNodeType::Min:
            return ScalarValue::make_uint(t, x < y ? x : y);
        case IRNodeType::Max:
            return ScalarValue::make_uint(t, x > y ? x : y);
        default:
            break;
        }
        throw std::runtime_error("IRInterpreter: bad uint operator");
    }
    int64_t x = a.i, y = b.i;
    Int128 exact = 0;
    switch (op) {
    case IRNodeType::Add:
        exact = Int128(x) + y;
        break;
    case IRNodeType::Sub:
        exact = Int128(x) - y;
        break;
    case IRNodeType::Mul:
        exact = Int128(x) * y;
        break;
    case IRNodeType::Div:
        exact = (y == -1) ? -Int128(x) : Int128(euclid_div(x, y));
        break;
    case IRNodeType::Mod:
        exact = euclid_mod(x, y);
        break;
    case IRNodeType::Min:
        exact = x < y ? x : y;
        break;
    case IRNodeType::Max:
        exact = x > y ? x : y;
        break;
    default:
        throw std::runtime_error("IRInterpreter: bad int operator");
    }
    if (overflow_is_undefined(t) && !fits_int(exact, t)) undefined = true;
    return ScalarValue::make_int(t, wrap_signed(exact, 64));
}

ScalarValue IRInterpreter::cast(Type t, const ScalarValue &v) {
    t = t.element_of();
    Type from = v.type;
    if (t.is_bool()) {
        return ScalarValue::make_bool(from.is_float() ? v.f != 0
                                                      : (from.is_int() ? v.i != 0 : v.u != 0));
    }
    if (t.is_float()) {
        if (from.is_float()) return ScalarValue::make_float(t, v.f);
        if (t.bits == 32) {
            return ScalarValue::make_float(t,
                                           from.is_int() ? double(float(v.i)) : double(float(v.u)));
        }
        return ScalarValue::make_float(t, from.is_int() ? double(v.i) : double(v.u));
    }
    if (from.is_float()) {
        double tv = std::trunc(v.f);
        bool in_range = tv > -9.3e18 && tv < 9.2e18;
        if (in_range && t.is_int())
            in_range = tv >= double(t.min_int()) && tv <= double(t.max_int());
        if (in_range && t.is_uint()) in_range = tv >= 0 && tv <= double(t.max_uint());
        if (!in_range) {
            undefined = true;
            return ScalarValue::from_int(t, 0);
        }
        return t.is_int() ? ScalarValue::make_int(t, int64_t(tv))
                          : ScalarValue::make_uint(t, uint64_t(tv));
    }
    uint64_t bits = from.is_int() ? uint64_t(v.i) : v.u;
    return t.is_int() ? ScalarValue::make_int(t, int64_t(bits)) : ScalarValue::make_uint(t, bits);
}

ScalarValue IRInterpreter::call(const Call *op, int lane) {
    Type t = op->type.element_of();
    auto arg = [&](size_t i) { return eval(op->args.at(i), lane); };
    auto bits_of = [](const ScalarValue &v) { return v.type.is_int() ? uint64_t(v.i) : v.u; };
    auto from_bits = [&](uint64_t b) {
        return t.is_int() ? ScalarValue::make_int(t, int64_t(b)) : ScalarValue::make_uint(t, b);
    };
    if (op->is_intrinsic(Intrinsic::likely)) return arg(0);
    if (op->is_intrinsic(Intrinsic::abs)) {
        ScalarValue a = arg(0);
        if (a.type.is_float()) return ScalarValue::make_float(t, std::fabs(a.f));
        if (a.type.is_uint()) return ScalarValue::make_uint(t, a.u);
        return ScalarValue::make_uint(t, a.i < 0 ? 0 - uint64_t(a.i) : uint64_t(a.i));
    }
    if (op->is_intrinsic(Intrinsic::absd)) {
        ScalarValue a = arg(0), b = arg(1);
        if (a.type.is_float()) return ScalarValue::make_float(t, std::fabs(a.f - b.f));
        if (a.type.is_uint()) return ScalarValue::make_uint(t, a.u > b.u ? a.u - b.u : b.u - a.u);
        return ScalarValue::make_uint(t, a.i > b.i ? uint64_t(a.i) - uint64_t(b.i)
                                                   : uint64_t(b.i) - uint64_t(a.i));
    }
    if (op->is_intrinsic(Intrinsic::bitwise_and))
        return from_bits(bits_of(arg(0)) & bits_of(arg(1)));
    if (op->is_intrinsic(Intrinsic::bitwise_or))
        return from_bits(bits_of(arg(0)) | bits_of(arg(1)));
    if (op->is_intrinsic(Intrinsic::bitwise_xor))
        return from_bits(bits_of(arg(0)) ^ bits_of(arg(1)));
    if (op->is_intrinsic(Intrinsic::bitwise_not)) return from_bits(~bits_of(arg(0)));
    if (op->is_intrinsic(Intrinsic::shift_left) || op->is_intrinsic(Intrinsic::shift_right)) {
        ScalarValue a = arg(0), b = arg(1);
        int64_t amount = b.type.is_int() ? b.i : int64_t(b.u);
        // Shifting by the width or more (or a negative amount) is undefined.
        if (amount < 0 || amount >= t.bits) {
            undefined = true;
            return ScalarValue::from_int(t, 0);
        }
        if (op->is_intrinsic(Intrinsic::shift_left)) return from_bits(bits_of(a) << amount);
        if (t.is_int()) return ScalarValue::make_int(t, a.i >> amount);
        return ScalarValue::make_uint(t, a.u >> amount);
    }
    throw std::runtime_error("IRInterpreter: unsupported call " + op->name);
}

ScalarValue IRInterpreter::eval(const Expr &e, int lane) {
    switch (e.node_type()) {
    case IRNodeType::IntImm:
        return ScalarValue::make_int(e.type(), e.as<IntImm>()->value);
    case IRNodeType::UIntImm:
        return ScalarValue::make_uint(e.type(), e.as<UIntImm>()->value);
    case IRNodeType::FloatImm:
        return ScalarValue::make_float(e.type(), e.as<FloatImm>()->value);
    case IRNodeType::Variable: {
        auto it = vars.find(e.as<Variable>()->name);
        if (it == vars.end())
            throw std::runtime_error("IRInterpreter: unbound " + e.as<Variable>()->name);
        return it->second;
    }
    case IRNodeType::Cast:
        return cast(e.type(), eval(e.as<Cast>()->value, lane));
#define LOOM_INTERP_BINARY(T)                                                                      \
    case IRNodeType::T: {                                                                          \
        auto *n = e.as<T>();                                                                       \
        ScalarValue a = eval(n->a, lane);                                                          \
        return binary(IRNodeType::T, a, eval(n->b, lane));                                         \
    }
        LOOM_INTERP_BINARY(Add)
        LOOM_INTERP_BINARY(Sub)
        LOOM_INTERP_BINARY(Mul)
        LOOM_INTERP_BINARY(Div)
        LOOM_INTERP_BINARY(Mod)
        LOOM_INTERP_BINARY(Min)
        LOOM_INTERP_BINARY(Max)
        LOOM_INTERP_BINARY(EQ)
        LOOM_INTERP_BINARY(NE)
        LOOM_INTERP_BINARY(LT)
        LOOM_INTERP_BINARY(LE)
        LOOM_INTERP_BINARY(GT)
        LOOM_INTERP_BINARY(GE)
        LOOM_INTERP_BINARY(And)
        LOOM_INTERP_BINARY(Or)
#undef LOOM_INTERP_BINARY
    case IRNodeType::Not:
        return ScalarValue::make_bool(!eval(e.as<Not>()->a, lane).is_true());
    case IRNodeType::Select: {
        auto *s = e.as<Select>();
        int cond_lane = s->condition.type().is_scalar() ? 0 : lane;
        bool c = eval(s->condition, cond_lane).is_true();
        // Both arms are evaluated, as generated code does.
        ScalarValue t = eval(s->true_value, lane), f = eval(s->false_value, lane);
        return c ? t : f;
    }
    case IRNodeType::Ramp: {
        auto *r = e.as<Ramp>();
        ScalarValue base = eval(r->base, 0), stride = eval(r->stride, 0);
        ScalarValue index = ScalarValue::from_int(base.type, lane);
        return binary(IRNodeType::Add, base, binary(IRNodeType::Mul, stride, index));
    }
    case IRNodeType::Broadcast:
        return eval(e.as<Broadcast>()->value, 0);
    case IRNodeType::Let: {
        auto *l = e.as<Let>();
        ScalarValue v = eval(l->value, lane);
        auto old = vars.find(l->name);
        bool had = old != vars.end();
        ScalarValue saved = had ? old->second : ScalarValue();
        vars[l->name] = v;
        ScalarValue r = eval(l->body, lane);
        if (had) {
            vars[l->name] = saved;
        } else {
            vars.erase(l->name);
        }
        return r;
    }
    case IRNodeType::Call:
        return call(e.as<Call>(), lane);
    default: {
        std::ostringstream os;
        os << "IRInterpreter: unsupported expression " << e;
        throw std::runtime_error(os.str());
    }
    }
}

} // namespace Internal
} // namespace loom
