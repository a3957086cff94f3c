// codegen_c(): the layout of the generated file (includes, prototypes,
// helpers, parallel tasks, entry points, metadata), names and C types.

#include "codegen/c/CodeGen_C.h"

#include <cctype>
#include <cstdio>

#include "codegen/ArgvMessages.h"
#include "codegen/c/CodeGen_C_Visitor.h"
#include "ir/Error.h"
#include "ir/StackGuard.h"

namespace loom {
namespace Internal {

namespace {

bool is_c_keyword(const std::string &s) {
    static const std::set<std::string> keywords = {
        "auto",     "break",  "case",     "char",   "const",    "continue", "default",
        "do",       "double", "else",     "enum",   "extern",   "float",    "for",
        "goto",     "if",     "inline",   "int",    "long",     "register", "restrict",
        "return",   "short",  "signed",   "sizeof", "static",   "struct",   "switch",
        "typedef",  "union",  "unsigned", "void",   "volatile", "while",    "bool",
        "true",     "false",  "NULL",     "argv",   "_Bool",    "_Complex", "_Imaginary",
        "INFINITY", "NAN",    "main",     "memcpy", "snprintf"};
    return keywords.count(s) > 0;
}

/** Letters, digits and underscores only, starting with a letter. */
std::string sanitize(const std::string &name) {
    std::string s;
    for (char c : name) s += std::isalnum((unsigned char)c) ? c : '_';
    size_t first = s.find_first_not_of('_');
    s = first == std::string::npos ? std::string() : s.substr(first);
    if (s.empty() || std::isdigit((unsigned char)s[0])) s = "v" + s;
    return s;
}

/** Prototypes of the runtime functions generated code calls (see
 * src/runtime/RuntimeFunctions.h): result type and parameter types. */
struct RuntimePrototype {
    const char *result;
    std::vector<std::string> params;
};

const std::map<std::string, RuntimePrototype> &runtime_prototypes() {
    static const std::map<std::string, RuntimePrototype> table = {
        {"loom_error_buffer_argument_is_null", {"int", {"void *", "const char *"}}},
        {"loom_error_bad_type",
         {"int",
          {"void *", "const char *", "int32_t", "int32_t", "int32_t", "int32_t", "int32_t",
           "int32_t"}}},
        {"loom_error_bad_dimensions", {"int", {"void *", "const char *", "int32_t", "int32_t"}}},
        {"loom_error_buffer_too_small",
         {"int",
          {"void *", "const char *", "const char *", "int32_t", "int64_t", "int64_t", "int64_t",
           "int64_t"}}},
        {"loom_error_buffer_bad_extent",
         {"int", {"void *", "const char *", "int32_t", "int32_t", "int32_t"}}},
        {"loom_error_buffer_extents_too_large",
         {"int", {"void *", "const char *", "int64_t", "int64_t"}}},
        {"loom_error_allocation_too_large",
         {"int", {"void *", "const char *", "int64_t", "int64_t"}}},
        {"loom_error_bound_violated",
         {"int",
          {"void *", "const char *", "const char *", "int32_t", "int32_t", "int32_t", "int32_t",
           "int32_t", "int32_t"}}},
        {"loom_error_constraint_violated",
         {"int", {"void *", "const char *", "int32_t", "const char *", "int32_t"}}},
        {"loom_error_param_too_small_i64",
         {"int", {"void *", "const char *", "int64_t", "int64_t"}}},
        {"loom_error_param_too_large_i64",
         {"int", {"void *", "const char *", "int64_t", "int64_t"}}},
        {"loom_error_param_too_small_f64", {"int", {"void *", "const char *", "double", "double"}}},
        {"loom_error_param_too_large_f64", {"int", {"void *", "const char *", "double", "double"}}},
        {"loom_error_out_of_memory", {"int", {"void *"}}},
        {"loom_error_message", {"int", {"void *", "const char *"}}},
        {"loom_buffer_dim_is_null", {"int", {"void *", "const loom_buffer_t *"}}},
        {"loom_error_buffer_dim_is_null", {"int", {"void *", "const char *", "int32_t"}}},
        {"loom_error_specialize_fail", {"int", {"void *", "const char *"}}},
        {"loom_error_split_too_small",
         {"int", {"void *", "const char *", "const char *", "const char *", "int32_t", "int32_t"}}},
        {"loom_malloc", {"void *", {"void *", "size_t"}}},
        {"loom_free", {"void", {"void *", "void *"}}},
        {"loom_do_par_for",
         {"int", {"void *", "int (*)(void *, int, uint8_t *)", "int", "int", "uint8_t *"}}},
        {"loom_print", {"void", {"void *", "const char *"}}},
        {"loom_streaming_store_threshold", {"int64_t", {"void *"}}},
    };
    return table;
}

} // namespace

CodeGen_C::CodeGen_C(const Target &t) : target(t) {}

std::string CodeGen_C::codegen(const Expr &e) {
    internal_assert(e.defined(), "C codegen of an undefined Expr");
    value.clear();
    name_hints.push_back(std::move(let_name));
    let_name.clear();
    e.accept(this);
    name_hints.pop_back();
    internal_assert(!value.empty(), "C codegen produced no value for an expression of type "
                                        << type_to_string(e.type()));
    std::string result;
    result.swap(value);
    return result;
}

void CodeGen_C::codegen(const Stmt &s) {
    if (s.defined()) s.accept(this);
}

std::ostream &CodeGen_C::line() {
    for (int i = 0; i < indent_level; i++) *out << "    ";
    return *out;
}

bool CodeGen_C::unroll_lane_loops(int) const {
    return false;
}

void CodeGen_C::lane_loop(int lanes, const std::string &statement) {
    if (!unroll_lane_loops(lanes)) {
        line() << "for (int _l = 0; _l < " << lanes << "; _l++) " << statement << "\n";
        return;
    }
    auto is_name_char = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    };
    for (int l = 0; l < lanes; l++) {
        std::string unrolled;
        const std::string lane = std::to_string(l);
        for (size_t i = 0; i < statement.size();) {
            bool word = statement.compare(i, 2, "_l") == 0 &&
                        (i == 0 || !is_name_char(statement[i - 1])) &&
                        (i + 2 == statement.size() || !is_name_char(statement[i + 2]));
            if (word) {
                unrolled += lane;
                i += 2;
            } else {
                unrolled += statement[i++];
            }
        }
        line() << unrolled << "\n";
    }
}

std::string CodeGen_C::unique_name(const std::string &loom_name) {
    return sanitize(loom_name) + "_" + std::to_string(next_id++);
}

const CodeGen_C::Symbol &CodeGen_C::symbol(const std::string &name) const {
    const Symbol *s = symbols.find(name);
    internal_assert(s, "C codegen: symbol \"" << name << "\" is not bound");
    return *s;
}

void CodeGen_C::mark_unused_lets(const std::string &c_name) {
    // -Wall warns about locals never read; a let the body ignores gets a use.
    if (!used_names.count(c_name)) line() << "(void)" << c_name << ";\n";
}

std::string CodeGen_C::c_type(Type t) const {
    switch (t.code) {
    case Type::Int:
        switch (t.bits) {
        case 8:
            return "int8_t";
        case 16:
            return "int16_t";
        case 32:
            return "int32_t";
        case 64:
            return "int64_t";
        }
        break;
    case Type::UInt:
        switch (t.bits) {
        case 1:
            return "bool";
        case 8:
            return "uint8_t";
        case 16:
            return "uint16_t";
        case 32:
            return "uint32_t";
        case 64:
            return "uint64_t";
        }
        break;
    case Type::Float:
        switch (t.bits) {
        case 16:
            return "_Float16";
        case 32:
            return "float";
        case 64:
            return "double";
        }
        break;
    case Type::BFloat:
        // Brain floats are bits here: lowering computes with them in float
        // (EmulateFloat16Math).
        return "uint16_t";
    case Type::Handle:
        return "void *";
    }
    internal_error("C codegen: no C type for " << type_to_string(t));
}

std::string CodeGen_C::c_memory_type(Type t) const {
    return t.is_bool() ? std::string("uint8_t") : c_type(t);
}

std::string CodeGen_C::memory_pointer(const Symbol &memory, Type t) const {
    std::string space = memory.address_space.empty() ? "" : memory.address_space + " ";
    return "((" + space + c_memory_type(t.element_of()) + " *)" + memory.c_name + ")";
}

std::string CodeGen_C::math_function(const std::string &name, int bits) const {
    return bits == 64 ? name : name + "f";
}

std::string CodeGen_C::scalar_local(Type t, const std::string &expr) {
    std::string name;
    if (!name_hints.empty() && !name_hints.back().empty())
        name.swap(name_hints.back());
    else
        name = "_t" + std::to_string(next_id++);
    std::string type = c_type(t.element_of());
    line() << type << (type.back() == '*' ? "" : " ") << name << " = " << expr << ";\n";
    return name;
}

std::string CodeGen_C::let_local(const std::string &loom_name, const Expr &value) {
    let_name = unique_name(loom_name);
    std::string wanted = let_name;
    std::string v = codegen(value);
    let_name.clear();
    if (v == wanted) return v;
    // The value is a literal, another name, or a local of another node.
    std::string c = unique_name(loom_name);
    std::string type = c_type(value.type());
    line() << type << (type.back() == '*' ? "" : " ") << c << " = " << v << ";\n";
    return c;
}

std::string CodeGen_C::vector_local(Type t) {
    std::string name = "_v" + std::to_string(next_id++);
    std::string type = c_type(t.element_of());
    line() << type << (type.back() == '*' ? "" : " ") << name << "[" << t.lanes << "];\n";
    return name;
}

std::string CodeGen_C::lane(const std::string &a, Type t) {
    return t.is_vector() ? a + "[_l]" : a;
}

void CodeGen_C::return_with_cleanup(const std::string &code) {
    std::string uc = symbol("__user_context").c_name;
    for (auto it = heap_allocations.rbegin(); it != heap_allocations.rend(); ++it)
        line() << (std::string(it->function) == "loom_free" ? "" : "(void)") << it->function << "("
               << uc << ", " << it->value << ");\n";
    line() << "return " << code << ";\n";
}

std::string CodeGen_C::string_literal(const std::string &s) const {
    std::string r = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\' || c == '?') {
            // '?' too: a "??x" trigraph would change the string.
            r += '\\';
            r += char(c);
        } else if (c >= 32 && c < 127) {
            r += char(c);
        } else {
            char octal[8];
            std::snprintf(octal, sizeof(octal), "\\%03o", unsigned(c));
            r += octal;
        }
    }
    return r + "\"";
}

const std::vector<std::string> &CodeGen_C::declare_extern(const std::string &name,
                                                          const std::string &result,
                                                          const std::vector<std::string> &params) {
    auto it = prototype_params.find(name);
    if (it != prototype_params.end()) return it->second;
    std::vector<std::string> declared = params;
    std::string result_type = result;
    auto known = runtime_prototypes().find(name);
    if (known != runtime_prototypes().end()) {
        declared = known->second.params;
        result_type = known->second.result;
    }
    std::string proto = result_type + (result_type.back() == '*' ? "" : " ") + name + "(";
    for (size_t i = 0; i < declared.size(); i++) proto += (i ? ", " : "") + declared[i];
    if (declared.empty()) proto += "void";
    prototypes[name] = proto + ");";
    return prototype_params[name] = declared;
}

std::string CodeGen_C::zero_of(Type) const {
    return "0";
}

std::string CodeGen_C::helper_prefix() const {
    return "static inline";
}

void CodeGen_C::need_helper(const std::string &name, const std::string &definition) {
    helpers.emplace(name, definition);
}

void CodeGen_C::define_body_function(const LoweredFunc &f) {
    std::ostringstream text;
    out = &text;
    indent_level = 0;
    std::string uc = unique_name("user_context");
    symbols.push("__user_context", {uc, Handle()});
    text << "int " << f.name << "_with_context(void *" << uc;
    std::vector<std::string> bound;
    for (const auto &a : f.args) {
        std::string loom_name = a.is_buffer() ? a.name + ".buffer" : a.name;
        std::string c = unique_name(a.name);
        text << ", " << (a.is_buffer() ? std::string("loom_buffer_t *") : c_type(a.type) + " ")
             << c;
        symbols.push(loom_name, {c, a.is_buffer() ? Handle() : a.type});
        bound.push_back(loom_name);
    }
    text << ") {\n";
    indent_level = 1;
    for (const auto &a : f.embedded_buffers) {
        symbols.push(a.name + ".buffer", {embed_buffer(a), Handle()});
        bound.push_back(a.name + ".buffer");
    }
    codegen(f.body);
    line() << "return 0;\n";
    text << "}\n";
    for (const auto &name : bound) symbols.pop(name);
    symbols.pop("__user_context");
    finished_functions.push_back(text.str());
    out = nullptr;
}

std::string CodeGen_C::embed_buffer(const LoweredArgument &a) {
    // Its bytes, dimensions and loom_buffer_t as static constants (as the
    // LLVM backend embeds them); the code only ever reads them.
    internal_assert(a.buffer.defined(), "embedded buffer " << a.name << " has no Buffer");
    const loom_buffer_t &raw = *a.buffer.raw_buffer();
    if (!raw.host) {
        user_error("Buffer " << a.name
                             << " is read by the pipeline but has no host data to embed in "
                                "the generated C");
    }
    const int64_t elem_bytes = std::max(1, (int(raw.type.bits) + 7) / 8) * int64_t(raw.type.lanes);
    int64_t first = 0, last = 0;
    bool empty = false;
    for (int d = 0; d < raw.dimensions; d++) {
        const loom_dimension_t &dim = raw.dim[d];
        if (dim.extent <= 0) {
            empty = true;
            continue;
        }
        int64_t reach = int64_t(dim.extent - 1) * int64_t(dim.stride);
        (reach < 0 ? first : last) += reach;
    }
    size_t bytes = empty ? 0 : size_t((last - first + 1) * elem_bytes);
    std::string data = unique_name(a.name + "_data"), dims = unique_name(a.name + "_dims"),
                buffer = unique_name(a.name + "_buffer");
    std::ostringstream text;
    text << "static const uint8_t " << data << "[" << std::max<size_t>(bytes, 1)
         << "] __attribute__((aligned(16))) = {";
    const uint8_t *start = raw.host + first * elem_bytes;
    for (size_t i = 0; i < std::max<size_t>(bytes, 1); i++)
        text << (i % 24 ? "" : "\n    ") << (bytes ? int(start[i]) : 0) << ",";
    text << "\n};\n";
    if (raw.dimensions > 0) {
        text << "static const loom_dimension_t " << dims << "[" << raw.dimensions << "] = {";
        for (int d = 0; d < raw.dimensions; d++)
            text << "{" << raw.dim[d].min << ", " << raw.dim[d].extent << ", " << raw.dim[d].stride
                 << ", " << raw.dim[d].flags << "}, ";
        text << "};\n";
    }
    text << "static const loom_buffer_t " << buffer << " = {0, NULL, (uint8_t *)" << data << " + "
         << -first * elem_bytes << ", 0, {" << int(raw.type.code) << ", " << int(raw.type.bits)
         << ", " << int(raw.type.lanes) << "}, " << raw.dimensions << ", "
         << (raw.dimensions > 0 ? "(loom_dimension_t *)" + dims : std::string("NULL"))
         << ", NULL};\n";
    finished_functions.push_back(text.str());
    return "((void *)&" + buffer + ")";
}

void CodeGen_C::define_wrappers(const LoweredFunc &f) {
    std::set<std::string> taken;
    std::vector<std::string> names;
    for (const auto &a : f.args) {
        std::string n = sanitize(a.name);
        if (is_c_keyword(n) || taken.count(n) || n.compare(0, 5, "loom_") == 0 ||
            (n.size() > 2 && n.compare(n.size() - 2, 2, "_t") == 0) || n == f.name ||
            n.compare(0, f.name.size(), f.name) == 0) {
            n += "_arg" + std::to_string(names.size());
        }
        taken.insert(n);
        names.push_back(n);
    }
    std::ostringstream text;
    // The public entry point: no user context.
    text << "int " << f.name << "(";
    for (size_t i = 0; i < f.args.size(); i++) {
        const auto &a = f.args[i];
        text << (i ? ", " : "")
             << (a.is_buffer() ? std::string("loom_buffer_t *") : c_type(a.type) + " ") << names[i];
    }
    if (f.args.empty()) text << "void";
    text << ") {\n    return " << f.name << "_with_context(NULL";
    for (const auto &n : names) text << ", " << n;
    text << ");\n}\n\n";

    // argv[0] is the user context; then buffers, or pointers to scalar values.
    // A NULL argv, or a NULL pointer to a scalar's value, is reported.
    declare_extern("loom_error_message", "int", {"void *", "const char *"});
    text << "int " << f.name << "_argv(void **argv) {\n"
         << "    if (!argv) return loom_error_message(NULL, "
         << string_literal(argv_null_message(f)) << ");\n";
    for (size_t i = 0; i < f.args.size(); i++) {
        if (f.args[i].is_buffer()) continue;
        text << "    if (!argv[" << i + 1 << "]) return loom_error_message(argv[0], "
             << string_literal(argv_slot_null_message(f, i)) << ");\n";
    }
    text << "    return " << f.name << "_with_context(argv[0]";
    for (size_t i = 0; i < f.args.size(); i++) {
        const auto &a = f.args[i];
        std::string slot = "argv[" + std::to_string(i + 1) + "]";
        if (a.is_buffer()) {
            text << ",\n        (loom_buffer_t *)" << slot;
        } else if (a.type.is_bool()) {
            text << ",\n        *(const uint8_t *)" << slot << " != 0";
        } else if (a.type.is_handle()) {
            text << ",\n        *(void *const *)" << slot;
        } else {
            text << ",\n        *(const " << c_type(a.type) << " *)" << slot;
        }
    }
    text << ");\n}\n";
    finished_functions.push_back(text.str());
}

void CodeGen_C::define_metadata_function(const LoweredFunc &f) {
    std::ostringstream text;
    if (!f.args.empty()) {
        text << "static const loom_argument_t " << f.name << "_arguments[" << f.args.size()
             << "] = {\n";
        for (const auto &a : f.args) {
            int kind = a.kind == LoweredArgument::InputScalar   ? loom_argument_kind_input_scalar
                       : a.kind == LoweredArgument::InputBuffer ? loom_argument_kind_input_buffer
                                                                : loom_argument_kind_output_buffer;
            text << "    {" << string_literal(a.name) << ", " << kind << ", " << a.dimensions
                 << ", {" << int(a.type.code) << ", " << int(a.type.bits) << ", "
                 << int(a.type.lanes) << "}},\n";
        }
        text << "};\n\n";
    }
    text << "static const loom_pipeline_metadata_t " << f.name << "_metadata_data = {\n    1, "
         << f.args.size() << ", " << (f.args.empty() ? std::string("NULL") : f.name + "_arguments")
         << ", " << string_literal(target.to_string()) << ", " << string_literal(f.name)
         << "};\n\n";
    text << "const loom_pipeline_metadata_t *" << f.name << "_metadata(void) {\n    return &"
         << f.name << "_metadata_data;\n}\n";
    finished_functions.push_back(text.str());
}

std::string CodeGen_C::compile(const LoweredFunc &f) {
    internal_assert(f.body.defined(), "LoweredFunc " << f.name << " has no body");
    define_body_function(f);
    define_wrappers(f);
    define_metadata_function(f);

    std::ostringstream file;
    file << "/* Generated by Loom: pipeline " << f.name << " for target " << target.to_string()
         << ".\n * C99 source; link it with Loom's runtime (Loom::Runtime or libloom). */\n\n"
         << "#include <math.h>\n#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n"
         << "#include <stdio.h>\n#include <string.h>\n\n#include \"LoomRuntime.h\"\n\n";
    if (target.has_feature(Target::StrictFloat)) {
        // strict_float: every float operation rounds on its own. GCC ignores
        // the standard pragma but takes its own; clang and others take the
        // standard one (clang's -ffp-contract=fast still overrides it).
        file << "/* strict_float: no fused multiply-adds. */\n"
             << "#if defined(__GNUC__) && !defined(__clang__)\n"
             << "#pragma GCC optimize(\"fp-contract=off\")\n"
             << "#else\n#pragma STDC FP_CONTRACT OFF\n#endif\n\n";
    }
    // Entry points first, so each has a prototype before its definition.
    file << "int " << f.name << "_with_context(void *user_context";
    for (const auto &a : f.args)
        file << ", " << (a.is_buffer() ? std::string("loom_buffer_t *") : c_type(a.type));
    file << ");\nint " << f.name << "(";
    for (size_t i = 0; i < f.args.size(); i++) {
        const auto &a = f.args[i];
        file << (i ? ", " : "")
             << (a.is_buffer() ? std::string("loom_buffer_t *") : c_type(a.type));
    }
    if (f.args.empty()) file << "void";
    file << ");\nint " << f.name << "_argv(void **argv);\nconst loom_pipeline_metadata_t *"
         << f.name << "_metadata(void);\n\n";
    if (!prototypes.empty()) {
        file << "/* Runtime and extern functions. */\n";
        for (const auto &p : prototypes) file << p.second << "\n";
        file << "\n";
    }
    for (const auto &h : helpers) file << h.second << "\n";
    for (const auto &fn : finished_functions) file << fn << "\n";
    return file.str();
}

std::string codegen_c(const LoweredFunc &f, const Target &t) {
    std::string source;
    run_on_deep_stack([&] {
        CodeGen_C cg(t);
        source = cg.compile(f);
    });
    return source;
}

} // namespace Internal
} // namespace loom
