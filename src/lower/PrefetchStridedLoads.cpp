#include "lower/PrefetchStridedLoads.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/Simplify.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"
#include "ir/IRVisitor.h"
#include "ir/Substitute.h"
#include "lower/LowerUtil.h"

namespace loom {
namespace Internal {

namespace {

// Strides the hardware prefetchers follow by themselves.
constexpr int64_t min_constant_stride_bytes = 2048;
// Buffers of constant size up to this stay in L1 once touched.
constexpr int64_t small_buffer_bytes = 32 * 1024;
// Loops that step through more rows at once than this are left to the
// hardware: their prefetches would take as much as they save.
constexpr int max_groups_per_loop = 8;
constexpr int max_prefetches_per_group = 4;
constexpr int64_t cache_line_bytes = 64;
constexpr double max_expanded_index_nodes = 1000;

/** Loads of one buffer whose indices differ by constants. */
struct LoadGroup {
    std::string buffer;
    int elem_bytes;
    Type elem;
    Expr first_base;        // index of the first load, v-dependent lets expanded
    Expr step;              // the index's loop-invariant step per iteration
    int64_t lo = 0, hi = 0; // elements read, relative to first_base
    bool emitted = false;
};

/** One load of the loop body that belongs to a group. */
struct LoadSite {
    int group;
    int64_t offset; // of the load's base, relative to the group's first_base
    Expr base;      // the load's base, valid beside the statement it is in
    Expr step;      // the group's step, valid there
};

/** Scoped name -> value bindings that restore what they shadow. */
class Bindings {
public:
    std::map<std::string, Expr> values;
    void push(const std::string &name, Expr value) {
        auto it = values.find(name);
        saved.push_back({name, it == values.end() ? std::nullopt : std::optional(it->second)});
        values[name] = std::move(value);
    }
    void pop() {
        auto [name, old] = saved.back();
        saved.pop_back();
        if (old) {
            values[name] = *old;
        } else {
            values.erase(name);
        }
    }

private:
    std::vector<std::pair<std::string, std::optional<Expr>>> saved;
};

/** Finds the loads of one innermost loop body whose index moves by a long,
 * loop-invariant step per iteration of the loop over `v`, and groups them. */
class FindStridedLoads : public IRVisitor {
public:
    FindStridedLoads(std::string v, const std::set<std::string> &small_buffers)
        : v(std::move(v)), small_buffers(small_buffers) {}

    std::vector<LoadGroup> groups;
    std::map<const Load *, LoadSite> sites;

protected:
    using IRVisitor::visit;

    void visit(const LetStmt *op) override {
        op->value.accept(this);
        bind(op->name, op->value, false);
        op->body.accept(this);
        unbind(op->name);
    }

    void visit(const Let *op) override {
        op->value.accept(this);
        bind(op->name, op->value, true);
        op->body.accept(this);
        unbind(op->name);
    }

    void visit(const Load *op) override {
        IRVisitor::visit(op);
        if (small_buffers.count(op->name) || op->type.is_handle()) return;
        Expr base = op->index;
        int64_t span = 0; // last lane's element, relative to the base
        if (const Ramp *ramp = op->index.as<Ramp>()) {
            std::optional<int64_t> stride = as_const_int(ramp->stride);
            if (!stride || !ramp->base.type().is_scalar()) return;
            base = ramp->base;
            span = *stride * (ramp->lanes - 1);
        } else if (!op->index.type().is_scalar()) {
            return;
        }
        std::optional<Expr> step = linear_step(base);
        if (!step || is_const_zero(*step) || expr_contains_load(*step)) return;
        int elem_bytes = std::max(1, op->type.bits / 8);
        if (std::optional<int64_t> c = as_const_int(*step)) {
            if (std::abs(*c) * elem_bytes < min_constant_stride_bytes) return;
        }

        // Lets of lets can expand to a tree far larger than the loop body
        // (CSE of an unrolled body); such an index is left to the hardware.
        Expr expanded = substitute(v_lets.values, base);
        if (tree_size(expanded) > max_expanded_index_nodes) return;
        int group = -1;
        int64_t offset = 0;
        for (size_t g = 0; g < groups.size() && group < 0; g++) {
            if (groups[g].buffer != op->name || groups[g].elem_bytes != elem_bytes) continue;
            Expr difference = simplify(Sub::make(expanded, groups[g].first_base));
            if (std::optional<int64_t> d = as_const_int(difference)) {
                group = int(g);
                offset = *d;
            }
        }
        if (group < 0) {
            if (int(groups.size()) >= max_groups_per_loop) return;
            groups.push_back(
                LoadGroup{op->name, elem_bytes, op->type.element_of(), expanded, *step, 0, 0});
            group = int(groups.size()) - 1;
        }
        LoadGroup &g = groups[group];
        g.lo = std::min(g.lo, offset + std::min<int64_t>(span, 0));
        g.hi = std::max(g.hi, offset + std::max<int64_t>(span, 0));
        sites[op] = LoadSite{group, offset, substitute(expr_lets.values, base),
                             substitute(expr_lets.values, g.step)};
    }

private:
    std::string v;
    const std::set<std::string> &small_buffers;
    Bindings steps;  // let name -> its step (undefined: not linear in v)
    Bindings v_lets; // let name -> value in terms of v and outer names, for lets that move with v
    Bindings expr_lets; // Let-expression name -> value without Let-expression names

    void bind(const std::string &name, const Expr &value, bool expression_let) {
        std::optional<Expr> step = linear_step(value);
        steps.push(name, step ? *step : Expr());
        bool moves = !step || !is_const_zero(*step);
        v_lets.push(name,
                    moves ? substitute(v_lets.values, value) : Variable::make(value.type(), name));
        expr_lets.push(name, expression_let ? substitute(expr_lets.values, value)
                                            : Variable::make(value.type(), name));
    }

    void unbind(const std::string &) {
        steps.pop();
        v_lets.pop();
        expr_lets.pop();
    }

    static bool expr_contains_load(const Expr &e) {
        bool found = false;
        visit_all(e, [&](const IRNode *n) { found = found || n->node_type == IRNodeType::Load; });
        return found;
    }

    /** e(v + 1) - e(v) when it does not depend on v (e linear in v). */
    std::optional<Expr> linear_step(const Expr &e) const {
        Type t = e.type();
        if (!t.is_int() || !t.is_scalar()) {
            if (uses_loop(e)) return std::nullopt;
            return make_zero(Int(32));
        }
        if (const Variable *var = e.as<Variable>()) {
            if (var->name == v) return make_one(t);
            auto it = steps.values.find(var->name);
            if (it == steps.values.end()) return make_zero(t);
            if (!it->second.defined()) return std::nullopt;
            return it->second;
        }
        if (e.as<IntImm>()) return make_zero(t);
        if (const Add *add = e.as<Add>()) return combine(add->a, add->b, false);
        if (const Sub *sub = e.as<Sub>()) return combine(sub->a, sub->b, true);
        if (const Mul *mul = e.as<Mul>()) {
            auto sa = linear_step(mul->a), sb = linear_step(mul->b);
            if (!sa || !sb) return std::nullopt;
            if (is_const_zero(*sa))
                return is_const_zero(*sb) ? *sb : simplify(Mul::make(mul->a, *sb));
            if (is_const_zero(*sb)) return simplify(Mul::make(*sa, mul->b));
            return std::nullopt;
        }
        if (uses_loop(e)) return std::nullopt;
        return make_zero(t);
    }

    std::optional<Expr> combine(const Expr &a, const Expr &b, bool subtract) const {
        auto sa = linear_step(a), sb = linear_step(b);
        if (!sa || !sb) return std::nullopt;
        if (is_const_zero(*sb)) return *sa;
        if (is_const_zero(*sa))
            return subtract ? simplify(Sub::make(make_zero(sb->type()), *sb)) : *sb;
        return simplify(subtract ? Sub::make(*sa, *sb) : Add::make(*sa, *sb));
    }

    // Does e change with v (directly or through a let)?
    bool uses_loop(const Expr &e) const {
        bool found = false;
        visit_all(e, [&](const IRNode *n) {
            if (found || n->node_type != IRNodeType::Variable) return;
            const std::string &name = static_cast<const Variable *>(n)->name;
            if (name == v) {
                found = true;
                return;
            }
            auto it = steps.values.find(name);
            found =
                it != steps.values.end() && !(it->second.defined() && is_const_zero(it->second));
        });
        return found;
    }
};

/** Puts each group's prefetches before the first statement that loads from it. */
class InsertPrefetches : public IRMutator {
public:
    InsertPrefetches(std::vector<LoadGroup> &groups, const std::map<const Load *, LoadSite> &sites)
        : groups(groups), sites(sites) {}

protected:
    using IRMutator::visit;

    Stmt visit(const Store *op) override {
        return before(prefetches({op->value, op->index, op->predicate}), op);
    }
    Stmt visit(const Evaluate *op) override { return before(prefetches({op->value}), op); }
    Stmt visit(const AssertStmt *op) override {
        return before(prefetches({op->condition, op->message}), op);
    }
    Stmt visit(const LetStmt *op) override {
        Stmt first = prefetches({op->value});
        return before(first, IRMutator::visit(op));
    }
    Stmt visit(const IfThenElse *op) override {
        Stmt first = prefetches({op->condition});
        return before(first, IRMutator::visit(op));
    }

private:
    std::vector<LoadGroup> &groups;
    const std::map<const Load *, LoadSite> &sites;

    static Stmt before(const Stmt &first, const Stmt &s) {
        return first.defined() ? Block::make(first, s) : s;
    }

    Stmt prefetches(const std::vector<Expr> &exprs) {
        std::vector<Stmt> out;
        for (const Expr &e : exprs) {
            if (!e.defined()) continue;
            visit_all(e, [&](const IRNode *n) {
                if (n->node_type != IRNodeType::Load) return;
                auto it = sites.find(static_cast<const Load *>(n));
                if (it == sites.end() || groups[it->second.group].emitted) return;
                emit(groups[it->second.group], it->second, out);
            });
        }
        Stmt result;
        for (auto s = out.rbegin(); s != out.rend(); ++s)
            result = result.defined() ? Block::make(*s, result) : *s;
        return result;
    }

    // One prefetch per 128 bytes of [lo, hi]: x86's L2 fetches the other line
    // of each aligned pair of lines with the one asked for (spatial
    // prefetch), and a line it misses is found by the streamer. Every
    // prefetch address is one more induction variable use for LLVM's loop
    // strength reduction, whose time grows fast with their number (three
    // per row instead of one cost 20% more JIT compile time in matmul).
    void emit(LoadGroup &g, const LoadSite &site, std::vector<Stmt> &out) {
        g.emitted = true;
        int64_t line_elems = std::max<int64_t>(1, cache_line_bytes / g.elem_bytes);
        std::vector<int64_t> points;
        for (int64_t p = g.lo; p <= g.hi && int(points.size()) < max_prefetches_per_group;
             p += 2 * line_elems)
            points.push_back(p);
        Type t = site.base.type();
        Expr ahead = simplify(Mul::make(make_const(t, prefetch_distance), site.step));
        for (int64_t p : points) {
            Expr index = Add::make(Add::make(site.base, make_const(t, p - site.offset)), ahead);
            Expr call = Call::make(g.elem, Intrinsic::prefetch,
                                   {StringImm::make(g.buffer), simplify(index)}, Call::Intrinsic);
            out.push_back(Evaluate::make(call));
        }
    }
};

class PrefetchStridedLoads : public IRMutator {
protected:
    using IRMutator::visit;

    Stmt visit(const Allocate *op) override {
        int64_t bytes = std::max(1, op->type.bits / 8) * int64_t(op->type.lanes);
        bool constant = true;
        for (const Expr &e : op->extents) {
            std::optional<int64_t> c = as_const_int(e);
            if (!c) {
                constant = false;
                break;
            }
            bytes *= *c;
        }
        if (!constant || bytes > small_buffer_bytes) return IRMutator::visit(op);
        bool inserted = small_buffers.insert(op->name).second;
        Stmt s = IRMutator::visit(op);
        if (inserted) small_buffers.erase(op->name);
        return s;
    }

    Stmt visit(const For *op) override {
        bool host_loop = (op->for_type == ForType::Serial || op->for_type == ForType::Parallel) &&
                         (op->device_api == DeviceAPI::None || op->device_api == DeviceAPI::Host);
        if (!host_loop) return op;
        if (op->for_type != ForType::Serial || contains_loop(op->body)) return IRMutator::visit(op);
        // A few iterations would mostly prefetch past the loop's end.
        if (std::optional<int64_t> extent = as_const_int(op->extent)) {
            if (*extent < 2 * prefetch_distance) return op;
        }
        FindStridedLoads find(op->name, small_buffers);
        op->body.accept(&find);
        if (find.sites.empty()) return op;
        Stmt body = InsertPrefetches(find.groups, find.sites).mutate(op->body);
        return For::make(op->name, op->min, op->extent, op->for_type, op->device_api, body);
    }

private:
    std::set<std::string> small_buffers;
};

} // namespace

Stmt prefetch_strided_loads(const Stmt &s, const Target &target) {
    if (target.has_feature(Target::NoAutoPrefetch)) return s;
    if (target.arch != Target::X86 && target.arch != Target::ARM) return s;
    return PrefetchStridedLoads().mutate(s);
}

} // namespace Internal
} // namespace loom
