#ifndef LOOM_CALLABLE_H
#define LOOM_CALLABLE_H

/** \file Callable: a pipeline JIT-compiled once for a fixed list of
 * arguments (Pipeline::compile_to_callable, Func::compile_to_callable) and
 * called like a function:
 *
 *     Callable c = f.compile_to_callable({input, offset});
 *     int err = c(in_buffer, uint8_t(3), out_buffer);
 *
 * The arguments are the listed ones in order, then one output buffer per
 * output (per Tuple element). Buffers may be Buffer, Runtime::Buffer or
 * loom_buffer_t *; a scalar must have exactly the listed type (pass
 * uint8_t(3), not 3, for a Param<uint8_t>), as in Halide. A Callable does
 * not read the values set on Params and ImageParams, holds no per-call
 * state, and may be called from several threads at once.
 *
 * A call returns 0. On failure (bad arguments, a failed check in the
 * pipeline) it throws RuntimeError with the message, unless the handlers in
 * effect (the JITUserContext passed first, then the Pipeline's
 * jit_handlers() when the Callable was made) have a custom_error, which
 * then receives the message while the call returns the negative error code. */

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <type_traits>
#include <vector>

#include "LoomBuffer.h"
#include "LoomRuntime.h"
#include "loom/Argument.h"
#include "loom/Buffer.h"
#include "loom/JITHandlers.h"

namespace loom {

namespace Internal {
struct CallableContents;

template <typename> struct IsFrontEndBuffer : std::false_type {};
template <typename T, int D> struct IsFrontEndBuffer<Buffer<T, D>> : std::true_type {};
template <typename> struct IsRuntimeBuffer : std::false_type {};
template <typename T, int D> struct IsRuntimeBuffer<Runtime::Buffer<T, D>> : std::true_type {};
template <typename> constexpr bool always_false = false;
} // namespace Internal

class Callable {
public:
    /** One argument of a call, with its C++ type erased. */
    struct Value {
        bool is_buffer = false;
        loom_type_t scalar_type{}; // the C++ type of a scalar
        uint64_t scalar_bits = 0;  // its bytes, as Param<T>::set stores them
        loom_buffer_t *buffer = nullptr;
    };

    /** An empty Callable; calling it is an error. */
    Callable() = default;
    /** Made by compile_to_callable. */
    explicit Callable(std::shared_ptr<const Internal::CallableContents> c)
        : contents(std::move(c)) {}

    bool defined() const { return contents != nullptr; }
    /** The arguments a call takes, the output buffers last. */
    const std::vector<Argument> &arguments() const;

    /** Run with per-call handlers (see JITHandlers.h). */
    template <typename... Args> int operator()(JITUserContext *context, Args &&...args) const {
        const Value values[] = {value_of(args)..., Value()};
        return call(context, values, sizeof...(Args));
    }
    template <
        typename First, typename... Rest,
        typename = std::enable_if_t<!std::is_convertible_v<std::decay_t<First>, JITUserContext *> &&
                                    !std::is_same_v<std::decay_t<First>, std::nullptr_t>>>
    int operator()(First &&first, Rest &&...rest) const {
        const Value values[] = {value_of(first), value_of(rest)...};
        return call(nullptr, values, 1 + sizeof...(Rest));
    }

    /** A std::function calling this Callable (which it keeps alive). */
    template <typename... Args> std::function<int(Args...)> make_std_function() const {
        Callable self = *this;
        return [self](Args... args) { return self(args...); };
    }

    /** The low-overhead call (Halide's call_argv_fast): argv[0] points to a
     * JITUserContext * (which may be null: no per-call handlers), then
     * argv[1 + i] is arguments()[i]: a loom_buffer_t * for a buffer, a
     * pointer to the value for a scalar. argc counts all of them. Only argc
     * is checked; the types are trusted, so a scalar must point to exactly
     * the argument's type. Errors in the pipeline are reported as by
     * operator(). */
    int call_argv_fast(size_t argc, const void *const *argv) const;

    /** Call with arguments already erased (what operator() does). */
    int call(JITUserContext *context, const Value *values, size_t count) const;

private:
    std::shared_ptr<const Internal::CallableContents> contents;

    template <typename A> static Value value_of(const A &a) {
        using D = std::decay_t<A>;
        Value v;
        if constexpr (Internal::IsFrontEndBuffer<D>::value) {
            v.is_buffer = true;
            v.buffer = a.defined() ? a.raw_buffer() : nullptr;
        } else if constexpr (Internal::IsRuntimeBuffer<D>::value) {
            v.is_buffer = true;
            v.buffer = const_cast<loom_buffer_t *>(a.raw_buffer());
        } else if constexpr (std::is_same_v<D, loom_buffer_t *> ||
                             std::is_same_v<D, const loom_buffer_t *>) {
            v.is_buffer = true;
            v.buffer = const_cast<loom_buffer_t *>(a);
        } else if constexpr (std::is_arithmetic_v<D>) {
            v.scalar_type = Runtime::Internal::type_of<D>();
            std::memcpy(&v.scalar_bits, &a, sizeof(D));
        } else {
            static_assert(Internal::always_false<D>,
                          "a Callable takes Buffers, Runtime::Buffers, loom_buffer_t * and "
                          "arithmetic scalars");
        }
        return v;
    }
};

} // namespace loom

#endif
