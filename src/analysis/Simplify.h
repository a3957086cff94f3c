#ifndef LOOM_ANALYSIS_SIMPLIFY_H
#define LOOM_ANALYSIS_SIMPLIFY_H

// The simplifier: constant folding, canonical ordering and algebraic rewrite
// rules (written with the matcher in ir/IRMatch.h), aware of the intervals of
// enclosing loop variables. The result evaluates equal to the input for every
// assignment of its free variables.

#include <unordered_set>

#include "analysis/Interval.h"
#include "ir/IR.h"
#include "ir/Scope.h"

namespace loom {
namespace Internal {

/** Simplify e; `bounds` gives known intervals of free variables. */
Expr simplify(const Expr &e, const Scope<Interval> &bounds = Scope<Interval>());
/** Simplify every expression of s, using loop bounds, lets and if-conditions. */
Stmt simplify(const Stmt &s, const Scope<Interval> &bounds = Scope<Interval>());
/** Simplify e without visiting again the subexpressions in `simplified`
 * (each a result of simplify): combining simplified operands one operation
 * at a time (interval arithmetic) costs the new nodes, not the whole tree. */
Expr simplify_over(const Expr &e, const std::unordered_set<const IRNode *> &simplified);
/** Is e (boolean) true for all values of its free variables? False if unsure. */
bool can_prove(const Expr &e, const Scope<Interval> &bounds = Scope<Interval>());

} // namespace Internal
} // namespace loom

#endif
