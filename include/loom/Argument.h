#ifndef LOOM_ARGUMENT_H
#define LOOM_ARGUMENT_H

/** \file Argument: one argument of a compiled pipeline (name, kind, type,
 * dimensions). A list of them fixes the order of the entry point's arguments
 * (compile_to_static_library, compile_to_header, compile_to_lowered_stmt, ...);
 * an Argument with a known shape (from a Param<T>, an ImageParam or an
 * OutputImageParam, or built explicitly) becomes an argument even when the
 * pipeline never reads it. */

#include <string>
#include <type_traits>
#include <utility>

#include "loom/Parameter.h"
#include "loom/Type.h"

namespace loom {

namespace Internal {
/** Does T have a parameter() returning an Internal::Parameter? */
template <typename T, typename = void> struct HasParameter : std::false_type {};
template <typename T>
struct HasParameter<T,
                    std::enable_if_t<std::is_same_v<
                        std::decay_t<decltype(std::declval<const T &>().parameter())>, Parameter>>>
    : std::true_type {};
} // namespace Internal

struct Argument {
    enum Kind { InputScalar = 0, InputBuffer = 1, OutputBuffer = 2 };

    std::string name;
    Kind kind = InputScalar;
    /** Element type for buffers, the value's type for scalars. */
    Type type;
    /** 0 for scalars. */
    int dimensions = 0;
    /** True when only the name is known (built from a string or a Buffer):
     * such an Argument places an input the pipeline reads, and is skipped
     * when the pipeline does not read it. */
    bool name_only = false;

    Argument() = default;
    /** Name only: orders an input the pipeline reads. */
    Argument(std::string n) : name(std::move(n)), name_only(true) {}
    Argument(const char *n) : name(n), name_only(true) {}
    Argument(std::string n, Kind k, Type t, int dims)
        : name(std::move(n)), kind(k), type(t), dimensions(dims) {}

    /** From a Param<T>, ImageParam or OutputImageParam (anything whose
     * parameter() is an Internal::Parameter). Buffers become InputBuffer;
     * an OutputImageParam naming an output Func's buffer just places nothing,
     * as output buffers always follow the inputs. */
    template <typename T, std::enable_if_t<Internal::HasParameter<T>::value, int> = 0>
    Argument(const T &x) : Argument(from_parameter(x.parameter())) {}

    /** From anything else with a name(), such as a Buffer: name only. */
    template <typename T, std::enable_if_t<!Internal::HasParameter<T>::value, int> = 0,
              typename = decltype(std::declval<const T &>().name())>
    Argument(const T &x) : name(x.name()), name_only(true) {}

    bool is_buffer() const { return kind != InputScalar; }
    bool is_scalar() const { return kind == InputScalar; }
    bool is_input() const { return kind != OutputBuffer; }
    bool is_output() const { return kind == OutputBuffer; }

private:
    static Argument from_parameter(const Internal::Parameter &p) {
        if (!p.defined()) return Argument(std::string());
        return Argument(p.name(), p.is_buffer() ? InputBuffer : InputScalar, p.type(),
                        p.is_buffer() ? p.dimensions() : 0);
    }
};

} // namespace loom

#endif
