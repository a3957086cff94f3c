#include "lower/SplitFactorChecks.h"

#include <set>
#include <sstream>

#include "ir/IROperator.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

namespace {

Expr and_when(const Expr &a, const Expr &b) {
    return a.defined() ? And::make(a, b) : b;
}

class FactorChecks {
    const Function &func;
    const std::set<std::string> &scalars;
    std::string stage;
    std::vector<Stmt> &checks;

    /** Whether every variable of e is a scalar argument of the pipeline
     * (anything else is not defined where the entry checks run). */
    bool uses_only_scalars(const Expr &e) const {
        for (const std::string &v : free_variables(e))
            if (!scalars.count(v)) return false;
        return true;
    }

    void check_split(const Split &split, const Expr &when) {
        if (split.kind != Split::SplitVar || !split.factor.defined()) return;
        Expr factor = as_int32(split.factor);
        if (is_const(factor)) return; // constants were checked when the split was made
        if (!uses_only_scalars(factor) || (when.defined() && !uses_only_scalars(when))) return;
        std::ostringstream what;
        what << split.factor << " (the split factor of " << split.old_var << " in " << stage << ")";
        Expr one = make_one(Int(32));
        Expr ok = GE::make(factor, one);
        if (when.defined()) ok = Or::make(Not::make(when), ok);
        Expr error = Call::make(Int(32), "loom_error_param_too_small_i64",
                                {user_context_var(), StringImm::make(what.str()),
                                 Cast::make(Int(64), factor), make_one(Int(64))},
                                Call::Extern);
        checks.push_back(AssertStmt::make(ok, error));
    }

public:
    FactorChecks(const Function &f, int s, const std::set<std::string> &scalar_args,
                 std::vector<Stmt> &out)
        : func(f), scalars(scalar_args), stage("Func " + f.name()), checks(out) {
        if (s > 0) stage += " (update " + std::to_string(s - 1) + ")";
    }

    /** The splits of `sched`, each checked when it runs: `path` and, for
     * its general schedule, no specialization's condition (as in
     * build_specialized_nest). */
    void add(const StageSchedule &sched, const Expr &path) {
        Expr general = path;
        bool fails = false;
        for (const Specialization &sp : sched.specializations) {
            if (!sp.failure) general = and_when(general, Not::make(sp.condition));
            fails = fails || sp.failure;
        }
        if (!fails)
            for (const Split &split : sched.splits) check_split(split, general);
        Expr earlier_failed = path;
        for (const Specialization &sp : sched.specializations) {
            if (sp.failure) continue;
            add(sp.schedule, and_when(earlier_failed, sp.condition));
            earlier_failed = and_when(earlier_failed, Not::make(sp.condition));
        }
    }
};

} // namespace

std::vector<Stmt> split_factor_checks(const std::vector<Function> &outputs, const Environment &env,
                                      const std::vector<LoweredArgument> &args) {
    std::set<std::string> scalars;
    for (const LoweredArgument &a : args)
        if (!a.is_buffer()) scalars.insert(a.name);
    std::vector<Stmt> checks;
    for (const auto &[name, f] : env) {
        if (is_inlined(f, outputs) || !f.has_pure_definition()) continue;
        FactorChecks(f, 0, scalars, checks).add(f.definition().schedule, Expr());
        for (size_t u = 0; u < f.updates().size(); u++)
            FactorChecks(f, int(u) + 1, scalars, checks).add(f.updates()[u].schedule, Expr());
    }
    return checks;
}

} // namespace Internal
} // namespace loom
