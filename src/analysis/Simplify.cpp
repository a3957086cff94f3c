// The simplifier's driver: entry points, variable ranges, lets and the
// statement rules. Expression rules live in Simplify_<family>.cpp.

#include "analysis/Simplify.h"

#include <cstdlib>
#include <map>
#include <set>

#include "analysis/Bounds.h"
#include "analysis/Simplify_Internal.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"
#include "ir/IRVisitor.h"
#include "ir/Substitute.h"

namespace loom {
namespace Internal {

namespace {

constexpr int max_rewrite_depth = 40;

// LOOM_CHECK_SIMPLIFY_USES=1 checks every dropped let against a search of its
// body (slow; for testing the use counts).
const bool check_use_counts = [] {
    const char *v = std::getenv("LOOM_CHECK_SIMPLIFY_USES");
    return v && *v == '1';
}();

bool is_const_or_var(const Expr &e) {
    return IRMatch::is_scalar_constant(e) || e.as<Variable>() ||
           (e.as<Broadcast>() && IRMatch::is_scalar_constant(e.as<Broadcast>()->value));
}

// A let worth substituting into its body: a constant, a variable, or a
// variable plus a constant (an unrolled vector's `x.base = x.min + 16`).
// Substituted, the constant moves to the outside of the index expressions
// that use it, so the loads of one row share one address computation plus
// immediate offsets instead of one pointer each.
bool is_substitutable(const Expr &e) {
    if (is_const_or_var(e)) return true;
    auto *add = e.as<Add>();
    return add && e.type().is_int() && e.type().is_scalar() && add->a.as<Variable>() &&
           IRMatch::is_scalar_constant(add->b);
}

} // namespace

Simplifier::Simplifier(const Scope<Interval> &given) {
    symbolic_bounds.set_containing_scope(&given);
    if (given.empty()) return;
    for (auto &kv : given.flatten()) {
        ConstBounds b;
        if (auto lo = as_const_int(kv.second.min)) b.has_min = true, b.min = *lo;
        if (auto hi = as_const_int(kv.second.max)) b.has_max = true, b.max = *hi;
        var_bounds.push(kv.first, b);
    }
}

Expr Simplifier::resimplify(const Expr &e) {
    if (rewrite_depth > max_rewrite_depth) return e;
    rewrite_depth++;
    Expr r = mutate(e);
    rewrite_depth--;
    return r;
}

Expr Simplifier::visit(const Variable *op) {
    const Expr *replacement = replacements.find(op->name);
    if (replacement && replacement->defined()) {
        count_uses_in(*replacement);
        return *replacement;
    }
    count_use(op->name);
    return op;
}

void Simplifier::count_uses_in(const Expr &e) {
    if (use_slots.empty()) return;
    visit_all(e, [&](const IRNode *node) {
        if (node->node_type == IRNodeType::Variable)
            count_use(static_cast<const Variable *>(node)->name);
    });
}

Expr Simplifier::visit(const Let *op) {
    Expr value = mutate(op->value);
    if (is_substitutable(value)) {
        Binding binding(*this, op->name);
        ScopedBinding<Expr> replace(replacements, op->name, value);
        return mutate(op->body);
    }
    Expr body;
    int uses = 0;
    {
        VarBounds bind(*this, op->name, const_bounds(value));
        Binding binding(*this, op->name);
        body = mutate(op->body);
        uses = binding.uses();
    }
    internal_assert(uses > 0 || !check_use_counts || !expr_uses_var(body, op->name),
                    "simplifier lost a use of " << op->name);
    if (uses == 0) return body;
    if (value.same_as(op->value) && body.same_as(op->body)) return op;
    return Let::make(op->name, value, body);
}

Stmt make_no_op() {
    return Evaluate::make(make_zero(Int(32)));
}

bool is_no_op(const Stmt &s) {
    if (!s.defined()) return true;
    auto *e = s.as<Evaluate>();
    return e && is_const(e->value);
}

namespace {

// 1: provably true, 0: provably false, -1: unknown; uses the symbolic ranges of loops.
int prove_with_bounds(const Expr &cond, const Scope<Interval> &scope) {
    if (is_const_true(cond)) return 1;
    if (is_const_false(cond)) return 0;
    if (!cond.type().is_scalar()) return -1;
    Interval b = bounds_of_expr_in_scope(cond, scope);
    if (is_const_true(b.min)) return 1;
    if (is_const_false(b.max)) return 0;
    return -1;
}

class CollectVars : public IRVisitor {
protected:
    using IRVisitor::visit;
    void visit(const Variable *op) override { names.insert(op->name); }

public:
    std::set<std::string> names;
};

// Does an expression read memory (a load, a Func or image call) or call
// something impure? Then two equal expressions may differ in value (a store
// may come between them) and a let of one must not stand for the other.
class ReadsMemory : public IRVisitor {
protected:
    using IRVisitor::visit;
    void visit(const Load *) override { found = true; }
    void visit(const Call *op) override {
        if (op->call_type != Call::PureExtern && op->call_type != Call::PureIntrinsic) found = true;
        IRVisitor::visit(op);
    }

public:
    bool found = false;
};

bool reads_memory(const Expr &e) {
    ReadsMemory r;
    e.accept(&r);
    return r.found;
}

// Replaces the parts of an expression that equal the value of an enclosing
// let by that let's variable (outermost parts first).
class ReplaceLetValues : public IRMutator {
    const std::map<Expr, std::vector<std::string>, ExprStructuralLess> &lets;

public:
    explicit ReplaceLetValues(
        const std::map<Expr, std::vector<std::string>, ExprStructuralLess> &lets)
        : lets(lets) {}
    bool replaced = false;

    using IRMutator::mutate;
    Expr mutate(const Expr &e) override {
        if (!e.defined() || is_const_or_var(e)) return e;
        auto it = lets.find(e);
        if (it != lets.end() && !it->second.empty()) {
            replaced = true;
            return Variable::make(e.type(), it->second.back());
        }
        return IRMutator::mutate(e);
    }
};

} // namespace

// Bounds inference and the loop splits compute the same bound in several
// lets (a Func's realized min, its update's min and the min it computes are
// often one expression, the max is that plus a constant; a consumer's
// coordinate is the same bound again, built from the lets of its own loop
// splits). Written in terms of the outermost of them, the simplifier sees that
// they agree: a Func's loops over its own tile get constant extents, and its
// buffer offsets (coordinate minus realized min) fold to constants, which
// lets LLVM keep small buffers (accumulators) in registers. Values are
// compared with the lets they use expanded (when small), so that lets built
// from different intermediate lets still match.
Expr Simplifier::expand_lets(const Expr &value) {
    // Substituting only grows a value (mostly): one already past the limit
    // is not worth expanding (a region over N outputs is N mins long).
    if (count_nodes(value, max_expanded_nodes) > max_expanded_nodes) return Expr();
    Expr e = substitute_let_values(value, expanded_lets);
    if (e.same_as(value)) return value;
    return count_nodes(e, max_expanded_nodes) <= max_expanded_nodes ? e : Expr();
}

Expr Simplifier::substitute_let_values(const Expr &e, const Scope<Expr> &lets, int max_nodes) {
    std::map<std::string, Expr> values;
    CollectVars vars;
    e.accept(&vars);
    for (const std::string &name : vars.names) {
        const Expr *v = lets.find(name);
        if (v && v->defined()) values[name] = *v;
    }
    if (values.empty()) return e;
    Expr substituted = substitute(values, e);
    if (max_nodes >= 0 && count_nodes(substituted, max_nodes) > max_nodes) return Expr();
    // Only for comparing values: its uses are not uses in the result.
    uncounted++;
    Expr result = resimplify(substituted);
    uncounted--;
    return result;
}

Expr Simplifier::unify_with_enclosing_lets(const Expr &value, const Expr &expanded) {
    if (shadowing_bindings > 0 || lets_by_value.empty() || !value.type().is_scalar() ||
        is_const_or_var(value) || !expanded.defined()) {
        return value;
    }
    auto it = lets_by_value.find(expanded);
    if (it != lets_by_value.end()) {
        count_use(it->second.back());
        return Variable::make(value.type(), it->second.back());
    }
    ReplaceLetValues replace(lets_by_value);
    Expr e = replace.mutate(expanded);
    if (!replace.replaced) return value;
    e = resimplify(e);
    // Keep the original when the rewrite is no smaller (it only repeats
    // parts of the lets that the original names).
    int limit = count_nodes(value, max_expanded_nodes);
    return count_nodes(e, limit + 1) <= limit ? e : value;
}

Stmt Simplifier::visit(const LetStmt *op) {
    Expr value = mutate(op->value);
    Expr expanded;
    if (shadowing_bindings == 0 && value.type().is_scalar() && !is_const_or_var(value) &&
        !reads_memory(value)) {
        expanded = expand_lets(value);
        Expr unified = unify_with_enclosing_lets(value, expanded);
        if (!unified.same_as(value)) {
            value = unified;
            expanded = is_const_or_var(value) ? Expr() : expand_lets(value);
        }
    }
    if (is_substitutable(value)) {
        Binding binding(*this, op->name);
        ScopedBinding<Expr> replace(replacements, op->name, value);
        return mutate(op->body);
    }
    Stmt body;
    int uses = 0;
    {
        Binding binding(*this, op->name);
        bool shadows = rebinds(op->name);
        shadowing_bindings += shadows;
        VarBounds bind(*this, op->name, const_bounds(value));
        ScopedBinding<Expr> bind_value(let_values, op->name, value);
        ScopedBinding<Expr> bind_expanded(expanded_lets, op->name, expanded);
        std::vector<std::string> *names = nullptr;
        CollectVars vars;
        if (expanded.defined()) {
            names = &lets_by_value[expanded];
            names->push_back(op->name);
            expanded.accept(&vars);
            value.accept(&vars);
            for (const std::string &v : vars.names) vars_of_let_values[v]++;
        }
        body = mutate(op->body);
        uses = binding.uses();
        if (names) {
            names->pop_back();
            if (names->empty()) lets_by_value.erase(expanded);
            for (const std::string &v : vars.names)
                if (--vars_of_let_values[v] == 0) vars_of_let_values.erase(v);
        }
        shadowing_bindings -= shadows;
    }
    internal_assert(uses > 0 || !check_use_counts || !stmt_uses_var(body, op->name),
                    "simplifier lost a use of " << op->name);
    if (uses == 0) return body;
    if (value.same_as(op->value) && body.same_as(op->body)) return op;
    return LetStmt::make(op->name, value, body);
}

Stmt Simplifier::visit(const AssertStmt *op) {
    Expr cond = mutate(op->condition);
    if (prove_with_bounds(cond, symbolic_bounds) == 1) return make_no_op();
    Expr message = mutate(op->message);
    if (cond.same_as(op->condition) && message.same_as(op->message)) return op;
    return AssertStmt::make(cond, message);
}

// Bounds inference writes a loop's extent as (f.max - f.min) + 1 with both
// ends in lets; when they differ by a constant (an inner loop of a Func
// computed per point or per vector) the loop runs a constant number of times.
// Substituting the lets (a few levels deep) shows it, and a loop of one
// iteration then becomes a let instead of a loop for the code generator.
Expr Simplifier::extent_through_lets(const Expr &extent) {
    if (shadowing_bindings > 0) return extent;
    Expr e = extent;
    for (int depth = 0; depth < 8; depth++) {
        Expr next = substitute_let_values(e, let_values, max_extent_nodes);
        if (!next.defined() || next.same_as(e)) break;
        e = next;
        if (as_const_int(e)) return e;
    }
    return extent;
}

Stmt Simplifier::visit(const For *op) {
    Expr min = mutate(op->min), extent = mutate(op->extent);
    if (!as_const_int(extent)) extent = extent_through_lets(extent);
    auto n = as_const_int(extent);
    if (n && *n <= 0) return make_no_op();
    if (n && *n == 1) return mutate(LetStmt::make(op->name, min, op->body));
    ConstBounds lo = const_bounds(min), len = const_bounds(extent);
    ConstBounds range{lo.has_min, false, lo.min, 0};
    if (lo.has_max && len.has_max) {
        __int128 last_max = __int128(lo.max) + len.max - 1;
        range.has_max = last_max <= INT64_MAX;
        range.max = range.has_max ? int64_t(last_max) : 0;
    }
    Expr last = mutate(Sub::make(Add::make(min, extent), make_one(extent.type())));
    Stmt body;
    {
        bool shadows = rebinds(op->name);
        shadowing_bindings += shadows;
        VarBounds bind(*this, op->name, range);
        ScopedBinding<Interval> sym(symbolic_bounds, op->name, Interval(min, last));
        ScopedBinding<Expr> unknown(let_values, op->name, Expr());
        Binding binding(*this, op->name);
        body = mutate(op->body);
        shadowing_bindings -= shadows;
    }
    if (is_no_op(body)) return make_no_op();
    if (min.same_as(op->min) && extent.same_as(op->extent) && body.same_as(op->body)) return op;
    return For::make(op->name, min, extent, op->for_type, op->device_api, body);
}

Stmt Simplifier::visit(const Block *op) {
    Stmt first = mutate(op->first), rest = mutate(op->rest);
    if (is_no_op(first)) return rest;
    if (is_no_op(rest)) return first;
    if (first.same_as(op->first) && rest.same_as(op->rest)) return op;
    return Block::make(first, rest);
}

Stmt Simplifier::visit(const IfThenElse *op) {
    Expr cond = mutate(op->condition);
    int proven = prove_with_bounds(unwrap_likely(cond), symbolic_bounds);
    if (proven == 1) return mutate(op->then_case);
    if (proven == 0) return op->else_case.defined() ? mutate(op->else_case) : make_no_op();
    Stmt then_case = mutate(op->then_case);
    Stmt else_case = op->else_case.defined() ? mutate(op->else_case) : Stmt();
    if (is_no_op(else_case)) else_case = Stmt();
    if (is_no_op(then_case) && !else_case.defined()) return make_no_op();
    if (is_no_op(then_case)) return IfThenElse::make(mutate(Not::make(cond)), else_case);
    if (cond.same_as(op->condition) && then_case.same_as(op->then_case) &&
        else_case.same_as(op->else_case)) {
        return op;
    }
    return IfThenElse::make(cond, then_case, else_case);
}

Expr simplify(const Expr &e, const Scope<Interval> &bounds) {
    if (!e.defined()) return e;
    Simplifier s(bounds);
    return s.mutate(e);
}

Expr simplify_over(const Expr &e, const std::unordered_set<const IRNode *> &simplified) {
    if (!e.defined()) return e;
    static const Scope<Interval> no_bounds;
    Simplifier s(no_bounds);
    s.simplified_nodes = &simplified;
    return s.mutate(e);
}

Stmt simplify(const Stmt &st, const Scope<Interval> &bounds) {
    if (!st.defined()) return st;
    Simplifier s(bounds);
    return s.mutate(st);
}

bool can_prove(const Expr &e, const Scope<Interval> &bounds) {
    internal_assert(e.type().is_bool(), "can_prove of a non-boolean expression " << e);
    return is_const_true(simplify(e, bounds));
}

} // namespace Internal
} // namespace loom
