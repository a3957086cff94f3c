#ifndef LOOM_FRONTEND_IMPLICIT_VARS_H
#define LOOM_FRONTEND_IMPLICIT_VARS_H

// The placeholder `_` in the arguments of calls and definitions (Halide's
// implicit variables, see Var::implicit).

#include <string>
#include <vector>

#include "loom/Expr.h"

namespace loom {
namespace Internal {

/** Removes the placeholder `_` from args and returns its position (-1 when
 * there is none). When dimensions >= 0, inserts the implicit Vars _0, _1, ...
 * there, as many as make args that long. Throws CompileError naming `what`
 * (e.g. "Func f") for a second placeholder. */
int expand_implicit_placeholder(std::vector<Expr> &args, int dimensions, const std::string &what);

/** One more than the largest n of the implicit Vars _n that exprs use (0 if none). */
int count_implicit_vars(const std::vector<Expr> &exprs);

} // namespace Internal
} // namespace loom

#endif
