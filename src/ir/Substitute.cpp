#include "ir/Substitute.h"

#include "ir/IREquality.h"
#include "ir/IRMutator.h"
#include "ir/Scope.h"

namespace loom {
namespace Internal {

namespace {

// Replaces free Variables by name; names rebound by Let, LetStmt or For are
// hidden inside the binding's body.
class SubstituteVars : public IRMutator {
    const std::map<std::string, Expr> &replacements;
    Scope<int> hidden;

    template <typename T, typename Body> Body mutate_bound_body(const T *op, const Body &body) {
        if (!replacements.count(op->name)) return mutate(body);
        ScopedBinding<int> bind(hidden, op->name, 0);
        return mutate(body);
    }

public:
    explicit SubstituteVars(const std::map<std::string, Expr> &r) : replacements(r) {}
    using IRMutator::mutate;

protected:
    Expr visit(const Variable *op) override {
        auto it = replacements.find(op->name);
        if (it == replacements.end() || hidden.contains(op->name)) return op;
        return it->second;
    }
    Expr visit(const Let *op) override {
        Expr value = mutate(op->value);
        Expr body = mutate_bound_body(op, op->body);
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return Let::make(op->name, value, body);
    }
    Stmt visit(const LetStmt *op) override {
        Expr value = mutate(op->value);
        Stmt body = mutate_bound_body(op, op->body);
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return LetStmt::make(op->name, value, body);
    }
    Stmt visit(const For *op) override {
        Expr min = mutate(op->min);
        Expr extent = mutate(op->extent);
        Stmt body = mutate_bound_body(op, op->body);
        if (min.same_as(op->min) && extent.same_as(op->extent) && body.same_as(op->body)) {
            return op;
        }
        return For::make(op->name, min, extent, op->for_type, op->device_api, body);
    }
};

class SubstituteExpr : public IRMutator {
    const Expr &find, &replacement;

public:
    SubstituteExpr(const Expr &f, const Expr &r) : find(f), replacement(r) {}
    Expr mutate(const Expr &e) override {
        if (equal(e, find)) return replacement;
        return IRMutator::mutate(e);
    }
    using IRMutator::mutate;
};

class InlineLets : public IRMutator {
protected:
    using IRMutator::visit;
    Expr visit(const Let *op) override {
        Expr value = mutate(op->value);
        Expr body = mutate(op->body);
        return substitute(op->name, value, body);
    }
};

class ReplaceStrings : public IRMutator {
public:
    explicit ReplaceStrings(const std::map<std::string, std::string> &r) : replacements(r) {}

private:
    const std::map<std::string, std::string> &replacements;
    using IRMutator::visit;
    Expr visit(const StringImm *op) override {
        auto it = replacements.find(op->value);
        return it == replacements.end() ? Expr(op) : StringImm::make(it->second);
    }
};

} // namespace

Expr substitute(const std::string &name, const Expr &replacement, const Expr &e) {
    std::map<std::string, Expr> m{{name, replacement}};
    return SubstituteVars(m).mutate(e);
}

Stmt substitute(const std::string &name, const Expr &replacement, const Stmt &s) {
    std::map<std::string, Expr> m{{name, replacement}};
    return SubstituteVars(m).mutate(s);
}

Expr substitute(const std::map<std::string, Expr> &replacements, const Expr &e) {
    if (replacements.empty()) return e;
    return SubstituteVars(replacements).mutate(e);
}

Stmt substitute(const std::map<std::string, Expr> &replacements, const Stmt &s) {
    if (replacements.empty()) return s;
    return SubstituteVars(replacements).mutate(s);
}

Expr substitute_expr(const Expr &find, const Expr &replacement, const Expr &e) {
    return SubstituteExpr(find, replacement).mutate(e);
}

Expr substitute_in_all_lets(const Expr &e) {
    return InlineLets().mutate(e);
}

Stmt replace_strings(const std::map<std::string, std::string> &replacements, const Stmt &s) {
    return ReplaceStrings(replacements).mutate(s);
}

Expr substitute_through(const std::map<std::string, Expr> &replacements, const Expr &e) {
    Expr result = e;
    // Each round replaces one more level of lets of lets; a chain can be no
    // longer than the number of values.
    for (size_t round = 0; round <= replacements.size() && !replacements.empty(); round++) {
        Expr next = substitute(replacements, result);
        if (next.same_as(result)) break;
        result = next;
    }
    return result;
}

} // namespace Internal
} // namespace loom
