// Promises, requirements and compiler hints of loom/IROperator.h:
// strict_float, (unsafe_)promise_clamped, unreachable and require.

#include <sstream>

#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRPrinter.h"
#include "loom/IROperator.h"

namespace loom {

using namespace Internal;

namespace {

/** Tags every float add, subtract, multiply and divide: each keeps its own
 * rounding wherever later passes move it (a let, a vector lane). */
class StrictifyFloat : public IRMutator {
protected:
    using IRMutator::visit;
    template <typename Op> Expr strict(const Op *op) {
        Expr e = IRMutator::visit(op);
        if (!e.type().is_float()) return e;
        return Call::make(e.type(), Intrinsic::strict_float, {e}, Call::PureIntrinsic);
    }
    Expr visit(const Add *op) override { return strict(op); }
    Expr visit(const Sub *op) override { return strict(op); }
    Expr visit(const Mul *op) override { return strict(op); }
    Expr visit(const Div *op) override { return strict(op); }
    Expr visit(const Mod *op) override { return strict(op); }
    Expr visit(const Call *op) override {
        if (op->is_intrinsic(Intrinsic::strict_float)) return op; // already strict
        return IRMutator::visit(op);
    }
};

/** bound as a value of type t, or t's own limit when undefined. */
Expr promise_bound(const Expr &bound, Type t, bool is_max, const char *fn) {
    if (!bound.defined()) return is_max ? type_max(t) : type_min(t);
    if (bound.type().is_handle() || bound.type().is_bool() != t.is_bool())
        user_error(fn << ": a bound of type " << type_to_string(bound.type())
                      << " cannot bound a value of type " << type_to_string(t));
    return cast(t, bound);
}

Expr promise(Intrinsic op, const Expr &value, const Expr &min, const Expr &max, const char *fn) {
    if (!value.defined()) user_error(fn << " of an undefined Expr");
    Type t = value.type();
    if (t.is_handle()) user_error(fn << " cannot bound a handle");
    return Call::make(t, op,
                      {value, promise_bound(min, t, false, fn), promise_bound(max, t, true, fn)},
                      Call::PureIntrinsic);
}

} // namespace

Expr strict_float(Expr e) {
    if (!e.defined()) user_error("strict_float of an undefined Expr");
    Expr s = StrictifyFloat().mutate(e);
    if (s.as<Call>() && s.as<Call>()->is_intrinsic(Intrinsic::strict_float)) return s;
    return Call::make(s.type(), Intrinsic::strict_float, {s}, Call::PureIntrinsic);
}

Expr unsafe_promise_clamped(const Expr &value, const Expr &min, const Expr &max) {
    return promise(Intrinsic::unsafe_promise_clamped, value, min, max, "unsafe_promise_clamped");
}

Expr promise_clamped(const Expr &value, const Expr &min, const Expr &max) {
    return promise(Intrinsic::promise_clamped, value, min, max, "promise_clamped");
}

Expr unreachable(Type t) {
    if (t.is_void()) user_error("unreachable of no type");
    return Call::make(t, Intrinsic::unreachable, {}, Call::PureIntrinsic);
}

Expr require(Expr condition, const std::vector<Expr> &values) {
    if (!condition.defined()) user_error("require with an undefined condition");
    if (!condition.type().is_bool())
        user_error("The condition of require must be bool, not "
                   << type_to_string(condition.type()));
    if (values.empty() || !values[0].defined())
        user_error("require needs a value to return when the condition holds");
    for (const Expr &v : values)
        if (!v.defined()) user_error("require with an undefined message argument");
    Expr value = values[0];
    if (condition.type().lanes != 1 && value.type().lanes == 1)
        value = Broadcast::make(value, condition.type().lanes);
    std::ostringstream text;
    text << "Requirement failed: " << condition;
    std::vector<Expr> args{condition, value, StringImm::make(text.str())};
    args.insert(args.end(), values.begin() + 1, values.end());
    return Call::make(value.type(), Intrinsic::require, args, Call::Intrinsic);
}

} // namespace loom
