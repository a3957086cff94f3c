#include "lower/SlidingWindow.h"

#include <map>
#include <set>

#include "analysis/Simplify.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"
#include "ir/Substitute.h"
#include "lower/TouchIndex.h"

namespace loom {
namespace Internal {

namespace {

bool contains_produce(const Stmt &s, const std::string &func) {
    bool found = false;
    visit_all(s, [&](const IRNode *n) {
        if (n->node_type != IRNodeType::ProducerConsumer) return;
        const auto *pc = static_cast<const ProducerConsumer *>(n);
        found = found || (pc->is_producer && pc->name == func);
    });
    return found;
}

/** The lets and loops on the path from a loop body down to the produce of a
 * Func: what the bounds lets above that produce are written in terms of. */
struct PathInfo {
    std::vector<std::pair<std::string, Expr>> lets; // outermost first
    std::set<std::string> inner_loops;
    bool found = false;
};

void find_path(const Stmt &s, const std::string &func, PathInfo &path) {
    if (path.found || !s.defined()) return;
    if (const auto *let = s.as<LetStmt>()) {
        path.lets.emplace_back(let->name, let->value);
        find_path(let->body, func, path);
        if (!path.found) path.lets.pop_back();
    } else if (const auto *loop = s.as<For>()) {
        path.inner_loops.insert(loop->name);
        find_path(loop->body, func, path);
        if (!path.found) path.inner_loops.erase(loop->name);
    } else if (const auto *block = s.as<Block>()) {
        find_path(block->first, func, path);
        find_path(block->rest, func, path);
    } else if (const auto *pc = s.as<ProducerConsumer>()) {
        if (pc->is_producer && pc->name == func) {
            path.found = true;
        } else {
            find_path(pc->body, func, path);
        }
    } else if (const auto *ite = s.as<IfThenElse>()) {
        find_path(ite->then_case, func, path);
        find_path(ite->else_case, func, path);
    } else if (const auto *r = s.as<Realize>()) {
        find_path(r->body, func, path);
    } else if (const auto *a = s.as<Allocate>()) {
        find_path(a->body, func, path);
    }
}

/** Replaces the value of the let named `name` (the first one found). */
class ReplaceLet : public IRMutator {
    const std::string &name;
    const Expr &value;

protected:
    using IRMutator::visit;
    Stmt visit(const LetStmt *op) override {
        if (op->name == name) return LetStmt::make(op->name, value, op->body);
        return IRMutator::visit(op);
    }

public:
    ReplaceLet(const std::string &n, const Expr &v) : name(n), value(v) {}
};

/** Does any split or fuse of f's stages touch `var`? Sliding such a
 * dimension could make ShiftInwards tails write outside the new region. */
bool var_is_split(const Function &f, const std::string &var) {
    auto touches = [&](const Definition &d) {
        for (const Split &s : d.schedule.splits) {
            if (s.old_var == var || s.outer == var || s.inner == var) return true;
        }
        return false;
    };
    if (touches(f.definition())) return true;
    for (const Definition &d : f.updates()) {
        if (touches(d)) return true;
    }
    return false;
}

/** Slides one Func over the serial loops inside its Realize. */
class SlideFunc : public IRMutator {
    const Function &func;
    const TouchIndex &index;
    bool past_produce = false; // only loops around the produce can slide

    /** The let value named `name` on the path, with the path lets inlined. */
    static Expr inlined(const PathInfo &path, const std::string &name) {
        Expr e;
        size_t i = path.lets.size();
        while (i > 0 && !e.defined()) {
            i--;
            if (path.lets[i].first == name) e = path.lets[i].second;
        }
        if (!e.defined()) return e;
        while (i > 0) {
            i--;
            e = substitute(path.lets[i].first, path.lets[i].second, e);
        }
        return e;
    }

    static bool nondecreasing(const Expr &e, const std::string &var) {
        Expr next = substitute(var, add(int_var(var), 1), e);
        return can_prove(simplify(GE::make(next, e)));
    }

    /** Tries to slide over loop `op`; returns the new body or undefined. */
    Stmt slide(const For *op) {
        PathInfo path;
        find_path(op->body, func.name(), path);
        if (!path.found) return Stmt();
        const std::string prefix = stage_prefix(func.name(), 0);
        int sliding_dim = -1;
        std::vector<Expr> mins, maxs;
        for (size_t d = 0; d < func.args().size(); d++) {
            Expr lo = inlined(path, prefix + func.args()[d] + ".min");
            Expr hi = inlined(path, prefix + func.args()[d] + ".max");
            if (!lo.defined() || !hi.defined()) return Stmt();
            mins.push_back(lo);
            maxs.push_back(hi);
            if (expr_uses_var(lo, op->name) || expr_uses_var(hi, op->name)) {
                if (sliding_dim >= 0) return Stmt(); // moves in two dimensions
                sliding_dim = int(d);
            }
        }
        if (sliding_dim < 0) return Stmt();
        const Expr &lo = mins[size_t(sliding_dim)], &hi = maxs[size_t(sliding_dim)];
        // The previous iteration must have covered the same region of the
        // other loops between here and the produce.
        if (expr_uses_vars(lo, path.inner_loops) || expr_uses_vars(hi, path.inner_loops))
            return Stmt();
        if (!nondecreasing(lo, op->name) || !nondecreasing(hi, op->name)) return Stmt();
        const std::string &var = func.args()[size_t(sliding_dim)];
        if (var_is_split(func, var)) return Stmt();

        // Every iteration but the first starts after the previous one's end.
        Expr prev_max = substitute(op->name, sub(int_var(op->name), 1), hi);
        Expr min_name_value;
        for (const auto &let : path.lets) {
            if (let.first == prefix + var + ".min") min_name_value = let.second;
        }
        Expr slid = simplify(max(min_name_value, add(prev_max, 1)));
        // The first iteration is peeled off (partition_loops acts on a
        // likely() hint) only where the produce sits inside a loop of this
        // loop's body: there the test and the producer's loop run in every
        // iteration of that inner loop. A produce at this loop's own level
        // pays the test once per iteration, and peeling would copy the
        // whole body (every stage computed here) for no speed, so the hint
        // counts only when this loop is innermost (as Halide's does).
        Expr later = GT::make(int_var(op->name), op->min);
        Expr first = path.inner_loops.empty()
                         ? make_intrinsic(Bool(), Intrinsic::likely_if_innermost, {later})
                         : likely(later);
        Expr value = Select::make(first, slid, min_name_value);
        return ReplaceLet(prefix + var + ".min", value).mutate(op->body);
    }

protected:
    using IRMutator::visit;
    Stmt visit(const For *op) override {
        // Storage outside a parallel loop is shared by its tasks, so no task
        // may rely on what an earlier iteration of its own left there.
        if (op->for_type == ForType::Parallel) return op;
        if (op->for_type == ForType::Serial && contains_produce(op->body, func.name())) {
            Stmt body = slide(op);
            if (body.defined()) {
                past_produce = index.productions(func.name()) == 1;
                return For::make(op->name, op->min, op->extent, op->for_type, op->device_api, body);
            }
        }
        return IRMutator::visit(op);
    }
    // The produce itself is no loop to slide over; nor is anything in a
    // production that does not hold it, or after it.
    Stmt visit(const ProducerConsumer *op) override {
        if (op->is_producer && op->name == func.name()) {
            past_produce = index.productions(func.name()) == 1;
            return op;
        }
        if (op->is_producer && index.productions_in(op->name, func.name()) == 0) return op;
        return IRMutator::visit(op);
    }

public:
    using IRMutator::mutate;
    Stmt mutate(const Stmt &s) override { return past_produce ? s : IRMutator::mutate(s); }

    SlideFunc(const Function &f, const TouchIndex &i) : func(f), index(i) {}
};

class SlidingWindow : public IRMutator {
    const Environment &env;
    const TouchIndex &index;

protected:
    using IRMutator::visit;
    Stmt visit(const Realize *op) override {
        Stmt body = mutate(op->body);
        auto it = env.find(op->name);
        // Update stages may read rows the previous iteration skipped; only
        // pure Funcs slide.
        if (it != env.end() && it->second.updates().empty()) {
            body = SlideFunc(it->second, index).mutate(body);
        }
        if (body.same_as(op->body)) return op;
        return Realize::make(op->name, op->types, op->memory_type, op->bounds, op->condition, body);
    }

public:
    SlidingWindow(const Environment &e, const TouchIndex &i) : env(e), index(i) {}
};

} // namespace

Stmt sliding_window(const Stmt &s, const Environment &env) {
    TouchIndex index(s);
    return SlidingWindow(env, index).mutate(s);
}

} // namespace Internal
} // namespace loom
