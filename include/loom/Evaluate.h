#ifndef LOOM_EVALUATE_H
#define LOOM_EVALUATE_H

/** \file evaluate<T>(e): compile and run a scalar expression once (JIT),
 * as Halide's evaluate. Handy in tests and for constants computed by Loom. */

#include <string>
#include <vector>

#include "loom/Buffer.h"
#include "loom/Error.h"
#include "loom/Func.h"
#include "loom/Tuple.h"

namespace loom {

namespace Internal {
inline void check_evaluate_type(const Expr &e, Type want) {
    if (!e.defined()) throw CompileError("evaluate of an undefined Expr");
    if (e.type() != want)
        throw CompileError("Cannot evaluate an expression of type " + type_to_string(e.type()) +
                           " as a scalar of type " + type_to_string(want) +
                           "; cast it, or ask for evaluate<" + type_to_string(e.type()) + ">");
}

/** Halide's schedule for evaluate_may_gpu: one GPU thread when the JIT
 * target has a GPU API, else nothing. */
void schedule_scalar(Func f);
template <typename T> void store_evaluated(const Buffer<> &b, T *out) {
    *out = Buffer<T, 0>(b)(std::vector<int>{});
}
} // namespace Internal

/** The value of the scalar expression e, which must have type T and may
 * use no Vars (Params and Buffers are fine). */
template <typename T> T evaluate(const Expr &e) {
    Internal::check_evaluate_type(e, type_of<T>());
    Func f("evaluate");
    f() = e;
    Buffer<T, 0> result = f.realize();
    return result(std::vector<int>{});
}

/** The elements of a Tuple, stored through the pointers (one per element,
 * of the element's type). */
template <typename First, typename... Rest>
void evaluate(const Tuple &t, First *first, Rest *...rest) {
    std::vector<Type> want{type_of<First>(), type_of<Rest>()...};
    if (t.size() != want.size())
        throw CompileError("evaluate of a Tuple of " + std::to_string(t.size()) +
                           " elements into " + std::to_string(want.size()) + " values");
    for (size_t i = 0; i < want.size(); i++) Internal::check_evaluate_type(t[i], want[i]);
    Func f("evaluate");
    f() = t;
    Realization r = f.realize();
    size_t i = 0;
    Internal::store_evaluated(r[i++], first);
    (Internal::store_evaluated(r[i++], rest), ...);
}

/** evaluate(), run on the GPU in a single thread when the JIT target
 * (get_jit_target_from_environment()) has a GPU API, as Halide's. */
template <typename T> T evaluate_may_gpu(const Expr &e) {
    Internal::check_evaluate_type(e, type_of<T>());
    Func f("evaluate");
    f() = e;
    Internal::schedule_scalar(f);
    Buffer<T, 0> result = f.realize();
    return result(std::vector<int>{});
}
template <typename First, typename... Rest>
void evaluate_may_gpu(const Tuple &t, First *first, Rest *...rest) {
    std::vector<Type> want{type_of<First>(), type_of<Rest>()...};
    if (t.size() != want.size())
        throw CompileError("evaluate_may_gpu of a Tuple of " + std::to_string(t.size()) +
                           " elements into " + std::to_string(want.size()) + " values");
    for (size_t i = 0; i < want.size(); i++) Internal::check_evaluate_type(t[i], want[i]);
    Func f("evaluate");
    f() = t;
    Internal::schedule_scalar(f);
    Realization r = f.realize();
    size_t i = 0;
    Internal::store_evaluated(r[i++], first);
    (Internal::store_evaluated(r[i++], rest), ...);
}

} // namespace loom

#endif
