#include "ir/IRPrinter.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>

#include "ir/IROperator.h"
#include "ir/IRVisitor.h"
#include "ir/StackGuard.h"

namespace loom {

std::ostream &operator<<(std::ostream &os, const Type &t) {
    return os << type_to_string(t);
}

std::ostream &operator<<(std::ostream &os, ForType t) {
    switch (t) {
    case ForType::Serial:
        return os << "for";
    case ForType::Parallel:
        return os << "parallel";
    case ForType::Vectorized:
        return os << "vectorized";
    case ForType::Unrolled:
        return os << "unrolled";
    case ForType::Extern:
        return os << "extern";
    case ForType::GPUBlock:
        return os << "gpu_block";
    case ForType::GPUThread:
        return os << "gpu_thread";
    case ForType::GPULane:
        return os << "gpu_lane";
    }
    return os << "unknown_for_type";
}

std::ostream &operator<<(std::ostream &os, MemoryType t) {
    switch (t) {
    case MemoryType::Auto:
        return os << "Auto";
    case MemoryType::Heap:
        return os << "Heap";
    case MemoryType::Stack:
        return os << "Stack";
    case MemoryType::Register:
        return os << "Register";
    case MemoryType::GPUShared:
        return os << "GPUShared";
    case MemoryType::GPUTexture:
        return os << "GPUTexture";
    }
    return os << "unknown_memory_type";
}

namespace Internal {

namespace {

const char *device_api_name(DeviceAPI d) {
    switch (d) {
    case DeviceAPI::None:
        return "";
    case DeviceAPI::Host:
        return "Host";
    case DeviceAPI::Default_GPU:
        return "Default_GPU";
    case DeviceAPI::CUDA:
        return "CUDA";
    case DeviceAPI::OpenCL:
        return "OpenCL";
    }
    return "";
}

// The shortest decimal text that reads back as the same value.
std::string float_text(double v, bool single) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[64];
    for (int precision = 1; precision <= 17; precision++) {
        std::snprintf(buf, sizeof(buf), "%.*g", precision, v);
        double back = std::strtod(buf, nullptr);
        if (single ? float(back) == float(v) : back == v) break;
    }
    std::string s = buf;
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
}

std::string escape_string(const std::string &s) {
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            out += c;
        }
    }
    return out + "\"";
}

class Printer : public IRVisitor {
    std::ostream &os;
    int indent = 0;

    void do_indent() { os << std::string(size_t(indent), ' '); }
    void print(const Expr &e) {
        if (e.defined())
            e.accept(this);
        else
            os << "(undefined)";
    }
    void print_list(const std::vector<Expr> &es) {
        for (size_t i = 0; i < es.size(); i++) {
            if (i) os << ", ";
            print(es[i]);
        }
    }
    void print_body(const Stmt &s) {
        indent += 2;
        print(s);
        indent -= 2;
    }
    template <typename T> void binary(const T *op, const char *symbol) {
        os << "(";
        print(op->a);
        os << " " << symbol << " ";
        print(op->b);
        os << ")";
    }
    template <typename T> void function_like(const T *op, const char *name) {
        os << name << "(";
        print(op->a);
        os << ", ";
        print(op->b);
        os << ")";
    }

public:
    explicit Printer(std::ostream &o) : os(o) {}
    using IRVisitor::visit;

    void print(const Stmt &s) {
        if (s.defined()) s.accept(this);
    }

    void visit(const IntImm *op) override {
        if (op->type == Int(32))
            os << op->value;
        else
            os << "(" << op->type << ")" << op->value;
    }
    void visit(const UIntImm *op) override {
        if (op->type.is_bool())
            os << (op->value ? "true" : "false");
        else
            os << "(" << op->type << ")" << op->value;
    }
    void visit(const FloatImm *op) override {
        if (op->type.bits == 32)
            os << float_text(op->value, true) << "f";
        else if (op->type.bits == 64)
            os << float_text(op->value, false);
        else
            os << "(" << op->type << ")" << float_text(op->value, false);
    }
    void visit(const StringImm *op) override { os << escape_string(op->value); }
    void visit(const Cast *op) override {
        os << op->type << "(";
        print(op->value);
        os << ")";
    }
    void visit(const Reinterpret *op) override {
        os << "reinterpret<" << op->type << ">(";
        print(op->value);
        os << ")";
    }
    void visit(const Variable *op) override { os << op->name; }
    void visit(const Add *op) override { binary(op, "+"); }
    void visit(const Sub *op) override { binary(op, "-"); }
    void visit(const Mul *op) override { binary(op, "*"); }
    void visit(const Div *op) override { binary(op, "/"); }
    void visit(const Mod *op) override { binary(op, "%"); }
    void visit(const Min *op) override { function_like(op, "min"); }
    void visit(const Max *op) override { function_like(op, "max"); }
    void visit(const EQ *op) override { binary(op, "=="); }
    void visit(const NE *op) override { binary(op, "!="); }
    void visit(const LT *op) override { binary(op, "<"); }
    void visit(const LE *op) override { binary(op, "<="); }
    void visit(const GT *op) override { binary(op, ">"); }
    void visit(const GE *op) override { binary(op, ">="); }
    void visit(const And *op) override { binary(op, "&&"); }
    void visit(const Or *op) override { binary(op, "||"); }
    void visit(const Not *op) override {
        os << "!";
        print(op->a);
    }
    void visit(const Select *op) override {
        os << "select(";
        print(op->condition);
        os << ", ";
        print(op->true_value);
        os << ", ";
        print(op->false_value);
        os << ")";
    }
    void visit(const Load *op) override {
        bool predicated = op->predicate.defined() && !is_const_true(op->predicate);
        if (predicated) os << "(";
        os << op->name << "[";
        print(op->index);
        os << "]";
        if (predicated) {
            os << " if ";
            print(op->predicate);
            os << ")";
        }
    }
    void visit(const Ramp *op) override {
        os << "ramp(";
        print(op->base);
        os << ", ";
        print(op->stride);
        os << ", " << op->lanes << ")";
    }
    void visit(const Broadcast *op) override {
        os << "x" << op->lanes << "(";
        print(op->value);
        os << ")";
    }
    void visit(const Call *op) override {
        os << op->name << "(";
        print_list(op->args);
        os << ")";
        if (op->call_type == Call::Loom && op->func.defined() && op->func.outputs() > 1) {
            os << "[" << op->value_index << "]";
        }
    }
    void visit(const Let *op) override {
        os << "(let " << op->name << " = ";
        print(op->value);
        os << " in ";
        print(op->body);
        os << ")";
    }
    void visit(const Shuffle *op) override {
        os << "shuffle({";
        print_list(op->vectors);
        os << "}";
        for (int i : op->indices) os << ", " << i;
        os << ")";
    }

    void visit(const LetStmt *op) override {
        do_indent();
        os << "let " << op->name << " = ";
        print(op->value);
        os << "\n";
        print(op->body);
    }
    void visit(const AssertStmt *op) override {
        do_indent();
        os << "assert(";
        print(op->condition);
        os << ", ";
        print(op->message);
        os << ")\n";
    }
    void visit(const ProducerConsumer *op) override {
        do_indent();
        os << (op->is_producer ? "produce " : "consume ") << op->name << " {\n";
        print_body(op->body);
        do_indent();
        os << "}\n";
    }
    void visit(const For *op) override {
        do_indent();
        os << op->for_type;
        if (op->device_api != DeviceAPI::None) os << "<" << device_api_name(op->device_api) << ">";
        os << " (" << op->name << ", ";
        print(op->min);
        os << ", ";
        print(op->extent);
        os << ") {\n";
        print_body(op->body);
        do_indent();
        os << "}\n";
    }
    void visit(const Store *op) override {
        do_indent();
        bool predicated = op->predicate.defined() && !is_const_true(op->predicate);
        if (predicated) {
            os << "if (";
            print(op->predicate);
            os << ") ";
        }
        os << op->name << "[";
        print(op->index);
        os << "] = ";
        print(op->value);
        if (op->streaming) os << " (streaming)";
        os << "\n";
    }
    void visit(const Provide *op) override {
        do_indent();
        if (op->predicate.defined() && !is_const_true(op->predicate)) {
            os << "if (";
            print(op->predicate);
            os << ") ";
        }
        os << op->name << "(";
        print_list(op->args);
        os << ") = ";
        if (op->values.size() > 1) {
            os << "{";
            print_list(op->values);
            os << "}";
        } else {
            print(op->values[0]);
        }
        os << "\n";
    }
    void visit(const Allocate *op) override {
        do_indent();
        os << "allocate " << op->name << "[" << op->type;
        for (const Expr &e : op->extents) {
            os << " * ";
            print(e);
        }
        os << "]";
        if (op->memory_type != MemoryType::Auto) os << " in " << op->memory_type;
        if (op->condition.defined() && !is_const_true(op->condition)) {
            os << " if ";
            print(op->condition);
        }
        os << "\n";
        print(op->body);
    }
    void visit(const Free *op) override {
        do_indent();
        os << "free " << op->name << "\n";
    }
    void visit(const Realize *op) override {
        do_indent();
        os << "realize " << op->name << "(";
        for (size_t i = 0; i < op->bounds.size(); i++) {
            if (i) os << ", ";
            os << "[";
            print(op->bounds[i].min);
            os << ", ";
            print(op->bounds[i].extent);
            os << "]";
        }
        os << ")";
        if (op->memory_type != MemoryType::Auto) os << " in " << op->memory_type;
        if (op->condition.defined() && !is_const_true(op->condition)) {
            os << " if ";
            print(op->condition);
        }
        os << " {\n";
        print_body(op->body);
        do_indent();
        os << "}\n";
    }
    void visit(const Block *op) override {
        print(op->first);
        print(op->rest);
    }
    void visit(const IfThenElse *op) override {
        do_indent();
        os << "if (";
        print(op->condition);
        os << ") {\n";
        print_body(op->then_case);
        const IfThenElse *chain = op;
        // Print else-if chains flat rather than as nested blocks.
        while (chain->else_case.defined()) {
            const IfThenElse *next = chain->else_case.as<IfThenElse>();
            do_indent();
            if (next) {
                os << "} else if (";
                print(next->condition);
                os << ") {\n";
                print_body(next->then_case);
                chain = next;
            } else {
                os << "} else {\n";
                print_body(chain->else_case);
                break;
            }
        }
        do_indent();
        os << "}\n";
    }
    void visit(const Evaluate *op) override {
        do_indent();
        print(op->value);
        os << "\n";
    }
};

std::string html_escape(const std::string &s) {
    std::string out;
    for (char c : s) {
        switch (c) {
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '&':
            out += "&amp;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

bool is_identifier_char(char c) {
    return std::isalnum((unsigned char)c) || c == '_';
}

// Wraps keywords of the statement text in spans; everything else is escaped text.
std::string highlight(const std::string &text) {
    static const std::set<std::string> keywords = {
        "for",      "parallel", "vectorized", "unrolled", "extern", "gpu_block", "gpu_thread",
        "gpu_lane", "produce",  "consume",    "allocate", "free",   "realize",   "let",
        "in",       "if",       "else",       "assert",   "select", "ramp"};
    std::string out;
    size_t i = 0;
    while (i < text.size()) {
        if (text[i] == '"') {
            size_t j = i + 1;
            while (j < text.size() && text[j] != '"') j += text[j] == '\\' ? 2 : 1;
            j = std::min(j + 1, text.size());
            out += "<span class=\"str\">" + html_escape(text.substr(i, j - i)) + "</span>";
            i = j;
        } else if (is_identifier_char(text[i])) {
            size_t j = i;
            while (j < text.size() && is_identifier_char(text[j])) j++;
            std::string word = text.substr(i, j - i);
            if (keywords.count(word))
                out += "<span class=\"kw\">" + word + "</span>";
            else if (std::isdigit((unsigned char)word[0]))
                out += "<span class=\"num\">" + word + "</span>";
            else
                out += html_escape(word);
            i = j;
        } else {
            out += html_escape(std::string(1, text[i]));
            i++;
        }
    }
    return out;
}

} // namespace

std::string to_string(const Expr &e) {
    std::ostringstream os;
    os << e;
    return os.str();
}

std::string to_string(const Stmt &s) {
    std::ostringstream os;
    os << s;
    return os.str();
}

std::string to_html(const Stmt &s, const std::string &title) {
    std::ostringstream os;
    os << "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>" << html_escape(title)
       << "</title>\n<style>\n"
       << "body { font-family: monospace; }\n"
       << ".kw { color: #0000a0; font-weight: bold; }\n"
       << ".num { color: #a00000; }\n"
       << ".str { color: #008000; }\n"
       << "</style>\n</head>\n<body>\n<h1>" << html_escape(title) << "</h1>\n<pre>\n"
       << highlight(to_string(s)) << "</pre>\n</body>\n</html>\n";
    return os.str();
}

} // namespace Internal

namespace {

/** Prints with `print` into os. A very deep node is printed again on a
 * deep stack when the stack guard stops the first try, so the text goes
 * through a buffer: a stopped try leaves nothing half-written in os. */
template <typename Print> std::ostream &print_deep(std::ostream &os, Print print) {
    std::string text;
    Internal::run_retrying_on_deep_stack([&] {
        std::ostringstream buffer;
        buffer.copyfmt(os);
        print(buffer);
        text = buffer.str();
    });
    return os << text;
}

} // namespace

std::ostream &operator<<(std::ostream &os, const Expr &e) {
    if (!e.defined()) return os << "(undefined)";
    return print_deep(os, [&](std::ostream &out) {
        Internal::Printer p(out);
        e.accept(&p);
    });
}

std::ostream &operator<<(std::ostream &os, const Stmt &s) {
    if (!s.defined()) return os << "(undefined stmt)\n";
    return print_deep(os, [&](std::ostream &out) {
        Internal::Printer p(out);
        p.print(s);
    });
}

} // namespace loom
