#ifndef LOOM_LOWER_INLINE_FUNCTIONS_H
#define LOOM_LOWER_INLINE_FUNCTIONS_H

// Replaces every call to an inlined Func (not an output, compute_inline or
// never scheduled) by its pure definition with the call's arguments in
// place of its Vars, until no such call is left.

#include <vector>

#include "lower/LowerUtil.h"

namespace loom {
namespace Internal {

Stmt inline_functions(const Stmt &s, const std::vector<Function> &outputs);

/** The value a call f(args)[value_index] stands for, by f's pure definition. */
Expr inline_call(const Function &f, const std::vector<Expr> &args, int value_index);

} // namespace Internal
} // namespace loom

#endif
