// Func::set_estimate(s): expected bounds of pure Vars, stored for
// auto-schedulers (function().schedule().estimates); lowering ignores them.

#include <algorithm>

#include "ir/Error.h"
#include "loom/Func.h"
#include "loom/IROperator.h"

namespace loom {

using namespace Internal;

Func &Func::set_estimate(const Var &var, const Expr &min, const Expr &extent) {
    if (!func_.has_pure_definition())
        user_error("Func " << name() << " has no definition; cannot set_estimate of "
                           << var.name());
    const std::vector<std::string> &args = func_.args();
    if (std::find(args.begin(), args.end(), var.name()) == args.end()) {
        std::string list;
        for (size_t i = 0; i < args.size(); i++) list += (i ? ", " : "") + args[i];
        user_error("set_estimate of Func " << name() << ": " << var.name()
                                           << " is not one of its pure Vars (" << list << ")");
    }
    auto check = [&](const Expr &e, const char *what) {
        if (!e.defined() || !e.type().is_int_or_uint() || e.type().is_bool())
            user_error("set_estimate of " << var.name() << " in Func " << name() << ": the " << what
                                          << " must be an integer Expr");
        return cast(Int(32), e);
    };
    Expr lo = check(min, "min"), ext = check(extent, "extent");
    std::vector<Bound> &estimates = func_.schedule().estimates;
    for (Bound &b : estimates) {
        if (b.var == var.name()) {
            b.min = lo;
            b.extent = ext;
            return *this;
        }
    }
    estimates.push_back(Bound{var.name(), lo, ext, Expr(), Expr()});
    return *this;
}

Func &Func::set_estimates(const Region &estimates) {
    std::vector<Var> vars = args();
    if (estimates.size() != vars.size())
        user_error("set_estimates of Func " << name() << " got " << estimates.size()
                                            << " ranges for its " << vars.size() << " dimensions");
    for (size_t i = 0; i < vars.size(); i++)
        set_estimate(vars[i], estimates[i].min, estimates[i].extent);
    return *this;
}

} // namespace loom
