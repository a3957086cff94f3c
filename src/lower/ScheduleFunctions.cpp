#include "lower/ScheduleFunctions.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "ir/Error.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/Substitute.h"
#include "lower/ComputeLevels.h"

namespace loom {
namespace Internal {

namespace {

/** The range of one loop variable (before or after splitting), symbolic in
 * the bounds of the stage's pure variables. */
struct VarRange {
    Expr min, extent;
};

const Definition &stage_definition(const Function &f, int stage) {
    return stage == 0 ? f.definition() : f.updates()[size_t(stage - 1)];
}

std::string stage_description(const Function &f, int stage) {
    if (stage == 0) return "Func " + f.name();
    return "update " + std::to_string(stage - 1) + " of Func " + f.name();
}

std::string join(const std::vector<std::string> &names) {
    std::string out;
    for (const std::string &n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

/** Builds the loop nest of one stage, applying its splits. */
class StageNestBuilder {
    const Function &func;
    int stage;
    const Definition &def;
    const StageSchedule &sched;
    std::string prefix;
    std::map<std::string, VarRange> ranges;         // live loop variables
    std::vector<std::pair<std::string, Expr>> lets; // var = f(new vars), in split order
    std::vector<Expr> guards;
    std::set<std::string> fused_derived; // fused vars and their splits

    Expr var(const std::string &name) const { return int_var(prefix + name); }

    const VarRange &live_range(const std::string &name, const char *what) {
        auto it = ranges.find(name);
        if (it == ranges.end()) {
            std::vector<std::string> live;
            for (auto &kv : ranges) live.push_back(kv.first);
            user_error(what << " of " << stage_description(func, stage) << " uses " << name
                            << ", which is not a loop variable of it (the loop variables are: "
                            << join(live) << ")");
        }
        return it->second;
    }

    TailStrategy resolve_tail(const Split &split) const {
        TailStrategy tail = split.tail;
        bool pure_stage = stage == 0;
        if (tail == TailStrategy::Auto) {
            tail = (pure_stage && !split.exact) ? TailStrategy::ShiftInwards
                                                : TailStrategy::GuardWithIf;
        }
        if (tail == TailStrategy::Predicate) tail = TailStrategy::GuardWithIf;
        // A fused variable must stay within its range, or its parts (fused /
        // extent, fused % extent) land on other rows: tails past the end
        // (RoundUp) or before the start (ShiftInwards on a short extent)
        // would write outside the region. Guard them instead.
        if (fused_derived.count(split.old_var)) tail = TailStrategy::GuardWithIf;
        if (!pure_stage && tail != TailStrategy::GuardWithIf) {
            user_error("split of " << split.old_var << " in " << stage_description(func, stage)
                                   << " uses a tail strategy that computes some points twice "
                                      "or beyond the bounds; update definitions allow only "
                                      "TailStrategy::GuardWithIf (or Auto)");
        }
        return tail;
    }

    void apply_split(const Split &split) {
        VarRange old = live_range(split.old_var, "split");
        ranges.erase(split.old_var);
        Expr factor = as_int32(split.factor);
        TailStrategy tail = resolve_tail(split);
        if (fused_derived.count(split.old_var)) {
            fused_derived.insert(split.outer);
            fused_derived.insert(split.inner);
        }
        Expr outer = var(split.outer), inner = var(split.inner);
        Expr base = mul(outer, factor);
        if (tail == TailStrategy::ShiftInwards) base = min(base, sub(old.extent, factor));
        lets.emplace_back(split.old_var, add(add(base, inner), old.min));
        if (tail == TailStrategy::GuardWithIf) {
            Expr old_max = sub(add(old.min, old.extent), 1);
            guards.push_back(LE::make(var(split.old_var), old_max));
        }
        ranges[split.inner] = VarRange{make_zero(Int(32)), factor};
        ranges[split.outer] =
            VarRange{make_zero(Int(32)), div(add(old.extent, sub(factor, 1)), factor)};
    }

    void apply_fuse(const Split &fuse) {
        VarRange outer = live_range(fuse.outer, "fuse");
        VarRange inner = live_range(fuse.inner, "fuse");
        ranges.erase(fuse.outer);
        ranges.erase(fuse.inner);
        Expr fused = var(fuse.old_var);
        fused_derived.insert(fuse.old_var);
        // The loop runs only when both extents are positive; saying so makes
        // the divisor provably positive, which keeps the fused loop's bounds tight.
        Expr divisor = Max::make(inner.extent, make_one(Int(32)));
        lets.emplace_back(fuse.inner, add(mod(fused, divisor), inner.min));
        lets.emplace_back(fuse.outer, add(div(fused, divisor), outer.min));
        ranges[fuse.old_var] = VarRange{make_zero(Int(32)), mul(outer.extent, inner.extent)};
    }

    void apply_rename(const Split &rename) {
        VarRange old = live_range(rename.old_var, "rename");
        ranges.erase(rename.old_var);
        if (fused_derived.count(rename.old_var)) fused_derived.insert(rename.outer);
        lets.emplace_back(rename.old_var, var(rename.outer));
        ranges[rename.outer] = old;
    }

    std::vector<Dim> loop_dims(const std::vector<std::string> &pure_vars) const {
        if (!sched.dims.empty()) return sched.dims;
        std::vector<Dim> dims;
        for (const std::string &v : pure_vars) {
            Dim d;
            d.var = v;
            dims.push_back(d);
        }
        return dims;
    }

    Stmt make_provide(const std::vector<std::string> &pure_vars) const {
        std::map<std::string, Expr> loop_vars;
        for (const std::string &v : pure_vars) loop_vars[v] = var(v);
        std::vector<Expr> values, args;
        for (const Expr &e : def.values) values.push_back(substitute(loop_vars, e));
        for (const Expr &e : def.args) args.push_back(substitute(loop_vars, e));
        return Provide::make(func.name(), values, args);
    }

public:
    StageNestBuilder(const Function &f, int s, const StageSchedule &schedule)
        : func(f), stage(s), def(stage_definition(f, s)), sched(schedule),
          prefix(stage_prefix(f.name(), s)) {}

    Stmt build() {
        std::vector<std::string> pure_vars = stage_pure_vars(func, stage);
        for (const std::string &v : pure_vars) {
            Expr lo = var(v + ".min"), hi = var(v + ".max");
            ranges[v] = VarRange{lo, add(sub(hi, lo), 1)};
        }
        for (const Split &split : sched.splits) {
            switch (split.kind) {
            case Split::SplitVar:
                apply_split(split);
                break;
            case Split::FuseVars:
                apply_fuse(split);
                break;
            case Split::RenameVar:
                apply_rename(split);
                break;
            }
        }
        std::vector<Dim> dims = loop_dims(pure_vars);
        for (const Dim &d : dims) {
            if (d.is_rvar) {
                user_error(stage_description(func, stage)
                           << " loops over the reduction variable " << d.var
                           << "; reduction domains are not supported by lowering yet");
            }
            live_range(d.var, "the loop nest");
        }
        if (dims.size() != ranges.size()) {
            std::vector<std::string> missing;
            for (auto &kv : ranges) {
                bool found = std::any_of(dims.begin(), dims.end(),
                                         [&](const Dim &d) { return d.var == kv.first; });
                if (!found) missing.push_back(kv.first);
            }
            internal_error("loop variables " << join(missing) << " of "
                                             << stage_description(func, stage)
                                             << " have no place in the loop nest");
        }

        Stmt body = make_provide(pure_vars);
        for (auto it = guards.rbegin(); it != guards.rend(); ++it) {
            body = IfThenElse::make(likely(*it), body);
        }
        for (const auto &let : lets) body = LetStmt::make(prefix + let.first, let.second, body);
        for (const Dim &d : dims) {
            const VarRange &r = ranges.at(d.var);
            body = For::make(prefix + d.var, r.min, r.extent, d.for_type, d.device_api, body);
        }
        return body;
    }
};

} // namespace

std::vector<std::string> stage_pure_vars(const Function &f, int stage) {
    if (stage == 0) return f.args();
    const Definition &def = stage_definition(f, stage);
    std::vector<std::string> vars;
    for (size_t i = 0; i < def.args.size() && i < f.args().size(); i++) {
        const auto *v = def.args[i].as<Variable>();
        if (v && v->name == f.args()[i]) vars.push_back(v->name);
    }
    return vars;
}

namespace {

/** The nest of a stage under `sched`, with its specializations tried first:
 * if (c0) nest0 else if (c1) nest1 ... else the general nest (or, after
 * specialize_fail, an error). */
Stmt build_specialized_nest(const Function &f, int stage, const StageSchedule &sched) {
    Stmt s = StageNestBuilder(f, stage, sched).build();
    for (auto it = sched.specializations.rbegin(); it != sched.specializations.rend(); ++it) {
        if (it->failure) {
            Expr error = Call::make(Int(32), "loom_error_specialize_fail",
                                    {user_context_var(), StringImm::make(it->failure_message)},
                                    Call::Extern);
            s = AssertStmt::make(const_false(), error);
        } else {
            s = IfThenElse::make(it->condition, build_specialized_nest(f, stage, it->schedule), s);
        }
    }
    return s;
}

} // namespace

Stmt build_stage_nest(const Function &f, int stage) {
    return build_specialized_nest(f, stage, stage_definition(f, stage).schedule);
}

Stmt build_produce(const Function &f) {
    std::vector<Stmt> stages;
    for (int s = 0; s <= int(f.updates().size()); s++) stages.push_back(build_stage_nest(f, s));
    return ProducerConsumer::make_produce(f.name(), Block::make(stages));
}

namespace {

/** Applies `wrap` to the body of the loop named `loop`. */
class WrapLoopBody : public IRMutator {
    const std::string &loop;
    const std::function<Stmt(const Stmt &)> &wrap;

protected:
    using IRMutator::visit;
    Stmt visit(const For *op) override {
        if (op->name != loop) return IRMutator::visit(op);
        return For::make(op->name, op->min, op->extent, op->for_type, op->device_api,
                         wrap(op->body));
    }

public:
    WrapLoopBody(const std::string &l, const std::function<Stmt(const Stmt &)> &w)
        : loop(l), wrap(w) {}
};

Stmt wrap_at(const Stmt &s, const std::string &loop, const std::function<Stmt(const Stmt &)> &w) {
    if (loop.empty()) return w(s);
    return WrapLoopBody(loop, w).mutate(s);
}

Stmt make_realize(const Function &f, const Stmt &body) {
    Region bounds;
    for (const std::string &v : f.args()) {
        bounds.emplace_back(int_var(f.name() + "." + v + ".min_realized"),
                            int_var(f.name() + "." + v + ".extent_realized"));
    }
    return Realize::make(f.name(), f.output_types(), f.schedule().memory_type, bounds, const_true(),
                         body);
}

} // namespace

Stmt schedule_functions(const std::vector<Function> &outputs, const std::vector<std::string> &order,
                        const Environment &env) {
    std::vector<Stmt> output_nests;
    for (const Function &o : outputs) output_nests.push_back(build_produce(o));
    Stmt s = Block::make(output_nests);

    // Consumers first, so that each Func's uses (and the loops it is computed
    // in) are already in place: its production goes at the top of the body
    // of its compute loop, its storage around the body of its store loop.
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const Function &f = env.at(*it);
        if (is_output(f, outputs) || is_inlined(f, outputs)) continue;
        Placement place = resolve_placement(s, f, outputs);
        Stmt produce = build_produce(f);
        auto compute = [&](const Stmt &body) {
            return Block::make(produce, ProducerConsumer::make_consume(f.name(), body));
        };
        s = wrap_at(s, place.compute_loop, compute);
        s = wrap_at(s, place.store_loop, [&](const Stmt &body) { return make_realize(f, body); });
    }
    return s;
}

} // namespace Internal
} // namespace loom
