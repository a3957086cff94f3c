// Statements: bindings, control flow, asserts, loads and stores (per lane,
// predicated lanes untouched) and allocations (stack arrays, or
// loom_malloc/loom_free with frees on every early return).

#include "codegen/c/CodeGen_C_Visitor.h"
#include "ir/Error.h"
#include "ir/IROperator.h"

namespace loom {
namespace Internal {

namespace {

// Allocations up to this size with constant extents go on the stack (as in
// the LLVM backend).
constexpr int64_t max_stack_allocation_bytes = 16 * 1024;

bool is_predicated(const Expr &predicate) {
    return predicate.defined() && !is_const_true(predicate);
}

bool is_temporary(const std::string &atom) {
    return atom.size() > 2 && atom[0] == '_' && (atom[1] == 't' || atom[1] == 'v');
}

} // namespace

void CodeGen_C::visit(const Load *op) {
    Type t = op->type;
    const Symbol &memory = symbol(op->name);
    used_names.insert(memory.c_name);
    std::string ptr = memory_pointer(memory, t);
    auto from_memory = [&](const std::string &x) { return t.is_bool() ? "(" + x + " != 0)" : x; };
    bool predicated = is_predicated(op->predicate);

    if (t.is_scalar()) {
        if (!predicated) {
            std::string index = codegen(op->index);
            value = scalar_local(t, from_memory(ptr + "[" + index + "]"));
            return;
        }
        // A predicated scalar load reads only when the predicate holds.
        std::string cond = codegen(op->predicate);
        std::string r = scalar_local(t, "0");
        line() << "if (" << cond << ") {\n";
        indent_level++;
        std::string index = codegen(op->index);
        line() << r << " = " << from_memory(ptr + "[" + index + "]") << ";\n";
        indent_level--;
        line() << "}\n";
        value = r;
        return;
    }

    std::string lane_index;
    const Ramp *ramp = op->index.as<Ramp>();
    if (ramp && ramp->base.type().is_scalar()) {
        std::string base = codegen(ramp->base);
        if (!predicated && is_const_one(ramp->stride) && !t.is_bool()) {
            std::string dense = dense_vector_load(t, memory, ramp->base, base);
            if (!dense.empty()) {
                value = dense;
                return;
            }
        }
        std::string stride = codegen(ramp->stride);
        lane_index = base + " + _l * " + stride;
    } else {
        lane_index = lane(codegen(op->index), op->index.type());
    }
    std::string mask = predicated ? lane(codegen(op->predicate), op->predicate.type()) : "";
    std::string v = vector_local(t);
    std::string read = from_memory(ptr + "[" + lane_index + "]");
    lane_loop(t.lanes,
              v + "[_l] = " +
                  (predicated ? mask + " ? " + read + " : " + zero_of(t.element_of()) : read) +
                  ";");
    value = v;
}

void CodeGen_C::visit(const Store *op) {
    Type t = op->value.type();
    const Symbol &memory = symbol(op->name);
    used_names.insert(memory.c_name);
    std::string ptr = memory_pointer(memory, t);
    auto to_memory = [&](const std::string &x) { return t.is_bool() ? "(uint8_t)" + x : x; };
    bool predicated = is_predicated(op->predicate);

    if (t.is_scalar()) {
        if (predicated) {
            line() << "if (" << codegen(op->predicate) << ") {\n";
            indent_level++;
        }
        std::string v = codegen(op->value);
        std::string index = codegen(op->index);
        line() << ptr << "[" << index << "] = " << to_memory(v) << ";\n";
        if (predicated) {
            indent_level--;
            line() << "}\n";
        }
        return;
    }

    std::string v = codegen(op->value);
    std::string mask = predicated ? lane(codegen(op->predicate), op->predicate.type()) : "";
    std::string lane_index;
    const Ramp *ramp = op->index.as<Ramp>();
    if (ramp && ramp->base.type().is_scalar()) {
        std::string base = codegen(ramp->base);
        if (!predicated && is_const_one(ramp->stride) && !t.is_bool() &&
            dense_vector_store(t, memory, ramp->base, base, v))
            return;
        std::string stride = codegen(ramp->stride);
        lane_index = base + " + _l * " + stride;
    } else {
        lane_index = lane(codegen(op->index), op->index.type());
    }
    lane_loop(t.lanes, (predicated ? "if (" + mask + ") " : std::string()) + ptr + "[" +
                           lane_index + "] = " + to_memory(v + "[_l]") + ";");
}

bool CodeGen_C::constant_elements(const Allocate *op, int64_t *elements) {
    *elements = 1;
    for (const Expr &e : op->extents) {
        auto c = as_const_int(e);
        if (!c || *c < 0 || (*c > 0 && *elements > INT64_MAX / *c)) return false;
        *elements *= *c;
    }
    return true;
}

void CodeGen_C::codegen_local_array(const Allocate *op, int64_t elements) {
    std::string name = unique_name(op->name);
    line() << c_memory_type(op->type.element_of()) << " " << name << "["
           << std::max<int64_t>(elements, 1) * op->type.lanes << "];\n";
    {
        ScopedBinding<Symbol> bind(symbols, op->name, Symbol{name, Handle()});
        codegen(op->body);
    }
    mark_unused_lets(name);
}

void CodeGen_C::visit(const Allocate *op) {
    int64_t elem_bytes = int64_t(op->type.bytes()) * op->type.lanes;
    int64_t elements = 0;
    bool constant_size = constant_elements(op, &elements);
    bool on_stack = constant_size && op->memory_type != MemoryType::Heap &&
                    elements <= max_stack_allocation_bytes / std::max<int64_t>(elem_bytes, 1);
    if (on_stack) {
        codegen_local_array(op, elements);
        return;
    }
    std::string name = unique_name(op->name);

    // Bytes in 64-bit arithmetic, as the LLVM backend computes them.
    std::string bytes = "(uint64_t)" + std::to_string(elem_bytes);
    for (const Expr &e : op->extents) bytes += " * (uint64_t)(int64_t)" + codegen(e);
    if (op->condition.defined() && !is_const_true(op->condition)) {
        // Skipped allocations still get a (minimal) block so the pointer is valid to free.
        bytes = codegen(op->condition) + " ? " + bytes + " : 0";
    }
    std::string uc = symbol("__user_context").c_name;
    declare_extern("loom_malloc", "void *", {});
    declare_extern("loom_free", "void", {});
    declare_extern("loom_error_out_of_memory", "int", {});
    line() << "void *" << name << " = loom_malloc(" << uc << ", (size_t)(" << bytes << "));\n";
    line() << "if (!" << name << ") {\n";
    indent_level++;
    std::string code = scalar_local(Int(32), "loom_error_out_of_memory(" + uc + ")");
    return_with_cleanup(code);
    indent_level--;
    line() << "}\n";

    heap_allocations.push_back({"loom_free", name});
    {
        ScopedBinding<Symbol> bind(symbols, op->name, Symbol{name, Handle()});
        codegen(op->body);
    }
    // Unless a Free inside the body released it already (inject_early_frees).
    if (!heap_allocations.empty() && heap_allocations.back().value == name) {
        heap_allocations.pop_back();
        line() << "loom_free(" << uc << ", " << name << ");\n";
    }
}

std::string CodeGen_C::dense_vector_load(Type, const Symbol &, const Expr &, const std::string &) {
    return "";
}

bool CodeGen_C::dense_vector_store(Type, const Symbol &, const Expr &, const std::string &,
                                   const std::string &) {
    return false;
}

// Heap allocations are freed when their Allocate's body ends (and on every
// early return), or earlier at a Free after their last use. Stack ones need
// nothing.
void CodeGen_C::visit(const Free *op) {
    const std::string &name = symbol(op->name).c_name;
    for (size_t i = heap_allocations.size(); i-- > 0;) {
        if (heap_allocations[i].value != name) continue;
        line() << "loom_free(" << symbol("__user_context").c_name << ", " << name << ");\n";
        heap_allocations.erase(heap_allocations.begin() + long(i));
        return;
    }
}

void CodeGen_C::visit(const LetStmt *op) {
    // Vectors are arrays: the let names the array itself.
    bool scalar = op->value.type().is_scalar();
    std::string c = scalar ? let_local(op->name, op->value) : codegen(op->value);
    {
        ScopedBinding<Symbol> bind(symbols, op->name, Symbol{c, op->value.type()});
        const char *release = release_function_for(op->value);
        if (release) {
            declare_extern(release, "int", {"void *", "void *"});
            heap_allocations.push_back({release, c});
        }
        codegen(op->body);
        if (release) heap_allocations.pop_back();
    }
    if (scalar) mark_unused_lets(c);
}

void CodeGen_C::visit(const AssertStmt *op) {
    std::string cond = codegen(op->condition);
    line() << "if (!" << cond << ") {\n";
    indent_level++;
    std::string code = codegen(op->message);
    return_with_cleanup("(int)" + code);
    indent_level--;
    line() << "}\n";
}

void CodeGen_C::visit(const ProducerConsumer *op) {
    std::string name = op->name;
    for (size_t p = name.find("*/"); p != std::string::npos; p = name.find("*/"))
        name.replace(p, 2, "* /");
    line() << "/* " << (op->is_producer ? "produce " : "consume ") << name << " */\n";
    codegen(op->body);
}

void CodeGen_C::visit(const For *op) {
    if (op->for_type == ForType::Parallel) {
        codegen_parallel_for(op);
        return;
    }
    // Vectorized/Unrolled loops are normally expanded by lowering; any that
    // reach here run serially.
    Type t = op->min.type();
    std::string min = codegen(op->min), extent = codegen(op->extent);
    std::string var = unique_name(op->name);
    std::string end = scalar_local(t, arithmetic(t, min, "+", extent));
    line() << "for (" << c_type(t) << " " << var << " = " << min << "; " << var << " < " << end
           << "; " << var << "++) {\n";
    indent_level++;
    {
        ScopedBinding<Symbol> bind(symbols, op->name, Symbol{var, t});
        codegen(op->body);
    }
    indent_level--;
    line() << "}\n";
}

void CodeGen_C::visit(const Provide *op) {
    internal_error("C codegen: Provide to " << op->name
                                            << " should have been removed by storage flattening");
}

void CodeGen_C::visit(const Realize *op) {
    internal_error("C codegen: Realize of " << op->name
                                            << " should have been removed by storage flattening");
}

void CodeGen_C::visit(const Block *op) {
    codegen(op->first);
    codegen(op->rest);
}

void CodeGen_C::visit(const IfThenElse *op) {
    std::string cond = codegen(op->condition);
    line() << "if (" << cond << ") {\n";
    indent_level++;
    codegen(op->then_case);
    indent_level--;
    if (op->else_case.defined()) {
        line() << "} else {\n";
        indent_level++;
        codegen(op->else_case);
        indent_level--;
    }
    line() << "}\n";
}

void CodeGen_C::visit(const Evaluate *op) {
    std::string v = codegen(op->value);
    if (is_temporary(v)) line() << "(void)" << v << ";\n";
}

} // namespace Internal
} // namespace loom
