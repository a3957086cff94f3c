#include "lower/StorageFolding.h"

#include <map>
#include <optional>
#include <unordered_set>
#include <vector>

#include "analysis/Bounds.h"
#include "analysis/Simplify.h"
#include "ir/Error.h"
#include "ir/IREquality.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"
#include "ir/IRVisitor.h"
#include "ir/Substitute.h"
#include "lower/TouchIndex.h"

namespace loom {
namespace Internal {

namespace {

int count_accesses(const Stmt &s, const std::string &func) {
    int n = 0;
    visit_all(s, [&](const IRNode *node) {
        if (node->node_type == IRNodeType::Provide) {
            n += static_cast<const Provide *>(node)->name == func;
        } else if (node->node_type == IRNodeType::Call) {
            const auto *c = static_cast<const Call *>(node);
            n += c->call_type == Call::Loom && c->name == func;
        }
    });
    return n;
}

/** The Lets, LetStmts and Fors whose bodies read or write one Func, and
 * the names whose bounds the Func's coordinates depend on: those the
 * coordinates and the loops around them use, and the values of those
 * that are lets (collected inside out, so one walk finds them all). */
class AccessHolders : public IRVisitor {
    const std::string &func;
    int count = 0;

    void need_vars_of(const Expr &e) {
        visit_all(e, [&](const IRNode *n) {
            if (n->node_type == IRNodeType::Variable)
                needed.insert(static_cast<const Variable *>(n)->name);
        });
    }
    void need_args(const std::vector<Expr> &args) {
        for (const Expr &a : args) need_vars_of(a);
    }

    template <typename LetOrLetStmt> void visit_let(const LetOrLetStmt *op) {
        op->value.accept(this);
        int before = count;
        op->body.accept(this);
        if (count > before) {
            holders.insert(op);
            if (needed.count(op->name)) need_vars_of(op->value);
        }
    }

protected:
    using IRVisitor::visit;
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type == Call::Loom && op->name == func) {
            count++;
            need_args(op->args);
        }
    }
    void visit(const Provide *op) override {
        IRVisitor::visit(op);
        if (op->name == func) {
            count++;
            need_args(op->args);
        }
    }
    void visit(const LetStmt *op) override { visit_let(op); }
    void visit(const Let *op) override { visit_let(op); }
    void visit(const For *op) override {
        int before = count;
        IRVisitor::visit(op);
        if (count > before) {
            holders.insert(op);
            if (needed.count(op->name)) {
                need_vars_of(op->min);
                need_vars_of(op->extent);
            }
        }
    }

public:
    std::unordered_set<const IRNode *> holders;
    std::unordered_set<std::string> needed;
    explicit AccessHolders(const std::string &f) : func(f) {}
};

/** The box of one Func that code reads or writes (or, with `only`, just
 * reads or just writes). Loop ends are simplified before taking bounds, so
 * "min + (max - min + 1) - 1" counts as max. Only the lets and loops the
 * coordinates depend on are bounded (bounding every let of a strip's code
 * was most of this pass's time in harris). */
class Footprint : public IRVisitor {
public:
    enum Accesses { ReadsAndWrites, Reads, Writes };

private:
    const std::string &func;
    Accesses only;
    Scope<Interval> scope;
    AccessHolders holders;

    void include_args(const std::vector<Expr> &args) {
        Box b(args.size());
        for (size_t i = 0; i < args.size(); i++) b[i] = bounds_of_expr_in_scope(args[i], scope);
        box = box.empty() ? b : box_union(box, b);
    }

    template <typename LetOrLetStmt> void visit_let(const LetOrLetStmt *op) {
        op->value.accept(this);
        if (!holders.holders.count(op)) return;
        if (!holders.needed.count(op->name)) {
            op->body.accept(this);
            return;
        }
        ScopedBinding<Interval> bind(scope, op->name, bounds_of_expr_in_scope(op->value, scope));
        op->body.accept(this);
    }

protected:
    using IRVisitor::visit;
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (only != Writes && op->call_type == Call::Loom && op->name == func)
            include_args(op->args);
    }
    void visit(const Provide *op) override {
        IRVisitor::visit(op);
        if (only != Reads && op->name == func) include_args(op->args);
    }
    void visit(const LetStmt *op) override { visit_let(op); }
    void visit(const Let *op) override { visit_let(op); }
    void visit(const For *op) override {
        if (!holders.holders.count(op)) return;
        if (!holders.needed.count(op->name)) {
            op->body.accept(this);
            return;
        }
        Interval lo = bounds_of_expr_in_scope(simplify(op->min), scope);
        Interval hi = bounds_of_expr_in_scope(simplify(sub(add(op->min, op->extent), 1)), scope);
        ScopedBinding<Interval> bind(scope, op->name, Interval(lo.min, hi.max));
        op->body.accept(this);
    }

public:
    Box box;
    Footprint(const Stmt &s, const std::string &f, Accesses a = ReadsAndWrites)
        : func(f), only(a), holders(f) {
        s.accept(&holders);
        s.accept(this);
    }
};

/** A loop body as a later iteration than the first runs it: the sliding
 * window's "is this the first iteration?" selects (see SlidingWindow.cpp)
 * take their sliding side. Any other select on the loop variable makes
 * `unknown` true, since box analysis would union its two sides. */
class LaterIteration : public IRMutator {
    const For *loop;

    bool is_not_first(const Expr &c) const {
        Expr e = unwrap_likely(c);
        const auto *gt = e.as<GT>();
        const auto *v = gt ? gt->a.as<Variable>() : nullptr;
        return v && v->name == loop->name && equal(gt->b, loop->min);
    }

protected:
    using IRMutator::visit;
    Expr visit(const Select *op) override {
        if (!expr_uses_var(op->condition, loop->name)) return IRMutator::visit(op);
        if (is_not_first(op->condition)) return mutate(op->true_value);
        unknown = true;
        return IRMutator::visit(op);
    }

public:
    bool unknown = false;
    explicit LaterIteration(const For *l) : loop(l) {}
};

bool reads_within_writes(const Stmt &body, const std::string &func) {
    Footprint reads(body, func, Footprint::Reads), writes(body, func, Footprint::Writes);
    if (reads.box.empty()) return true;
    if (writes.box.size() != reads.box.size()) return false;
    for (size_t d = 0; d < reads.box.size(); d++) {
        const Interval &r = reads.box[d], &w = writes.box[d];
        if (!r.is_bounded() || !w.is_bounded()) return false;
        if (!can_prove(LE::make(w.min, r.min)) || !can_prove(LE::make(r.max, w.max))) return false;
    }
    return true;
}

/** Does every iteration of `loop` read only values of `func` that the same
 * iteration writes? Then no value flows from one iteration to the next,
 * and a fold along a loop inside it may start over in each iteration.
 * Checked for the first iteration and for any later one, where a sliding
 * window computes only the new part. */
bool self_contained(const For *loop, const std::string &func) {
    LaterIteration later(loop);
    Stmt later_body = later.mutate(loop->body);
    if (later.unknown) return false;
    return reads_within_writes(loop->body, func) && reads_within_writes(later_body, func);
}

struct Fold {
    int64_t factor = 0;
    std::string loop;
};

/** For one Realize: the loops inside it that hold every access of the Func,
 * outermost first, and the footprint of one iteration of each. */
class FindFolds : public IRVisitor {
    const std::string &func;
    const TouchIndex &index;
    int total;
    int seen = 0;          // accesses visited: after the last, no loop can hold them all
    bool pure;             // no update definitions: every write is a dense produce loop
    Scope<Interval> loops; // enclosing loops, for bounding footprints

    static bool monotonic(const Expr &lo, const Expr &hi, const std::string &v) {
        auto step = [&](const Expr &e) {
            return simplify(sub(substitute(v, add(int_var(v), 1), e), e));
        };
        Expr dlo = step(lo), dhi = step(hi);
        bool up = can_prove(GE::make(dlo, 0)) && can_prove(GE::make(dhi, 0));
        bool down = can_prove(LE::make(dlo, 0)) && can_prove(LE::make(dhi, 0));
        return up || down;
    }

    void consider(const For *op) {
        Footprint fp(op->body, func);
        if (fp.box.empty()) return;
        for (size_t d = 0; d < fp.box.size(); d++) {
            if (candidates.count(d)) continue;
            const Interval &i = fp.box[d];
            if (!i.is_bounded()) continue;
            if (!expr_uses_var(i.min, op->name) && !expr_uses_var(i.max, op->name)) continue;
            if (!monotonic(i.min, i.max, op->name)) continue;
            Expr extent = simplify(add(sub(i.max, i.min), 1));
            std::optional<int64_t> e = as_const_int(extent);
            if (!e) {
                Scope<Interval> inner;
                inner.set_containing_scope(&loops);
                inner.push(op->name, Interval(op->min, simplify(sub(add(op->min, op->extent), 1))));
                e = as_const_int(bounds_of_expr_in_scope(extent, inner).max);
            }
            if (!e || *e <= 0) continue;
            candidates[d] = Fold{*e, op->name};
        }
    }

protected:
    using IRVisitor::visit;
    void visit(const Block *op) override {
        op->first.accept(this);
        if (seen < total) op->rest.accept(this);
    }
    void visit(const ProducerConsumer *op) override {
        if (op->is_producer &&
            index.reads_in(op->name, func) + index.writes_in(op->name, func) == 0)
            return;
        IRVisitor::visit(op);
    }
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        seen += op->call_type == Call::Loom && op->name == func;
    }
    void visit(const Provide *op) override {
        IRVisitor::visit(op);
        seen += op->name == func;
    }
    void visit(const For *op) override {
        if (seen >= total) return;
        // Tasks of a parallel loop share the storage: a fold inside one would
        // let concurrent iterations overwrite each other's rows.
        if (op->for_type == ForType::Parallel) return;
        // The outermost loop inside the storage may fold it. A deeper loop
        // may too (as in Halide) when every loop around it inside the
        // storage is serial and keeps its values to itself: a window
        // sliding along an outer loop reads rows an earlier iteration of
        // that loop wrote, which a fold along the inner loop would have
        // overwritten (LOOM_TEST_SEED=614777666 LOOM_TEST_ONLY=5 of the
        // random schedule test). A loop entered after an access holds not
        // all of them; the checks run cheapest first, and whether a loop
        // keeps its values to itself only once a loop inside it asks.
        if (op->for_type == ForType::Serial && seen == 0 &&
            count_accesses(op->body, func) == total &&
            (enclosing.empty() || enclosing_self_contained())) {
            consider(op);
        }
        enclosing.push_back({op, -1});
        ScopedBinding<Interval> bind(loops, op->name,
                                     Interval(op->min, simplify(sub(add(op->min, op->extent), 1))));
        op->body.accept(this);
        enclosing.pop_back();
    }

    /** The loops around here inside the storage, each with whether it keeps
     * its values to itself (-1: not asked yet). */
    struct Enclosing {
        const For *loop;
        int self_contained;
    };
    std::vector<Enclosing> enclosing;

    bool enclosing_self_contained() {
        if (!pure) return false;
        for (const Enclosing &e : enclosing)
            if (e.loop->for_type != ForType::Serial) return false;
        for (Enclosing &e : enclosing) {
            if (e.self_contained < 0) e.self_contained = self_contained(e.loop, func);
            if (!e.self_contained) return false;
        }
        return true;
    }

public:
    std::map<size_t, Fold> candidates; // dim -> footprint extent and loop
    FindFolds(const std::string &f, const TouchIndex &i, int n, bool p)
        : func(f), index(i), total(n), pure(p) {}
};

/** Takes coordinates of the folded dimensions modulo their fold. */
class FoldAccesses : public IRMutator {
    const std::string &func;
    const std::map<size_t, int64_t> &folds;

    std::vector<Expr> fold_args(const std::vector<Expr> &args) {
        std::vector<Expr> out = mutate_exprs(args);
        for (const auto &[d, factor] : folds) out[d] = mod(out[d], make_const(Int(32), factor));
        return out;
    }

protected:
    using IRMutator::visit;
    Stmt visit(const Provide *op) override {
        if (op->name != func) return IRMutator::visit(op);
        Expr pred = op->predicate.defined() ? mutate(op->predicate) : Expr();
        return Provide::make(op->name, mutate_exprs(op->values), fold_args(op->args), pred);
    }
    Expr visit(const Call *op) override {
        if (op->call_type != Call::Loom || op->name != func) return IRMutator::visit(op);
        Expr folded = Call::make(op->func, fold_args(op->args), op->value_index);
        return folded;
    }

public:
    FoldAccesses(const std::string &f, const std::map<size_t, int64_t> &fl) : func(f), folds(fl) {}
};

int64_t next_power_of_two(int64_t n) {
    int64_t p = 1;
    while (p < n) p *= 2;
    return p;
}

class StorageFolding : public IRMutator {
    const Environment &env;
    const TouchIndex &index;

    /** The folds of one Func: the user's, checked, then automatic ones. */
    std::map<size_t, int64_t> choose_folds(const Function &f, const Stmt &body) {
        // With one Realize, every access of f is inside it.
        int total = index.realizes(f.name()) == 1 ? index.reads(f.name()) + index.writes(f.name())
                                                  : count_accesses(body, f.name());
        FindFolds finder(f.name(), index, total, f.updates().empty());
        body.accept(&finder);
        std::map<size_t, int64_t> folds;
        std::vector<bool> explicit_dim(f.args().size(), false);
        for (const StorageFold &sf : f.schedule().storage_folds) {
            size_t d = 0;
            while (d < f.args().size() && f.args()[d] != sf.var) d++;
            if (d == f.args().size()) {
                std::string names;
                for (const std::string &a : f.args()) names += (names.empty() ? "" : ", ") + a;
                user_error("fold_storage of Func " << f.name() << " names " << sf.var
                                                   << ", which is not one of its dimensions ("
                                                   << names << ")");
            }
            std::optional<int64_t> factor = as_const_int(simplify(sf.extent));
            if (!factor || *factor <= 0) {
                user_error("fold_storage(" << sf.var << ", ...) of Func " << f.name()
                                           << " needs a positive constant extent");
            }
            auto it = finder.candidates.find(d);
            if (it == finder.candidates.end()) {
                user_error("fold_storage(" << sf.var << ", " << *factor << ") of Func " << f.name()
                                           << ": the region of " << f.name()
                                           << " used in dimension " << sf.var
                                           << " does not move monotonically over a serial loop "
                                              "inside its storage with a bounded extent (or it "
                                              "does over an inner loop, but values flow across "
                                              "the iterations of a loop around it), so its "
                                              "storage cannot be folded; store it inside a loop "
                                              "over "
                                           << sf.var << " (store_at) or remove fold_storage");
            }
            if (it->second.factor > *factor) {
                user_error("fold_storage(" << sf.var << ", " << *factor << ") of Func " << f.name()
                                           << " is too small: each iteration of loop "
                                           << it->second.loop << " uses " << it->second.factor
                                           << " values of " << f.name() << " in dimension "
                                           << sf.var << "; fold by at least " << it->second.factor);
            }
            folds[d] = *factor;
            explicit_dim[d] = true;
        }
        // Automatic folds leave the innermost storage dimension alone: a
        // modulo there would turn dense vector accesses into gathers.
        size_t innermost = 0;
        if (!f.schedule().storage_dims.empty()) {
            for (size_t d = 0; d < f.args().size(); d++) {
                if (f.args()[d] == f.schedule().storage_dims[0]) innermost = d;
            }
        }
        for (const auto &[d, fold] : finder.candidates) {
            if (!explicit_dim[d] && d != innermost) folds[d] = next_power_of_two(fold.factor);
        }
        return folds;
    }

protected:
    using IRMutator::visit;
    Stmt visit(const Realize *op) override {
        Stmt body = mutate(op->body);
        auto it = env.find(op->name);
        if (it == env.end())
            return body.same_as(op->body) ? Stmt(op) : rebuild(op, op->bounds, body);
        std::map<size_t, int64_t> folds = choose_folds(it->second, body);
        if (folds.empty()) return body.same_as(op->body) ? Stmt(op) : rebuild(op, op->bounds, body);
        Region bounds = op->bounds;
        for (const auto &[d, factor] : folds) {
            bounds[d] = Range(make_zero(Int(32)), make_const(Int(32), factor));
        }
        body = FoldAccesses(op->name, folds).mutate(body);
        return rebuild(op, bounds, body);
    }

    static Stmt rebuild(const Realize *op, const Region &bounds, const Stmt &body) {
        return Realize::make(op->name, op->types, op->memory_type, bounds, op->condition, body);
    }

public:
    StorageFolding(const Environment &e, const TouchIndex &i) : env(e), index(i) {}
};

} // namespace

Stmt storage_folding(const Stmt &s, const Environment &env) {
    TouchIndex index(s);
    return StorageFolding(env, index).mutate(s);
}

} // namespace Internal
} // namespace loom
