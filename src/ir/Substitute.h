#ifndef LOOM_IR_SUBSTITUTE_H
#define LOOM_IR_SUBSTITUTE_H

// Replace free occurrences of variables by expressions (respecting shadowing
// by Let/LetStmt/For of the same name), and string constants by others.

#include <map>
#include <string>

#include "ir/IR.h"

namespace loom {
namespace Internal {

Expr substitute(const std::string &name, const Expr &replacement, const Expr &e);
Stmt substitute(const std::string &name, const Expr &replacement, const Stmt &s);
Expr substitute(const std::map<std::string, Expr> &replacements, const Expr &e);
Stmt substitute(const std::map<std::string, Expr> &replacements, const Stmt &s);
/** substitute(replacements, e) until no name of `replacements` is left:
 * values may use the names of other values (lets of lets), none its own. The
 * cost follows the size of the result, not the number of replacements. */
Expr substitute_through(const std::map<std::string, Expr> &replacements, const Expr &e);

/** Replace every occurrence of the subexpression `find` (structurally equal) with `replacement`. */
Expr substitute_expr(const Expr &find, const Expr &replacement, const Expr &e);
/** Inline every Let in e. */
Expr substitute_in_all_lets(const Expr &e);
/** Replace every string constant in s that is a key of `replacements` by its
 * value (device sources put in place of their placeholders, and back). */
Stmt replace_strings(const std::map<std::string, std::string> &replacements, const Stmt &s);

} // namespace Internal
} // namespace loom

#endif
