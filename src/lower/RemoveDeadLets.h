#ifndef LOOM_LOWER_REMOVE_DEAD_LETS_H
#define LOOM_LOWER_REMOVE_DEAD_LETS_H

// Drops Let and LetStmt bindings whose names the body never uses (their
// values are pure: lowering binds only pure expressions).

#include "ir/IR.h"

namespace loom {
namespace Internal {

Stmt remove_dead_lets(const Stmt &s);

} // namespace Internal
} // namespace loom

#endif
