#include "lower/GroupInvariantIndexTerms.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

namespace {

struct Term {
    Expr value;
    bool negated;
};

void flatten_sum(const Expr &e, bool negated, std::vector<Term> &terms) {
    if (const auto *op = e.as<Add>()) {
        flatten_sum(op->a, negated, terms);
        flatten_sum(op->b, negated, terms);
    } else if (const auto *op = e.as<Sub>()) {
        flatten_sum(op->a, negated, terms);
        flatten_sum(op->b, !negated, terms);
    } else {
        terms.push_back({e, negated});
    }
}

/** a + b + ... - c - ..., or undefined for no terms. */
Expr sum_of(const std::vector<Term> &terms) {
    Expr sum;
    for (const Term &t : terms) {
        if (t.negated) continue;
        sum = sum.defined() ? Add::make(sum, t.value) : t.value;
    }
    for (const Term &t : terms) {
        if (!t.negated) continue;
        sum =
            sum.defined() ? Sub::make(sum, t.value) : Sub::make(make_zero(t.value.type()), t.value);
    }
    return sum;
}

bool contains_load(const Expr &e) {
    bool found = false;
    visit_all(e, [&](const IRNode *n) { found = found || n->node_type == IRNodeType::Load; });
    return found;
}

class GroupInvariantIndexTerms : public IRMutator {
    // Names that change from one iteration of the innermost enclosing loop
    // to the next: its variable and everything bound inside it.
    std::set<std::string> varying;
    bool in_loop = false;

    Expr regroup(const Expr &index) {
        if (!in_loop || index.type().lanes != 1 || !index.type().is_int()) return index;
        std::vector<Term> terms, variant, invariant, constants;
        flatten_sum(index, false, terms);
        bool data_dependent = false;
        for (const Term &t : terms) {
            if (as_const_int(t.value)) {
                constants.push_back(t);
            } else if (contains_load(t.value) || expr_uses_vars(t.value, varying)) {
                data_dependent = data_dependent || contains_load(t.value);
                variant.push_back(t);
            } else {
                invariant.push_back(t);
            }
        }
        if (!data_dependent || invariant.empty()) return index;
        // `load - min` is already one variable term and one invariant one.
        if (variant.size() == 1 && invariant.size() == 1 && constants.empty()) return index;
        Expr result = Add::make(sum_of(variant), sum_of(invariant));
        // Constants stay outermost, where LLVM folds them into the address.
        if (!constants.empty()) result = Add::make(result, sum_of(constants));
        return result;
    }

    template <typename Result, typename LetNode, typename Body>
    Result visit_let(const LetNode *op, Body mutate_body) {
        bool added = in_loop && varying.insert(op->name).second;
        Expr value = mutate(op->value);
        auto body = mutate_body(op->body);
        if (added) varying.erase(op->name);
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return LetNode::make(op->name, value, body);
    }

protected:
    using IRMutator::visit;

    Stmt visit(const For *op) override {
        Expr min = mutate(op->min), extent = mutate(op->extent);
        std::set<std::string> outer = std::move(varying);
        bool outer_in_loop = in_loop;
        varying = {op->name};
        in_loop = true;
        Stmt body = mutate(op->body);
        varying = std::move(outer);
        in_loop = outer_in_loop;
        if (min.same_as(op->min) && extent.same_as(op->extent) && body.same_as(op->body)) return op;
        return For::make(op->name, min, extent, op->for_type, op->device_api, body);
    }
    Stmt visit(const LetStmt *op) override {
        return visit_let<Stmt>(op, [&](const Stmt &b) { return mutate(b); });
    }
    Expr visit(const Let *op) override {
        return visit_let<Expr>(op, [&](const Expr &b) { return mutate(b); });
    }
    Expr visit(const Load *op) override {
        Expr index = regroup(mutate(op->index));
        Expr predicate = op->predicate.defined() ? mutate(op->predicate) : op->predicate;
        if (index.same_as(op->index) && predicate.same_as(op->predicate)) return op;
        return Load::make(op->type, op->name, index, op->image, op->param, predicate);
    }
    Stmt visit(const Store *op) override {
        Expr value = mutate(op->value);
        Expr index = regroup(mutate(op->index));
        Expr predicate = op->predicate.defined() ? mutate(op->predicate) : op->predicate;
        if (value.same_as(op->value) && index.same_as(op->index) &&
            predicate.same_as(op->predicate))
            return op;
        return Store::make(op->name, value, index, op->image, op->param, predicate);
    }
};

} // namespace

Stmt group_invariant_index_terms(const Stmt &s) {
    return GroupInvariantIndexTerms().mutate(s);
}

} // namespace Internal
} // namespace loom
