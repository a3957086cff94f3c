#include "codegen/CodeGenCalls.h"

#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

IntrinsicEmitter intrinsic_emitter(Intrinsic op) {
    switch (op) {
    case Intrinsic::buffer_get_host:
    case Intrinsic::buffer_get_min:
    case Intrinsic::buffer_get_extent:
    case Intrinsic::buffer_get_stride:
    case Intrinsic::buffer_get_dimensions:
    case Intrinsic::buffer_get_type_code:
    case Intrinsic::buffer_get_type_bits:
    case Intrinsic::buffer_get_type_lanes:
        return IntrinsicEmitter::BufferField;
    case Intrinsic::if_then_else:
        return IntrinsicEmitter::IfThenElse;
    case Intrinsic::debug_print:
        return IntrinsicEmitter::DebugPrint;
    case Intrinsic::atomic_update:
        return IntrinsicEmitter::AtomicUpdate;
    default:
        return IntrinsicEmitter::Operator;
    }
}

PrintFormat print_format(const Call *op) {
    PrintFormat print;
    std::string &format = print.format;
    for (size_t i = 0; i < op->args.size(); i++) {
        const Expr &a = op->args[i];
        if (i > 0) format += " ";
        if (const StringImm *s = a.as<StringImm>()) {
            for (char ch : s->value) format += ch == '%' ? std::string("%%") : std::string(1, ch);
            continue;
        }
        Type t = a.type(), et = t.element_of();
        auto conversion = et.is_float()    ? PrintFormat::AsDouble
                          : et.is_handle() ? PrintFormat::AsPointer
                          : et.is_int()    ? PrintFormat::AsSigned
                                           : PrintFormat::AsUnsigned;
        // Doubles in scientific notation, as Halide's runtime prints them.
        const char *spec = conversion == PrintFormat::AsDouble    ? (et.bits == 64 ? "%e" : "%f")
                           : conversion == PrintFormat::AsPointer ? "%p"
                           : conversion == PrintFormat::AsSigned  ? "%lld"
                                                                  : "%llu";
        if (t.is_vector()) format += "<";
        for (int lane = 0; lane < t.lanes; lane++) {
            if (lane > 0) format += ", ";
            format += spec;
            print.values.push_back(PrintFormat::Value{i, lane, conversion});
        }
        if (t.is_vector()) format += ">";
    }
    return print;
}

namespace {

// Math routines by stem, with the libm function computing them. round is
// round-half-to-even: nearbyint in the default rounding mode.
struct MathRoutine {
    const char *stem;
    const char *libm;
};

const MathRoutine math_routines[] = {
    {"sqrt", "sqrt"},
    {"exp", "exp"},
    {"log", "log"},
    {"pow", "pow"},
    {"sin", "sin"},
    {"cos", "cos"},
    {"tan", "tan"},
    {"floor", "floor"},
    {"ceil", "ceil"},
    {"trunc", "trunc"},
    {"round", "nearbyint"},
    {"abs", "fabs"},
    {"fast_exp", "exp"},
    {"fast_log", "log"},
    {"fast_pow", "pow"},
    {"atan2", "atan2"},
    {"atan", "atan"},
    {"asin", "asin"},
    {"acos", "acos"},
    {"sinh", "sinh"},
    {"cosh", "cosh"},
    {"tanh", "tanh"},
    {"asinh", "asinh"},
    {"acosh", "acosh"},
    {"atanh", "atanh"},
    {"fma", "fma"},
    {"is_nan", nullptr},
    {"is_inf", nullptr},
    {"is_finite", nullptr},
    {"fast_inverse", nullptr},
    {"fast_inverse_sqrt", nullptr},
};

/** 16, 32 or 64 from a "_f16"/"_f32"/"_f64" suffix; 0 without one. */
int float_suffix_bits(const std::string &name) {
    if (name.size() < 4) return 0;
    std::string suffix = name.substr(name.size() - 4);
    return suffix == "_f16" ? 16 : suffix == "_f32" ? 32 : suffix == "_f64" ? 64 : 0;
}

} // namespace

std::optional<MathCall> math_call(const Call *op) {
    if (op->call_type != Call::PureExtern) return std::nullopt;
    int bits = float_suffix_bits(op->name);
    if (!bits || op->args.empty() || !op->args[0].type().is_float()) return std::nullopt;
    std::string stem = op->name.substr(0, op->name.size() - 4);
    for (const MathRoutine &r : math_routines) {
        if (stem == r.stem) return MathCall{stem, bits, r.libm};
    }
    return std::nullopt;
}

namespace {

bool is_var(const Expr &e, const std::string &name) {
    const auto *v = e.as<Variable>();
    return v && v->name == name;
}

} // namespace

bool match_atomic_rmw(const Expr &value, const std::string &old, AtomicRMWOp *op, Expr *operand) {
    auto commutative = [&](const Expr &a, const Expr &b, AtomicRMWOp o) {
        for (int swap = 0; swap < 2; swap++) {
            const Expr &x = swap ? b : a, &y = swap ? a : b;
            if (is_var(x, old) && !expr_uses_var(y, old)) {
                *op = o;
                *operand = y;
                return true;
            }
        }
        return false;
    };
    if (const auto *a = value.as<Add>()) return commutative(a->a, a->b, AtomicRMWOp::Add);
    if (const auto *s = value.as<Sub>()) {
        if (!is_var(s->a, old) || expr_uses_var(s->b, old)) return false;
        *op = AtomicRMWOp::Sub;
        *operand = s->b;
        return true;
    }
    if (const auto *m = value.as<Min>()) return commutative(m->a, m->b, AtomicRMWOp::Min);
    if (const auto *m = value.as<Max>()) return commutative(m->a, m->b, AtomicRMWOp::Max);
    if (const auto *c = value.as<Call>(); c && c->args.size() == 2) {
        if (c->is_intrinsic(Intrinsic::bitwise_and))
            return commutative(c->args[0], c->args[1], AtomicRMWOp::And);
        if (c->is_intrinsic(Intrinsic::bitwise_or))
            return commutative(c->args[0], c->args[1], AtomicRMWOp::Or);
        if (c->is_intrinsic(Intrinsic::bitwise_xor))
            return commutative(c->args[0], c->args[1], AtomicRMWOp::Xor);
    }
    return false;
}

const char *release_function_for(const Expr &let_value) {
    const auto *c = let_value.as<Call>();
    if (c && c->call_type == Call::Extern && c->name == "loom_device_buffer_create")
        return "loom_device_buffer_destroy";
    return nullptr;
}

} // namespace Internal
} // namespace loom
