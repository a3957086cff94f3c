#include "lower/PartitionLoops.h"

#include <map>
#include <optional>
#include <set>

#include "analysis/Bounds.h"
#include "analysis/Simplify.h"
#include "ir/IREquality.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"
#include "ir/IRVisitor.h"
#include "ir/Substitute.h"
#include "lower/LowerUtil.h"

namespace loom {
namespace Internal {

namespace {

/** A let whose value, with the lets around it inlined, is a larger tree than
 * this is not inlined into the conditions the hints are solved from. */
constexpr double max_inlined_let_nodes = 2000;

bool is_likely(const Expr &e) {
    const auto *c = e.as<Call>();
    return c && c->is_intrinsic(Intrinsic::likely);
}

/** A likely() call, or a min/max one of whose operands is tagged: its value
 * is usually the tagged operand. */
bool is_tagged(const Expr &e) {
    if (is_likely(e)) return true;
    if (const auto *m = e.as<Min>()) return is_tagged(m->a) || is_tagged(m->b);
    if (const auto *m = e.as<Max>()) return is_tagged(m->a) || is_tagged(m->b);
    return false;
}

class StripLikely : public IRMutator {
protected:
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        if (op->is_intrinsic(Intrinsic::likely) || op->is_intrinsic(Intrinsic::likely_if_innermost))
            return mutate(op->args[0]);
        return IRMutator::visit(op);
    }
};

/** The value of a tagged expression in the steady state, and the conditions
 * under which it equals the original. */
Expr steady_value(const Expr &e, std::vector<Expr> &conds) {
    if (is_likely(e)) return e.as<Call>()->args[0];
    bool is_min = e.as<Min>() != nullptr;
    Expr a = is_min ? e.as<Min>()->a : e.as<Max>()->a;
    Expr b = is_min ? e.as<Min>()->b : e.as<Max>()->b;
    if (!is_tagged(a)) std::swap(a, b);
    Expr s = steady_value(a, conds);
    conds.push_back(is_min ? LE::make(s, b) : GE::make(s, b));
    return s;
}

/** e = coeff * var + rest, when e is linear in var. */
struct Linear {
    int64_t coeff;
    Expr rest;
};

std::optional<Linear> linear_in(const Expr &e, const std::string &var) {
    if (!expr_uses_var(e, var)) return Linear{0, e};
    if (const auto *v = e.as<Variable>()) {
        if (v->name == var) return Linear{1, make_zero(e.type())};
        return std::nullopt;
    }
    if (const auto *op = e.as<Add>()) {
        auto a = linear_in(op->a, var), b = linear_in(op->b, var);
        if (!a || !b) return std::nullopt;
        return Linear{a->coeff + b->coeff, Add::make(a->rest, b->rest)};
    }
    if (const auto *op = e.as<Sub>()) {
        auto a = linear_in(op->a, var), b = linear_in(op->b, var);
        if (!a || !b) return std::nullopt;
        return Linear{a->coeff - b->coeff, Sub::make(a->rest, b->rest)};
    }
    if (const auto *op = e.as<Mul>()) {
        std::optional<int64_t> ca = as_const_int(op->a), cb = as_const_int(op->b);
        if (cb) {
            auto a = linear_in(op->a, var);
            if (!a) return std::nullopt;
            return Linear{a->coeff * *cb, Mul::make(a->rest, op->b)};
        }
        if (ca) {
            auto b = linear_in(op->b, var);
            if (!b) return std::nullopt;
            return Linear{b->coeff * *ca, Mul::make(op->a, b->rest)};
        }
    }
    return std::nullopt;
}

/** A range of the loop variable; undefined ends are unbounded. When `guard`
 * is defined the range is empty unless the (loop-invariant) guard holds. */
struct VarRange {
    Expr lo, hi, guard;
};

/** Is `term` one of the operands of the chain of T nodes (Min or Max) `e`?
 * The clamps of one coordinate recur in every access, and a steady range
 * that repeats each of their ends costs the simplifier the repetitions. */
template <typename T> bool in_chain(const Expr &e, const Expr &term) {
    Expr rest = e;
    while (const auto *op = rest.as<T>()) {
        if (equal(op->b, term)) return true;
        rest = op->a;
    }
    return equal(rest, term);
}

void intersect(VarRange &r, const VarRange &o) {
    if (o.lo.defined() && !(r.lo.defined() && in_chain<Max>(r.lo, o.lo)))
        r.lo = r.lo.defined() ? max(r.lo, o.lo) : o.lo;
    if (o.hi.defined() && !(r.hi.defined() && in_chain<Min>(r.hi, o.hi)))
        r.hi = r.hi.defined() ? min(r.hi, o.hi) : o.hi;
    if (o.guard.defined()) r.guard = r.guard.defined() ? And::make(r.guard, o.guard) : o.guard;
}

bool is_min_or_max(const Expr &e) {
    return e.as<Min>() || e.as<Max>();
}

/** Rewrites sums, differences and constant multiples of min/max into a
 * min/max of sums (min(p, q) + r -> min(p + r, q + r)) so that a condition
 * `e <= 0` can be split on it. `depth` bounds the growth. */
Expr hoist_min_max(const Expr &e, int depth) {
    if (depth <= 0) return e;
    auto rebuild = [](const Expr &m, const Expr &a, const Expr &b, bool flip) {
        bool is_min = m.as<Min>() != nullptr;
        if (flip) is_min = !is_min;
        return is_min ? Min::make(a, b) : Max::make(a, b);
    };
    auto parts = [](const Expr &m) {
        if (const auto *o = m.as<Min>()) return std::make_pair(o->a, o->b);
        const auto *o = m.as<Max>();
        return std::make_pair(o->a, o->b);
    };
    if (const auto *op = e.as<Add>()) {
        Expr a = hoist_min_max(op->a, depth - 1), b = hoist_min_max(op->b, depth - 1);
        if (is_min_or_max(a)) {
            auto [p, q] = parts(a);
            return rebuild(a, hoist_min_max(Add::make(p, b), depth - 1),
                           hoist_min_max(Add::make(q, b), depth - 1), false);
        }
        if (is_min_or_max(b)) {
            auto [p, q] = parts(b);
            return rebuild(b, hoist_min_max(Add::make(a, p), depth - 1),
                           hoist_min_max(Add::make(a, q), depth - 1), false);
        }
        return Add::make(a, b);
    }
    if (const auto *op = e.as<Sub>()) {
        Expr a = hoist_min_max(op->a, depth - 1), b = hoist_min_max(op->b, depth - 1);
        if (is_min_or_max(a)) {
            auto [p, q] = parts(a);
            return rebuild(a, hoist_min_max(Sub::make(p, b), depth - 1),
                           hoist_min_max(Sub::make(q, b), depth - 1), false);
        }
        if (is_min_or_max(b)) {
            auto [p, q] = parts(b);
            return rebuild(b, hoist_min_max(Sub::make(a, p), depth - 1),
                           hoist_min_max(Sub::make(a, q), depth - 1), true);
        }
        return Sub::make(a, b);
    }
    if (const auto *op = e.as<Mul>()) {
        std::optional<int64_t> c = as_const_int(op->b);
        if (!c || *c == 0) return e;
        Expr a = hoist_min_max(op->a, depth - 1);
        if (is_min_or_max(a)) {
            auto [p, q] = parts(a);
            return rebuild(a, hoist_min_max(Mul::make(p, op->b), depth - 1),
                           hoist_min_max(Mul::make(q, op->b), depth - 1), *c < 0);
        }
        return Mul::make(a, op->b);
    }
    return e;
}

/** Whether a loop is not innermost: its body runs a serial or parallel loop
 * (vectorized and unrolled loops are straight-line code by now). A Func
 * produced inside as straight-line code (blur's x loop with a sliding
 * blur_x) leaves it innermost, as in Halide, where the innermost loop of a
 * stage's own nest gets likely_if_innermost whatever is computed in it.
 * (An earlier version left such loops alone, after blur measured 12-17%
 * slower partitioned on an Intel Xeon in 2026-11; on AMD Zen 4 and Zen 5,
 * in 2026-11-28's code, partitioned blur ran 6-13% faster.) */
bool has_inner_loop(const Stmt &body) {
    struct Finder : IRVisitor {
        bool found = false;
        using IRVisitor::visit;
        void visit(const For *op) override {
            if (op->for_type == ForType::Serial || op->for_type == ForType::Parallel) {
                found = true;
                return;
            }
            IRVisitor::visit(op);
        }
    } finder;
    body.accept(&finder);
    return finder.found;
}

/** The clamp of a ShiftInwards split, min(var * factor, limit) with limit
 * free of var: the last iteration is moved back to end at the extent. It is
 * treated as if its first operand were tagged likely() (as Halide tags it) in
 * the innermost loop, where a clamp costs every iteration. */
bool is_shift_inwards_clamp(const Min *op, const std::string &var) {
    const auto *m = op->a.as<Mul>();
    if (!m || op->type.lanes != 1 || !op->type.is_int()) return false;
    const auto *v = m->a.as<Variable>();
    std::optional<int64_t> factor = as_const_int(m->b);
    return v && v->name == var && factor && *factor > 1 && !expr_uses_var(op->b, var);
}

/** Finds the likely() hints of one loop's body, each with the range of the
 * loop variable over which its hinted value is right at every occurrence. */
class FindHints : public IRVisitor {
    const std::string &var;
    bool innermost;
    std::map<std::string, Expr> lets; // inlined values of enclosing lets
    // Lets whose inlined values are too large to walk as trees (a chain of
    // data-dependent reads, each using the one before several times): kept
    // as names, and a condition that uses one gives no hint.
    std::set<std::string> opaque_lets;
    std::vector<std::pair<std::string, Interval>> loops;

    struct Hint {
        Expr replacement;
        VarRange range;
        bool ok = true;
    };

    /** solve() of the conditions (lets inlined) met since the inner loops
     * last changed: the clamps of one coordinate recur in every access. */
    std::map<Expr, std::optional<VarRange>, ExprStructuralLess> solved;

    Expr inline_lets(const Expr &e) const { return lets.empty() ? e : substitute(lets, e); }

    /** The largest value of `e` over the inner loops, or undefined. */
    Expr max_over_inner_loops(const Expr &e) const {
        std::set<std::string> inner;
        for (const auto &l : loops) inner.insert(l.first);
        if (!expr_uses_vars(e, inner)) return e;
        Scope<Interval> scope;
        for (const auto &l : loops) scope.push(l.first, l.second);
        Expr m = bounds_of_expr_in_scope(e, scope).max;
        if (!m.defined() || expr_uses_vars(m, inner)) return Expr();
        return m;
    }

    /** A range where `e <= 0` holds for every value of the inner loops. A
     * min/max of terms is split: min(p, q) <= 0 holds where p <= 0 (the
     * operand that depends on the loop variable is preferred), max(p, q) <= 0
     * where both hold. A term free of the loop variable becomes a guard. */
    std::optional<VarRange> solve_nonpositive(const Expr &e, int depth) const {
        if (const auto *m = e.as<Min>()) {
            if (depth <= 0) return std::nullopt;
            Expr first = m->a, second = m->b;
            if (!expr_uses_var(first, var)) std::swap(first, second);
            if (auto r = solve_nonpositive(first, depth - 1)) return r;
            return solve_nonpositive(second, depth - 1);
        }
        if (const auto *m = e.as<Max>()) {
            if (depth <= 0) return std::nullopt;
            auto a = solve_nonpositive(m->a, depth - 1), b = solve_nonpositive(m->b, depth - 1);
            if (!a || !b) return std::nullopt;
            intersect(*a, *b);
            return a;
        }
        auto lin = linear_in(e, var);
        if (!lin) return std::nullopt;
        Expr rest = simplify(lin->rest);
        if (expr_uses_var(rest, var)) return std::nullopt;
        rest = max_over_inner_loops(rest);
        if (!rest.defined() || expr_uses_var(rest, var)) return std::nullopt;
        rest = as_int32(rest);
        if (lin->coeff == 0) {
            VarRange r;
            r.guard = simplify(LE::make(rest, make_zero(Int(32))));
            return r;
        }
        // coeff * var + rest <= 0
        Expr c = make_const(Int(32), lin->coeff > 0 ? lin->coeff : -lin->coeff);
        if (lin->coeff > 0) return VarRange{Expr(), div(sub(make_zero(Int(32)), rest), c), Expr()};
        return VarRange{div(add(rest, sub(c, 1)), c), Expr(), Expr()};
    }

    /** The range where `a <= b` holds for every value of the inner loops. */
    std::optional<VarRange> solve_le(const Expr &a, const Expr &b) const {
        if (!a.type().is_int() || a.type().lanes != 1 || a.type().bits > 32) return std::nullopt;
        Expr e = simplify(sub(a, b));
        if (!expr_uses_var(e, var)) return std::nullopt;
        auto r = solve_nonpositive(e, 0);
        if (r && (r->lo.defined() || r->hi.defined())) return r;
        r = solve_nonpositive(simplify(hoist_min_max(e, 8)), 6);
        if (!r || (!r->lo.defined() && !r->hi.defined())) return std::nullopt;
        return r;
    }

    /** solve_le after moving terms free of the loop variable to the other
     * side and undoing a division by a positive constant on the variable's
     * side (floor division: p / c <= k is p <= k * c + c - 1, k <= p / c is
     * k * c <= p): an upsampled read's clamp, clamp(x / 2, 0, w - 1). */
    std::optional<VarRange> solve_le_through_division(const Expr &a, const Expr &b,
                                                      int depth) const {
        if (depth <= 0) return std::nullopt;
        auto uses = [&](const Expr &e) { return expr_uses_var(e, var); };
        auto positive = [](const Expr &e) {
            std::optional<int64_t> c = as_const_int(e);
            return c && *c > 0 ? *c : int64_t(0);
        };
        auto next = [&](const Expr &x, const Expr &y) -> std::optional<VarRange> {
            if (auto r = solve_le(x, y)) return r;
            return solve_le_through_division(x, y, depth - 1);
        };
        if (uses(a) && !uses(b)) {
            if (const auto *d = a.as<Div>(); d && positive(d->b))
                return next(d->a, add(mul(b, d->b), sub(d->b, 1)));
            if (const auto *o = a.as<Add>()) {
                if (!uses(o->b)) return next(o->a, sub(b, o->b));
                if (!uses(o->a)) return next(o->b, sub(b, o->a));
            }
            if (const auto *o = a.as<Sub>()) {
                if (!uses(o->b)) return next(o->a, add(b, o->b));
                if (!uses(o->a)) return next(sub(o->a, b), o->b);
            }
        } else if (uses(b) && !uses(a)) {
            if (const auto *d = b.as<Div>(); d && positive(d->b)) return next(mul(a, d->b), d->a);
            if (const auto *o = b.as<Add>()) {
                if (!uses(o->b)) return next(sub(a, o->b), o->a);
                if (!uses(o->a)) return next(sub(a, o->a), o->b);
            }
            if (const auto *o = b.as<Sub>()) {
                if (!uses(o->b)) return next(add(a, o->b), o->a);
                if (!uses(o->a)) return next(o->b, sub(o->a, a));
            }
        }
        return std::nullopt;
    }

    std::optional<VarRange> solve_le_any(const Expr &a, const Expr &b) const {
        if (auto r = solve_le(a, b)) return r;
        return solve_le_through_division(a, b, 4);
    }

    std::optional<VarRange> solve(const Expr &cond) const {
        if (const auto *op = cond.as<And>()) {
            auto a = solve(op->a), b = solve(op->b);
            if (!a || !b) return std::nullopt;
            intersect(*a, *b);
            return a;
        }
        if (const auto *op = cond.as<LE>()) return solve_le_any(op->a, op->b);
        if (const auto *op = cond.as<GE>()) return solve_le_any(op->b, op->a);
        if (const auto *op = cond.as<LT>()) return solve_le_any(add(op->a, 1), op->b);
        if (const auto *op = cond.as<GT>()) return solve_le_any(add(op->b, 1), op->a);
        if (const auto *op = cond.as<Not>()) {
            if (const auto *o = op->a.as<Or>())
                return solve(And::make(Not::make(o->a), Not::make(o->b)));
            if (const auto *n = op->a.as<Not>()) return solve(n->a);
            if (const auto *c = op->a.as<LT>()) return solve_le_any(c->b, c->a);
            if (const auto *c = op->a.as<LE>()) return solve_le_any(add(c->b, 1), c->a);
            if (const auto *c = op->a.as<GT>()) return solve_le_any(c->a, c->b);
            if (const auto *c = op->a.as<GE>()) return solve_le_any(add(c->a, 1), c->b);
        }
        return std::nullopt;
    }

    /** Whether a clamp in the body of a loop with loops inside changes with
     * those inner loops. One that does not (a row's clamped y read in every
     * pixel of the row) is hoisted out of them by LLVM and costs once per
     * iteration of this loop: partitioning this loop for it would copy the
     * inner loops (and their own partitions) for no speed. */
    bool costs_every_inner_iteration(const Expr &clamp) const {
        if (innermost) return true;
        if (loops.empty()) return false;
        std::set<std::string> inner(opaque_lets);
        for (const auto &l : loops) inner.insert(l.first);
        return expr_uses_vars(inline_lets(clamp), inner);
    }

    void record(const IRNode *node, const Expr &replacement, const std::vector<Expr> &conds) {
        auto [it, added] = hints.try_emplace(node);
        if (added) order.push_back(node);
        Hint &h = it->second;
        h.replacement = replacement;
        if (!h.ok) return;
        VarRange range;
        for (const Expr &c : conds) {
            Expr inlined = inline_lets(c);
            // A condition free of the loop variable solves to nothing (every
            // branch of solve() needs the variable): no simplifying to learn
            // that, for each clamp of an inner loop's coordinate.
            if (!expr_uses_var(inlined, var) ||
                (!opaque_lets.empty() && expr_uses_vars(inlined, opaque_lets))) {
                h.ok = false;
                return;
            }
            std::optional<VarRange> r;
            auto known = solved.find(inlined);
            if (known != solved.end()) {
                r = known->second;
            } else {
                r = solve(simplify(StripLikely().mutate(inlined)));
                solved.emplace(inlined, r);
            }
            if (!r) {
                h.ok = false;
                return;
            }
            intersect(range, *r);
        }
        intersect(h.range, range);
    }

protected:
    using IRVisitor::visit;
    void visit(const Call *op) override {
        // likely_if_innermost() hints count only for an innermost loop.
        bool hint = op->is_intrinsic(Intrinsic::likely) ||
                    (innermost && op->is_intrinsic(Intrinsic::likely_if_innermost));
        if (hint && op->type.is_bool() && op->type.lanes == 1) {
            record(op, const_true(), {op->args[0]});
        }
        IRVisitor::visit(op);
    }
    void visit(const Min *op) override {
        if (is_tagged(op) && op->type.lanes == 1 && costs_every_inner_iteration(op)) {
            std::vector<Expr> conds;
            Expr v = steady_value(op, conds);
            record(op, v, conds);
        } else if (innermost && is_shift_inwards_clamp(op, var)) {
            record(op, op->a, {LE::make(op->a, op->b)});
        }
        IRVisitor::visit(op);
    }
    void visit(const Max *op) override {
        if (is_tagged(op) && op->type.lanes == 1 && costs_every_inner_iteration(op)) {
            std::vector<Expr> conds;
            Expr v = steady_value(op, conds);
            record(op, v, conds);
        }
        IRVisitor::visit(op);
    }
    void visit(const LetStmt *op) override {
        op->value.accept(this);
        bind_let(op->name, op->value, [&] { op->body.accept(this); });
    }
    void visit(const Let *op) override {
        op->value.accept(this);
        bind_let(op->name, op->value, [&] { op->body.accept(this); });
    }
    void visit(const For *op) override {
        op->min.accept(this);
        op->extent.accept(this);
        Expr lo = simplify(inline_lets(op->min));
        Expr hi = simplify(inline_lets(sub(add(op->min, op->extent), 1)));
        // A let of the same name no longer applies inside the loop.
        auto saved = lets.find(op->name);
        std::optional<Expr> shadowed;
        if (saved != lets.end()) {
            shadowed = saved->second;
            lets.erase(saved);
        }
        loops.emplace_back(op->name, Interval(lo, hi));
        solved.clear();
        op->body.accept(this);
        loops.pop_back();
        solved.clear();
        if (shadowed) lets[op->name] = *shadowed;
    }

    template <typename F> void bind_let(const std::string &name, const Expr &value, F body) {
        Expr inlined = inline_lets(value);
        auto it = lets.find(name);
        std::optional<Expr> old;
        if (it != lets.end()) old = it->second;
        bool was_opaque = opaque_lets.count(name) > 0;
        if (tree_size(inlined) > max_inlined_let_nodes) {
            // Removed from `lets` so that inline_lets leaves the name itself.
            lets.erase(name);
            opaque_lets.insert(name);
        } else {
            lets[name] = inlined;
            opaque_lets.erase(name);
        }
        body();
        if (old) {
            lets[name] = *old;
        } else {
            lets.erase(name);
        }
        if (was_opaque) {
            opaque_lets.insert(name);
        } else {
            opaque_lets.erase(name);
        }
    }

public:
    std::map<const IRNode *, Hint> hints;
    /** The hinted nodes in the order they were met: the steady range is
     * built in that order (not by address), so the lowered code does not
     * change from run to run. */
    std::vector<const IRNode *> order;
    FindHints(const std::string &v, bool innermost_loop) : var(v), innermost(innermost_loop) {}
};

/** Replaces the hinted nodes by their steady-state values. */
class ApplyHints : public IRMutator {
    const std::map<const IRNode *, Expr> &replacements;

public:
    explicit ApplyHints(const std::map<const IRNode *, Expr> &r) : replacements(r) {}
    using IRMutator::mutate;
    Expr mutate(const Expr &e) override {
        auto it = replacements.find(e.get());
        if (it != replacements.end()) return mutate(it->second);
        return IRMutator::mutate(e);
    }
};

/** Removes likely_if_innermost() hints (after partitioning). */
class StripLikelyIfInnermost : public IRMutator {
protected:
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        if (op->is_intrinsic(Intrinsic::likely_if_innermost)) return mutate(op->args[0]);
        return IRMutator::visit(op);
    }
};

class PartitionLoops : public IRMutator {
    // Values of the enclosing LetStmts, with the lets around them inlined
    // (the small ones only).
    std::map<std::string, Expr> lets;

    /** Is the loop's extent 1, once the lets around it are known? (A Func
     * computed per channel of its consumer: bounds lets make c.min and c.max
     * the same value.) Partitioning it would only copy its body. */
    bool runs_once(const For *op) const {
        Expr extent = lets.empty() ? op->extent : substitute(lets, op->extent);
        return is_const_one(simplify(extent));
    }

protected:
    using IRMutator::visit;
    Stmt visit(const LetStmt *op) override {
        Expr value = lets.empty() ? op->value : substitute(lets, op->value);
        auto saved = lets.find(op->name);
        std::optional<Expr> shadowed;
        if (saved != lets.end()) shadowed = saved->second;
        if (tree_size(value) <= max_inlined_let_nodes) {
            lets[op->name] = value;
        } else {
            lets.erase(op->name);
        }
        Stmt result = IRMutator::visit(op);
        if (shadowed) {
            lets[op->name] = *shadowed;
        } else {
            lets.erase(op->name);
        }
        return result;
    }
    Stmt visit(const For *op) override {
        // Inside the loop its name is the loop variable, not a let of that name.
        auto outer = lets.find(op->name);
        std::optional<Expr> hidden;
        if (outer != lets.end()) {
            hidden = outer->second;
            lets.erase(outer);
        }
        Stmt result = partition(op);
        if (hidden) lets[op->name] = *hidden;
        return result;
    }

    /** Inside a prologue or epilogue: only innermost loops partition. */
    bool in_edge_copy = false;

    /** A body for the prologue or epilogue of a partitioned loop: its
     * hints stripped, its innermost loops partitioned. */
    Stmt edge_copy(const Stmt &body, bool innermost) {
        if (innermost || in_edge_copy) return StripLikely().mutate(body);
        in_edge_copy = true;
        Stmt partitioned = mutate(body);
        in_edge_copy = false;
        return StripLikely().mutate(partitioned);
    }

    Stmt partition(const For *op) {
        // Parallel loops are left whole: their tasks are outlined by loop name,
        // and an edge condition there is loop-invariant in the inner loops.
        bool innermost = !has_inner_loop(op->body);
        if (op->for_type != ForType::Serial || runs_once(op) || (in_edge_copy && !innermost)) {
            return IRMutator::visit(op);
        }
        FindHints finder(op->name, innermost);
        op->body.accept(&finder);
        std::map<const IRNode *, Expr> replacements;
        VarRange steady;
        for (const IRNode *node : finder.order) {
            const auto &hint = finder.hints.at(node);
            if (!hint.ok) continue;
            replacements[node] = hint.replacement;
            intersect(steady, hint.range);
        }
        if (replacements.empty()) return IRMutator::visit(op);

        // The prologue and epilogue partition only their innermost loops:
        // they may run most iterations (a search window's offsets, of which
        // only the middle one keeps a whole row inside the image), and a
        // vectorized tail guard left in an innermost loop masks every vector
        // load and store (slow on AMD Zen); partitioning every level there
        // would multiply the code (and the JIT's compile time) for no gain.
        Stmt body = edge_copy(op->body, innermost);
        Stmt steady_body = mutate(simplify(ApplyHints(replacements).mutate(op->body)));

        std::string base = unique_name(op->name);
        Expr loop_min = int_var(base + ".loop_min"), loop_end = int_var(base + ".loop_end");
        Expr steady_min = int_var(base + ".steady_min"), steady_end = int_var(base + ".steady_end");
        if (steady.guard.defined() && !steady.hi.defined()) steady.hi = sub(loop_end, 1);
        Expr lo = steady.lo.defined() ? min(max(steady.lo, loop_min), loop_end) : loop_min;
        Expr hi =
            steady.hi.defined() ? min(max(add(steady.hi, 1), steady_min), loop_end) : loop_end;
        // A failed guard leaves the steady state empty.
        if (steady.guard.defined()) hi = Select::make(steady.guard, hi, steady_min);
        auto loop = [&](const Expr &from, const Expr &to, const Stmt &b) {
            return For::make(op->name, from, sub(to, from), op->for_type, op->device_api, b);
        };
        std::vector<Stmt> parts;
        if (steady.lo.defined()) parts.push_back(loop(loop_min, steady_min, body));
        parts.push_back(loop(steady_min, steady_end, steady_body));
        if (steady.hi.defined()) {
            // Its own copy: partitioned inner loops name their bounds uniquely.
            Stmt epilogue = steady.lo.defined() ? edge_copy(op->body, innermost) : body;
            parts.push_back(loop(steady_end, loop_end, epilogue));
        }
        Stmt s = Block::make(parts);
        s = LetStmt::make(base + ".steady_end", simplify(hi), s);
        s = LetStmt::make(base + ".steady_min", simplify(lo), s);
        s = LetStmt::make(base + ".loop_end", add(op->min, op->extent), s);
        return LetStmt::make(base + ".loop_min", op->min, s);
    }
};

} // namespace

Stmt partition_loops(const Stmt &s) {
    return StripLikelyIfInnermost().mutate(PartitionLoops().mutate(s));
}

Expr strip_likely(const Expr &e) {
    return StripLikely().mutate(e);
}

Stmt strip_likely(const Stmt &s) {
    return StripLikely().mutate(s);
}

} // namespace Internal
} // namespace loom
