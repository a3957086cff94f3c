#include "lower/InlineFunctions.h"

#include <map>

#include "ir/Error.h"
#include "ir/IRMutator.h"
#include "ir/Substitute.h"

namespace loom {
namespace Internal {

Expr inline_call(const Function &f, const std::vector<Expr> &args, int value_index) {
    internal_assert(args.size() == f.args().size(),
                    "inlining " << f.name() << " with " << args.size() << " arguments");
    std::map<std::string, Expr> replacements;
    for (size_t i = 0; i < args.size(); i++) replacements[f.args()[i]] = args[i];
    return substitute(replacements, f.values()[size_t(value_index)]);
}

namespace {

class Inliner : public IRMutator {
    const std::vector<Function> &outputs;

protected:
    using IRMutator::visit;

    Expr visit(const Call *op) override {
        Expr e = IRMutator::visit(op);
        const Call *call = e.as<Call>();
        if (!call || call->call_type != Call::Loom || !call->func.defined()) return e;
        if (!is_inlined(call->func, outputs)) return e;
        // The definition may itself call inlined Funcs.
        return mutate(inline_call(call->func, call->args, call->value_index));
    }

public:
    explicit Inliner(const std::vector<Function> &o) : outputs(o) {}
};

} // namespace

Stmt inline_functions(const Stmt &s, const std::vector<Function> &outputs) {
    return Inliner(outputs).mutate(s);
}

} // namespace Internal
} // namespace loom
