#ifndef LOOM_INLINE_REDUCTIONS_H
#define LOOM_INLINE_REDUCTIONS_H

/** \file Inline reductions: sum(e), product(e), maximum(e), minimum(e),
 * argmax(e), argmin(e) over the RDom that e uses. Each makes an anonymous
 * Func over the free Vars of e, defined by an update over the RDom, and
 * returns a call of it: g(x) = sum(f(x, r)) is g(x) = s(x) with
 * s(x) = 0; s(x) += f(x, r). */

#include <string>

#include "loom/Expr.h"
#include "loom/RDom.h"
#include "loom/Tuple.h"

namespace loom {

Expr sum(const Expr &e, const std::string &name = "sum");
Expr product(const Expr &e, const std::string &name = "product");
Expr maximum(const Expr &e, const std::string &name = "maximum");
Expr minimum(const Expr &e, const std::string &name = "minimum");
/** The sum with saturating_add: clamped to the type's range at every step. */
Expr saturating_sum(const Expr &e, const std::string &name = "saturating_sum");
/** (the RVar coordinates of the first largest value..., that value). */
Tuple argmax(const Expr &e, const std::string &name = "argmax");
Tuple argmin(const Expr &e, const std::string &name = "argmin");

/** The same, over an explicit RDom (which e need not use). The RVars of
 * other RDoms in e stay free: minimum(r1, sum(r2, f(r1 + r2))). */
Expr sum(const RDom &r, const Expr &e, const std::string &name = "sum");
Expr product(const RDom &r, const Expr &e, const std::string &name = "product");
Expr maximum(const RDom &r, const Expr &e, const std::string &name = "maximum");
Expr minimum(const RDom &r, const Expr &e, const std::string &name = "minimum");
Expr saturating_sum(const RDom &r, const Expr &e, const std::string &name = "saturating_sum");
Tuple argmax(const RDom &r, const Expr &e, const std::string &name = "argmax");
Tuple argmin(const RDom &r, const Expr &e, const std::string &name = "argmin");

} // namespace loom

#endif
