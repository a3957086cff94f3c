#include "analysis/CSE.h"

#include <map>
#include <vector>

#include "ir/IREquality.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

namespace {

// Let bodies and the lazy branches of if_then_else are separate CSE problems:
// a body may use the Let's name, and a lazy branch must not be evaluated
// unconditionally. Only the other children of a node join its parent's problem.
bool is_lazy_branch(const Call *op, size_t arg) {
    return op->is_intrinsic(Intrinsic::if_then_else) && arg > 0;
}

// Rebuilds e bottom-up so that structurally equal subexpressions become one
// node; CSE's the barrier parts independently.
class Canonicalize : public IRMutator {
    // Children are canonical before their parent is looked up, so comparing
    // them by identity is enough (a structural compare of two long chains
    // walks their whole depth).
    std::map<Expr, Expr, ExprShallowLess> canonical;
    std::map<const BaseExprNode *, Expr> done;

public:
    using IRMutator::mutate;
    Expr mutate(const Expr &e) override {
        if (!e.defined()) return e;
        auto memo = done.find(e.get());
        if (memo != done.end()) return memo->second;
        Expr rebuilt = IRMutator::mutate(e);
        auto it = canonical.emplace(rebuilt, rebuilt).first;
        done[e.get()] = it->second;
        return it->second;
    }

protected:
    Expr visit(const Let *op) override {
        Expr value = mutate(op->value);
        Expr body = common_subexpression_elimination(op->body);
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return Let::make(op->name, value, body);
    }
    Expr visit(const Call *op) override {
        std::vector<Expr> args = op->args;
        bool changed = false;
        for (size_t i = 0; i < args.size(); i++) {
            Expr a =
                is_lazy_branch(op, i) ? common_subexpression_elimination(args[i]) : mutate(args[i]);
            changed = changed || !a.same_as(args[i]);
            args[i] = a;
        }
        if (!changed) return op;
        auto *n = new Call(*op);
        n->args = std::move(args);
        return n;
    }
};

// Lists the direct children of one node that take part in its CSE problem.
class ProblemChildren : public IRMutator {
    bool at_root = true;

public:
    std::vector<Expr> children;
    using IRMutator::mutate;
    Expr mutate(const Expr &e) override {
        if (!at_root) {
            if (e.defined()) children.push_back(e);
            return e;
        }
        at_root = false;
        IRMutator::mutate(e);
        return e;
    }

protected:
    Expr visit(const Let *op) override {
        mutate(op->value);
        return op;
    }
    Expr visit(const Call *op) override {
        for (size_t i = 0; i < op->args.size(); i++) {
            if (!is_lazy_branch(op, i)) mutate(op->args[i]);
        }
        return op;
    }
};

std::vector<Expr> problem_children(const Expr &e) {
    ProblemChildren pc;
    pc.mutate(e);
    return pc.children;
}

// Worth naming: not a constant, a variable or a broadcast of one.
bool is_trivial(const Expr &e) {
    if (is_const(e) || e.as<Variable>() || e.as<StringImm>()) return true;
    if (const Broadcast *b = e.as<Broadcast>()) return is_trivial(b->value);
    return false;
}

// Replaces the chosen nodes by their variables, outside barrier parts.
class ReplaceHoisted : public IRMutator {
    const std::map<const BaseExprNode *, Expr> &vars;
    std::map<const BaseExprNode *, Expr> done;

public:
    explicit ReplaceHoisted(const std::map<const BaseExprNode *, Expr> &v) : vars(v) {}
    using IRMutator::mutate;
    Expr mutate(const Expr &e) override {
        if (!e.defined()) return e;
        auto v = vars.find(e.get());
        if (v != vars.end()) return v->second;
        return rebuild_children(e);
    }
    /** e with its children replaced (but not e itself). */
    Expr rebuild_children(const Expr &e) {
        auto memo = done.find(e.get());
        if (memo != done.end()) return memo->second;
        Expr r = IRMutator::mutate(e);
        done[e.get()] = r;
        return r;
    }

protected:
    Expr visit(const Let *op) override {
        Expr value = mutate(op->value);
        if (value.same_as(op->value)) return op;
        return Let::make(op->name, value, op->body);
    }
    Expr visit(const Call *op) override {
        std::vector<Expr> args = op->args;
        bool changed = false;
        for (size_t i = 0; i < args.size(); i++) {
            if (is_lazy_branch(op, i)) continue;
            Expr a = mutate(args[i]);
            changed = changed || !a.same_as(args[i]);
            args[i] = a;
        }
        if (!changed) return op;
        auto *n = new Call(*op);
        n->args = std::move(args);
        return n;
    }
};

class CSE {
    std::map<const BaseExprNode *, int> uses;
    std::map<const BaseExprNode *, bool> purity;
    std::vector<Expr> post_order; // each distinct node once, children first

    void count_uses(const Expr &e) {
        if (++uses[e.get()] > 1) return;
        for (const Expr &c : problem_children(e)) count_uses(c);
        post_order.push_back(e);
    }

    // Memoized: does e (including its barrier parts) have no side effects?
    bool pure(const Expr &e) {
        auto it = purity.find(e.get());
        if (it != purity.end()) return it->second;
        bool p = true;
        if (const Call *c = e.as<Call>()) p = c->is_pure();
        if (const Let *l = e.as<Let>()) p = p && is_pure(l->body);
        if (const Call *c = e.as<Call>()) {
            for (size_t i = 0; i < c->args.size(); i++) {
                if (is_lazy_branch(c, i)) p = p && is_pure(c->args[i]);
            }
        }
        for (const Expr &c : problem_children(e)) p = pure(c) && p;
        purity[e.get()] = p;
        return p;
    }

public:
    Expr run(const Expr &input) {
        if (!input.defined() || is_trivial(input)) return input;
        Expr e = Canonicalize().mutate(input);
        count_uses(e);

        std::map<const BaseExprNode *, Expr> vars;
        std::vector<std::pair<Expr, Expr>> lets; // (variable, node), children first
        for (const Expr &n : post_order) {
            if (uses[n.get()] < 2 || is_trivial(n) || !pure(n)) continue;
            Expr var = Variable::make(n.type(), unique_name("t"));
            vars[n.get()] = var;
            lets.emplace_back(var, n);
        }
        if (lets.empty()) return e;

        ReplaceHoisted replace(vars);
        Expr result = replace.mutate(e);
        for (size_t i = lets.size(); i-- > 0;) {
            const std::string &name = lets[i].first.as<Variable>()->name;
            result = Let::make(name, replace.rebuild_children(lets[i].second), result);
        }
        return result;
    }
};

// Applies expression CSE to every expression of a statement.
class CSEStmt : public IRMutator {
public:
    using IRMutator::mutate;
    Expr mutate(const Expr &e) override { return common_subexpression_elimination(e); }
};

} // namespace

Expr common_subexpression_elimination(const Expr &e) {
    return CSE().run(e);
}

Stmt common_subexpression_elimination(const Stmt &s) {
    return CSEStmt().mutate(s);
}

} // namespace Internal
} // namespace loom
