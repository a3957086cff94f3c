// Calls: intrinsics of the Intrinsic enum, buffer fields, math functions
// ("sqrt_f32", ...: the libm routines codegen/CodeGenCalls.cpp names, which
// the LLVM backend ends up calling too), extern C functions and print().
// CodeGenVisitor::codegen_call routes each Call to one of these emitters.

#include "codegen/c/CodeGen_C_Visitor.h"
#include "ir/Error.h"
#include "ir/IROperator.h"
#include "ir/LowerIntrinsics.h"

namespace loom {
namespace Internal {

namespace {

std::string join(const std::vector<std::string> &xs) {
    std::string r;
    for (size_t i = 0; i < xs.size(); i++) r += (i ? ", " : "") + xs[i];
    return r;
}

bool is_temporary(const std::string &atom) {
    return atom.size() > 2 && atom[0] == '_' && (atom[1] == 't' || atom[1] == 'v');
}

} // namespace

std::string CodeGen_C::codegen_math(const Call *op, const MathCall &math) {
    const std::string &stem = math.stem;
    std::vector<std::string> args;
    std::vector<Type> types;
    for (const Expr &a : op->args) {
        args.push_back(codegen(a));
        types.push_back(a.type());
    }
    // Half precision computes in float.
    bool half = math.bits == 16;
    std::string one = math.bits == 64 ? "1.0" : "1.0f";
    Type result = op->type;
    return elementwise(result, args, types, [&](const std::vector<std::string> &x) {
        std::vector<std::string> xs;
        for (const auto &a : x) xs.push_back(half ? "(float)" + a : a);
        std::string r;
        if (stem == "is_nan") {
            r = "isnan(" + xs[0] + ") != 0";
        } else if (stem == "is_inf") {
            r = "isinf(" + xs[0] + ") != 0";
        } else if (stem == "is_finite") {
            r = "isfinite(" + xs[0] + ") != 0";
        } else if (stem == "fast_inverse") {
            r = one + " / " + xs[0];
        } else if (stem == "fast_inverse_sqrt") {
            r = one + " / " + math_function("sqrt", math.bits) + "(" + xs[0] + ")";
        } else {
            r = math_function(math.libm, math.bits) + "(" + join(xs) + ")";
        }
        if (half && !math.is_classification()) r = "(" + c_type(result.element_of()) + ")" + r;
        return r;
    });
}

std::string CodeGen_C::codegen_extern(const Call *op) {
    std::vector<std::string> args, params;
    std::vector<Type> types;
    for (const Expr &a : op->args) {
        args.push_back(codegen(a));
        types.push_back(a.type());
        params.push_back(a.as<StringImm>() ? std::string("const char *") : c_type(a.type()));
    }
    std::string result = op->type.is_void() ? std::string("void") : c_type(op->type);
    const std::vector<std::string> &declared = declare_extern(op->name, result, params);
    internal_assert(declared.size() == args.size(),
                    "extern " << op->name << " called with " << args.size() << " arguments, "
                              << "declared with " << declared.size());
    auto call = [&](const std::vector<std::string> &x) {
        std::vector<std::string> cast_args;
        for (size_t i = 0; i < x.size(); i++) cast_args.push_back("(" + declared[i] + ")" + x[i]);
        return op->name + "(" + join(cast_args) + ")";
    };
    if (op->type.is_void()) {
        line() << call(args) << ";\n";
        return "0";
    }
    // C functions are scalar: vectors call once per lane.
    return elementwise(op->type, args, types, call);
}

std::string CodeGen_C::codegen_buffer_field(const Call *op) {
    internal_assert(!op->args.empty(), "buffer field intrinsic without a buffer");
    std::string buf = "((loom_buffer_t *)" + codegen(op->args[0]) + ")";
    auto dim_field = [&](const char *field) {
        internal_assert(op->args.size() == 2, "buffer dimension intrinsic needs a dimension");
        return buf + "->dim[" + codegen(op->args[1]) + "]." + field;
    };
    std::string v;
    Type from = Int(32);
    switch (op->op) {
    case Intrinsic::buffer_get_host:
        return scalar_local(Handle(), buf + "->host");
    case Intrinsic::buffer_get_min:
        v = dim_field("min");
        break;
    case Intrinsic::buffer_get_extent:
        v = dim_field("extent");
        break;
    case Intrinsic::buffer_get_stride:
        v = dim_field("stride");
        break;
    case Intrinsic::buffer_get_dimensions:
        v = buf + "->dimensions";
        break;
    case Intrinsic::buffer_get_type_code:
        v = buf + "->type.code", from = UInt(8);
        break;
    case Intrinsic::buffer_get_type_bits:
        v = buf + "->type.bits", from = UInt(8);
        break;
    case Intrinsic::buffer_get_type_lanes:
        v = buf + "->type.lanes", from = UInt(16);
        break;
    default:
        internal_error("not a buffer field intrinsic: " << intrinsic_name(op->op));
    }
    return scalar_local(op->type, convert(from, op->type, v));
}

std::string CodeGen_C::codegen_if_then_else(const Call *op) {
    internal_assert(op->args.size() >= 2, "if_then_else needs a condition and a value");
    Type t = op->type;
    if (op->args[0].type().is_vector()) {
        // No branching on vectors: evaluate both sides.
        std::string c = codegen(op->args[0]), a = codegen(op->args[1]);
        std::string b = op->args.size() > 2 ? codegen(op->args[2]) : zero_of(t.element_of());
        Type bt = op->args.size() > 2 ? op->args[2].type() : t.element_of();
        return elementwise(
            t, {c, a, b}, {op->args[0].type(), op->args[1].type(), bt},
            [](const std::vector<std::string> &x) { return x[0] + " ? " + x[1] + " : " + x[2]; });
    }
    // Only the side the condition picks runs.
    std::string c = codegen(op->args[0]);
    std::string r = t.is_vector() ? vector_local(t) : scalar_local(t, "0");
    auto assign = [&](const std::string &v, Type vt) {
        if (t.is_vector())
            lane_loop(t.lanes, r + "[_l] = " + lane(v, vt) + ";");
        else
            line() << r << " = " << v << ";\n";
    };
    line() << "if (" << c << ") {\n";
    indent_level++;
    assign(codegen(op->args[1]), op->args[1].type());
    indent_level--;
    line() << "} else {\n";
    indent_level++;
    if (op->args.size() > 2)
        assign(codegen(op->args[2]), op->args[2].type());
    else
        assign("0", t.element_of());
    indent_level--;
    line() << "}\n";
    return r;
}

std::string CodeGen_C::codegen_debug_print(const Call *op) {
    std::string first;
    std::string buffer = format_message(op, 0, &first);
    declare_extern("loom_print", "void", {"void *", "const char *"});
    line() << "loom_print(" << symbol("__user_context").c_name << ", " << buffer << ");\n";
    // print() returns its first value.
    if (!first.empty() && !op->args.empty() && op->args[0].type() == op->type) return first;
    return elementwise(op->type, {"0"}, {op->type.element_of()},
                       [](const std::vector<std::string> &x) { return x[0]; });
}

std::string CodeGen_C::format_message(const Call *op, size_t first_arg, std::string *first_value) {
    std::vector<Expr> parts(op->args.begin() + first_arg, op->args.end());
    Expr message = Call::make(op->type, Intrinsic::debug_print, parts, Call::Intrinsic);
    const Call *call = message.as<Call>();
    PrintFormat print = print_format(call);
    std::vector<std::string> args(call->args.size());
    std::string first;
    for (size_t i = 0; i < call->args.size(); i++) {
        if (call->args[i].as<StringImm>()) continue;
        args[i] = codegen(call->args[i]);
        if (first.empty()) first = args[i];
    }
    if (first_value) *first_value = first;
    std::vector<std::string> values;
    for (const PrintFormat::Value &v : print.values) {
        std::string x = args[v.arg];
        if (call->args[v.arg].type().is_vector()) x += "[" + std::to_string(v.lane) + "]";
        switch (v.conversion) {
        case PrintFormat::AsDouble:
            values.push_back("(double)" + x);
            break;
        case PrintFormat::AsPointer:
            values.push_back(x);
            break;
        case PrintFormat::AsSigned:
            values.push_back("(long long)" + x);
            break;
        case PrintFormat::AsUnsigned:
            values.push_back("(unsigned long long)" + x);
            break;
        }
    }
    std::string buffer = "_print" + std::to_string(next_id++);
    line() << "char " << buffer << "[1024];\n";
    line() << "snprintf(" << buffer << ", sizeof(" << buffer << "), "
           << string_literal(print.format);
    for (const auto &v : values) *out << ", " << v;
    *out << ");\n";
    return buffer;
}

std::string CodeGen_C::codegen_require(const Call *op) {
    internal_assert(op->args.size() >= 3, "require needs a condition, a value and a message");
    Type ct = op->args[0].type();
    std::string c = codegen(op->args[0]);
    std::string ok = c;
    if (ct.is_vector()) {
        ok = scalar_local(Bool(), "1");
        lane_loop(ct.lanes, ok + " = " + ok + " && " + c + "[_l];");
    }
    line() << "if (!" << ok << ") {\n";
    indent_level++;
    std::string message = format_message(op, 2, nullptr);
    declare_extern("loom_error_message", "int", {"void *", "const char *"});
    return_with_cleanup("loom_error_message(" + symbol("__user_context").c_name + ", " + message +
                        ")");
    indent_level--;
    line() << "}\n";
    return codegen(op->args[1]);
}

std::string CodeGen_C::fixed_point_function(Intrinsic, Type) const {
    return "";
}

std::string CodeGen_C::codegen_fixed_point(const Call *op) {
    Type t = op->type;
    std::string fn = fixed_point_function(op->op, t.element_of());
    if (fn.empty()) return codegen(lower_fixed_point_intrinsic(op));
    std::string a = codegen(op->args.at(0)), b = codegen(op->args.at(1));
    std::string T = c_type(t.element_of());
    return elementwise(t, {a, b}, {op->args[0].type(), op->args[1].type()},
                       [&](const std::vector<std::string> &x) {
                           return fn + "((" + T + ")" + x[0] + ", (" + T + ")" + x[1] + ")";
                       });
}

std::string CodeGen_C::codegen_shift(const Call *op) {
    Type t = op->type, bt = op->args.at(1).type();
    bool left = op->op == Intrinsic::shift_left;
    std::string a = codegen(op->args.at(0)), b = codegen(op->args.at(1));
    std::string T = c_type(t.element_of());
    std::string W = t.bits == 64 ? "uint64_t" : "uint32_t";
    auto shift = [&](bool to_left, const std::string &x, const std::string &amount) {
        // Left shifts in unsigned arithmetic (signed overflow is undefined in
        // C); right shifts of signed values are arithmetic in gcc and clang.
        if (to_left) return "(" + T + ")((" + W + ")" + x + " << " + amount + ")";
        return "(" + T + ")(" + x + " >> " + amount + ")";
    };
    auto c = as_const_int(op->args[1]);
    bool may_be_negative = bt.is_int() && !(c && *c >= 0);
    return elementwise(t, {a, b}, {op->args[0].type(), bt}, [&](const std::vector<std::string> &x) {
        if (!may_be_negative) return shift(left, x[0], x[1]);
        // A negative signed amount shifts the other way.
        return x[1] + " < 0 ? " + shift(!left, x[0], "(0 - " + x[1] + ")") + " : " +
               shift(left, x[0], x[1]);
    });
}

std::string CodeGen_C::bit_count(Intrinsic op, Type arg, const std::string &x) {
    int bits = arg.bits;
    bool wide = bits == 64;
    if (op == Intrinsic::popcount)
        return std::string(wide ? "__builtin_popcountll((unsigned long long)"
                                : "__builtin_popcount((unsigned)") +
               x + ")";
    bool leading = op == Intrinsic::count_leading_zeros;
    // Defined at zero (the width), unlike the builtins.
    std::string fn = std::string(leading ? "loom_clz" : "loom_ctz") + std::to_string(bits);
    std::string builtin =
        std::string(leading ? "__builtin_clz" : "__builtin_ctz") + (wide ? "ll" : "");
    std::string a = wide ? "(unsigned long long)x" : "(unsigned)x";
    std::string adjust = leading && bits < 32 ? " - " + std::to_string(32 - bits) : "";
    need_helper(fn, helper_prefix() + " int " + fn + "(" + c_type(arg) +
                        " x) {\n    return x == 0 ? " + std::to_string(bits) + " : " + builtin +
                        "(" + a + ")" + adjust + ";\n}\n");
    return fn + "(" + x + ")";
}

std::string CodeGen_C::codegen_bit_count(const Call *op) {
    Type at = op->args.at(0).type();
    Type ut = at.element_of().with_code(Type::UInt);
    std::string a = codegen(op->args[0]);
    Type counted = Int(32, at.lanes);
    return elementwise(op->type, {a}, {at}, [&](const std::vector<std::string> &x) {
        return convert(counted, op->type, bit_count(op->op, ut, "(" + c_type(ut) + ")" + x[0]));
    });
}

std::string CodeGen_C::round_to_zero_div_mod(Type t, const std::string &a, const std::string &b,
                                             bool div) {
    t = t.element_of();
    if (t.is_float()) {
        if (div) return a + " / " + b;
        return math_function("fmod", t.bits) + "(" + a + ", " + b + ")";
    }
    std::string T = c_type(t);
    std::string name = std::string(div ? "loom_div_rtz_" : "loom_mod_rtz_") +
                       (t.is_int() ? "i" : "u") + std::to_string(t.bits);
    std::string body = helper_prefix() + " " + T + " " + name + "(" + T + " a, " + T + " b) {\n" +
                       "    if (b == 0) return 0;\n";
    if (t.is_int()) {
        std::string W = t.bits == 64 ? "uint64_t" : "uint32_t";
        body += div ? "    if (b == -1) return (" + T + ")(0 - (" + W + ")a);\n"
                    : "    if (b == -1) return 0;\n";
    }
    body += "    return (" + T + ")(a " + (div ? "/" : "%") + " b);\n}\n";
    need_helper(name, body);
    return name + "(" + a + ", " + b + ")";
}

std::string CodeGen_C::codegen_atomic_update(const Call *op) {
    // A compare-and-swap loop on the element's bits (GCC/Clang __atomic
    // builtins) that recomputes the new value from the old one each try.
    internal_assert(op->args.size() == 4, "atomic_update takes 4 arguments");
    const auto *name = op->args[0].as<StringImm>();
    const auto *old = op->args[2].as<StringImm>();
    internal_assert(name && old, "atomic_update needs a buffer name and an old-value name");
    Type t = op->type;
    internal_assert(t.is_scalar(), "atomic_update of a vector");
    const Symbol &memory = symbol(name->value);
    used_names.insert(memory.c_name);
    std::string bits = "uint" + std::to_string(std::max(8, int(t.bits))) + "_t";
    std::string index = codegen(op->args[1]);
    std::string ptr = "_atomic" + std::to_string(next_id++);
    std::string current = "_current" + std::to_string(next_id++);
    line() << bits << " *" << ptr << " = (" << bits << " *)" << memory.c_name << " + " << index
           << ";\n";
    line() << bits << " " << current << " = __atomic_load_n(" << ptr << ", __ATOMIC_RELAXED);\n";
    line() << "for (;;) {\n";
    indent_level++;
    std::string old_value = unique_name(old->value);
    if (t.is_bool()) {
        line() << "bool " << old_value << " = " << current << " != 0;\n";
    } else {
        line() << c_type(t) << " " << old_value << ";\n";
        line() << "memcpy(&" << old_value << ", &" << current << ", sizeof(" << current << "));\n";
    }
    std::string next;
    {
        ScopedBinding<Symbol> bind(symbols, old->value, Symbol{old_value, t});
        next = codegen(op->args[3]);
    }
    std::string next_bits = scalar_local(t.is_bool() ? UInt(8) : t, next);
    std::string next_raw = "_next" + std::to_string(next_id++);
    line() << bits << " " << next_raw << ";\n";
    line() << "memcpy(&" << next_raw << ", &" << next_bits << ", sizeof(" << next_raw << "));\n";
    line() << "if (__atomic_compare_exchange_n(" << ptr << ", &" << current << ", " << next_raw
           << ", 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) break;\n";
    mark_unused_lets(old_value);
    indent_level--;
    line() << "}\n";
    return elementwise(t, {"0"}, {t}, [](const std::vector<std::string> &x) { return x[0]; });
}

std::string CodeGen_C::codegen_intrinsic(const Call *op) {
    const auto &args = op->args;
    Type t = op->type;
    auto arg_type = [&](size_t i) {
        internal_assert(i < args.size(),
                        "intrinsic " << intrinsic_name(op->op) << " is missing argument " << i);
        return args[i].type();
    };
    switch (op->op) {
    case Intrinsic::abs:
    case Intrinsic::absd: {
        Type at = arg_type(0);
        bool d = op->op == Intrinsic::absd;
        std::vector<std::string> xs{codegen(args[0])};
        std::vector<Type> ts{at};
        if (d) {
            xs.push_back(codegen(args.at(1)));
            ts.push_back(arg_type(1));
        }
        Type ut = at.with_code(Type::UInt);
        std::string W = at.bits == 64 ? "uint64_t" : "uint32_t";
        return elementwise(t, xs, ts, [&](const std::vector<std::string> &x) {
            if (at.is_float()) {
                std::string f = math_function("fabs", at.bits) + (at.bits == 16 ? "((float)" : "(");
                std::string r = f + (d ? x[0] + " - " + x[1] : x[0]) + ")";
                return at.bits == 16 ? "(" + c_type(at.element_of()) + ")" + r : r;
            }
            std::string r;
            if (!d) {
                if (at.is_uint()) return convert(at, t, x[0]);
                // |most negative| wraps to the right unsigned value.
                r = x[0] + " < 0 ? (" + W + ")0 - (" + W + ")" + x[0] + " : (" + W + ")" + x[0];
            } else {
                r = x[0] + " < " + x[1] + " ? (" + W + ")" + x[1] + " - (" + W + ")" + x[0] +
                    " : (" + W + ")" + x[0] + " - (" + W + ")" + x[1];
            }
            return convert(ut, t, "(" + c_type(ut.element_of()) + ")(" + r + ")");
        });
    }
    case Intrinsic::bitwise_and:
    case Intrinsic::bitwise_or:
    case Intrinsic::bitwise_xor: {
        const char *c_op = op->op == Intrinsic::bitwise_and  ? " & "
                           : op->op == Intrinsic::bitwise_or ? " | "
                                                             : " ^ ";
        std::string a = codegen(args.at(0)), b = codegen(args.at(1));
        return elementwise(
            t, {a, b}, {arg_type(0), arg_type(1)}, [&](const std::vector<std::string> &x) {
                return "(" + c_type(t.element_of()) + ")(" + x[0] + c_op + x[1] + ")";
            });
    }
    case Intrinsic::bitwise_not: {
        std::string a = codegen(args.at(0));
        return elementwise(t, {a}, {arg_type(0)}, [&](const std::vector<std::string> &x) {
            if (t.is_bool()) return "!" + x[0];
            return "(" + c_type(t.element_of()) + ")~" + x[0];
        });
    }
    case Intrinsic::shift_left:
    case Intrinsic::shift_right:
        return codegen_shift(op);
    case Intrinsic::count_leading_zeros:
    case Intrinsic::count_trailing_zeros:
    case Intrinsic::popcount:
        return codegen_bit_count(op);
    case Intrinsic::div_round_to_zero:
    case Intrinsic::mod_round_to_zero: {
        bool div = op->op == Intrinsic::div_round_to_zero;
        std::string a = codegen(args.at(0)), b = codegen(args.at(1));
        return elementwise(t, {a, b}, {arg_type(0), arg_type(1)},
                           [&](const std::vector<std::string> &x) {
                               return round_to_zero_div_mod(t, x[0], x[1], div);
                           });
    }
    case Intrinsic::likely:
    case Intrinsic::likely_if_innermost:
    case Intrinsic::promise_clamped:
    case Intrinsic::unsafe_promise_clamped:
    case Intrinsic::strict_float: // honoured file-wide, through the strict_float feature
        return codegen(args.at(0));
    case Intrinsic::saturating_add:
    case Intrinsic::saturating_sub:
    case Intrinsic::halving_add:
    case Intrinsic::rounding_halving_add:
    case Intrinsic::halving_sub:
        return codegen_fixed_point(op);
    case Intrinsic::require:
        return codegen_require(op);
    case Intrinsic::trace:
        return codegen_trace(op);
    case Intrinsic::unreachable:
    case Intrinsic::return_second: {
        std::string first = codegen(args.at(0));
        if (is_temporary(first)) line() << "(void)" << first << ";\n";
        return codegen(args.at(1));
    }
        // fallthrough: a value nobody uses, computed as zero
    case Intrinsic::undef:
        return elementwise(t, {"0"}, {t.element_of()},
                           [](const std::vector<std::string> &x) { return x[0]; });
    case Intrinsic::memory_fence:
        // The C backend writes streaming stores as ordinary ones, so the
        // fence that follows them only has to keep its meaning.
        line() << "__atomic_thread_fence(__ATOMIC_SEQ_CST);\n";
        return "0";
    case Intrinsic::prefetch: {
        const auto *buffer = args.at(0).as<StringImm>();
        internal_assert(buffer, "prefetch needs a buffer name");
        const Symbol &memory = symbol(buffer->value);
        used_names.insert(memory.c_name);
        std::string index = codegen(args.at(1));
        line() << "__builtin_prefetch(((const " << c_memory_type(t) << " *)" << memory.c_name
               << ") + " << index << ");\n";
        return "0";
    }
    default: // the other emitters' intrinsics (CodeGenVisitor::codegen_call)
        break;
    }
    internal_error("C codegen: unhandled intrinsic " << intrinsic_name(op->op));
}

} // namespace Internal
} // namespace loom
