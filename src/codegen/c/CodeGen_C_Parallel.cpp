// Parallel loops: the body of a ForType::Parallel loop becomes a static
// function `int task(void *user_context, int index, uint8_t *closure)` and the
// loop a call to the runtime's loom_do_par_for, as in the LLVM backend.
//
// The closure is a struct (on the caller's stack) holding every value of the
// enclosing function the body refers to: lets, loop variables, buffer host
// pointers and fields, allocations. Vectors travel as arrays.

#include "codegen/c/CodeGen_C_Visitor.h"
#include "ir/Error.h"
#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

void CodeGen_C::codegen_parallel_for(const For *op) {
    std::string min = codegen(op->min), extent = codegen(op->extent);

    // What the body needs from here, in a fixed (sorted) order. The task gets
    // the user context as its own argument.
    std::set<std::string> referenced = referenced_names(op->body);
    std::vector<std::pair<std::string, Symbol>> captured;
    for (const std::string &name : referenced) {
        if (name == op->name || name == "__user_context") continue;
        if (const Symbol *s = symbols.find(name)) captured.push_back({name, *s});
    }

    std::string task = unique_name(op->name + ".par_for");
    std::string closure_type = "struct " + task + "_closure";
    std::ostringstream fields;
    fields << closure_type << " {\n";
    for (size_t i = 0; i < captured.size(); i++) {
        const Symbol &s = captured[i].second;
        std::string type = c_type(s.type.element_of());
        fields << "    " << type << (type.back() == '*' ? "" : " ") << "f" << i;
        if (s.type.is_vector()) fields << "[" << s.type.lanes << "]";
        fields << "; /* " << captured[i].second.c_name << " */\n";
    }
    // C has no empty structs.
    if (captured.empty()) fields << "    char unused;\n";
    fields << "};\n";
    finished_functions.push_back(fields.str());

    // Fill the closure here.
    std::string closure = "_closure" + std::to_string(next_id++);
    line() << closure_type << " " << closure << ";\n";
    if (captured.empty()) line() << closure << ".unused = 0;\n";
    for (size_t i = 0; i < captured.size(); i++) {
        const Symbol &s = captured[i].second;
        used_names.insert(s.c_name);
        if (s.type.is_vector()) {
            line() << "memcpy(" << closure << ".f" << i << ", " << s.c_name << ", sizeof("
                   << closure << ".f" << i << "));\n";
        } else {
            line() << closure << ".f" << i << " = " << s.c_name << ";\n";
        }
    }
    std::string uc = symbol("__user_context").c_name;
    declare_extern("loom_do_par_for", "int", {});
    std::string result =
        scalar_local(Int(32), "loom_do_par_for(" + uc + ", " + task + ", " + min + ", " + extent +
                                  ", (uint8_t *)&" + closure + ")");
    line() << "if (" << result << " != 0) {\n";
    indent_level++;
    return_with_cleanup(result);
    indent_level--;
    line() << "}\n";

    // The task function, with its own symbols and heap allocations.
    std::ostringstream text;
    std::ostringstream *saved_out = out;
    int saved_indent = indent_level;
    Scope<Symbol> saved_symbols;
    std::swap(saved_symbols, symbols);
    std::vector<Release<std::string>> saved_heap;
    saved_heap.swap(heap_allocations);

    out = &text;
    indent_level = 1;
    std::string task_uc = unique_name("user_context");
    std::string index = unique_name(op->name);
    std::string closure_arg = unique_name("closure");
    text << "static int " << task << "(void *" << task_uc << ", int " << index << ", uint8_t *"
         << closure_arg << ") {\n";
    std::string c = unique_name("c");
    line() << closure_type << " *" << c << " = (" << closure_type << " *)" << closure_arg << ";\n";
    std::vector<std::string> locals;
    for (size_t i = 0; i < captured.size(); i++) {
        const Symbol &s = captured[i].second;
        std::string field = c + "->f" + std::to_string(i);
        if (s.type.is_vector()) {
            symbols.push(captured[i].first, Symbol{field, s.type});
            continue;
        }
        std::string local = unique_name(captured[i].first);
        std::string type = c_type(s.type);
        line() << type << (type.back() == '*' ? "" : " ") << local << " = " << field << ";\n";
        symbols.push(captured[i].first, Symbol{local, s.type});
        locals.push_back(local);
    }
    if (captured.empty()) line() << "(void)" << c << ";\n";
    symbols.push("__user_context", Symbol{task_uc, Handle()});
    symbols.push(op->name, Symbol{index, op->min.type()});
    codegen(op->body);
    for (const auto &l : locals) mark_unused_lets(l);
    line() << "return 0;\n";
    text << "}\n";
    finished_functions.push_back(text.str());

    out = saved_out;
    indent_level = saved_indent;
    std::swap(saved_symbols, symbols);
    heap_allocations.swap(saved_heap);
}

} // namespace Internal
} // namespace loom
