// The heuristic auto-scheduler's view of a pipeline: call patterns, costs
// and type widths per Func.

#include "autoschedule/FuncAnalysis.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include "analysis/Bounds.h"
#include "analysis/Simplify.h"
#include "ir/IR.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

namespace {

/** Is e a Variable scaled by a constant, up to constants (2 * x - 1,
 * x / 2 + 1, (y + 1) / 2), or one modulo a constant (c % 2)? */
bool scaled_var(Expr e) {
    int64_t offset = 0;
    while (true) {
        if (const auto *a = e.as<Add>()) {
            if (is_const(a->b)) {
                e = a->a;
                continue;
            }
            if (is_const(a->a)) {
                e = a->b;
                continue;
            }
        }
        if (const auto *s = e.as<Sub>(); s && is_const(s->b)) {
            e = s->a;
            continue;
        }
        break;
    }
    if (const auto *m = e.as<Mul>())
        return (is_const(m->b) && var_plus_const(m->a, &offset)) ||
               (is_const(m->a) && var_plus_const(m->b, &offset));
    if (const auto *d = e.as<Div>()) return is_const(d->b) && var_plus_const(d->a, &offset);
    if (const auto *m = e.as<Mod>()) return is_const(m->b) && var_plus_const(m->a, &offset);
    return false;
}

/** How far RVars of constant bounds reach from 0 (the larger of |min| and
 * |max|), by name. */
using Reach = std::map<std::string, int64_t>;

/** Is e one Var (not an RVar of reach) plus RVars of reach and constants
 * (x + r.x - 1: a window read by a reduction)? Its largest offset goes to
 * *offset. */
bool var_plus_window(const Expr &e, const Reach &reach, int64_t *offset) {
    std::vector<std::pair<Expr, bool>> terms{{e, true}}; // term, added
    int vars = 0;
    int64_t total = 0;
    while (!terms.empty()) {
        auto [t, plus] = terms.back();
        terms.pop_back();
        if (const auto *a = t.as<Add>()) {
            terms.push_back({a->a, plus});
            terms.push_back({a->b, plus});
        } else if (const auto *s = t.as<Sub>()) {
            terms.push_back({s->a, plus});
            terms.push_back({s->b, !plus});
        } else if (auto k = as_const_int(t)) {
            total += plus ? *k : -*k;
        } else if (const auto *v = t.as<Variable>()) {
            auto r = reach.find(v->name);
            if (r != reach.end()) {
                *offset += r->second;
            } else {
                if (!plus) return false;
                vars++;
            }
        } else {
            return false;
        }
    }
    *offset += std::llabs(total);
    return vars == 1;
}

/** The access of one call argument, given the caller's loop variables and
 * the reach of its RVars. */
Access arg_access(const Expr &arg, const Reach &reach, int *max_offset) {
    if (is_const(arg)) return Access::Pointwise;
    int64_t offset = 0;
    if (!var_plus_const(arg, &offset)) {
        offset = 0;
        if (var_plus_window(arg, reach, &offset)) {
            *max_offset = std::max(*max_offset, int(std::min<int64_t>(offset, 1 << 20)));
            return Access::Stencil;
        }
        return scaled_var(arg) ? Access::Scaled : Access::Other;
    }
    *max_offset = std::max(*max_offset, int(std::llabs(offset)));
    return offset == 0 ? Access::Pointwise : Access::Stencil;
}

/** What one operation costs, in plain operations: an integer division or
 * remainder by a value not known at compile time has no vector instruction
 * on CPUs (each lane divides in turn, tens of cycles): lens_blur's table
 * 65536 / area(k), inlined into a per-pixel read, cost it 10%. */
int operation_cost(const IRNode *n) {
    const Expr *divisor = nullptr;
    if (n->node_type == IRNodeType::Div) divisor = &static_cast<const Div *>(n)->b;
    if (n->node_type == IRNodeType::Mod) divisor = &static_cast<const Mod *>(n)->b;
    if (divisor && !divisor->type().is_float() && !is_const(*divisor)) return 16;
    return 1;
}

/** Does a coordinate step by more than one per step of a Var (2 * x + 1,
 * x / 2 inside a clamp)? */
bool strided(const Expr &arg) {
    bool found = false;
    visit_all(arg, [&](const IRNode *n) {
        const Expr *a = nullptr, *b = nullptr;
        if (n->node_type == IRNodeType::Mul) {
            a = &static_cast<const Mul *>(n)->a;
            b = &static_cast<const Mul *>(n)->b;
        } else if (n->node_type == IRNodeType::Div) {
            a = &static_cast<const Div *>(n)->a;
            b = &static_cast<const Div *>(n)->b;
        } else {
            return;
        }
        for (const Expr *k : {a, b}) {
            auto v = as_const_int(*k);
            const Expr &other = k == a ? *b : *a;
            if (v && std::llabs(*v) > 1 && !is_const(other)) found = true;
        }
    });
    return found;
}

Access worse(Access a, Access b) {
    return int(a) > int(b) ? a : b;
}

} // namespace

bool var_plus_const(const Expr &e, int64_t *offset) {
    if (e.as<Variable>()) return true;
    if (const auto *a = e.as<Add>()) {
        if (auto c = as_const_int(a->b)) {
            *offset += *c;
            return var_plus_const(a->a, offset);
        }
        if (auto c = as_const_int(a->a)) {
            *offset += *c;
            return var_plus_const(a->b, offset);
        }
    }
    if (const auto *s = e.as<Sub>()) {
        if (auto c = as_const_int(s->b)) {
            *offset -= *c;
            return var_plus_const(s->a, offset);
        }
    }
    return false;
}

bool follows_own_var(const Expr &arg, const std::string &own, const std::set<std::string> &rvars) {
    bool uses_own = false, other = false;
    visit_all(arg, [&](const IRNode *n) {
        if (n->node_type == IRNodeType::Call) {
            const auto *c = static_cast<const Call *>(n);
            other |= c->call_type == Call::Image || c->call_type == Call::Loom;
        } else if (n->node_type == IRNodeType::Variable) {
            const auto *v = static_cast<const Variable *>(n);
            if (v->name == own)
                uses_own = true;
            else
                other |= !rvars.count(v->name) && !v->param.defined() && !v->image.defined();
        }
    });
    return uses_own && !other;
}

bool stores_at_loaded_index(const Definition &u) {
    bool loaded = false;
    for (const Expr &a : u.args)
        visit_all(a, [&](const IRNode *n) {
            if (n->node_type != IRNodeType::Call) return;
            const auto *c = static_cast<const Call *>(n);
            loaded |= c->call_type == Call::Image || c->call_type == Call::Loom;
        });
    return loaded;
}

bool is_user_scheduled(const Function &f) {
    const FuncSchedule &s = f.schedule();
    if (!s.compute_level.is_inlined() || s.store_level_set || s.memory_type != MemoryType::Auto ||
        !s.storage_dims.empty() || !s.storage_folds.empty())
        return true;
    if (f.definition().schedule.touched) return true;
    for (const Definition &u : f.updates())
        if (u.schedule.touched) return true;
    return false;
}

PipelineInfo analyze_pipeline(const std::vector<Function> &funcs_in_order,
                              const std::vector<Function> &outputs) {
    PipelineInfo info;
    for (const Function &f : funcs_in_order) {
        info.order.push_back(f.name());
        FuncInfo fi;
        fi.func = f;
        fi.has_updates = !f.updates().empty();
        fi.user_scheduled = is_user_scheduled(f);
        for (const Function &o : outputs)
            if (o.same_as(f)) fi.is_output = true;
        info.funcs.emplace(f.name(), fi);
    }
    for (const Function &f : funcs_in_order) {
        FuncInfo &self = info.funcs.at(f.name());
        std::map<std::string, std::map<size_t, std::set<int64_t>>> constants_read;
        Reach reach;                // of the definition being scanned
        Scope<Interval> coordinate; // its Vars unbounded, its RVars over their ranges
        auto bounded_coordinates = [&](const Call *c) {
            for (const Expr &a : c->args)
                if (!bounds_of_expr_in_scope(a, coordinate).is_bounded()) return false;
            return true;
        };
        auto scan = [&](const Expr &e) {
            // Coordinates (the arguments of loads and Func calls) are index
            // arithmetic, not work done per value, and are computed once
            // per vector, not per lane: a clamped load (a boundary
            // condition) costs one, and an 8-bit filter with 32-bit
            // coordinates is vectorized 32 wide on AVX2, not 8. The
            // arguments of other calls (pow, strict_float around a whole
            // formula) are work: discounting them made a pow() table look
            // cheap, and it was inlined (camera_pipe's curve: pow per
            // pixel).
            std::set<const IRNode *> coordinates;
            visit_all(e, [&](const IRNode *n) {
                if (n->node_type != IRNodeType::Call) return;
                const auto *c = static_cast<const Call *>(n);
                if (c->call_type == Call::Image || c->call_type == Call::Loom)
                    for (const Expr &a : c->args)
                        visit_all(a, [&](const IRNode *m) { coordinates.insert(m); });
            });
            visit_all(e, [&](const IRNode *n) {
                if (!coordinates.count(n)) {
                    const auto *t = static_cast<const BaseExprNode *>(n);
                    Type ty = t->type;
                    if (!ty.is_bool() && !ty.is_handle() && ty.bits() > self.max_bits)
                        self.max_bits = ty.bits();
                    self.cost += operation_cost(n);
                }
                if (n->node_type != IRNodeType::Call) return;
                const auto *c = static_cast<const Call *>(n);
                if (c->call_type == Call::Image) {
                    self.reads_images = true;
                    if (!c->args.empty() && strided(c->args[0])) self.strided_image_reads = true;
                    if (!self.unclamped_image_reads && !bounded_coordinates(c))
                        self.unclamped_image_reads = true;
                }
                if (c->call_type == Call::Image || c->call_type == Call::Loom) {
                    self.calls++;
                    for (size_t i = 0; i < c->args.size(); i++) {
                        const auto *v = c->args[i].as<Variable>();
                        if (!is_const(c->args[i]) &&
                            (!v || i >= f.args().size() || v->name != f.args()[i]))
                            self.reads_at_own_point = false;
                    }
                }
                if (c->call_type != Call::Loom || !c->func.defined() || c->func.same_as(f)) return;
                auto it = info.funcs.find(c->func.name());
                if (it == info.funcs.end()) return;
                FuncInfo &callee = it->second;
                if (!self.unclamped_callees.count(callee.func.name()) && !bounded_coordinates(c))
                    self.unclamped_callees.insert(callee.func.name());
                if (std::find(callee.consumers.begin(), callee.consumers.end(), f.name()) ==
                    callee.consumers.end())
                    callee.consumers.push_back(f.name());
                if (std::find(self.producers.begin(), self.producers.end(), callee.func.name()) ==
                    self.producers.end())
                    self.producers.push_back(callee.func.name());
                callee.dim_offset.resize(std::max(callee.dim_offset.size(), c->args.size()), 0);
                for (size_t i = 0; i < c->args.size(); i++) {
                    int offset = 0;
                    callee.access = worse(callee.access, arg_access(c->args[i], reach, &offset));
                    // A Var of the caller in another position reads across
                    // (a transpose): not a point-for-point read.
                    if (const auto *v = c->args[i].as<Variable>()) {
                        const std::vector<std::string> &own = f.args();
                        auto at = std::find(own.begin(), own.end(), v->name);
                        if (at != own.end() && size_t(at - own.begin()) != i) {
                            callee.access = Access::Other;
                            if (at == own.begin()) self.reads_transposed = true;
                        }
                    }
                    callee.max_offset = std::max(callee.max_offset, offset);
                    callee.dim_offset[i] = std::max(callee.dim_offset[i], offset);
                }
                if (f.args().size() > c->args.size()) callee.reused_across_dims = true;
                // Constants read per dimension (reread_at_constants).
                for (size_t i = 0; i < c->args.size(); i++)
                    if (auto k = as_const_int(c->args[i])) {
                        std::set<int64_t> &seen = constants_read[callee.func.name()][i];
                        seen.insert(*k);
                        if (seen.size() > 1) callee.reread_at_constants = true;
                    }
                int64_t offset = 0;
                if (!c->args.empty() && !is_const(c->args[0]) &&
                    !var_plus_const(c->args[0], &offset))
                    self.sparse_reads.insert(callee.func.name());
            });
        };
        auto scan_def = [&](const Definition &d, bool update) {
            reach.clear();
            coordinate = Scope<Interval>();
            for (const std::string &a : f.args()) coordinate.push(a, Interval::everything());
            for (const ReductionVariable &rv : d.rvars) {
                coordinate.push(rv.var,
                                Interval(rv.min, simplify(Sub::make(Add::make(rv.min, rv.extent),
                                                                    make_one(rv.extent.type())))));
                auto lo = as_const_int(rv.min), ext = as_const_int(rv.extent);
                if (lo && ext && *ext > 0)
                    reach[rv.var] = std::max(std::llabs(*lo), std::llabs(*lo + *ext - 1));
            }
            for (const Expr &v : d.values) scan(v);
            for (const Expr &a : d.args)
                if (update) scan(a);
        };
        scan_def(f.definition(), false);
        for (const Definition &u : f.updates()) scan_def(u, true);
        self.cost = std::max(self.cost, 1);
    }
    return info;
}

} // namespace Internal
} // namespace loom
