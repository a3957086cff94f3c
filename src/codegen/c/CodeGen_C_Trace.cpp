// The trace intrinsic (lower/InjectTracing.cpp) in C: the value and the
// coordinates go to locals and loom_trace gets their addresses. Traced
// accesses are scalar (vectorize_loops scalarizes statements that trace).

#include "codegen/c/CodeGen_C_Visitor.h"
#include "ir/Error.h"

namespace loom {
namespace Internal {

std::string CodeGen_C::codegen_trace(const Call *op) {
    const auto &args = op->args;
    internal_assert(args.size() >= 8, "trace needs at least 8 arguments");
    const auto *func = args[0].as<StringImm>();
    const auto *tag = args[6].as<StringImm>();
    internal_assert(func && tag, "trace: the func name and tag must be strings");
    for (size_t i = 7; i < args.size(); i++)
        internal_assert(args[i].type().is_scalar(), "C codegen: a vector trace event");
    Type value_type = args[7].type();
    std::string value = codegen(args[7]);
    std::string value_slot = "_trace_value" + std::to_string(next_id++);
    line() << c_memory_type(value_type) << " " << value_slot << " = " << value << ";\n";
    std::string coordinates = "(int32_t *)0";
    size_t dimensions = args.size() - 8;
    if (dimensions > 0) {
        std::vector<std::string> values;
        for (size_t i = 8; i < args.size(); i++) values.push_back(codegen(args[i]));
        coordinates = "_trace_coordinates" + std::to_string(next_id++);
        std::string list;
        for (size_t i = 0; i < values.size(); i++) list += (i ? ", " : "") + values[i];
        line() << "int32_t " << coordinates << "[" << dimensions << "] = {" << list << "};\n";
    }
    declare_extern("loom_trace", "int32_t",
                   {"void *", "const char *", "void *", "int32_t *", "int32_t", "int32_t",
                    "int32_t", "int32_t", "int32_t", "int32_t", "int32_t", "const char *"});
    std::string call = "loom_trace(" + symbol("__user_context").c_name + ", " +
                       string_literal(func->value) + ", &" + value_slot + ", " + coordinates +
                       ", " + codegen(args[4]) + ", " + codegen(args[5]) + ", 1, " +
                       codegen(args[1]) + ", " + codegen(args[2]) + ", " + codegen(args[3]) + ", " +
                       std::to_string(dimensions) + ", " + string_literal(tag->value) + ")";
    return scalar_local(Int(32), call);
}

} // namespace Internal
} // namespace loom
