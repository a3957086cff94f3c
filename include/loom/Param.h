#ifndef LOOM_PARAM_H
#define LOOM_PARAM_H

/** \file Param<T>: a scalar argument of a pipeline, set before each run.
 * Param<void> (or Param<> ) takes its type at run time: Param<>(Int(16), "k"). */

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
/** Stores an estimate of a scalar Parameter (for auto-schedulers). */
void set_scalar_parameter_estimate(Parameter &p, Expr estimate);
/** Throws CompileError: `value` cannot be stored exactly in Param p. */
[[noreturn]] void param_value_error(const Parameter &p, const std::string &value);
/** Throws CompileError: Param p of one type is read as another. */
[[noreturn]] void param_type_error(const Parameter &p, Type asked);

/** Stands for the value of a Param<void>, which has no C++ type. */
struct NoParamValue {};

template <typename T>
constexpr bool is_param_type_v =
    std::is_void_v<T> || std::is_arithmetic_v<T> || std::is_pointer_v<T> ||
    std::is_same_v<T, float16_t> || std::is_same_v<T, bfloat16_t>;

/** The bits Param storage holds for value v of type t (the low bytes of a
 * little-endian 64-bit word, as a C value of that type), or false when v
 * cannot be stored in t exactly. */
template <typename U> bool param_bits_of(Type t, const U &v, uint64_t *bits) {
    auto store = [&](auto x) {
        *bits = 0;
        std::memcpy(bits, &x, sizeof(x));
        return true;
    };
    if constexpr (std::is_pointer_v<U>) {
        return t.is_handle() && store(v);
    } else {
        double d = 0;
        int64_t i = 0;
        uint64_t u = 0;
        bool fits = false;
        if constexpr (std::is_same_v<U, float16_t> || std::is_same_v<U, bfloat16_t>) {
            d = double(v);
            fits = t.can_represent(d);
        } else if constexpr (std::is_floating_point_v<U>) {
            d = double(v);
            fits = t.can_represent(d);
        } else if constexpr (std::is_signed_v<U>) {
            i = int64_t(v);
            d = double(v);
            fits = t.can_represent(i);
        } else {
            u = uint64_t(v);
            d = double(v);
            fits = t.can_represent(u);
        }
        if (!fits || t.is_handle() || t.is_vector()) return false;
        if (t.is_float()) {
            if (t.is_bfloat()) return store(bfloat16_t(d).to_bits());
            if (t.bits == 16) return store(float16_t(d).to_bits());
            if (t.bits == 32) return store(float(d));
            return store(d);
        }
        // Integers: an exact value, so the integer conversions lose nothing.
        if constexpr (std::is_integral_v<U> && !std::is_signed_v<U>) {
            return store(u);
        } else if constexpr (std::is_integral_v<U>) {
            return store(i);
        } else {
            return d >= 9223372036854775808.0 ? store(uint64_t(d)) : store(int64_t(d));
        }
    }
}

} // namespace Internal

template <typename T = void> class Param {
    static_assert(Internal::is_param_type_v<T>,
                  "Param<T> needs a number, float16_t, bfloat16_t, pointer or void type");
    Internal::Parameter param_;

    /** The C++ type of values: T, or a placeholder for Param<void>. */
    using Value = std::conditional_t<std::is_void_v<T>, Internal::NoParamValue, T>;

    static Type static_type() {
        if constexpr (std::is_void_v<T>) {
            return Type();
        } else {
            return type_of<T>();
        }
    }

public:
    /** A Param with a unique automatic name. */
    template <typename U = T, typename = std::enable_if_t<!std::is_void_v<U>>>
    Param() : param_(Internal::make_scalar_parameter(static_type(), "")) {}
    template <typename U = T, typename = std::enable_if_t<!std::is_void_v<U>>>
    explicit Param(const std::string &name)
        : param_(Internal::make_scalar_parameter(static_type(), name)) {}
    template <typename U = T, typename = std::enable_if_t<!std::is_void_v<U>>>
    explicit Param(const char *name) : Param(std::string(name)) {}
    /** An unnamed Param with an initial value (and a range). */
    template <typename U = T,
              std::enable_if_t<!std::is_void_v<U> && !std::is_pointer_v<U>, int> = 0>
    explicit Param(Value value) : Param() {
        set(value);
    }
    template <typename U = T, typename = std::enable_if_t<!std::is_void_v<U>>>
    Param(Value value, const Expr &min, const Expr &max) : Param() {
        set(value);
        set_range(min, max);
    }
    template <typename U = T, typename = std::enable_if_t<!std::is_void_v<U>>>
    Param(const std::string &name, Value value) : Param(name) {
        set(value);
    }
    template <typename U = T, typename = std::enable_if_t<!std::is_void_v<U>>>
    Param(const std::string &name, Value value, const Expr &min, const Expr &max) : Param(name) {
        set(value);
        set_range(min, max);
    }
    /** Param<void>: the type is given at run time. */
    template <typename U = T, typename = std::enable_if_t<std::is_void_v<U>>>
    explicit Param(Type t, const std::string &name = "")
        : param_(Internal::make_scalar_parameter(t, name)) {}

    const std::string &name() const { return param_.name(); }
    /** Was the name given to the constructor (rather than made up)? */
    bool is_explicit_name() const { return param_.is_explicit_name(); }
    Type type() const { return param_.type(); }

    /** The value, read as T (or as U, which must be the Param's type). */
    template <typename U = T> U get() const {
        static_assert(!std::is_void_v<U>, "Param<void>::get needs a type: p.get<float>()");
        if (type_of<U>() != type()) Internal::param_type_error(param_, type_of<U>());
        uint64_t bits = param_.scalar_bits();
        if constexpr (std::is_same_v<U, float16_t> || std::is_same_v<U, bfloat16_t>) {
            return U::make_from_bits(uint16_t(bits));
        } else {
            U v;
            std::memcpy(&v, &bits, sizeof(U));
            return v;
        }
    }
    /** Set the value; it must convert to the Param's type without loss (as
     * in Halide), else CompileError. */
    template <typename U> void set(const U &value) {
        uint64_t bits = 0;
        if (!Internal::param_bits_of(type(), value, &bits)) {
            if constexpr (std::is_pointer_v<U>) {
                Internal::param_value_error(param_, "a pointer");
            } else {
                Internal::param_value_error(param_, std::to_string(double(value)));
            }
        }
        param_.set_scalar_bits(bits);
    }
    /** A string literal or other array sets a pointer Param (Param<const char *>). */
    template <typename U, size_t N> void set(const U (&value)[N]) {
        set(static_cast<const U *>(value));
    }

    /** The value must lie in [min, max] when the pipeline runs. */
    void set_range(const Expr &min, const Expr &max) {
        set_min_value(min);
        set_max_value(max);
    }
    void set_min_value(const Expr &min) { Internal::set_scalar_parameter_bound(param_, min, true); }
    void set_max_value(const Expr &max) {
        Internal::set_scalar_parameter_bound(param_, max, false);
    }
    Expr min_value() const { return param_.min_value(); }
    Expr max_value() const { return param_.max_value(); }

    /** The value the pipeline is expected to run with, for auto-schedulers
     * (stored only; it is never used as the value). */
    template <typename U> void set_estimate(const U &value) {
        Internal::set_scalar_parameter_estimate(param_, Expr(value));
    }
    /** The estimate, of the Param's type (undefined when none was set). */
    Expr estimate() const { return param_.estimate(); }

    operator Expr() const { return Internal::scalar_parameter_expr(param_); }
    const Internal::Parameter &parameter() const { return param_; }
};

} // namespace loom

#endif
