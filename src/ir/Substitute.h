#ifndef LOOM_IR_SUBSTITUTE_H
#define LOOM_IR_SUBSTITUTE_H

// Replace free occurrences of variables by expressions (respecting shadowing
// by Let/LetStmt/For of the same name).

#include <map>
#include <string>

#include "ir/IR.h"

namespace loom {
namespace Internal {

Expr substitute(const std::string &name, const Expr &replacement, const Expr &e);
Stmt substitute(const std::string &name, const Expr &replacement, const Stmt &s);
Expr substitute(const std::map<std::string, Expr> &replacements, const Expr &e);
Stmt substitute(const std::map<std::string, Expr> &replacements, const Stmt &s);
/** Replace every occurrence of the subexpression `find` (structurally equal) with `replacement`. */
Expr substitute_expr(const Expr &find, const Expr &replacement, const Expr &e);
/** Inline every Let in e. */
Expr substitute_in_all_lets(const Expr &e);

} // namespace Internal
} // namespace loom

#endif
