#ifndef LOOM_EXTERN_H
#define LOOM_EXTERN_H

/** \file Calls of the user's own C functions from pipelines: Halide's
 * HalideExtern_N and HalidePureExtern_N macros (and LoomExtern_N,
 * LoomPureExtern_N spellings). `HalideExtern_2(float, my_fn, float, int);`
 * declares `Expr my_fn(const Expr &, const Expr &)`, whose value calls the C
 * function `extern "C" float my_fn(float, int)` once per point (per lane
 * in a vectorized loop). The JIT finds the function in the process: it must
 * have C linkage and be exported (an executable links with -rdynamic, or
 * CMake's ENABLE_EXPORTS). The arguments' types must match exactly. Pure
 * calls may be hoisted and shared like arithmetic; the others are made
 * wherever the algorithm makes them. */

#include <string>
#include <vector>

#include "loom/Expr.h"
#include "loom/Type.h"

namespace loom {
namespace Internal {

/** A call of the C function `name`, returning `result`. */
Expr make_extern_call(const Type &result, const std::string &name, const std::vector<Expr> &args,
                      bool pure);

/** Throws a CompileError unless `arg` has type `expected` (argument `index`,
 * from 1, of the C function `name`). */
void check_extern_arg(const Type &expected, const char *name, const Expr &arg, int index);

} // namespace Internal
} // namespace loom

#define LOOM_EXTERN_ARG_(t, name, a, n)                                                            \
    ::loom::Internal::check_extern_arg(::loom::type_of<t>(), #name, a, n)
#define LOOM_EXTERN_CALL_(rt, name, pure, ...)                                                     \
    ::loom::Internal::make_extern_call(::loom::type_of<rt>(), #name, {__VA_ARGS__}, pure)

#define LOOM_EXTERN_1_(pure, rt, name, t1)                                                         \
    inline ::loom::Expr name(const ::loom::Expr &a1) {                                             \
        LOOM_EXTERN_ARG_(t1, name, a1, 1);                                                         \
        return LOOM_EXTERN_CALL_(rt, name, pure, a1);                                              \
    }
#define LOOM_EXTERN_2_(pure, rt, name, t1, t2)                                                     \
    inline ::loom::Expr name(const ::loom::Expr &a1, const ::loom::Expr &a2) {                     \
        LOOM_EXTERN_ARG_(t1, name, a1, 1);                                                         \
        LOOM_EXTERN_ARG_(t2, name, a2, 2);                                                         \
        return LOOM_EXTERN_CALL_(rt, name, pure, a1, a2);                                          \
    }
#define LOOM_EXTERN_3_(pure, rt, name, t1, t2, t3)                                                 \
    inline ::loom::Expr name(const ::loom::Expr &a1, const ::loom::Expr &a2,                       \
                             const ::loom::Expr &a3) {                                             \
        LOOM_EXTERN_ARG_(t1, name, a1, 1);                                                         \
        LOOM_EXTERN_ARG_(t2, name, a2, 2);                                                         \
        LOOM_EXTERN_ARG_(t3, name, a3, 3);                                                         \
        return LOOM_EXTERN_CALL_(rt, name, pure, a1, a2, a3);                                      \
    }
#define LOOM_EXTERN_4_(pure, rt, name, t1, t2, t3, t4)                                             \
    inline ::loom::Expr name(const ::loom::Expr &a1, const ::loom::Expr &a2,                       \
                             const ::loom::Expr &a3, const ::loom::Expr &a4) {                     \
        LOOM_EXTERN_ARG_(t1, name, a1, 1);                                                         \
        LOOM_EXTERN_ARG_(t2, name, a2, 2);                                                         \
        LOOM_EXTERN_ARG_(t3, name, a3, 3);                                                         \
        LOOM_EXTERN_ARG_(t4, name, a4, 4);                                                         \
        return LOOM_EXTERN_CALL_(rt, name, pure, a1, a2, a3, a4);                                  \
    }
#define LOOM_EXTERN_5_(pure, rt, name, t1, t2, t3, t4, t5)                                         \
    inline ::loom::Expr name(const ::loom::Expr &a1, const ::loom::Expr &a2,                       \
                             const ::loom::Expr &a3, const ::loom::Expr &a4,                       \
                             const ::loom::Expr &a5) {                                             \
        LOOM_EXTERN_ARG_(t1, name, a1, 1);                                                         \
        LOOM_EXTERN_ARG_(t2, name, a2, 2);                                                         \
        LOOM_EXTERN_ARG_(t3, name, a3, 3);                                                         \
        LOOM_EXTERN_ARG_(t4, name, a4, 4);                                                         \
        LOOM_EXTERN_ARG_(t5, name, a5, 5);                                                         \
        return LOOM_EXTERN_CALL_(rt, name, pure, a1, a2, a3, a4, a5);                              \
    }

/** Halide's names: a C function with side effects (called as the algorithm says). */
#define HalideExtern_1(rt, name, t1) LOOM_EXTERN_1_(false, rt, name, t1)
#define HalideExtern_2(rt, name, t1, t2) LOOM_EXTERN_2_(false, rt, name, t1, t2)
#define HalideExtern_3(rt, name, t1, t2, t3) LOOM_EXTERN_3_(false, rt, name, t1, t2, t3)
#define HalideExtern_4(rt, name, t1, t2, t3, t4) LOOM_EXTERN_4_(false, rt, name, t1, t2, t3, t4)
#define HalideExtern_5(rt, name, t1, t2, t3, t4, t5)                                               \
    LOOM_EXTERN_5_(false, rt, name, t1, t2, t3, t4, t5)
/** A C function whose result depends only on its arguments. */
#define HalidePureExtern_1(rt, name, t1) LOOM_EXTERN_1_(true, rt, name, t1)
#define HalidePureExtern_2(rt, name, t1, t2) LOOM_EXTERN_2_(true, rt, name, t1, t2)
#define HalidePureExtern_3(rt, name, t1, t2, t3) LOOM_EXTERN_3_(true, rt, name, t1, t2, t3)
#define HalidePureExtern_4(rt, name, t1, t2, t3, t4) LOOM_EXTERN_4_(true, rt, name, t1, t2, t3, t4)
#define HalidePureExtern_5(rt, name, t1, t2, t3, t4, t5)                                           \
    LOOM_EXTERN_5_(true, rt, name, t1, t2, t3, t4, t5)

/** Loom's spellings of the same. */
#define LoomExtern_1 HalideExtern_1
#define LoomExtern_2 HalideExtern_2
#define LoomExtern_3 HalideExtern_3
#define LoomExtern_4 HalideExtern_4
#define LoomExtern_5 HalideExtern_5
#define LoomPureExtern_1 HalidePureExtern_1
#define LoomPureExtern_2 HalidePureExtern_2
#define LoomPureExtern_3 HalidePureExtern_3
#define LoomPureExtern_4 HalidePureExtern_4
#define LoomPureExtern_5 HalidePureExtern_5

#endif
