// Stage::rfactor: split an associative reduction into an intermediate Func
// of partial results, one per value of the preserved RVars (now pure Vars
// of the intermediate, so it can be computed in parallel over them), and a
// merge that combines the partial results over the preserved RVars.
//
//   f(L) = f(L) op e(rx, ry)          rfactor(ry, v)
//   ->  intm(args, v) = identity
//       intm(L[ry := v], v) = intm(...) op e(rx, v)     (over rx)
//       f(args) = f(args) op intm(args, ry)             (over ry)

#include <algorithm>
#include <map>

#include "analysis/Associativity.h"
#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IRUtil.h"
#include "ir/Substitute.h"
#include "loom/Func.h"

namespace loom {

using namespace Internal;

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
    Function f = func_;
    const Definition def = f.updates()[size_t(stage_ - 1)];
    if (def.rvars.empty())
        user_error("rfactor of " << stage << ": the update has no RDom, so there is nothing to "
                                 << "factor");
    if (preserved.empty()) user_error("rfactor of " << stage << " names no RVar to preserve");
    if (!def.schedule.splits.empty()) {
        user_error("rfactor of " << stage << " comes after split/fuse/rename of its loops; "
                                 << "call rfactor first and schedule the results");
    }
    std::map<std::string, Expr> to_pure; // preserved RVar -> its new pure Var
    std::vector<std::string> rvar_names;
    for (const ReductionVariable &rv : def.rvars) rvar_names.push_back(rv.var);
    for (const auto &[r, v] : preserved) {
        if (std::find(rvar_names.begin(), rvar_names.end(), r.name()) == rvar_names.end()) {
            std::string list;
            for (const std::string &n : rvar_names) list += (list.empty() ? "" : ", ") + n;
            user_error("rfactor of " << stage << " names RVar " << r.name()
                                     << ", which is not a dimension of its RDom (" << list << ")");
        }
        if (to_pure.count(r.name()))
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
        to_pure[r.name()] = Expr(v);
    }

    AssociativeOp op = find_associative_op(f.name(), def.args, def.values);
    if (!op.matched)
        user_error("rfactor of " << stage << ": the update is not an associative and "
                                 << "commutative reduction (" << op.why_not
                                 << "), so it cannot be split into partial results");

    // The RVars the intermediate still reduces over, in a domain of their own.
    std::vector<ReductionVariable> kept_vars, merged_vars;
    for (const ReductionVariable &rv : def.rvars)
        (to_pure.count(rv.var) ? merged_vars : kept_vars).push_back(rv);
    std::map<std::string, Expr> intm_subs = to_pure;
    ReductionDomain kept;
    if (!kept_vars.empty()) {
        kept = ReductionDomain(kept_vars);
        for (const ReductionVariable &rv : kept_vars)
            intm_subs[rv.var] = Variable::make(Int(32), rv.var, kept);
        for (const Expr &p : def.predicates) kept.where(substitute(intm_subs, p));
    } else if (!def.predicates.empty()) {
        user_error("rfactor of " << stage << " preserves every RVar of an RDom with where() "
                                 << "conditions; keep at least one RVar in the reduction");
    }

    std::vector<Expr> pure_args;
    for (const std::string &a : f.args()) pure_args.push_back(Variable::make(Int(32), a));

    Func intm(unique_name(f.name() + "_intm"));
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
    for (const auto &[r, v] : preserved) {
        for (const ReductionVariable &rv : merged_vars)
            if (rv.var == r.name()) partial_args.push_back(Variable::make(Int(32), rv.var, merged));
    }
    std::vector<Expr> old_f, partial;
    for (size_t i = 0; i < op.operands.size(); i++) {
        old_f.push_back(Call::make(f, pure_args, int(i)));
        partial.push_back(FuncRef(intm.function(), partial_args)[int(i)]);
    }
    std::vector<Expr> merge = combine(op, old_f, partial);
    f.define_update(pure_args, merge);
    std::vector<Definition> &updates = f.updates();
    updates[size_t(stage_ - 1)] = updates.back();
    updates.pop_back();
    f.invalidate_cache();
    return intm;
}

} // namespace loom
