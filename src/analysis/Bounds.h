#ifndef LOOM_ANALYSIS_BOUNDS_H
#define LOOM_ANALYSIS_BOUNDS_H

// Interval arithmetic over expressions: the range an expression takes when
// its free variables range over given intervals, and the regions of Funcs
// and images that code reads or writes.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analysis/Interval.h"
#include "ir/Scope.h"

namespace loom {
namespace Internal {

/** Bounds of e when each variable in scope lies in its interval (variables
 * not in scope are treated as symbolic single points). The result always
 * contains every value e can take; it is tight for +, -, * by constants,
 * min, max, clamp, select and Euclidean / and % by constants. */
Interval bounds_of_expr_in_scope(const Expr &e, const Scope<Interval> &scope);

/** e, which uses the named values (in order; each may use the names before
 * it), made self-contained: the values substituted where the result, as a
 * tree, stays within inline_named_values_nodes nodes (so the simplifier sees
 * it whole), else bound by Let expressions around e, so that its size stays
 * the sum of the values' sizes instead of growing with each use. */
constexpr double inline_named_values_nodes = 2000;
Expr bind_named_values(const Expr &e, const std::vector<std::pair<std::string, Expr>> &named);

/** Regions of every Func (Call::Loom) and image (Call::Image) read by e or s,
 * keyed by name, given intervals for the variables in scope. Loops and lets
 * inside s are handled. */
std::map<std::string, Box> boxes_required(const Expr &e, const Scope<Interval> &scope);
std::map<std::string, Box> boxes_required(const Stmt &s, const Scope<Interval> &scope);
/** Regions written (Provide) by s, keyed by Func name. */
std::map<std::string, Box> boxes_provided(const Stmt &s, const Scope<Interval> &scope);

} // namespace Internal
} // namespace loom

#endif
