// scatter() and gather() of loom/IROperator.h (their lowering: ir/ScatterGather.h).

#include "ir/Error.h"
#include "ir/IROperator.h"
#include "loom/IROperator.h"

namespace loom {

namespace {

Expr scatter_gather(const std::vector<Expr> &args, const char *fn) {
    if (args.empty()) user_error(fn << " needs at least one value");
    std::vector<Expr> values = args;
    Type t;
    for (const Expr &e : values) {
        if (!e.defined()) user_error(fn << " of an undefined Expr");
        if (!Internal::is_const(e) && t.is_void()) t = e.type();
    }
    if (t.is_void()) t = values[0].type();
    for (size_t i = 0; i < values.size(); i++) {
        Expr &e = values[i];
        if (e.type() == t) continue;
        if (Internal::is_const(e) && e.type().is_scalar() && !t.is_handle()) {
            e = cast(t, e); // literals adopt the type of the others
            continue;
        }
        user_error(fn << ": all values must have one type; value 0 is " << type_to_string(t)
                      << ", value " << i << " is " << type_to_string(e.type()));
    }
    return Internal::Call::make(t, Internal::Intrinsic::scatter_gather, values,
                                Internal::Call::Intrinsic);
}

} // namespace

Expr scatter(const std::vector<Expr> &args) {
    return scatter_gather(args, "scatter");
}

Expr gather(const std::vector<Expr> &args) {
    return scatter_gather(args, "gather");
}

} // namespace loom
