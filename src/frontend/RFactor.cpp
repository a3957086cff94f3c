// Stage::rfactor: split an associative reduction into an intermediate Func
// of partial results, one per value of the preserved RVars (now pure Vars
// of the intermediate, so it can be computed in parallel over them), and a
// merge that combines the partial results over the preserved RVars.
//
//   f(L) = f(L) op e(rx, ry)          rfactor(ry, v)
//   ->  intm(args, v) = identity
//       intm(L[ry := v], v) = intm(...) op e(rx, v)     (over rx)
//       f(args) = f(args) op intm(args, ry)             (over ry)
//
// Splits, fuses and renames of RVars made before rfactor become dimensions
// of the RDom first (as in Halide), so `split(r.y, ro, ri, 64).rfactor(ro, v)`
// gives one partial result per block of 64 rows: few, large parallel tasks
// and a small intermediate.

#include "frontend/RFactor.h"

#include <algorithm>
#include <map>
#include <memory>

#include "analysis/Associativity.h"
#include "analysis/Simplify.h"
#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"
#include "ir/Substitute.h"
#include "loom/Func.h"
#include "loom/IROperator.h"

namespace loom {

using namespace Internal;

namespace {

/** An update's reduction domain with the RVar splits, fuses and renames of
 * its schedule applied: the loops it has become, each a dimension of its own. */
struct SplitDomain {
    std::vector<ReductionVariable> vars; // innermost first, like RDom dimensions
    // Each original RVar in terms of `vars` (Variables without a domain).
    std::map<std::string, Expr> value_of;
    // Tails of splits whose factor may not divide the extent.
    std::vector<Expr> tail_predicates;
};

Expr rvar_ref(const std::string &name) {
    return Variable::make(Int(32), name);
}

size_t find_rvar(const std::vector<ReductionVariable> &vars, const std::string &name) {
    for (size_t i = 0; i < vars.size(); i++)
        if (vars[i].var == name) return i;
    return vars.size();
}

/** Replace `name` by `value` in what the domain has built so far. */
void substitute_everywhere(SplitDomain &d, const std::string &name, const Expr &value) {
    for (auto &kv : d.value_of) kv.second = substitute(name, value, kv.second);
    for (Expr &p : d.tail_predicates) p = substitute(name, value, p);
}

SplitDomain apply_rvar_splits(const std::string &stage, const Definition &def) {
    SplitDomain d;
    d.vars = def.rvars;
    for (const ReductionVariable &rv : def.rvars) d.value_of[rv.var] = rvar_ref(rv.var);
    auto require = [&](const std::string &name, const char *what) {
        size_t i = find_rvar(d.vars, name);
        if (i == d.vars.size())
            user_error("rfactor of " << stage << " comes after a " << what << " of the pure Var "
                                     << name << "; only RVars may be split, fused or renamed "
                                     << "before rfactor (schedule pure Vars afterwards)");
        return i;
    };
    for (const Split &sp : def.schedule.splits) {
        switch (sp.kind) {
        case Split::SplitVar: {
            size_t i = require(sp.old_var, "split");
            ReductionVariable old = d.vars[i];
            Expr factor = sp.factor;
            Expr zero = make_zero(Int(32));
            ReductionVariable inner{sp.inner, zero, factor};
            ReductionVariable outer{sp.outer, zero, simplify((old.extent + factor - 1) / factor)};
            Expr offset = rvar_ref(sp.outer) * factor + rvar_ref(sp.inner);
            Expr value = offset + old.min;
            if (!is_const_zero(simplify(old.extent % factor))) {
                // The last block runs past the end: skip those iterations,
                // and keep what they would read in bounds. likely() lets
                // loop partitioning drop both tests from every full block.
                d.tail_predicates.push_back(loom::likely(offset < old.extent));
                value = min(loom::likely(offset), old.extent - 1) + old.min;
            }
            d.vars[i] = inner;
            d.vars.insert(d.vars.begin() + long(i) + 1, outer);
            substitute_everywhere(d, old.var, value);
            break;
        }
        case Split::FuseVars: {
            size_t i = require(sp.inner, "fuse"), o = require(sp.outer, "fuse");
            ReductionVariable in = d.vars[i], out = d.vars[o];
            Expr extent = max(in.extent, 1);
            Expr fused = rvar_ref(sp.old_var);
            d.vars[i] =
                ReductionVariable{sp.old_var, make_zero(Int(32)), simplify(in.extent * out.extent)};
            d.vars.erase(d.vars.begin() + long(o));
            substitute_everywhere(d, in.var, fused % extent + in.min);
            substitute_everywhere(d, out.var, fused / extent + out.min);
            break;
        }
        case Split::RenameVar: {
            size_t i = require(sp.old_var, "rename");
            d.vars[i].var = sp.outer;
            substitute_everywhere(d, sp.old_var, rvar_ref(sp.outer));
            break;
        }
        }
    }
    return d;
}

/** The loop of `vars` that the user's name answers to ("ro" for "r$y.ro"). */
const ReductionVariable *match_rvar(const std::vector<ReductionVariable> &vars,
                                    const std::string &name) {
    for (const ReductionVariable &rv : vars)
        if (rv.var == name) return &rv;
    for (const ReductionVariable &rv : vars)
        if (var_name_match(rv.var, name)) return &rv;
    return nullptr;
}

} // namespace

Func Stage::rfactor(const RVar &r, const Var &v) {
    return rfactor(std::vector<std::pair<RVar, Var>>{{r, v}});
}

Func Stage::rfactor(std::vector<std::pair<RVar, Var>> preserved) {
    std::string stage = description();
    if (stage_ == 0)
        user_error("rfactor of " << stage << ": only update definitions with an RDom can be "
                                 << "factored; use " << func_.name() << ".update(i).rfactor(...)");
    if (!specialization_path_.empty())
        user_error("rfactor of " << stage << ": call rfactor on the update itself, not on a "
                                 << "specialization");
    return rfactor_stage(func_, stage_, preserved, unique_name(func_.name() + "_intm"));
}

namespace Internal {

std::shared_ptr<const RFactorRecord> rfactor_record(const Definition &update) {
    return update.rfactored;
}

void undo_rfactors(Function f) {
    bool changed = false;
    for (Definition &u : f.updates()) {
        while (auto r = rfactor_record(u)) {
            u = r->original;
            changed = true;
        }
    }
    if (changed) f.invalidate_cache();
}

Func rfactor_stage(Function f, int stage_index, const std::vector<std::pair<RVar, Var>> &preserved,
                   const std::string &intermediate) {
    std::string stage = "Func " + f.name() + " (update " + std::to_string(stage_index - 1) + ")";
    if (stage_index < 1 || size_t(stage_index) > f.updates().size())
        user_error("rfactor of Func " << f.name() << ": it has no update "
                                      << std::to_string(stage_index - 1));
    const Definition def = f.updates()[size_t(stage_index - 1)];
    if (def.rvars.empty())
        user_error("rfactor of " << stage << ": the update has no RDom, so there is nothing to "
                                 << "factor");
    if (preserved.empty()) user_error("rfactor of " << stage << " names no RVar to preserve");
    SplitDomain domain = apply_rvar_splits(stage, def);

    auto record = std::make_shared<RFactorRecord>();
    record->original = def;
    record->intermediate = intermediate;
    std::map<std::string, Expr> to_pure; // preserved RVar (loop name) -> its new pure Var
    std::vector<std::string> preserved_names;
    for (const auto &[r, v] : preserved) {
        const ReductionVariable *rv = match_rvar(domain.vars, r.name());
        if (!rv) {
            std::string list;
            for (const ReductionVariable &d : domain.vars)
                list += (list.empty() ? "" : ", ") + d.var;
            user_error("rfactor of " << stage << " names RVar " << r.name()
                                     << ", which is not a dimension of its RDom (" << list << ")");
        }
        if (to_pure.count(rv->var))
            user_error("rfactor of " << stage << " names RVar " << r.name() << " twice");
        for (const std::string &a : f.args()) {
            if (a == v.name())
                user_error("rfactor of " << stage << " maps " << r.name() << " to Var " << v.name()
                                         << ", which is already a pure Var of " << f.name()
                                         << "; pick a new Var");
        }
        for (const auto &kv : to_pure) {
            if (kv.second.as<Variable>()->name == v.name())
                user_error("rfactor of " << stage << " maps two RVars to Var " << v.name());
        }
        to_pure[rv->var] = Expr(v);
        preserved_names.push_back(rv->var);
        record->preserved.emplace_back(rv->var, v.name());
    }

    AssociativeOp op = find_associative_op(f.name(), def.args, def.values);
    if (!op.matched)
        user_error("rfactor of " << stage << ": the update is not an associative and "
                                 << "commutative reduction (" << op.why_not
                                 << "), so it cannot be split into partial results");

    // The RVars the intermediate still reduces over, in a domain of their own.
    std::vector<ReductionVariable> kept_vars, merged_vars;
    for (const ReductionVariable &rv : domain.vars)
        (to_pure.count(rv.var) ? merged_vars : kept_vars).push_back(rv);
    std::vector<Expr> predicates = def.predicates;
    for (const Expr &p : domain.tail_predicates) predicates.push_back(p);
    std::map<std::string, Expr> loop_subs = to_pure; // loops -> the intermediate's variables
    ReductionDomain kept;
    if (!kept_vars.empty()) {
        kept = ReductionDomain(kept_vars);
        for (const ReductionVariable &rv : kept_vars)
            loop_subs[rv.var] = Variable::make(Int(32), rv.var, kept);
    } else if (!predicates.empty()) {
        user_error("rfactor of " << stage << " preserves every RVar of an RDom with where() "
                                 << "conditions or a split whose factor may not divide its "
                                 << "extent; keep at least one RVar in the reduction");
    }
    // The original RVars in terms of the intermediate's variables.
    std::map<std::string, Expr> intm_subs;
    for (const auto &[name, value] : domain.value_of)
        intm_subs[name] = substitute(loop_subs, value);
    for (const Expr &p : predicates) kept.where(substitute(loop_subs, substitute(intm_subs, p)));

    std::vector<Expr> pure_args;
    for (const std::string &a : f.args()) pure_args.push_back(Variable::make(Int(32), a));

    Func intm(intermediate);
    std::vector<Expr> intm_pure = pure_args, intm_lhs;
    for (const auto &[r, v] : preserved) intm_pure.push_back(Expr(v));
    for (const Expr &a : def.args) intm_lhs.push_back(substitute(intm_subs, a));
    for (const auto &[r, v] : preserved) intm_lhs.push_back(Expr(v));
    intm(intm_pure) = Tuple(op.identities);
    std::vector<Expr> old_intm, contributions;
    for (size_t i = 0; i < op.operands.size(); i++) {
        old_intm.push_back(FuncRef(intm.function(), intm_lhs)[int(i)]);
        contributions.push_back(substitute(intm_subs, op.operands[i]));
    }
    intm(intm_lhs) = Tuple(combine(op, old_intm, contributions));

    // The merge replaces the update: f(args) = f(args) op intm(args, preserved RVars).
    ReductionDomain merged(merged_vars);
    std::vector<Expr> partial_args = pure_args;
    for (const std::string &name : preserved_names) {
        for (const ReductionVariable &rv : merged_vars)
            if (rv.var == name) partial_args.push_back(Variable::make(Int(32), rv.var, merged));
    }
    std::vector<Expr> old_f, partial;
    for (size_t i = 0; i < op.operands.size(); i++) {
        old_f.push_back(Call::make(f, pure_args, int(i)));
        partial.push_back(FuncRef(intm.function(), partial_args)[int(i)]);
    }
    std::vector<Expr> merge = combine(op, old_f, partial);
    f.define_update(pure_args, merge);
    std::vector<Definition> &updates = f.updates();
    updates.back().rfactored = record;
    updates[size_t(stage_index - 1)] = updates.back();
    updates.pop_back();
    f.invalidate_cache();
    return intm;
}

} // namespace Internal

} // namespace loom
