#ifndef LOOM_LAMBDA_H
#define LOOM_LAMBDA_H

/** \file lambda(x, y, e): an anonymous Func defined by f(x, y) = e. */

#include <vector>

#include "loom/Expr.h"
#include "loom/Func.h"
#include "loom/Var.h"

namespace loom {

namespace Internal {
Func make_lambda(const std::vector<Var> &args, const Expr &e);
}

inline Func lambda(const Expr &e) {
    return Internal::make_lambda({}, e);
}
inline Func lambda(const Var &x, const Expr &e) {
    return Internal::make_lambda({x}, e);
}
inline Func lambda(const Var &x, const Var &y, const Expr &e) {
    return Internal::make_lambda({x, y}, e);
}
inline Func lambda(const Var &x, const Var &y, const Var &z, const Expr &e) {
    return Internal::make_lambda({x, y, z}, e);
}
inline Func lambda(const Var &x, const Var &y, const Var &z, const Var &w, const Expr &e) {
    return Internal::make_lambda({x, y, z, w}, e);
}
inline Func lambda(const Var &x, const Var &y, const Var &z, const Var &w, const Var &v,
                   const Expr &e) {
    return Internal::make_lambda({x, y, z, w, v}, e);
}

} // namespace loom

#endif
