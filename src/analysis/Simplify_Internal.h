#ifndef LOOM_ANALYSIS_SIMPLIFY_INTERNAL_H
#define LOOM_ANALYSIS_SIMPLIFY_INTERNAL_H

// The simplifier's mutator, shared by the Simplify_*.cpp files (one per op
// family). Not a public interface: use analysis/Simplify.h.

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/Simplify.h"
#include "ir/IREquality.h"
#include "ir/IRMatch.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"

namespace loom {
namespace Internal {

/** A constant range known for an integer expression; either side may be open. */
struct ConstBounds {
    bool has_min = false, has_max = false;
    int64_t min = 0, max = 0;

    static ConstBounds point(int64_t v) { return {true, true, v, v}; }
    static ConstBounds range(int64_t lo, int64_t hi) { return {true, true, lo, hi}; }
    bool is_point() const { return has_min && has_max && min == max; }
};

/** Does integer arithmetic of type t never wrap (overflow is undefined behaviour)? */
inline bool no_overflow(Type t) {
    return t.is_int() && t.bits >= 32;
}

// Constant folding (Simplify_Fold.cpp). Each returns an undefined Expr unless
// its operands are scalar constants (IntImm, UIntImm, FloatImm).
Expr fold_binary(IRNodeType op, const Expr &a, const Expr &b);
Expr fold_not(const Expr &a);
Expr fold_cast(Type t, const Expr &a);
Expr fold_select(const Expr &c, const Expr &t, const Expr &f);

class Simplifier : public IRMutator {
public:
    explicit Simplifier(const Scope<Interval> &given);

    using IRMutator::mutate;
    /** Subexpressions already simplified (simplify_over): returned as they are. */
    const std::unordered_set<const IRNode *> *simplified_nodes = nullptr;
    Expr mutate(const Expr &e) override {
        if (simplified_nodes && simplified_nodes->count(e.get())) return e;
        return IRMutator::mutate(e);
    }

    /** Constant range of an integer expression, from constants, the known
     * ranges of variables and the operators. Open when unsure. */
    ConstBounds const_bounds(const Expr &e);
    /** Nodes const_bounds may still visit in the current top-level call. An
     * expression DAG with shared subexpressions (the bounds of fused loops)
     * unfolds exponentially as a tree; past the budget the answer is the
     * type's range, which is always sound. */
    int const_bounds_budget = 0;
    int budget_exhaustions = 0;
    ConstBounds const_bounds_walk(const Expr &e);
    ConstBounds const_bounds_node(const Expr &e);
    /** const_bounds_node of an intrinsic call (shifts by constants, masks, likely). */
    ConstBounds call_bounds(const Call *c);
    /** const_bounds of compound expressions by node, valid while var_bounds
     * stays as it is (the Expr keeps the node alive, so its address is not
     * reused). */
    struct CachedBounds {
        Expr expr;
        ConstBounds bounds;
    };
    std::unordered_map<const IRNode *, CachedBounds> bounds_cache;
    /** Binds a variable's constant range for one scope. */
    class VarBounds {
        Simplifier &s;
        std::string name;

    public:
        VarBounds(Simplifier &simplifier, const std::string &n, const ConstBounds &b)
            : s(simplifier), name(n) {
            s.var_bounds.push(name, b);
            s.bounds_cache.clear();
        }
        ~VarBounds() {
            s.var_bounds.pop(name);
            s.bounds_cache.clear();
        }
        VarBounds(const VarBounds &) = delete;
        VarBounds &operator=(const VarBounds &) = delete;
    };

    /** Re-simplify a rule's replacement (bounded recursion). */
    Expr resimplify(const Expr &e);
    static Expr fold_callback(const Expr &e, void *self) {
        return static_cast<Simplifier *>(self)->resimplify(e);
    }
    /** Apply the first matching rule of `rules` to e; undefined if none applies. */
    Expr rewrite(const IRMatch::RuleSet &rules, const Expr &e, Type domain_type) {
        return rules.apply(e, domain_type, &Simplifier::fold_callback, this);
    }

    /** Decide a boolean with bounds; 1 true, 0 false, -1 unknown. */
    int decide_compare(IRNodeType op, const Expr &a, const Expr &b);

    Scope<ConstBounds> var_bounds;
    /** Symbolic loop bounds, for proving conditions of ifs and asserts. */
    Scope<Interval> symbolic_bounds;
    /** Values of the enclosing LetStmts (undefined for loop variables), so a
     * loop extent written in terms of lets can be proven constant. */
    Scope<Expr> let_values;
    /** How many enclosing bindings reuse a name bound further out; while
     * any do, let values are not substituted (they could name the wrong one). */
    int shadowing_bindings = 0;
    Expr extent_through_lets(const Expr &extent);
    /** How large (as a tree) an extent with lets substituted may get: bounds
     * lets that name their consumers' bounds make chains whose values,
     * written out level by level, grow exponentially. */
    static constexpr int max_extent_nodes = 1000;
    /** The enclosing LetStmts by (simplified) value, innermost name last, for
     * unify_with_enclosing_lets; not constants or variables (substituted). */
    std::map<Expr, std::vector<std::string>, ExprStructuralLess> lets_by_value;
    /** How many of those values use each variable: binding one of these
     * names again changes what the values mean (counts as shadowing). */
    std::map<std::string, int> vars_of_let_values;
    /** Each enclosing let's value with the lets it uses expanded (undefined
     * when large, or for a constant or variable): the keys of lets_by_value. */
    Scope<Expr> expanded_lets;
    static constexpr int max_expanded_nodes = 64;
    Expr expand_lets(const Expr &value);
    /** e with the values `lets` knows substituted for its variables (one
     * level) and simplified; e itself when it uses none of them; undefined
     * when the substituted tree has more than max_nodes nodes (if given). */
    Expr substitute_let_values(const Expr &e, const Scope<Expr> &lets, int max_nodes = -1);
    /** a % b with a's base a let of `x * c + y` and b a constant k that
     * divides c: (y + ...) % k, or undefined when it does not apply. */
    Expr mod_without_let_multiple(const Expr &a, const Expr &b);
    Expr unify_with_enclosing_lets(const Expr &value, const Expr &expanded);
    bool rebinds(const std::string &name) const {
        return let_values.contains(name) || vars_of_let_values.count(name) > 0;
    }
    int rewrite_depth = 0;

    /** Lets whose values stand in for their variables (constants, variables,
     * a variable plus a constant), put in where a use is visited: rewriting
     * each such let's body first made long let chains cost N^2. Undefined
     * for a name bound again further in. */
    Scope<Expr> replacements;

    /** Uses of the variables of the enclosing bindings, counted as the body
     * is simplified, so that a let nobody uses is dropped without searching
     * its body (also N^2 for chains). A count may be too high (a rule drops
     * a use), never too low: every variable the simplifier puts into its
     * result is counted where it is put. */
    Scope<int> use_slots;
    struct UseCount {
        int uses = 0;
        int uncounted = 0; // the level of `uncounted` where the binding was made
    };
    std::vector<UseCount> use_counts;
    /** > 0 while simplifying a value that is not part of the result: uses of
     * the bindings around it do not count (those made inside it do). */
    int uncounted = 0;
    void count_use(const std::string &name) {
        const int *slot = use_slots.find(name);
        if (!slot) return;
        UseCount &c = use_counts[size_t(*slot)];
        if (c.uncounted == uncounted) c.uses++;
    }
    void count_uses_in(const Expr &e);
    /** Counts the uses of one binding's variable while it is in scope, and
     * hides any outer replacement of the same name. */
    class Binding {
        Simplifier &s;
        std::string name;
        size_t slot;

    public:
        Binding(Simplifier &simplifier, const std::string &n)
            : s(simplifier), name(n), slot(simplifier.use_counts.size()) {
            s.use_counts.push_back({0, s.uncounted});
            s.use_slots.push(name, int(slot));
            s.replacements.push(name, Expr());
        }
        ~Binding() {
            s.replacements.pop(name);
            s.use_slots.pop(name);
            s.use_counts.pop_back();
        }
        Binding(const Binding &) = delete;
        Binding &operator=(const Binding &) = delete;
        int uses() const { return s.use_counts[slot].uses; }
    };

protected:
    Expr visit(const Cast *) override;
    Expr visit(const Add *) override;
    Expr visit(const Sub *) override;
    Expr visit(const Mul *) override;
    Expr visit(const Div *) override;
    Expr visit(const Mod *) override;
    Expr visit(const Min *) override;
    Expr visit(const Max *) override;
    Expr visit(const EQ *) override;
    Expr visit(const NE *) override;
    Expr visit(const LT *) override;
    Expr visit(const LE *) override;
    Expr visit(const GT *) override;
    Expr visit(const GE *) override;
    Expr visit(const And *) override;
    Expr visit(const Or *) override;
    Expr visit(const Not *) override;
    Expr visit(const Select *) override;
    Expr visit(const Ramp *) override;
    Expr visit(const Broadcast *) override;
    Expr visit(const Call *) override;
    Expr visit(const Variable *) override;
    Expr visit(const Let *) override;
    Stmt visit(const LetStmt *) override;
    Stmt visit(const AssertStmt *) override;
    Stmt visit(const For *) override;
    Stmt visit(const Block *) override;
    Stmt visit(const IfThenElse *) override;

private:
    Expr simplify_compare(IRNodeType op, Expr a, Expr b);
    Expr vector_binary(IRNodeType op, const Expr &a, const Expr &b);
    Expr min_max(bool is_min, Expr a, Expr b);
};

/** Canonical order of commutative operands: constants right, a lone variable
 * after a compound expression, variables by name. True if a and b should swap. */
inline bool should_commute(const Expr &a, const Expr &b) {
    bool a_const = IRMatch::is_scalar_constant(a) || (a.as<Broadcast>() && is_const(a));
    bool b_const = IRMatch::is_scalar_constant(b) || (b.as<Broadcast>() && is_const(b));
    if (a_const != b_const) return a_const;
    if (a_const) return false;
    auto *va = a.as<Variable>(), *vb = b.as<Variable>();
    if (va && vb) return va->name > vb->name;
    return va && !vb;
}

/** The node op with operands a and b, reusing op when they are unchanged. */
template <typename T> Expr rebuild(const T *op, const Expr &a, const Expr &b) {
    if (a.same_as(op->a) && b.same_as(op->b)) return op;
    return T::make(a, b);
}

/** Build the binary node of kind op. */
Expr make_binary(IRNodeType op, const Expr &a, const Expr &b);
/** The no-op statement; and whether s is one. */
Stmt make_no_op();
bool is_no_op(const Stmt &s);

} // namespace Internal
} // namespace loom

#endif
