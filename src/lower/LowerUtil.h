#ifndef LOOM_LOWER_LOWER_UTIL_H
#define LOOM_LOWER_LOWER_UTIL_H

// Small helpers shared by the lowering passes: the environment of Funcs, the
// naming conventions between passes, and Int(32) arithmetic shorthands (the
// user-facing operators live in the front end, which lowering must not need).

#include <map>
#include <string>
#include <vector>

#include "ir/IR.h"

namespace loom {
namespace Internal {

/** Every Func reachable from the outputs, by name. */
using Environment = std::map<std::string, Function>;

/** Is f one of the pipeline's outputs? */
bool is_output(const Function &f, const std::vector<Function> &outputs);
/** Is f substituted into its callers (rather than given storage and loops)? */
bool is_inlined(const Function &f, const std::vector<Function> &outputs);

/** "f.s0." : the prefix of every loop and bound name of stage `stage` of f. */
std::string stage_prefix(const std::string &func, int stage);

/** The name of the buffer (argument or allocation) that holds value
 * `value_index` of f: "f" for single-valued Funcs, "f.0", "f.1", ... for tuples. */
std::string buffer_name(const Function &f, int value_index);

/** The name of the (unused) LetStmt around the Provide of an atomic()
 * update stage of func, which storage flattening turns into atomic updates. */
std::string atomic_marker(const std::string &func);

/** Does s contain a loop? */
bool contains_loop(const Stmt &s);

/** Int(32) Variable named `name`. */
Expr int_var(const std::string &name);
/** The hidden user context argument of every runtime call. */
Expr user_context_var();

// Int(32) arithmetic that casts narrower integer operands to Int(32).
Expr add(const Expr &a, const Expr &b);
Expr sub(const Expr &a, const Expr &b);
Expr mul(const Expr &a, const Expr &b);
Expr div(const Expr &a, const Expr &b);
Expr mod(const Expr &a, const Expr &b);
Expr min(const Expr &a, const Expr &b);
Expr max(const Expr &a, const Expr &b);
Expr as_int32(const Expr &e);

/** Debug level from LOOM_DEBUG (0 when unset). */
int debug_level();

} // namespace Internal
} // namespace loom

#endif
