#ifndef LOOM_IR_UTIL_H
#define LOOM_IR_UTIL_H

// Small queries over IR used by many passes.

#include <functional>
#include <set>
#include <string>

#include "ir/IR.h"

namespace loom {
namespace Internal {

/** Does e (or s) refer to the variable `name` (free occurrence)? */
bool expr_uses_var(const Expr &e, const std::string &name);
bool stmt_uses_var(const Stmt &s, const std::string &name);
/** Does e refer to any of the names? */
bool expr_uses_vars(const Expr &e, const std::set<std::string> &names);
/** Names of all free Variables of e. */
std::set<std::string> free_variables(const Expr &e);
/** Call f on every node of e / s (pre-order). */
/** The nodes of e counted as a tree, stopping once past `limit` (then
 * limit + 1): for size checks that must not walk a huge expression. */
int count_nodes(const Expr &e, int limit);
void visit_all(const Expr &e, const std::function<void(const IRNode *)> &f);
void visit_all(const Stmt &s, const std::function<void(const IRNode *)> &f);

/** Every variable and buffer name s refers to, sorted (what a closure that
 * runs s must capture). Names s defines itself may be listed too: capturing
 * them is harmless, as the inner definition shadows them. */
std::set<std::string> referenced_names(const Stmt &s);

/** The number of nodes of e counted as a tree (a subexpression shared n
 * times counts n times), computed in time linear in e's size as a DAG. */
double tree_size(const Expr &e);

/** A fresh name with the given prefix, unique within the process. */
std::string unique_name(const std::string &prefix);

} // namespace Internal
} // namespace loom

#endif
