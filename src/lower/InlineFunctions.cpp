#include "lower/InlineFunctions.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>

#include "analysis/CSE.h"
#include "ir/Error.h"
#include "ir/IREquality.h"
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

/** Replaces calls of inlined Funcs. A chain of Funcs that each call the one
 * before several times (f(x) = g(x) + g(x) * 3) is exponential as a tree
 * but linear as a graph: equal calls share one result, and shared nodes are
 * visited once. */
class Inliner : public IRMutator {
    const std::vector<Function> &outputs;
    // Keyed by node, holding the node: the expressions this pass makes and
    // drops must not free a key whose address a new node could then take.
    std::map<const BaseExprNode *, std::pair<Expr, Expr>> done;
    std::map<Expr, Expr, ExprStructuralLess> inlined;

protected:
    using IRMutator::visit;

    Expr visit(const Call *op) override {
        Expr e = IRMutator::visit(op);
        const Call *call = e.as<Call>();
        if (!call || call->call_type != Call::Loom || !call->func.defined()) return e;
        if (!is_inlined(call->func, outputs)) return e;
        auto known = inlined.find(e);
        if (known != inlined.end()) return known->second;
        // The definition may itself call inlined Funcs.
        Expr result = mutate(inline_call(call->func, call->args, call->value_index));
        inlined.emplace(e, result);
        return result;
    }

public:
    explicit Inliner(const std::vector<Function> &o) : outputs(o) {}

    using IRMutator::mutate;
    Expr mutate(const Expr &e) override {
        if (!e.defined()) return e;
        auto memo = done.find(e.get());
        if (memo != done.end()) return memo->second.second;
        Expr result = IRMutator::mutate(e);
        done.emplace(e.get(), std::make_pair(e, result));
        return result;
    }
};

/** Nodes of an expression counted as a tree (saturating), visiting each
 * shared node once. */
class TreeSize : public IRMutator {
    static constexpr uint64_t cap = uint64_t(1) << 40;
    std::map<const BaseExprNode *, uint64_t> sizes;
    uint64_t children = 0;

public:
    uint64_t of(const Expr &e) {
        auto known = sizes.find(e.get());
        if (known != sizes.end()) return known->second;
        uint64_t outer = children;
        children = 0;
        IRMutator::mutate(e);
        uint64_t size = std::min(cap, children + 1);
        children = outer;
        sizes.emplace(e.get(), size);
        return size;
    }
    /** Distinct nodes seen so far. */
    size_t distinct() const { return sizes.size(); }

    using IRMutator::mutate;
    Expr mutate(const Expr &e) override {
        if (e.defined()) children = std::min(cap, children + of(e));
        return e;
    }
};

/** Statement expressions that inlining made much larger as trees than as
 * graphs get their shared parts bound to Lets (CSE), so that the passes
 * before the final CSE, which walk trees, see them once. Ordinary
 * pipelines share little and are left as they are. */
class BindSharedInlinedValues : public IRMutator {
public:
    using IRMutator::mutate;
    Expr mutate(const Expr &e) override {
        if (!e.defined()) return e;
        TreeSize size;
        uint64_t tree = size.of(e);
        if (tree < 10000 || tree < 8 * uint64_t(size.distinct())) return e;
        return common_subexpression_elimination(e);
    }
};

} // namespace

Stmt inline_functions(const Stmt &s, const std::vector<Function> &outputs) {
    return BindSharedInlinedValues().mutate(Inliner(outputs).mutate(s));
}

} // namespace Internal
} // namespace loom
