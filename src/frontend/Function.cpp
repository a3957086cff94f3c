// Internal::Function: creation and the pure definition, with its checks.

#include "loom/Function.h"

#include <atomic>
#include <set>

#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

uint64_t next_function_version() {
    static std::atomic<uint64_t> counter{1};
    return counter++;
}

Function::Function(const std::string &name) {
    contents = new FunctionContents;
    contents->name = name;
    contents->version = next_function_version();
}

namespace {

std::string list_names(const std::vector<std::string> &names) {
    std::string s;
    for (size_t i = 0; i < names.size(); i++) s += (i ? ", " : "") + names[i];
    return s;
}

/** Variables that are neither arguments nor parameters nor buffer fields. */
void check_free_variables(const std::string &func, const std::vector<std::string> &args,
                          const Expr &value) {
    std::set<std::string> arg_set(args.begin(), args.end());
    visit_all(value, [&](const IRNode *n) {
        if (n->node_type != IRNodeType::Variable) return;
        const auto *v = static_cast<const Variable *>(n);
        if (v->param.defined() || v->image.defined() || arg_set.count(v->name)) return;
        user_error("The definition of Func " << func << " uses Var " << v->name
                                             << ", which is not one of its arguments ("
                                             << list_names(args) << ")");
    });
}

} // namespace

void Function::define(const std::vector<std::string> &args, const std::vector<Expr> &values) {
    internal_assert(defined(), "define of an undefined Function");
    const std::string &fname = contents->name;
    if (has_pure_definition())
        user_error(
            "Func " << fname
                    << " is already defined; a Func has one pure definition (with arguments ("
                    << list_names(contents->args) << "))");
    if (values.empty()) user_error("Func " << fname << " is defined with no values");
    std::set<std::string> seen;
    for (const auto &a : args) {
        if (!seen.insert(a).second)
            user_error("In the definition of Func " << fname << ", the argument " << a
                                                    << " appears more than once");
    }
    for (size_t i = 0; i < values.size(); i++) {
        const Expr &v = values[i];
        if (!v.defined()) user_error("Func " << fname << " is defined with an undefined Expr");
        if (v.type().is_void())
            user_error("Func " << fname << " is defined with a value of no type");
        if (v.type().is_vector())
            user_error("Func " << fname << " is defined with a vector value of type "
                               << type_to_string(v.type()));
        check_free_variables(fname, args, v);
    }

    contents->args = args;
    contents->output_types.clear();
    for (const auto &v : values) contents->output_types.push_back(v.type());
    Definition &def = contents->init;
    def.args.clear();
    for (const auto &a : args) def.args.push_back(Variable::make(Int(32), a));
    def.values = values;
    def.schedule.dims.clear();
    for (const auto &a : args)
        def.schedule.dims.push_back(Dim{a, ForType::Serial, DeviceAPI::None, false});

    contents->output_buffers.clear();
    for (size_t i = 0; i < values.size(); i++) {
        std::string name = values.size() == 1 ? fname : fname + "." + std::to_string(i);
        contents->output_buffers.emplace_back(values[i].type(), true, int(args.size()), name);
    }
    invalidate_cache();
}

} // namespace Internal
} // namespace loom
