#ifndef LOOM_ANALYSIS_CSE_H
#define LOOM_ANALYSIS_CSE_H

// Common-subexpression elimination: repeated non-trivial subexpressions are
// computed once in a Let.

#include "ir/IR.h"

namespace loom {
namespace Internal {

Expr common_subexpression_elimination(const Expr &e);
/** CSE on every expression of s (each statement's expressions separately). */
Stmt common_subexpression_elimination(const Stmt &s);

} // namespace Internal
} // namespace loom

#endif
