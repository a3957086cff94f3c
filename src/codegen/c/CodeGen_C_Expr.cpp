// Expressions: constants, casts, arithmetic with the LLVM backend's integer
// semantics (narrow and 32/64-bit integers wrap; Euclidean division, zero for
// a zero divisor), comparisons, logic and vector construction.

#include <cinttypes>
#include <cmath>
#include <cstdio>

#include "codegen/c/CodeGen_C_Visitor.h"
#include "ir/Error.h"
#include "ir/IROperator.h"

namespace loom {
namespace Internal {

namespace {

std::string parenthesize_negative(const std::string &s) {
    return !s.empty() && s[0] == '-' ? "(" + s + ")" : s;
}

/** The unsigned type narrow integer arithmetic (and negation) wraps in. */
const char *wrap_type(Type t) {
    return t.bits == 64 ? "uint64_t" : "uint32_t";
}

} // namespace

void CodeGen_C::visit(const IntImm *op) {
    Type t = op->type;
    char text[48];
    if (t.bits == 64) {
        if (op->value == INT64_MIN) {
            value = "INT64_MIN";
            return;
        }
        std::snprintf(text, sizeof(text), "INT64_C(%" PRId64 ")", op->value);
    } else if (t.bits == 32 && op->value == INT32_MIN) {
        std::snprintf(text, sizeof(text), "(-2147483647 - 1)");
    } else {
        std::snprintf(text, sizeof(text), "%" PRId64, op->value);
    }
    value = parenthesize_negative(text);
    if (t.is_vector())
        value = elementwise(t, {value}, {t.element_of()}, [](auto &a) { return a[0]; });
}

void CodeGen_C::visit(const UIntImm *op) {
    Type t = op->type;
    char text[48];
    if (t.is_bool()) {
        std::snprintf(text, sizeof(text), "%s", op->value ? "true" : "false");
    } else if (t.bits == 64) {
        std::snprintf(text, sizeof(text), "UINT64_C(%" PRIu64 ")", op->value);
    } else {
        std::snprintf(text, sizeof(text), "%" PRIu64 "%s", op->value, t.bits == 32 ? "u" : "");
    }
    value = text;
    if (t.is_vector())
        value = elementwise(t, {value}, {t.element_of()}, [](auto &a) { return a[0]; });
}

void CodeGen_C::visit(const FloatImm *op) {
    Type t = op->type;
    double v = op->value;
    std::string s;
    if (std::isnan(v)) {
        s = t.bits == 64 ? "(double)NAN" : "NAN";
    } else if (std::isinf(v)) {
        s = std::string(v < 0 ? "(-" : "(") + (t.bits == 64 ? "(double)INFINITY)" : "INFINITY)");
    } else {
        // Enough digits to read back the exact value.
        char text[64];
        if (t.bits == 64)
            std::snprintf(text, sizeof(text), "%.17g", v);
        else
            std::snprintf(text, sizeof(text), "%.9g", double(float(v)));
        s = text;
        if (s.find_first_of(".e") == std::string::npos) s += ".0";
        if (t.bits != 64) s += "f";
        if (t.bits == 16) s = "(" + c_type(t.element_of()) + ")" + s;
        s = parenthesize_negative(s);
    }
    value = s;
    if (t.is_vector())
        value = elementwise(t, {value}, {t.element_of()}, [](auto &a) { return a[0]; });
}

void CodeGen_C::visit(const StringImm *op) {
    value = string_literal(op->value);
}

std::string CodeGen_C::convert(Type from, Type to, const std::string &a) {
    from = from.element_of();
    to = to.element_of();
    if (from == to) return a;
    if (to.is_bool()) return "(" + a + " != 0)";
    if (from.is_handle() && to.is_handle()) return a;
    if (from.is_handle()) return "(" + c_type(to) + ")(uintptr_t)" + a;
    if (to.is_handle()) return "(void *)(uintptr_t)" + a;
    // Integer narrowing wraps (two's complement, as gcc and clang define
    // it); float -> int truncates; widening follows the source's signedness.
    return "(" + c_type(to) + ")" + a;
}

void CodeGen_C::visit(const Cast *op) {
    Type from = op->value.type();
    std::string a = codegen(op->value);
    value = elementwise(op->type, {a}, {from}, [&](const std::vector<std::string> &x) {
        return convert(from, op->type, x[0]);
    });
}

void CodeGen_C::visit(const Reinterpret *op) {
    Type from = op->value.type(), to = op->type;
    std::string a = codegen(op->value);
    if (from.is_handle() || to.is_handle()) {
        value = scalar_local(to, convert(from, to, a));
        return;
    }
    value = codegen_reinterpret(from, to, a);
}

std::string CodeGen_C::codegen_reinterpret(Type from, Type to, const std::string &a) {
    if (from.is_scalar()) {
        // Through memory: the bits stay, the type changes. Literals have no
        // address, so copy through a local first.
        std::string src = scalar_local(from, a);
        std::string dst = scalar_local(to, "0");
        line() << "memcpy(&" << dst << ", &" << src << ", sizeof(" << dst << "));\n";
        return dst;
    }
    std::string dst = vector_local(to);
    line() << "memcpy(" << dst << ", " << a << ", sizeof(" << dst << "));\n";
    return dst;
}

void CodeGen_C::visit(const Variable *op) {
    const Symbol &s = symbol(op->name);
    used_names.insert(s.c_name);
    value = s.c_name;
}

std::string CodeGen_C::arithmetic(Type t, const std::string &a, const char *op,
                                  const std::string &b) {
    t = t.element_of();
    // Signed 32- and 64-bit overflow is undefined in Loom (the LLVM backend
    // emits nsw), and wider unsigned types wrap by themselves in C.
    if (t.is_float()) return float_arithmetic(t, a, op, b);
    if (t.bits >= 32) return a + " " + op + " " + b;
    // Narrow integers wrap: C would promote them to int, where a product
    // can overflow, so compute unsigned and convert back.
    std::string w = wrap_type(t);
    std::string r = "(" + w + ")" + a + " " + op + " (" + w + ")" + b;
    if (t.is_bool()) return "((" + r + ") & 1u) != 0";
    return "(" + c_type(t) + ")(" + r + ")";
}

std::string CodeGen_C::float_arithmetic(Type, const std::string &a, const char *op,
                                        const std::string &b) {
    return a + " " + op + " " + b;
}

template <typename Op> void CodeGen_C::visit_binary(const Op *op, const char *c_op) {
    std::string a = codegen(op->a), b = codegen(op->b);
    value = elementwise(
        op->type, {a, b}, {op->a.type(), op->b.type()},
        [&](const std::vector<std::string> &x) { return arithmetic(op->type, x[0], c_op, x[1]); });
}

void CodeGen_C::visit(const Add *op) {
    visit_binary(op, "+");
}
void CodeGen_C::visit(const Sub *op) {
    visit_binary(op, "-");
}
void CodeGen_C::visit(const Mul *op) {
    visit_binary(op, "*");
}

std::string CodeGen_C::euclidean_div_mod(Type t, const std::string &a, const std::string &b,
                                         bool div) {
    t = t.element_of();
    if (t.is_float()) {
        if (div) return a + " / " + b;
        // a - b * floor(a / b), as the LLVM backend computes it.
        std::string fl = math_function("floor", t.bits);
        if (t.bits == 16)
            return "(" + c_type(t) + ")((float)" + a + " - (float)" + b + " * " + fl + "((float)" +
                   a + " / (float)" + b + "))";
        return a + " - " + b + " * " + fl + "(" + a + " / " + b + ")";
    }
    std::string T = c_type(t);
    std::string suffix = (t.is_int() ? "i" : "u") + std::to_string(t.bits);
    std::string name = std::string(div ? "loom_div_" : "loom_mod_") + suffix;
    std::string def;
    std::string sig = helper_prefix() + " " + T + " " + name + "(" + T + " a, " + T + " b) {\n";
    if (t.is_uint()) {
        // Division by zero gives zero.
        def = sig + "    return b == 0 ? 0 : (" + T + ")(a " + (div ? "/" : "%") + " b);\n}\n";
    } else if (div) {
        // Euclidean: the remainder is never negative. -1 divides by negation
        // (wrapping), as the quotient of the most negative value overflows.
        def = sig + "    if (b == 0) return 0;\n" + "    if (b == -1) return (" + T + ")(0 - (" +
              wrap_type(t) + ")a);\n" + "    " + T + " q = (" + T + ")(a / b), r = (" + T +
              ")(a % b);\n" + "    if (r < 0) q = b > 0 ? (" + T + ")(q - 1) : (" + T +
              ")(q + 1);\n" + "    return q;\n}\n";
    } else {
        def = sig + "    if (b == 0 || b == -1) return 0;\n" + "    " + T + " r = (" + T +
              ")(a % b);\n" + "    if (r < 0) r = b < 0 ? (" + T + ")(r - b) : (" + T +
              ")(r + b);\n" + "    return r;\n}\n";
    }
    need_helper(name, def);
    return name + "(" + a + ", " + b + ")";
}

void CodeGen_C::visit(const Div *op) {
    std::string a = codegen(op->a), b = codegen(op->b);
    value = elementwise(op->type, {a, b}, {op->a.type(), op->b.type()},
                        [&](const std::vector<std::string> &x) {
                            return euclidean_div_mod(op->type, x[0], x[1], true);
                        });
}

void CodeGen_C::visit(const Mod *op) {
    std::string a = codegen(op->a), b = codegen(op->b);
    value = elementwise(op->type, {a, b}, {op->a.type(), op->b.type()},
                        [&](const std::vector<std::string> &x) {
                            return euclidean_div_mod(op->type, x[0], x[1], false);
                        });
}

void CodeGen_C::visit(const Min *op) {
    // Floats: a < b ? a : b, so a NaN in a gives b (as the LLVM backend).
    std::string a = codegen(op->a), b = codegen(op->b);
    value = elementwise(op->type, {a, b}, {op->a.type(), op->b.type()},
                        [&](const std::vector<std::string> &x) {
                            return x[0] + " < " + x[1] + " ? " + x[0] + " : " + x[1];
                        });
}

void CodeGen_C::visit(const Max *op) {
    std::string a = codegen(op->a), b = codegen(op->b);
    value = elementwise(op->type, {a, b}, {op->a.type(), op->b.type()},
                        [&](const std::vector<std::string> &x) {
                            return x[0] + " > " + x[1] + " ? " + x[0] + " : " + x[1];
                        });
}

template <typename Op> void CodeGen_C::visit_compare(const Op *op, const char *c_op) {
    // C's comparisons match LLVM's ordered ones, and != is true for NaN.
    std::string a = codegen(op->a), b = codegen(op->b);
    value = elementwise(
        op->type, {a, b}, {op->a.type(), op->b.type()},
        [&](const std::vector<std::string> &x) { return x[0] + " " + c_op + " " + x[1]; });
}

void CodeGen_C::visit(const EQ *op) {
    visit_compare(op, "==");
}
void CodeGen_C::visit(const NE *op) {
    visit_compare(op, "!=");
}
void CodeGen_C::visit(const LT *op) {
    visit_compare(op, "<");
}
void CodeGen_C::visit(const LE *op) {
    visit_compare(op, "<=");
}
void CodeGen_C::visit(const GT *op) {
    visit_compare(op, ">");
}
void CodeGen_C::visit(const GE *op) {
    visit_compare(op, ">=");
}

void CodeGen_C::visit(const And *op) {
    // Both sides are already evaluated: & on bools needs no short circuit.
    visit_compare(op, "&");
}

void CodeGen_C::visit(const Or *op) {
    visit_compare(op, "|");
}

void CodeGen_C::visit(const Not *op) {
    std::string a = codegen(op->a);
    value = elementwise(op->type, {a}, {op->a.type()},
                        [&](const std::vector<std::string> &x) { return "!" + x[0]; });
}

void CodeGen_C::visit(const Select *op) {
    std::string c = codegen(op->condition);
    std::string t = codegen(op->true_value), f = codegen(op->false_value);
    value = elementwise(
        op->type, {c, t, f}, {op->condition.type(), op->true_value.type(), op->false_value.type()},
        [&](const std::vector<std::string> &x) { return x[0] + " ? " + x[1] + " : " + x[2]; });
}

void CodeGen_C::visit(const Ramp *op) {
    Type et = op->base.type();
    std::string base = codegen(op->base), stride = codegen(op->stride);
    std::string v = vector_local(op->type);
    if (et.is_scalar()) {
        // base + stride * lane, in the element type's arithmetic.
        std::string index = convert(Int(32), et, "_l");
        lane_loop(op->lanes,
                  v + "[_l] = " +
                      arithmetic(et, base, "+", "(" + arithmetic(et, stride, "*", index) + ")") +
                      ";");
    } else {
        // A ramp of vectors: base, base + stride, ... concatenated.
        int w = et.lanes;
        line() << "for (int _i = 0; _i < " << op->lanes << "; _i++) {\n";
        indent_level++;
        std::string index = convert(Int(32), et, "_i");
        line() << "for (int _l = 0; _l < " << w << "; _l++) " << v << "[_i * " << w << " + _l] = "
               << arithmetic(et, base + "[_l]", "+",
                             "(" + arithmetic(et, stride + "[_l]", "*", index) + ")")
               << ";\n";
        indent_level--;
        line() << "}\n";
    }
    value = v;
}

void CodeGen_C::visit(const Broadcast *op) {
    Type vt = op->value.type();
    std::string a = codegen(op->value);
    std::string v = vector_local(op->type);
    if (vt.is_scalar()) {
        lane_loop(op->type.lanes, v + "[_l] = " + a + ";");
    } else {
        lane_loop(op->type.lanes, v + "[_l] = " + a + "[_l % " + std::to_string(vt.lanes) + "];");
    }
    value = v;
}

void CodeGen_C::visit(const Shuffle *op) {
    // Lane k of the concatenation, by vector and lane within it.
    std::vector<std::pair<std::string, Type>> parts;
    for (const Expr &e : op->vectors) parts.push_back({codegen(e), e.type()});
    auto lane_of = [&](int k) {
        for (const auto &p : parts) {
            if (k < p.second.lanes)
                return p.second.is_vector() ? p.first + "[" + std::to_string(k) + "]" : p.first;
            k -= p.second.lanes;
        }
        internal_error("shuffle index out of range");
    };
    if (op->indices.size() == 1) {
        value = scalar_local(op->type, lane_of(op->indices[0]));
        return;
    }
    std::string v = vector_local(op->type);
    for (size_t i = 0; i < op->indices.size(); i++)
        line() << v << "[" << i << "] = " << lane_of(op->indices[i]) << ";\n";
    value = v;
}

void CodeGen_C::visit(const Let *op) {
    bool scalar = op->value.type().is_scalar();
    std::string c = scalar ? let_local(op->name, op->value) : codegen(op->value);
    {
        ScopedBinding<Symbol> bind(symbols, op->name, Symbol{c, op->value.type()});
        value = codegen(op->body);
    }
    if (scalar) mark_unused_lets(c);
}

} // namespace Internal
} // namespace loom
