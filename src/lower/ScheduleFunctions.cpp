#include "lower/ScheduleFunctions.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "analysis/Associativity.h"
#include "analysis/Simplify.h"
#include "ir/Error.h"
#include "ir/IREquality.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"
#include "ir/ScatterGather.h"
#include "ir/Substitute.h"
#include "loom/Var.h"
#include "lower/ComputeLevels.h"
#include "lower/InlineFunctions.h"
#include "lower/RVarIndependence.h"

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
    /** The if of a GuardWithIf tail; for Auto in an update, `remainder`
     * (extent % factor) lets bounds inference drop it where the factor
     * provably divides the extent, which makes it RoundUp's code. */
    struct Guard {
        Expr condition, remainder;
    };
    std::vector<Guard> guards;
    std::set<std::string> fused_derived;            // fused vars and their splits
    std::set<std::string> rvar_derived;             // loops made (partly) of RVars
    std::set<std::string> inner_derived;            // inner loops of splits and their parts
    std::map<std::string, Expr> shift_outer_factor; // outer loops of ShiftInwards splits
    bool is_output;                  // writes beyond its region hit the caller's buffer
    Expr path;                       // when this nest runs (specializations); undefined: always
    std::vector<Stmt> *split_checks; // where the checks of ShiftInwards extents go

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

    /** TailStrategy::Auto, as in Halide: GuardWithIf for loops of RVars;
     * RoundUp for the outermost split of a pure Var in an update (where
     * the Func has its own storage: an output's update guards, so it never
     * writes outside the output buffer), which apply_split turns into a
     * guard that bounds inference removes where the factor divides the
     * extent; ShiftInwards for the pure definition, or RoundUp inside a
     * ShiftInwards split at least as wide (its clamp already keeps the
     * points in range). */
    TailStrategy auto_tail(const Split &split) const {
        bool pure_stage = stage == 0;
        if (rvar_derived.count(split.old_var) || fused_derived.count(split.old_var))
            return TailStrategy::GuardWithIf;
        if (!pure_stage) {
            bool round_up = !is_output && !inner_derived.count(split.old_var);
            return round_up ? TailStrategy::RoundUp : TailStrategy::GuardWithIf;
        }
        auto shifted = shift_outer_factor.find(split.old_var);
        if (shifted != shift_outer_factor.end()) {
            const auto *outer = shifted->second.as<IntImm>();
            const auto *inner = as_int32(split.factor).as<IntImm>();
            if (outer && inner && outer->value >= inner->value) return TailStrategy::RoundUp;
        }
        return TailStrategy::ShiftInwards;
    }

    TailStrategy resolve_tail(const Split &split) const {
        TailStrategy tail = split.tail;
        if (tail == TailStrategy::Auto) tail = auto_tail(split);
        if (tail == TailStrategy::Predicate) tail = TailStrategy::GuardWithIf;
        // A fused variable must stay within its range, or its parts (fused /
        // extent, fused % extent) land on other rows: tails past the end
        // (RoundUp) or before the start (ShiftInwards on a short extent)
        // would write outside the region. Guard them instead.
        if (fused_derived.count(split.old_var)) tail = TailStrategy::GuardWithIf;
        if (stage == 0 || tail == TailStrategy::GuardWithIf) return tail;
        std::string loop = "split of " + split.old_var + " in " + stage_description(func, stage);
        if (rvar_derived.count(split.old_var)) {
            user_error(loop << " uses TailStrategy::"
                            << (tail == TailStrategy::RoundUp ? "RoundUp" : "ShiftInwards")
                            << ", which would run the reduction over points outside its RDom; "
                               "loops of RVars allow only TailStrategy::GuardWithIf (or Auto)");
        }
        if (tail == TailStrategy::ShiftInwards) {
            user_error(loop << " uses TailStrategy::ShiftInwards, which would apply the update "
                               "twice to some points; update definitions allow "
                               "TailStrategy::GuardWithIf, RoundUp or Auto");
        }
        if (is_output) {
            user_error(loop << " uses TailStrategy::RoundUp, which would write beyond the "
                               "output buffer of Func "
                            << func.name()
                            << "; use TailStrategy::GuardWithIf (or Auto, which guards the "
                               "updates of outputs)");
        }
        if (inner_derived.count(split.old_var)) {
            user_error(loop << " uses TailStrategy::RoundUp on " << split.old_var
                            << ", which comes from the inner loop of an earlier split: rounding "
                               "it up would apply the update twice to some points. Use "
                               "TailStrategy::GuardWithIf (or Auto) here");
        }
        return tail;
    }

    /** ShiftInwards moves the last iteration back to end at the end; with
     * an extent below the factor it would start before the beginning,
     * which for an output means writing before its buffer. Checked (when
     * this nest runs) before the output is produced, naming the split. An
     * empty extent runs no iteration and passes: the condition is
     * `ok || extent <= 0`, and bounds inference reads `ok` (see
     * shift_inwards_ok there). */
    Stmt shift_inwards_check(const Split &split, const Expr &extent, const Expr &factor) const {
        Expr ok = GE::make(extent, factor);
        if (path.defined()) ok = Or::make(Not::make(path), ok);
        Expr empty = LE::make(extent, make_zero(Int(32)));
        std::string tail_text = split.tail == TailStrategy::Auto
                                    ? "TailStrategy::Auto (ShiftInwards for a pure definition)"
                                    : "TailStrategy::ShiftInwards";
        Expr error =
            Call::make(Int(32), split_too_small_error(),
                       {user_context_var(), StringImm::make(func.name()),
                        StringImm::make(split.old_var), StringImm::make(tail_text), factor, extent},
                       Call::Extern);
        return AssertStmt::make(Or::make(ok, empty), error);
    }

    void apply_split(const Split &split) {
        VarRange old = live_range(split.old_var, "split");
        ranges.erase(split.old_var);
        Expr factor = as_int32(split.factor);
        TailStrategy tail = resolve_tail(split);
        if (tail == TailStrategy::ShiftInwards) {
            shift_outer_factor[split.outer] = factor;
        } else if (shift_outer_factor.count(split.old_var)) {
            Expr f = shift_outer_factor[split.old_var];
            shift_outer_factor[split.outer] = f;
            shift_outer_factor[split.inner] = f;
        }
        inner_derived.insert(split.inner);
        if (inner_derived.count(split.old_var)) inner_derived.insert(split.outer);
        if (rvar_derived.count(split.old_var)) {
            rvar_derived.insert(split.outer);
            rvar_derived.insert(split.inner);
        }
        if (fused_derived.count(split.old_var)) {
            fused_derived.insert(split.outer);
            fused_derived.insert(split.inner);
        }
        if (tail == TailStrategy::ShiftInwards && is_output && split_checks)
            split_checks->push_back(shift_inwards_check(split, old.extent, factor));
        Expr outer = var(split.outer), inner = var(split.inner);
        Expr base = mul(outer, factor);
        if (tail == TailStrategy::ShiftInwards) base = min(base, sub(old.extent, factor));
        lets.emplace_back(split.old_var, add(add(base, inner), old.min));
        // Auto's RoundUp in an update guards unless the factor provably
        // divides the extent (see auto_tail): the same code then, and no
        // points past the region, so inputs are never read beyond it.
        bool auto_round_up =
            stage > 0 && split.tail == TailStrategy::Auto && tail == TailStrategy::RoundUp;
        // A guard is dropped where the factor divides a constant extent: it
        // would always hold, and bounds inference would keep it as a clamp
        // (min(ko * 16 + 15, 1023)) that hides the split's constant extent
        // from the stages computed inside (their loops' extents become symbolic).
        if ((tail == TailStrategy::GuardWithIf || auto_round_up) &&
            !is_const_zero(simplify(mod(old.extent, factor)))) {
            Expr old_max = sub(add(old.min, old.extent), 1);
            Expr remainder = auto_round_up ? mod(old.extent, factor) : Expr();
            guards.push_back(Guard{LE::make(var(split.old_var), old_max), remainder});
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
        if (rvar_derived.count(fuse.inner) || rvar_derived.count(fuse.outer))
            rvar_derived.insert(fuse.old_var);
        if (inner_derived.count(fuse.inner) || inner_derived.count(fuse.outer))
            inner_derived.insert(fuse.old_var);
        // The loop runs only when both extents are positive; saying so makes
        // the divisor provably positive, which keeps the fused loop's bounds tight.
        Expr divisor = Max::make(inner.extent, make_one(Int(32)));
        lets.emplace_back(fuse.inner, add(mod(fused, divisor), inner.min));
        // fused / divisor never reaches the outer extent inside the loop; the
        // min says so to bounds inference, which otherwise bounds the quotient
        // of two ranges and loses that the fused extent is their product.
        Expr quotient = Min::make(div(fused, divisor), sub(outer.extent, 1));
        lets.emplace_back(fuse.outer, add(quotient, outer.min));
        ranges[fuse.old_var] = VarRange{make_zero(Int(32)), mul(outer.extent, inner.extent)};
    }

    void apply_rename(const Split &rename) {
        VarRange old = live_range(rename.old_var, "rename");
        ranges.erase(rename.old_var);
        if (fused_derived.count(rename.old_var)) fused_derived.insert(rename.outer);
        if (rvar_derived.count(rename.old_var)) rvar_derived.insert(rename.outer);
        if (inner_derived.count(rename.old_var)) inner_derived.insert(rename.outer);
        if (shift_outer_factor.count(rename.old_var))
            shift_outer_factor[rename.outer] = shift_outer_factor[rename.old_var];
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

    std::map<std::string, Expr> loop_var_map(const std::vector<std::string> &pure_vars) const {
        std::map<std::string, Expr> loop_vars;
        for (const std::string &v : pure_vars) loop_vars[v] = var(v);
        for (const ReductionVariable &rv : def.rvars) loop_vars[rv.var] = var(rv.var);
        return loop_vars;
    }

    Stmt make_provide(const std::vector<std::string> &pure_vars) const {
        std::map<std::string, Expr> loop_vars = loop_var_map(pure_vars);
        std::vector<Expr> values, args;
        for (const Expr &e : def.values) values.push_back(substitute(loop_vars, e));
        for (const Expr &e : def.args) args.push_back(substitute(loop_vars, e));
        Stmt provide = scatter_provides(values, args);
        // Storage flattening turns a marked Provide into atomic updates.
        if (def.atomic) provide = LetStmt::make(atomic_marker(func.name()), 0, provide);
        return provide;
    }

    /** The store of an update; with scatter()/gather() of size k, k stores
     * left to right, after every value has been computed. */
    Stmt scatter_provides(const std::vector<Expr> &values, const std::vector<Expr> &args) const {
        std::vector<Expr> all = values;
        all.insert(all.end(), args.begin(), args.end());
        int k = scatter_gather_size(all, "update of Func " + func.name());
        if (k == 0) return Provide::make(func.name(), values, args);
        std::vector<std::pair<std::string, Expr>> lets;
        std::vector<Stmt> stores;
        for (int j = 0; j < k; j++) {
            std::vector<Expr> vals, where;
            for (const Expr &v : values) {
                Expr picked = pick_scatter_element(v, j);
                const auto *c = picked.as<Call>();
                if (c && c->is_intrinsic(Intrinsic::undef)) {
                    vals.push_back(picked); // an element left as it is
                    continue;
                }
                std::string name = unique_name(func.name() + ".gathered");
                lets.emplace_back(name, picked);
                vals.push_back(Variable::make(v.type(), name));
            }
            for (const Expr &a : args) where.push_back(pick_scatter_element(a, j));
            stores.push_back(Provide::make(func.name(), vals, where));
        }
        Stmt s = Block::make(stores);
        for (auto it = lets.rbegin(); it != lets.rend(); ++it)
            s = LetStmt::make(it->first, it->second, s);
        return s;
    }

    /** The RDom's where() conditions, over the loop variables. */
    Expr domain_predicate(const std::vector<std::string> &pure_vars) const {
        std::map<std::string, Expr> loop_vars = loop_var_map(pure_vars);
        Expr p;
        for (const Expr &e : def.predicates) {
            Expr c = substitute(loop_vars, e);
            p = p.defined() ? And::make(p, c) : c;
        }
        return p;
    }

    /** The original variables (pure Vars and RVars) each loop is made of. */
    std::map<std::string, std::set<std::string>>
    loop_origins(const std::vector<std::string> &pure_vars) const {
        std::map<std::string, std::set<std::string>> origins;
        for (const std::string &v : pure_vars) origins[v] = {v};
        for (const ReductionVariable &rv : def.rvars) origins[rv.var] = {rv.var};
        for (const Split &sp : sched.splits) {
            switch (sp.kind) {
            case Split::SplitVar:
            case Split::RenameVar:
                origins[sp.outer] = origins[sp.old_var];
                origins[sp.inner] = origins[sp.old_var];
                break;
            case Split::FuseVars: {
                std::set<std::string> u = origins[sp.inner];
                u.insert(origins[sp.outer].begin(), origins[sp.outer].end());
                origins[sp.old_var] = u;
                break;
            }
            }
        }
        return origins;
    }

    /** The loops made from RVars, outermost first, as they visit the domain
     * in its own order (last RVar outermost; each split outer before inner);
     * empty when a fuse makes that order unclear. */
    std::vector<std::string> canonical_rvar_loops() const {
        std::vector<std::string> order;
        for (auto it = def.rvars.rbegin(); it != def.rvars.rend(); ++it) order.push_back(it->var);
        for (const Split &sp : sched.splits) {
            auto at = std::find(order.begin(), order.end(), sp.old_var);
            switch (sp.kind) {
            case Split::SplitVar:
                if (at == order.end()) break;
                *at = sp.inner;
                order.insert(at, sp.outer);
                break;
            case Split::RenameVar:
                if (at != order.end()) *at = sp.outer;
                break;
            case Split::FuseVars: {
                auto i = std::find(order.begin(), order.end(), sp.inner);
                auto o = std::find(order.begin(), order.end(), sp.outer);
                if (i == order.end() && o == order.end()) break;
                // Fusing an RVar's loops keeps the order only when outer is
                // right before inner; fusing with pure loops is not checked.
                if (i == order.end() || o == order.end() || o + 1 != i) return {};
                *i = sp.old_var;
                order.erase(o);
                break;
            }
            }
        }
        return order;
    }

    /** Reordering the loops of an RDom changes the order in which a
     * reduction visits it: legal only for associative, commutative updates,
     * or where only loops of independent RVars move (every element is then
     * still updated in the same order: its updates share those RVars' values). */
    void check_rvar_order(const std::vector<std::string> &pure_vars,
                          const std::vector<Dim> &dims) const {
        if (stage == 0 || def.rvars.empty()) return;
        std::vector<std::string> canonical = canonical_rvar_loops();
        if (canonical.empty()) return;
        std::vector<std::string> actual;
        for (auto it = dims.rbegin(); it != dims.rend(); ++it) {
            if (std::find(canonical.begin(), canonical.end(), it->var) != canonical.end())
                actual.push_back(it->var);
        }
        if (actual == canonical) return;
        std::map<std::string, std::set<std::string>> origins = loop_origins(pure_vars);
        auto dependent_loops = [&](const std::vector<std::string> &loops) {
            std::vector<std::string> kept;
            for (const std::string &l : loops) {
                const std::set<std::string> &from = origins[l];
                if (std::any_of(from.begin(), from.end(), [&](const std::string &o) {
                        return !rvar_is_independent(func, def, o);
                    }))
                    kept.push_back(l);
            }
            return kept;
        };
        if (dependent_loops(actual) == dependent_loops(canonical)) return;
        if (find_associative_op(func.name(), def.args, def.values).matched) return;
        user_error(stage_description(func, stage)
                   << " orders the loops over its RDom as " << join(actual)
                   << " (outermost first), which visits the domain in another order than "
                   << join(canonical) << "; that changes the result of a reduction that is not "
                   << "associative and commutative. Keep the RVars' loops in order (reorder "
                      "only pure Vars around them)");
    }

    /** Parallel and vectorized loops of an update must not make two
     * iterations update the same element at once. */
    void check_races(const std::vector<std::string> &pure_vars,
                     const std::vector<Dim> &dims) const {
        if (stage == 0) return;
        std::map<std::string, std::set<std::string>> origins = loop_origins(pure_vars);
        for (const Dim &d : dims) {
            bool concurrent = d.for_type == ForType::Parallel ||
                              d.for_type == ForType::Vectorized ||
                              d.for_type == ForType::GPUBlock || d.for_type == ForType::GPUThread ||
                              d.for_type == ForType::GPULane;
            if (!concurrent) continue;
            for (const std::string &o : origins[d.var]) {
                if (std::find(pure_vars.begin(), pure_vars.end(), o) != pure_vars.end()) continue;
                bool is_rvar =
                    std::any_of(def.rvars.begin(), def.rvars.end(),
                                [&](const ReductionVariable &rv) { return rv.var == o; });
                if (is_rvar && rvar_is_independent(func, def, o)) continue;
                const char *kind = d.for_type == ForType::Vectorized  ? "vectorized"
                                   : d.for_type == ForType::GPUBlock  ? "gpu_blocks"
                                   : d.for_type == ForType::GPUThread ? "gpu_threads"
                                   : d.for_type == ForType::GPULane   ? "gpu_lanes"
                                                                      : "parallel";
                if (def.atomic) continue;
                user_error(stage_description(func, stage)
                           << " has a " << kind << " loop " << d.var << " over "
                           << (is_rvar ? "the reduction variable " : "the variable ") << o
                           << ", which can make concurrent iterations update the same element of "
                           << func.name()
                           << " (a race condition). Use atomic() on the update "
                              "(e.g. "
                           << func.name() << ".update(" << stage - 1
                           << ").atomic()) to make the updates atomic, or rfactor() "
                              "to split the reduction into independent partial results, or "
                              "keep the loop serial");
            }
        }
    }

public:
    StageNestBuilder(const Function &f, int s, const StageSchedule &schedule, bool output,
                     const Expr &when, std::vector<Stmt> *checks)
        : func(f), stage(s), def(stage_definition(f, s)), sched(schedule),
          prefix(stage_prefix(f.name(), s)), is_output(output), path(when), split_checks(checks) {
        for (const ReductionVariable &rv : def.rvars) rvar_derived.insert(rv.var);
    }

    Stmt build() {
        std::vector<std::string> pure_vars = stage_pure_vars(func, stage);
        for (const std::string &v : pure_vars) {
            Expr lo = var(v + ".min"), hi = var(v + ".max");
            ranges[v] = VarRange{lo, add(sub(hi, lo), 1)};
        }
        for (const ReductionVariable &rv : def.rvars) ranges[rv.var] = VarRange{rv.min, rv.extent};
        // gpu_single_thread()'s block and thread loops come from no variable.
        for (const Dim &d : sched.dims) {
            if (is_single_thread_loop(d.var))
                ranges[d.var] = VarRange{make_zero(Int(32)), make_one(Int(32))};
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
        for (const Dim &d : dims) live_range(d.var, "the loop nest");
        check_races(pure_vars, dims);
        check_rvar_order(pure_vars, dims);
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
        Expr predicate = domain_predicate(pure_vars);
        if (predicate.defined()) body = IfThenElse::make(predicate, body);
        for (auto it = guards.rbegin(); it != guards.rend(); ++it) {
            body = IfThenElse::make(likely(it->condition), body);
            if (it->remainder.defined())
                body = LetStmt::make(auto_round_up_marker(), it->remainder, body);
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

Expr and_when(const Expr &a, const Expr &b) {
    return a.defined() ? And::make(a, b) : b;
}

/** The nest of a stage under `sched`, with its specializations tried first:
 * if (c0) nest0 else if (c1) nest1 ... else the general nest (or, after
 * specialize_fail, an error). `path` says when this schedule runs at all
 * (for the checks of its ShiftInwards splits). */

Stmt build_specialized_nest(const Function &f, int stage, const StageSchedule &sched,
                            bool is_output, const Expr &path, std::vector<Stmt> *checks) {
    // The general nest runs when no specialization's condition holds.
    Expr general = path;
    bool fails = false; // specialize_fail() replaces the general nest
    for (const Specialization &sp : sched.specializations) {
        if (!sp.failure) general = and_when(general, Not::make(sp.condition));
        fails = fails || sp.failure;
    }
    Stmt s =
        StageNestBuilder(f, stage, sched, is_output, general, fails ? nullptr : checks).build();
    for (auto it = sched.specializations.rbegin(); it != sched.specializations.rend(); ++it) {
        // Specialization i runs when its condition holds and no earlier one's does.
        Expr when = path;
        for (auto e = sched.specializations.begin(); e != it.base() - 1; ++e) {
            if (!e->failure) when = and_when(when, Not::make(e->condition));
        }
        if (it->failure) {
            Expr error = Call::make(Int(32), "loom_error_specialize_fail",
                                    {user_context_var(), StringImm::make(it->failure_message)},
                                    Call::Extern);
            s = AssertStmt::make(const_false(), error);
        } else {
            s = IfThenElse::make(it->condition,
                                 build_specialized_nest(f, stage, it->schedule, is_output,
                                                        and_when(when, it->condition), checks),
                                 s);
        }
    }
    return s;
}

} // namespace

Stmt build_stage_nest(const Function &f, int stage, bool is_output, std::vector<Stmt> *checks) {
    return build_specialized_nest(f, stage, stage_definition(f, stage).schedule, is_output, Expr(),
                                  checks);
}

Stmt build_produce(const Function &f, bool is_output, bool outermost_loops) {
    std::vector<Stmt> checks, stages;
    for (int s = 0; s <= int(f.updates().size()); s++) {
        Stmt nest = build_stage_nest(f, s, is_output, &checks);
        if (outermost_loops) {
            nest = For::make(stage_prefix(f.name(), s) + Var::outermost_name(), 0, 1,
                             ForType::Serial, DeviceAPI::None, nest);
        }
        stages.push_back(nest);
    }
    // The checks come before any stage writes.
    checks.insert(checks.end(), stages.begin(), stages.end());
    return ProducerConsumer::make_produce(f.name(), Block::make(checks));
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

/** Does f go at the root, computed and stored there? Then where its uses are
 * does not matter, only whether there are any. */
bool computed_and_stored_at_root(const Function &f) {
    const FuncSchedule &sched = f.schedule();
    if (!sched.compute_level.defined() || !sched.compute_level.is_root()) return false;
    const LoopLevel &store = sched.store_level;
    return !sched.store_level_set || !store.defined() || store.is_inlined() || store.is_root();
}

/** The Funcs at whose Var::outermost() some Func is computed or stored. */
std::set<std::string> outermost_hosts(const Environment &env) {
    std::set<std::string> hosts;
    for (const auto &kv : env) {
        const FuncSchedule &sched = kv.second.schedule();
        for (const LoopLevel *l : {&sched.compute_level, &sched.store_level}) {
            if (l->defined() && !l->is_root() && !l->is_inlined() &&
                l->var() == Var::outermost_name())
                hosts.insert(l->func());
        }
    }
    return hosts;
}

/** Adds the Funcs a statement calls, once inlined Funcs are substituted. */
void add_calls(const Stmt &s, const std::vector<Function> &outputs, std::set<std::string> &called) {
    visit_all(inline_functions(s, outputs), [&](const IRNode *node) {
        if (node->node_type != IRNodeType::Call) return;
        const auto *call = static_cast<const Call *>(node);
        if (call->call_type == Call::Loom) called.insert(call->name);
    });
}

} // namespace

Stmt schedule_functions(const std::vector<Function> &outputs, const std::vector<std::string> &order,
                        const Environment &env) {
    // What the placed productions call: a Func computed at the root needs no
    // search of the whole pipeline for its uses (that would make a chain of
    // N such Funcs cost N^2).
    std::set<std::string> called;
    const std::set<std::string> hosts = outermost_hosts(env);
    Stmt s;

    // Consumers first, so that each Func's uses (and the loops it is computed
    // in) are already in place: its production goes at the top of the body
    // of its compute loop, its storage around the body of its store loop.
    // Outputs take their place in the same order, so that an output another
    // output reads is produced first.
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const Function &f = env.at(*it);
        if (is_output(f, outputs)) {
            Stmt produce = build_produce(f, true, hosts.count(f.name()) > 0);
            add_calls(produce, outputs, called);
            s = s.defined() ? Block::make(produce, s) : produce;
            continue;
        }
        if (is_inlined(f, outputs)) continue;
        Placement place;
        if (computed_and_stored_at_root(f)) {
            place.used = called.count(f.name()) > 0;
        } else {
            place = resolve_placement(s, f, outputs);
        }
        if (!place.used) continue;
        Stmt produce = build_produce(f, false, hosts.count(f.name()) > 0);
        add_calls(produce, outputs, called);
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
