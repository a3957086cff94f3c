#ifndef LOOM_PARAM_H
#define LOOM_PARAM_H

/** \file Param<T>: a scalar argument of a pipeline, set before each run. */

#include <cstring>
#include <string>
#include <type_traits>

#include "loom/Expr.h"
#include "loom/Parameter.h"

namespace loom {
namespace Internal {
/** A fresh scalar Parameter named `name` (unique automatic name when empty). */
Parameter make_scalar_parameter(Type t, const std::string &name);
/** The Variable that refers to a scalar Parameter. */
Expr scalar_parameter_expr(const Parameter &p);
/** Checks and stores a range bound of a scalar Parameter. */
void set_scalar_parameter_bound(Parameter &p, Expr bound, bool is_min);
} // namespace Internal

template <typename T> class Param {
    static_assert(std::is_arithmetic_v<T> || std::is_pointer_v<T>,
                  "Param<T> needs a number or pointer type");
    Internal::Parameter param_;

public:
    Param() : param_(Internal::make_scalar_parameter(type_of<T>(), "")) {}
    explicit Param(const std::string &name)
        : param_(Internal::make_scalar_parameter(type_of<T>(), name)) {}
    explicit Param(const char *name) : Param(std::string(name)) {}
    Param(const std::string &name, T value) : Param(name) { set(value); }
    Param(const std::string &name, T value, Expr min, Expr max) : Param(name, value) {
        set_range(min, max);
    }
    template <typename U = T, typename = std::enable_if_t<!std::is_same_v<U, const char *>>>
    explicit Param(T value) : Param() {
        set(value);
    }

    const std::string &name() const { return param_.name(); }
    Type type() const { return param_.type(); }

    T get() const {
        T v;
        uint64_t bits = param_.scalar_bits();
        std::memcpy(&v, &bits, sizeof(T));
        return v;
    }
    void set(T value) {
        uint64_t bits = 0;
        std::memcpy(&bits, &value, sizeof(T));
        param_.set_scalar_bits(bits);
    }

    /** The value must lie in [min, max] when the pipeline runs. */
    void set_range(Expr min, Expr max) {
        set_min_value(min);
        set_max_value(max);
    }
    void set_min_value(Expr min) { Internal::set_scalar_parameter_bound(param_, min, true); }
    void set_max_value(Expr max) { Internal::set_scalar_parameter_bound(param_, max, false); }
    Expr min_value() const { return param_.min_value(); }
    Expr max_value() const { return param_.max_value(); }

    operator Expr() const { return Internal::scalar_parameter_expr(param_); }
    const Internal::Parameter &parameter() const { return param_; }
};

} // namespace loom

#endif
