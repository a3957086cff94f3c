// Scalar parameters: creation, the Variable that refers to them, range bounds.

#include "loom/Param.h"

#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IRUtil.h"
#include "loom/IROperator.h"

namespace loom {
namespace Internal {

Parameter make_scalar_parameter(Type t, const std::string &name) {
    Parameter p(t, false, 0, name.empty() ? unique_name("p") : name);
    p.set_explicit_name(!name.empty());
    return p;
}

Expr scalar_parameter_expr(const Parameter &p) {
    return Variable::make(p.type(), p.name(), p);
}

void set_scalar_parameter_bound(Parameter &p, Expr bound, bool is_min) {
    if (bound.defined()) {
        if (p.type().is_handle())
            user_error("Param " << p.name() << " is a handle and cannot have a range");
        if (bound.type().is_handle())
            user_error("The " << (is_min ? "min" : "max") << " of Param " << p.name()
                              << " cannot be a handle");
        bound = cast(p.type(), bound);
    }
    if (is_min)
        p.set_min_value(bound);
    else
        p.set_max_value(bound);
}

void set_scalar_parameter_estimate(Parameter &p, Expr estimate) {
    if (!estimate.defined()) user_error("The estimate of Param " << p.name() << " is undefined");
    if (p.type().is_handle() || estimate.type().is_handle())
        user_error("Param " << p.name() << " is a handle and cannot have an estimate");
    p.set_estimate(cast(p.type(), estimate));
}

void param_value_error(const Parameter &p, const std::string &value) {
    user_error("The value " << value << " cannot be converted to the type "
                            << type_to_string(p.type()) << " of Param " << p.name()
                            << " without loss");
}

void param_type_error(const Parameter &p, Type asked) {
    user_error("Param " << p.name() << " has type " << type_to_string(p.type())
                        << " and cannot be read as " << type_to_string(asked));
}

} // namespace Internal
} // namespace loom
