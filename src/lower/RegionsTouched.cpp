#include "lower/RegionsTouched.h"

#include <functional>
#include <optional>
#include <set>
#include <vector>

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

/** A mutator that knows the names bound by the Let expressions around the
 * node it visits: a part using one of them cannot be taken out of its Let
 * (bounds of loop nests carry their shared ends as lets, see Bounds.cpp). */
class LetScopedMutator : public IRMutator {
protected:
    std::multiset<std::string> let_bound;

    using IRMutator::visit;
    Expr visit(const Let *op) override {
        Expr value = mutate(op->value);
        auto it = let_bound.insert(op->name);
        Expr body = mutate(op->body);
        let_bound.erase(it);
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return Let::make(op->name, value, body);
    }

public:
    bool uses_let_bound(const Expr &e) const {
        return !let_bound.empty() &&
               expr_uses_vars(e, std::set<std::string>(let_bound.begin(), let_bound.end()));
    }
};

/** Let variables are substituted rather than bounded one by one: the bounds
 * of a loop nest are lets of lets ("f.s0.y.min" = consumer's y - 1, ...), and
 * only substitution keeps max - min + 1 of a producer's loop from growing
 * with the range of the consumer's loops it depends on. */
class RegionsTouched : public IRVisitor {
    bool writes;
    Scope<Interval> loops;
    std::map<std::string, Expr> lets;     // values as written, expanded on use
    std::vector<std::string> fused_parts; // lets of the form fused % e + m, fused / e + m
    std::string recording;                // the Func whose region record() is bounding
    const Stmt &root;                     // the statement searched
    const RegionQuery &query;
    int touches = 0;
    bool done = false; // every touch the query expects has been seen

    /** The Funcs produced in the searched statement, found when first needed
     * (a coordinate that reads a Func): most searches never need them. */
    mutable std::optional<std::set<std::string>> produced;
    bool produced_inside(const std::string &name) const {
        if (!produced) {
            produced.emplace();
            visit_all(root, [&](const IRNode *node) {
                if (node->node_type != IRNodeType::ProducerConsumer) return;
                const auto *pc = static_cast<const ProducerConsumer *>(node);
                if (pc->is_producer) produced->insert(pc->name);
            });
        }
        return produced->count(name) > 0;
    }

    /** Binds (or hides, with an undefined value) a name for one body. */
    class ScopedLet {
        std::map<std::string, Expr> &lets;
        std::string name;
        std::optional<Expr> old;

    public:
        ScopedLet(std::map<std::string, Expr> &l, const std::string &n, const Expr &value)
            : lets(l), name(n) {
            auto it = lets.find(n);
            if (it != lets.end()) old = it->second;
            if (value.defined()) {
                lets[n] = value;
            } else {
                lets.erase(n);
            }
        }
        ~ScopedLet() {
            if (old) {
                lets[name] = *old;
            } else {
                lets.erase(name);
            }
        }
    };

    /** e with every let in scope substituted, through chains of lets. Done
     * on use, so that a guard that narrows one let reaches those built on it. */
    Expr expand(const Expr &e) const {
        Expr result = e;
        bool any_outer = query.outer_lets && !query.outer_lets->empty();
        for (int depth = 0; depth < 256 && (!lets.empty() || any_outer); depth++) {
            Expr next = lets.empty() ? result : substitute(lets, result);
            if (any_outer) next = substitute_outer_lets(next);
            if (next.same_as(result)) break;
            result = next;
        }
        return result;
    }

    /** e with the lets of the loops around the searched statement
     * substituted (those the statement's own lets do not hide). Looked up,
     * not copied: a chain of N root Funcs has N such lets at its root, and
     * copying them for each of the N searches cost N^2. */
    Expr substitute_outer_lets(const Expr &e) const {
        class Substituter : public IRMutator {
        public:
            Substituter(const std::map<std::string, Expr> &outer,
                        const std::map<std::string, Expr> &inner)
                : outer(outer), inner(inner) {}
            using IRMutator::visit;
            Expr visit(const Variable *op) override {
                if (inner.count(op->name) || shadowed.count(op->name)) return op;
                auto it = outer.find(op->name);
                return it == outer.end() ? Expr(op) : it->second;
            }
            Expr visit(const Let *op) override {
                Expr value = mutate(op->value);
                bool added = shadowed.insert(op->name).second;
                Expr body = mutate(op->body);
                if (added) shadowed.erase(op->name);
                if (value.same_as(op->value) && body.same_as(op->body)) return op;
                return Let::make(op->name, value, body);
            }

        private:
            const std::map<std::string, Expr> &outer, &inner;
            std::set<std::string> shadowed;
        } substituter(*query.outer_lets, lets);
        return substituter.mutate(e);
    }

    /** Bounds over the loops in scope; an expression of none of them is its
     * own bound (interval arithmetic gives up on e.g. symbolic divisors),
     * unless it reads a Func whose values do not exist yet where the region
     * is needed: the Func whose region is being recorded (f(x, f(x, y)) with
     * f computed at the innermost loop) or one produced inside the visited
     * statement. Such a read counts as unknown (a clamp still bounds it). */
    Interval bounds(const Expr &e) const {
        // The reads of a stencil bound the same coordinates again and again.
        auto &memo = bounds_memo[recording];
        auto known = memo.find(e);
        if (known != memo.end()) return known->second;
        Interval b = bounds_uncached(e);
        memo.emplace(e, b);
        return b;
    }

    /** bounds() of the expressions met since the loops in scope last
     * changed, by the Func being recorded (depends_on_loops looks at it). */
    mutable std::map<std::string, std::map<Expr, Interval, ExprStructuralLess>> bounds_memo;

    /** Binds a loop's range for one scope (forgetting the memo of bounds). */
    class LoopBinding {
        RegionsTouched &t;
        std::string name;

    public:
        LoopBinding(RegionsTouched &touched, const std::string &n, const Interval &range)
            : t(touched), name(n) {
            t.loops.push(name, range);
            t.bounds_memo.clear();
        }
        ~LoopBinding() {
            t.loops.pop(name);
            t.bounds_memo.clear();
        }
        LoopBinding(const LoopBinding &) = delete;
        LoopBinding &operator=(const LoopBinding &) = delete;
    };

    Interval bounds_uncached(const Expr &e) const {
        Expr s = simplify(e);
        if (!depends_on_loops(s)) return Interval(s, s);
        Interval b = bounds_of_simplified(s);
        // Interval arithmetic takes each occurrence of a term apart: in
        // x.min + min(2 * x.x, x.max - x.min - 1) (a ShiftInwards split of
        // a region whose ends vary with an outer loop) the two x.min do not
        // cancel, and the region comes out wider than the loop's. With the
        // sum moved into the min, the simplifier cancels them first; each
        // end of that form is used where it is provably no looser.
        if (!s.type().is_int()) return b;
        Expr d = distribute_sums_into_min_max(s);
        constexpr int limit = 4 * large_range_nodes;
        if (d.same_as(s) || count_nodes(d, limit) > limit) return b;
        Expr ds = simplify(d);
        if (!depends_on_loops(ds)) return Interval(ds, ds);
        Interval bd = bounds_of_simplified(ds);
        auto no_looser = [](const Expr &candidate, const Expr &current, bool lower) {
            if (!candidate.defined()) return false;
            if (!current.defined()) return true;
            return can_prove(lower ? GE::make(candidate, current) : LE::make(candidate, current));
        };
        if (no_looser(bd.min, b.min, true)) b.min = bd.min;
        if (no_looser(bd.max, b.max, false)) b.max = bd.max;
        return b;
    }

    /** A sum with a min (or max) among its terms, as the min of the sums
     * of each of its operands with the other terms, where a term and its
     * negation cancel (see bounds); nested sums alike, four levels deep at
     * most (each level copies the other terms). */
    static Expr distribute_sums_into_min_max(const Expr &e, int depth = 0) {
        if (depth >= 4) return e;
        std::vector<std::pair<Expr, bool>> terms; // (term, negated)
        add_terms(e, false, terms);
        size_t pick = terms.size();
        for (size_t i = 0; i < terms.size() && pick == terms.size(); i++)
            if (!terms[i].second && (terms[i].first.as<Min>() || terms[i].first.as<Max>()))
                pick = i;
        if (pick == terms.size() || terms.size() < 2) return e;
        auto arm = [&](const Expr &operand) {
            std::vector<std::pair<Expr, bool>> sum;
            add_terms(operand, false, sum);
            for (size_t i = 0; i < terms.size(); i++)
                if (i != pick) sum.push_back(terms[i]);
            // A term and its negation cancel.
            for (size_t i = 0; i < sum.size(); i++) {
                for (size_t j = i + 1; j < sum.size(); j++) {
                    if (sum[i].second != sum[j].second && equal(sum[i].first, sum[j].first)) {
                        sum.erase(sum.begin() + long(j));
                        sum.erase(sum.begin() + long(i));
                        i--;
                        break;
                    }
                }
            }
            Expr total = make_zero(e.type());
            for (const auto &[t, negated] : sum)
                total = negated ? Expr(Sub::make(total, t)) : Expr(Add::make(total, t));
            return distribute_sums_into_min_max(total, depth + 1);
        };
        const Expr &m = terms[pick].first;
        if (const auto *mn = m.as<Min>()) return Min::make(arm(mn->a), arm(mn->b));
        const auto *mx = m.as<Max>();
        return Max::make(arm(mx->a), arm(mx->b));
    }

    static void add_terms(const Expr &e, bool negated, std::vector<std::pair<Expr, bool>> &terms) {
        if (const auto *a = e.as<Add>()) {
            add_terms(a->a, negated, terms);
            add_terms(a->b, negated, terms);
        } else if (const auto *s = e.as<Sub>()) {
            add_terms(s->a, negated, terms);
            add_terms(s->b, !negated, terms);
        } else {
            terms.emplace_back(e, negated);
        }
    }

    Interval bounds_of_simplified(const Expr &s) const {
        // Hiding first: interval arithmetic would widen such a % b to [0, |b| - 1].
        Interval b = bounds_hiding_invariant_divisions(s);
        if (b.is_bounded()) return b;
        b = bounds_of_expr_in_scope(s, loops);
        if (b.is_bounded()) return b;
        return bounds_with_symbolic_divisors(s);
    }

    /** a / b and a % b that depend on no loop in scope are single values
     * (a fused loop's parts, fixed by the enclosing loops, at a compute
     * level inside them): they become opaque variables for the interval
     * arithmetic and are put back in its result. */
    Interval bounds_hiding_invariant_divisions(const Expr &e) const {
        std::map<std::string, Expr> hidden;
        class Hider : public LetScopedMutator {
        public:
            std::function<Expr(const Expr &)> on_div;
            using IRMutator::visit;
            Expr visit(const Div *op) override { return on_div(IRMutator::visit(op)); }
            Expr visit(const Mod *op) override { return on_div(IRMutator::visit(op)); }
        } hider;
        hider.on_div = [&](const Expr &node) -> Expr {
            if (node.type() != Int(32) || depends_on_loops(node) || hider.uses_let_bound(node))
                return node;
            std::string name = "bounds.invariant." + std::to_string(hidden.size());
            hidden[name] = substitute(hidden, node); // it may hold hidden parts itself
            return Variable::make(Int(32), name);
        };
        Expr replaced = hider.mutate(e);
        if (hidden.empty()) return Interval();
        Interval b = bounds_of_expr_in_scope(replaced, loops);
        if (!b.is_bounded()) return Interval();
        return Interval(substitute(hidden, b.min), substitute(hidden, b.max));
    }

    /** Does e vary over the loops in scope, or read a Func not computed
     * yet where the region is needed (then its value is not known either,
     * and must not be hidden as a fixed value)? */
    bool depends_on_loops(const Expr &e) const {
        bool ranged = false;
        visit_all(e, [&](const IRNode *node) {
            if (ranged) return;
            if (node->node_type == IRNodeType::Call) {
                const auto *call = static_cast<const Call *>(node);
                ranged = call->call_type == Call::Loom &&
                         (call->name == recording || produced_inside(call->name));
                return;
            }
            if (node->node_type != IRNodeType::Variable) return;
            ranged = loops.contains(static_cast<const Variable *>(node)->name);
        });
        return ranged;
    }

    /** Interval arithmetic gives up on a / b and a % b with a symbolic b,
     * common in fused loops (fused / extent). For b fixed over the loops,
     * a / b is monotonic in a (either way, by the sign of b), so its extremes
     * are at a's; a % b lies in [0, |b| - 1]. Each such node becomes a
     * variable over that range. */
    Interval bounds_with_symbolic_divisors(const Expr &e) const {
        Scope<Interval> scope;
        scope.set_containing_scope(&loops);
        int counter = 0;
        class Replacer : public LetScopedMutator {
        public:
            std::function<Expr(const Expr &, bool)> on_div;
            using IRMutator::visit;
            Expr visit(const Div *op) override {
                Expr a = mutate(op->a);
                return on_div(Div::make(a, op->b), true);
            }
            Expr visit(const Mod *op) override {
                Expr a = mutate(op->a);
                return on_div(Mod::make(a, op->b), false);
            }
        } replacer;
        replacer.on_div = [&](const Expr &node, bool is_div) -> Expr {
            Expr a = is_div ? node.as<Div>()->a : node.as<Mod>()->a;
            Expr b = is_div ? node.as<Div>()->b : node.as<Mod>()->b;
            if (node.type() != Int(32) || depends_on_loops(b) || !depends_on_loops(a) ||
                replacer.uses_let_bound(node)) {
                return node;
            }
            Interval ai = bounds_of_expr_in_scope(a, scope);
            Interval r;
            if (is_div) {
                if (!ai.is_bounded()) return node;
                r = Interval(min(div(ai.min, b), div(ai.max, b)),
                             max(div(ai.min, b), div(ai.max, b)));
            } else {
                r = Interval(make_zero(Int(32)),
                             max(sub(max(b, sub(make_zero(Int(32)), b)), 1), make_zero(Int(32))));
            }
            std::string name = "bounds.divided." + std::to_string(counter++);
            scope.push(name, r);
            return Variable::make(Int(32), name);
        };
        Expr replaced = replacer.mutate(e);
        return bounds_of_expr_in_scope(replaced, scope);
    }

    /** Bounds of a coordinate; where fused / extent or fused % extent makes
     * them unbounded, again with the parts of fused loops as variables over
     * their ranges (taken here, inside any guard on the fused variable). */
    Interval coordinate_bounds(const Expr &arg) {
        Interval b = bounds(expand(arg));
        if (b.is_bounded() || fused_parts.empty()) return b;
        std::map<std::string, Expr> saved = lets;
        std::vector<std::pair<std::string, Interval>> ranges;
        for (const std::string &name : fused_parts) {
            auto it = lets.find(name);
            if (it == lets.end()) continue;
            Interval r = fused_part_range(it->second);
            if (r.is_bounded()) ranges.emplace_back(name, r);
        }
        {
            std::vector<std::optional<LoopBinding>> parts(ranges.size());
            for (size_t i = 0; i < ranges.size(); i++) {
                lets.erase(ranges[i].first);
                parts[i].emplace(*this, ranges[i].first, ranges[i].second);
            }
            b = bounds(expand(arg));
        }
        lets = saved;
        return b;
    }

    /** A large end of a loop's range becomes a variable (defined in
     * range_lets): ranges of inner loops and coordinates use each end of an
     * outer range several times (the corners of a product or a quotient),
     * so ranges written out in full double in size with each loop of a
     * nest whose extents depend on the loops around it (fused loops of Funcs
     * computed inside each other). Small ends stay written out, so that the
     * simplifier can still cancel terms between them. */
    Expr name_if_large(const std::string &name, const Expr &end) {
        if (count_nodes(end, large_range_nodes) <= large_range_nodes) return end;
        range_lets.emplace_back(name, end);
        return Variable::make(end.type(), name);
    }

    /** A let whose value is large once the lets it uses are substituted
     * (bounds lets that name their consumers' bounds, BoundsInference.cpp)
     * stands for a variable, so that lets of lets of lets are not written
     * out in full at each use: a single value (bound by range_lets), or,
     * when it varies over the loops in scope, a variable over its range
     * (in `ranged`). Returns what the let's name stands for. */
    Expr name_large_let(const std::string &name, const Expr &value,
                        std::optional<LoopBinding> &ranged) {
        Expr expanded = expand(value);
        if (count_nodes(expanded, large_range_nodes) <= large_range_nodes) return value;
        bool reads_funcs = false;
        visit_all(expanded, [&](const IRNode *node) {
            if (node->node_type != IRNodeType::Call) return;
            auto type = static_cast<const Call *>(node)->call_type;
            reads_funcs = reads_funcs || type == Call::Loom || type == Call::Image;
        });
        bool fixed = !depends_on_loops(expanded);
        // A fixed value that reads Funcs is known only once they are computed:
        // its reads count where it is used. One that varies is a range, and
        // the range of a read is its type's either way.
        if (reads_funcs && fixed) return value;
        std::string var = unique_name(name + ".value");
        if (fixed) {
            range_lets.emplace_back(var, simplify(expanded));
            return Variable::make(value.type(), var);
        }
        Interval b = bounds(expanded), range;
        if (b.has_lower_bound()) range.min = name_if_large(var + ".min", b.min);
        if (b.has_upper_bound()) range.max = name_if_large(var + ".max", b.max);
        ranged.emplace(*this, var, range);
        return Variable::make(value.type(), var);
    }

    void record(const std::string &name, const std::vector<Expr> &args) {
        if (!query.names.empty()) {
            if (!query.names.count(name)) return;
            done = ++touches == query.expected_touches;
        }
        Box box(args.size());
        recording = name;
        for (size_t i = 0; i < args.size(); i++) box[i] = coordinate_bounds(args[i]);
        recording.clear();
        auto it = regions.find(name);
        if (it == regions.end()) {
            regions.emplace(name, box);
        } else if (it->second.size() == box.size()) {
            it->second = box_union(it->second, box);
        }
    }

    /** The range of a part of a fused loop, written by the loop builder as
     * fused % extent + min or fused / extent + min, where extent >= 1. */
    Interval fused_part_range(const Expr &value) const {
        const auto *add_op = value.as<Add>();
        if (!add_op) return Interval();
        Expr m = expand(add_op->b);
        if (const auto *mod_op = add_op->a.as<Mod>()) {
            Expr e = expand(mod_op->b);
            return Interval(bounds(m).min, bounds(sub(add(m, e), 1)).max);
        }
        if (const auto *capped = add_op->a.as<Min>(); capped && capped->a.as<Div>()) {
            // min(fused / extent, outer extent - 1): the quotient's range, capped.
            Interval q = fused_part_range(Add::make(capped->a, add_op->b));
            Interval cap = bounds(add(expand(capped->b), m));
            if (!q.is_bounded() || !cap.has_upper_bound()) return q;
            return Interval(q.min, simplify(Min::make(q.max, cap.max)));
        }
        if (const auto *div_op = add_op->a.as<Div>()) {
            // Division by a positive divisor is monotonic in both operands
            // for a fixed other one: the extremes are at the corners.
            Interval ei = bounds(expand(div_op->b)), mi = bounds(m), fi = bounds(expand(div_op->a));
            if (!ei.is_bounded() || !mi.is_bounded() || !fi.is_bounded()) return Interval();
            Expr lo = min(div(fi.min, ei.min), div(fi.min, ei.max));
            Expr hi = max(div(fi.max, ei.min), div(fi.max, ei.max));
            return Interval(simplify(add(lo, mi.min)), simplify(add(hi, mi.max)));
        }
        return Interval();
    }

protected:
    using IRVisitor::visit;

    void visit(const Block *op) override {
        op->first.accept(this);
        if (!done) op->rest.accept(this);
    }

    void visit(const ProducerConsumer *op) override {
        if (done) return;
        if (op->is_producer && query.production_touches && !query.production_touches(op->name))
            return;
        op->body.accept(this);
    }

    void visit(const For *op) override {
        if (done) return;
        op->min.accept(this);
        op->extent.accept(this);
        Expr lo = simplify(expand(op->min));
        Expr hi = sub(add(lo, expand(op->extent)), 1);
        Interval range;
        Interval lo_bounds = bounds(lo), hi_bounds = bounds(hi);
        if (lo_bounds.has_lower_bound())
            range.min = name_if_large(op->name + ".range.min", lo_bounds.min);
        if (hi_bounds.has_upper_bound())
            range.max = name_if_large(op->name + ".range.max", hi_bounds.max);
        ScopedLet hide(lets, op->name, Expr());
        LoopBinding bind(*this, op->name, range);
        op->body.accept(this);
    }

    void visit(const LetStmt *op) override {
        if (done) return;
        op->value.accept(this);
        const auto *add_op = op->value.as<Add>();
        const auto *capped = add_op ? add_op->a.as<Min>() : nullptr;
        bool part = add_op &&
                    (add_op->a.as<Mod>() || add_op->a.as<Div>() || (capped && capped->a.as<Div>()));
        std::optional<LoopBinding> ranged;
        Expr value = part ? op->value : name_large_let(op->name, op->value, ranged);
        ScopedLet bind(lets, op->name, value);
        if (part) fused_parts.push_back(op->name);
        op->body.accept(this);
        if (part) fused_parts.pop_back();
    }

    void visit(const Let *op) override {
        op->value.accept(this);
        std::optional<LoopBinding> ranged;
        ScopedLet bind(lets, op->name, name_large_let(op->name, op->value, ranged));
        op->body.accept(this);
    }

    void visit(const IfThenElse *op) override {
        if (done) return;
        op->condition.accept(this);
        const auto *le = unwrap_likely(op->condition).as<LE>();
        const auto *v = le ? le->a.as<Variable>() : nullptr;
        if (v && lets.count(v->name)) {
            // Inside a split's guard the split variable stays within its bound.
            ScopedLet narrow(lets, v->name, min(lets.at(v->name), le->b));
            op->then_case.accept(this);
        } else if (v && loops.contains(v->name)) {
            Interval narrowed = loops.get(v->name);
            Expr bound = bounds(expand(le->b)).max;
            if (bound.defined())
                narrowed.max = narrowed.max.defined() ? min(narrowed.max, bound) : bound;
            LoopBinding bind(*this, v->name, narrowed);
            op->then_case.accept(this);
        } else {
            op->then_case.accept(this);
        }
        if (op->else_case.defined()) op->else_case.accept(this);
    }

    void visit(const Provide *op) override {
        IRVisitor::visit(op);
        if (writes) record(op->name, op->args);
    }

    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (!writes && (op->call_type == Call::Loom || op->call_type == Call::Image)) {
            record(op->name, op->args);
        }
    }

public:
    /** Ends of loop ranges named by name_if_large, outermost loop first;
     * each value may use the names before it. */
    static constexpr int large_range_nodes = 400;
    std::vector<std::pair<std::string, Expr>> range_lets;
    std::map<std::string, Box> regions;
    RegionsTouched(bool w, const Stmt &s, const RegionQuery &q) : writes(w), root(s), query(q) {}
};

std::map<std::string, Box> touched(const Stmt &s, bool writes, const RegionQuery &query) {
    // Nothing to find (an output no stage reads back): no walk.
    if (query.expected_touches == 0) return {};
    RegionsTouched visitor(writes, s, query);
    s.accept(&visitor);
    // A region end that uses named loop ranges carries their definitions as
    // lets, so its size stays the sum of the ranges' sizes.
    auto with_range_lets = [&](const Expr &e) {
        return simplify(bind_named_values(e, visitor.range_lets));
    };
    for (auto &[name, box] : visitor.regions) {
        for (Interval &i : box.bounds) {
            if (i.has_lower_bound()) i.min = with_range_lets(simplify(i.min));
            if (i.has_upper_bound()) i.max = with_range_lets(simplify(i.max));
        }
    }
    return visitor.regions;
}

} // namespace

std::map<std::string, Box> regions_read(const Stmt &s, const RegionQuery &query) {
    return touched(s, false, query);
}
std::map<std::string, Box> regions_written(const Stmt &s, const RegionQuery &query) {
    return touched(s, true, query);
}

} // namespace Internal
} // namespace loom
