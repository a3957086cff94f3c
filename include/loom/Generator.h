#ifndef LOOM_GENERATOR_H
#define LOOM_GENERATOR_H

/** \file Generators: a pipeline written as a class so that a build system can
 * compile it ahead of time. A generator declares GeneratorParams (compile-time
 * knobs set on the command line), Inputs (the arguments of the generated
 * function, in declaration order) and Outputs (Funcs it defines in
 * generate() and schedules in generate() or schedule()):
 *
 *     class Brighten : public loom::Generator<Brighten> {
 *     public:
 *         GeneratorParam<int> offset{"offset", 10, 0, 255};
 *         Input<Buffer<uint8_t, 2>> input{"input"};
 *         Output<Buffer<uint8_t, 2>> output{"output"};
 *         void generate() { output(x, y) = input(x, y) + cast<uint8_t>(offset); }
 *         Var x, y;
 *     };
 *     LOOM_REGISTER_GENERATOR(Brighten, brighten)
 *
 * The driver (Loom::Generator supplies its main) writes the requested files:
 * `gen -g brighten -o out -e static_library offset=20 target=host`. */

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "loom/Argument.h"
#include "loom/Buffer.h"
#include "loom/Error.h"
#include "loom/Expr.h"
#include "loom/Func.h"
#include "loom/ImageParam.h"
#include "loom/Param.h"
#include "loom/Pipeline.h"
#include "loom/Target.h"
#include "loom/Type.h"

namespace loom {
namespace Internal {

class GeneratorBase;

/** Parses "int32", "uint8", "float32", "bool", ... (the spelling of
 * type_to_string); throws CompileError listing the valid names. */
Type parse_type_name(const std::string &what, const std::string &text);
/** Strict number parsing for GeneratorParams; throw CompileError naming `what`. */
long long parse_integer(const std::string &what, const std::string &expected,
                        const std::string &text);
double parse_floating(const std::string &what, const std::string &expected,
                      const std::string &text);
/** Shortest decimal text that reads back as v (for float params). */
std::string floating_to_string(double v);
bool parse_boolean(const std::string &what, const std::string &text);
/** `what` expects `expected`, got `text`. */
[[noreturn]] void generator_param_error(const std::string &what, const std::string &expected,
                                        const std::string &text);

/** Every GeneratorParam, Input and Output registers itself with the generator
 * object it is a member of (found by address), in declaration order. */
void register_generator_param(void *member, class GeneratorParamBase *p);
void register_generator_input(void *member, class GeneratorInputBase *in);
void register_generator_output(void *member, class GeneratorOutputBase *out);

/** The type-erased face of GeneratorParam<T>: what the driver needs. */
class GeneratorParamBase {
    std::string param_name_;

public:
    explicit GeneratorParamBase(std::string name);
    virtual ~GeneratorParamBase() = default;
    GeneratorParamBase(const GeneratorParamBase &) = delete;
    GeneratorParamBase &operator=(const GeneratorParamBase &) = delete;

    const std::string &param_name() const { return param_name_; }
    /** Set from command-line text; throws CompileError saying what was expected. */
    virtual void set_from_string(const std::string &text) = 0;
    /** The current value as the command line would spell it. */
    virtual std::string value_string() const = 0;
    /** What values are accepted, e.g. "int in [1, 8]" or "one of {fast, slow}". */
    virtual std::string type_description() const = 0;
};

/** The type-erased face of an Input: its argument and (for Input<Buffer<>>
 * with type or dimensions from GeneratorParams) the deferred ImageParam. */
class GeneratorInputBase {
    std::string input_name_;

public:
    explicit GeneratorInputBase(std::string name);
    virtual ~GeneratorInputBase() = default;
    GeneratorInputBase(const GeneratorInputBase &) = delete;
    GeneratorInputBase &operator=(const GeneratorInputBase &) = delete;

    const std::string &input_name() const { return input_name_; }
    /** Called before generate(), once the GeneratorParams are final. */
    virtual void finalize_input() {}
    virtual Argument input_argument() const { return Argument(input_name_); }
};

/** The type-erased face of an Output: its Func and the declared shape. */
class GeneratorOutputBase {
    std::string output_name_;

protected:
    std::optional<Type> declared_type_;
    int declared_dims_ = -1;

public:
    GeneratorOutputBase(std::string name, std::optional<Type> type, int dims);
    virtual ~GeneratorOutputBase() = default;
    GeneratorOutputBase(const GeneratorOutputBase &) = delete;
    GeneratorOutputBase &operator=(const GeneratorOutputBase &) = delete;

    const std::string &output_name() const { return output_name_; }
    virtual Func output_func() const = 0;
    /** Throws CompileError when the Func is undefined or its type or
     * dimensions differ from the declaration. */
    void check_output(const std::string &generator_name) const;
};

// ---- Value handling of GeneratorParam<T>, one overload set per kind of T.

template <typename T> struct is_buffer_type : std::false_type {};
template <typename T, int D> struct is_buffer_type<Buffer<T, D>> : std::true_type {};

template <typename T> std::string value_to_string(const T &v) {
    if constexpr (std::is_same_v<T, bool>) {
        return v ? "true" : "false";
    } else if constexpr (std::is_same_v<T, std::string>) {
        return v;
    } else if constexpr (std::is_same_v<T, Type>) {
        return type_to_string(v);
    } else if constexpr (std::is_same_v<T, Target>) {
        return v.to_string();
    } else if constexpr (std::is_integral_v<T>) {
        return std::to_string((long long)v);
    } else {
        static_assert(std::is_floating_point_v<T>, "value_to_string: unsupported type");
        return floating_to_string(double(v));
    }
}

} // namespace Internal

/** A compile-time parameter of a generator: a number (with an optional
 * range), bool, enum (with a name map), Type, Target or std::string. It
 * reads like its value: `if (fast)`, `x * factor`, `cast(type, e)`. */
template <typename T> class GeneratorParam : public Internal::GeneratorParamBase {
    static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T> || std::is_same_v<T, Type> ||
                      std::is_same_v<T, Target> || std::is_same_v<T, std::string>,
                  "GeneratorParam<T>: T must be a number, bool, enum, loom::Type, loom::Target "
                  "or std::string");
    static constexpr bool is_number = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;

    T value_;
    std::optional<T> min_, max_;
    std::vector<std::pair<std::string, T>> enum_names_;

    void check_range(const T &v, const std::string &text) const {
        if constexpr (is_number) {
            if ((min_ && v < *min_) || (max_ && v > *max_))
                Internal::generator_param_error("GeneratorParam '" + param_name() + "'",
                                                type_description(), text);
        }
    }

public:
    /** A parameter with a default value. Enums need the name map below. */
    GeneratorParam(const std::string &name, const T &value)
        : GeneratorParamBase(name), value_(value) {
        static_assert(!std::is_enum_v<T>,
                      "GeneratorParam of an enum needs a name map: {\"name\", value, {{\"a\", "
                      "E::A}, ...}}");
        Internal::register_generator_param(this, this);
    }
    /** A number with a default and an inclusive range. */
    template <typename U = T, typename = std::enable_if_t<std::is_arithmetic_v<U>>>
    GeneratorParam(const std::string &name, const T &value, const T &min, const T &max)
        : GeneratorParamBase(name), value_(value), min_(min), max_(max) {
        Internal::register_generator_param(this, this);
        check_range(value, Internal::value_to_string(value));
    }
    /** An enum with a default and the names the command line uses. */
    GeneratorParam(const std::string &name, const T &value, const std::map<std::string, T> &names)
        : GeneratorParamBase(name), value_(value), enum_names_(names.begin(), names.end()) {
        Internal::register_generator_param(this, this);
    }

    const T &value() const { return value_; }
    operator T() const { return value_; }
    /** Numbers read as constants in expressions. */
    template <typename U = T, typename = std::enable_if_t<std::is_arithmetic_v<U>>>
    operator Expr() const {
        return Expr(value_);
    }

    /** Set from C++ (before generate()); numbers are range-checked. */
    void set(const T &v) {
        check_range(v, Internal::value_to_string(v));
        value_ = v;
    }

    void set_from_string(const std::string &text) override {
        const std::string what = "GeneratorParam '" + param_name() + "'";
        if constexpr (std::is_same_v<T, bool>) {
            value_ = Internal::parse_boolean(what, text);
        } else if constexpr (std::is_enum_v<T>) {
            for (const auto &[n, v] : enum_names_)
                if (n == text) {
                    value_ = v;
                    return;
                }
            Internal::generator_param_error(what, type_description(), text);
        } else if constexpr (std::is_integral_v<T>) {
            long long v = Internal::parse_integer(what, type_description(), text);
            if (!type_of<T>().can_represent((int64_t)v) || (std::is_unsigned_v<T> && v < 0))
                Internal::generator_param_error(what, type_description(), text);
            set_checked(T(v), text);
        } else if constexpr (std::is_floating_point_v<T>) {
            set_checked(T(Internal::parse_floating(what, type_description(), text)), text);
        } else if constexpr (std::is_same_v<T, Type>) {
            value_ = Internal::parse_type_name(what, text);
        } else if constexpr (std::is_same_v<T, Target>) {
            if (!Target::validate_target_string(text))
                Internal::generator_param_error(what, type_description(), text);
            value_ = Target(text);
        } else {
            value_ = text;
        }
    }

    std::string value_string() const override {
        if constexpr (std::is_enum_v<T>) {
            for (const auto &[n, v] : enum_names_)
                if (v == value_) return n;
            return "?";
        } else {
            return Internal::value_to_string(value_);
        }
    }

    std::string type_description() const override {
        if constexpr (std::is_same_v<T, bool>) {
            return "true or false";
        } else if constexpr (std::is_enum_v<T>) {
            std::string s = "one of {";
            for (size_t i = 0; i < enum_names_.size(); i++)
                s += (i ? ", " : "") + enum_names_[i].first;
            return s + "}";
        } else if constexpr (is_number) {
            std::string s = std::is_integral_v<T>
                                ? "an integer (" + type_to_string(type_of<T>()) + ")"
                                : "a number (" + type_to_string(type_of<T>()) + ")";
            if (min_ || max_)
                s += " in [" + (min_ ? Internal::value_to_string(*min_) : std::string("-inf")) +
                     ", " + (max_ ? Internal::value_to_string(*max_) : std::string("inf")) + "]";
            return s;
        } else if constexpr (std::is_same_v<T, Type>) {
            return "a type (int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, "
                   "float64, bool)";
        } else if constexpr (std::is_same_v<T, Target>) {
            return "a target string (host, x86-64-linux-avx2, ...)";
        } else {
            return "a string";
        }
    }

private:
    void set_checked(const T &v, const std::string &text) {
        check_range(v, text);
        value_ = v;
    }
};

// GeneratorParams in arithmetic read as their values; these templates pick
// that reading over the competing conversions (to T and to Expr).
#define LOOM_GP_OP(NAME, SYM)                                                                      \
    template <typename T, typename Other,                                                          \
              typename =                                                                           \
                  std::enable_if_t<!std::is_base_of_v<Internal::GeneratorParamBase, Other>>>       \
    auto NAME(const GeneratorParam<T> &a, const Other &b)->decltype(a.value() SYM b) {             \
        return a.value() SYM b;                                                                    \
    }                                                                                              \
    template <typename Other, typename T,                                                          \
              typename =                                                                           \
                  std::enable_if_t<!std::is_base_of_v<Internal::GeneratorParamBase, Other>>>       \
    auto NAME(const Other &a, const GeneratorParam<T> &b)->decltype(a SYM b.value()) {             \
        return a SYM b.value();                                                                    \
    }
LOOM_GP_OP(operator+, +)
LOOM_GP_OP(operator-, -)
LOOM_GP_OP(operator*, *)
LOOM_GP_OP(operator/, /)
LOOM_GP_OP(operator%, %)
LOOM_GP_OP(operator<, <)
LOOM_GP_OP(operator<=, <=)
LOOM_GP_OP(operator>, >)
LOOM_GP_OP(operator>=, >=)
LOOM_GP_OP(operator==, ==)
LOOM_GP_OP(operator!=, !=)
LOOM_GP_OP(operator&&, &&)
LOOM_GP_OP(operator||, ||)
#undef LOOM_GP_OP
template <typename T> auto operator-(const GeneratorParam<T> &a) -> decltype(-a.value()) {
    return -a.value();
}
template <typename T> auto operator!(const GeneratorParam<T> &a) -> decltype(!a.value()) {
    return !a.value();
}

template <typename T> class Input;
template <typename T> class Output;

/** A scalar argument of the generated function: reads like a Param<T>. */
template <typename T> class Input : public Param<T>, public Internal::GeneratorInputBase {
    static_assert(std::is_arithmetic_v<T>, "Input<T>: T must be a number, bool or Buffer<T, D>");

public:
    explicit Input(const std::string &name) : Param<T>(name), GeneratorInputBase(name) {
        Internal::register_generator_input(this, this);
    }
    /** With a default value (used by the JIT; AOT callers pass the value). */
    Input(const std::string &name, T value) : Param<T>(name, value), GeneratorInputBase(name) {
        Internal::register_generator_input(this, this);
    }
    /** With a default and a range that the generated code checks. */
    Input(const std::string &name, T value, T min, T max)
        : Param<T>(name, value, Expr(min), Expr(max)), GeneratorInputBase(name) {
        Internal::register_generator_input(this, this);
    }
    /** Typed, so the argument keeps its place even when the pipeline never reads it. */
    Argument input_argument() const override {
        return Argument(*static_cast<const Param<T> *>(this));
    }
};

/** A buffer argument of the generated function: reads like an ImageParam.
 * With T = void or D = -1, the element type or dimension count comes from
 * the GeneratorParams "<name>.type" and "<name>.dim" (defaults may be given
 * to the constructor). */
template <typename T, int D>
class Input<Buffer<T, D>> : public ImageParam, public Internal::GeneratorInputBase {
    static_assert(std::is_void_v<T> || std::is_arithmetic_v<T>,
                  "Input<Buffer<T, D>>: T must be a number type or void");
    std::optional<GeneratorParam<Type>> type_param_;
    std::optional<GeneratorParam<int>> dim_param_;

    static Type static_type(Type fallback) {
        if constexpr (std::is_void_v<T>)
            return fallback;
        else
            return type_of<T>();
    }

public:
    explicit Input(const std::string &name, Type type = Type(), int dims = -1)
        : GeneratorInputBase(name) {
        if constexpr (std::is_void_v<T>) type_param_.emplace(name + ".type", type);
        if constexpr (D < 0) dim_param_.emplace(name + ".dim", dims, -1, 16);
        if (!type_param_ && !dim_param_)
            ImageParam::operator=(ImageParam(static_type(type), D, name));
        Internal::register_generator_input(this, this);
    }

    void finalize_input() override {
        if (!type_param_ && !dim_param_) return;
        Type t = type_param_ ? type_param_->value() : static_type(Type());
        int d = dim_param_ ? dim_param_->value() : D;
        if (t.is_void())
            throw CompileError("Input '" + input_name() + "' has no element type: set " +
                               input_name() + ".type=<type> (e.g. uint8)");
        if (d < 0)
            throw CompileError("Input '" + input_name() + "' has no dimension count: set " +
                               input_name() + ".dim=<n>");
        ImageParam::operator=(ImageParam(t, d, input_name()));
    }
    Argument input_argument() const override {
        return Argument(*static_cast<const ImageParam *>(this));
    }
    using ImageParam::operator();
};

/** An output of the generated function: a Func to define and schedule
 * (`out(x, y) = ...; out.vectorize(x, 8);`). The definition must have the
 * declared element type and dimensions. */
template <typename T, int D>
class Output<Buffer<T, D>> : public Func, public Internal::GeneratorOutputBase {
    static std::optional<Type> declared(Type given) {
        if constexpr (!std::is_void_v<T>) return type_of<T>();
        if (!given.is_void()) return given;
        return std::nullopt;
    }

public:
    explicit Output(const std::string &name, Type type = Type(), int dims = -1)
        : Func(name), GeneratorOutputBase(name, declared(type), D >= 0 ? D : dims) {
        Internal::register_generator_output(this, this);
    }
    Func output_func() const override { return *this; }

    /** Constraints on the output buffer (e.g. dim(0).set_stride(...)). */
    Dimension dim(int i) const { return output_buffer().dim(i); }

    using Func::operator();
    Output &operator=(const Func &f) = delete;
};

namespace Internal {

/** What every generator has; Generator<T> adds the calls into T. */
class GeneratorBase {
    friend void register_generator_param(void *, GeneratorParamBase *);
    friend void register_generator_input(void *, GeneratorInputBase *);
    friend void register_generator_output(void *, GeneratorOutputBase *);

    std::string generator_name_ = "generator";
    Target target_;
    std::vector<GeneratorParamBase *> params_;
    std::vector<GeneratorInputBase *> inputs_;
    std::vector<GeneratorOutputBase *> outputs_;
    Pipeline pipeline_;
    AutoschedulerParams autoscheduler_;
    bool use_autoscheduler_ = false;

protected:
    /** size = sizeof the most derived class, so members can find us. */
    explicit GeneratorBase(size_t size);
    virtual void call_generate() = 0;
    virtual void call_schedule() = 0;

public:
    virtual ~GeneratorBase();
    GeneratorBase(const GeneratorBase &) = delete;
    GeneratorBase &operator=(const GeneratorBase &) = delete;

    /** The registered name (used in messages). */
    const std::string &generator_name() const { return generator_name_; }
    void set_generator_name(const std::string &n) { generator_name_ = n; }

    /** The target code is generated for (the GeneratorParam "target"). */
    Target get_target() const { return target_; }
    void set_target(const Target &t);
    /** Was an auto-scheduler asked for, with the GeneratorParam
     * "autoscheduler=Loom" (options as "autoscheduler.parallelism=8") or
     * Halide 14's "auto_schedule=true"? build_pipeline() then runs it after
     * schedule(), on the Funcs schedule() left alone, with the sizes given
     * by set_estimate(s). */
    bool using_autoscheduler() const { return use_autoscheduler_; }
    const AutoschedulerParams &autoscheduler_params() const { return autoscheduler_; }
    /** Lanes of T that fill one SIMD register of the target. */
    int natural_vector_size(Type t) const;
    template <typename T> int natural_vector_size() const {
        return natural_vector_size(type_of<T>());
    }

    /** Set a GeneratorParam (or "target") from text; throws CompileError
     * naming the valid parameters or the expected value. */
    void set_generator_param(const std::string &name, const std::string &value);
    void set_generator_params(const std::map<std::string, std::string> &values);
    const std::vector<GeneratorParamBase *> &generator_params() const { return params_; }
    const std::vector<GeneratorInputBase *> &generator_inputs() const { return inputs_; }
    const std::vector<GeneratorOutputBase *> &generator_outputs() const { return outputs_; }
    /** One line per parameter: name, accepted values, default. */
    std::string describe_params() const;

    /** Runs generate() and schedule() (once) and returns the pipeline of
     * the Outputs in declaration order. */
    Pipeline build_pipeline();
    /** The Inputs in declaration order: the leading arguments of the
     * generated function (the Outputs follow). */
    std::vector<Argument> arguments() const;

    /** Writes `dir/base.<ext>` for each kind (see generator_output_kinds()). */
    void emit(const std::string &dir, const std::string &base, const std::string &function_name,
              const std::vector<std::string> &kinds);
};

/** The -e kinds the driver knows, with the file each one writes. */
const std::vector<std::pair<std::string, std::string>> &generator_output_kinds();

using GeneratorFactory = std::function<std::unique_ptr<GeneratorBase>()>;

/** Name -> factory of every LOOM_REGISTER_GENERATOR in the program. */
class GeneratorRegistry {
public:
    static void register_factory(const std::string &name, GeneratorFactory factory);
    static void unregister_factory(const std::string &name);
    static std::vector<std::string> enumerate();
    /** A new instance; throws CompileError listing the registered names. */
    static std::unique_ptr<GeneratorBase> create(const std::string &name);
};

struct RegisterGenerator {
    RegisterGenerator(const char *name, GeneratorFactory factory) {
        GeneratorRegistry::register_factory(name, std::move(factory));
    }
};

/** The generator driver's command line (see docs/guide/generators.md);
 * returns the exit status. Messages go to out / err. */
int generate_filter_main(int argc, char **argv, std::ostream &out, std::ostream &err);
int generate_filter_main(int argc, char **argv);

} // namespace Internal

/** Base of every generator; T is the generator class itself (CRTP). It must
 * define generate() and may define schedule(). */
template <typename T> class Generator : public Internal::GeneratorBase {
protected:
    Generator() : GeneratorBase(sizeof(T)) {}

    void call_generate() override { static_cast<T *>(this)->generate(); }
    void call_schedule() override { static_cast<T *>(this)->schedule(); }

public:
    template <typename U> using Input = loom::Input<U>;
    template <typename U> using Output = loom::Output<U>;
    template <typename U> using GeneratorParam = loom::GeneratorParam<U>;

    /** The default schedule does nothing (schedule in generate()). */
    void schedule() {}
};

} // namespace loom

/** Makes GEN_CLASS known to the driver as GEN_NAME (an identifier). */
#define LOOM_REGISTER_GENERATOR(GEN_CLASS, GEN_NAME)                                               \
    namespace loom_generator_registration_##GEN_NAME {                                             \
        static ::loom::Internal::RegisterGenerator registerer(#GEN_NAME, [] {                      \
            return std::unique_ptr<::loom::Internal::GeneratorBase>(new GEN_CLASS());              \
        });                                                                                        \
    }

#endif
