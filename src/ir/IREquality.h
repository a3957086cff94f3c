#ifndef LOOM_IR_EQUALITY_H
#define LOOM_IR_EQUALITY_H

// Structural equality and a total order on IR (for canonical ordering and maps).

#include "ir/IR.h"

namespace loom {
namespace Internal {

bool equal(const Expr &a, const Expr &b);
bool equal(const Stmt &a, const Stmt &b);
/** A deterministic total order on structure: -1, 0 or 1. */
int compare(const Expr &a, const Expr &b);

/** Like compare, but the children of a and b are compared by identity, not
 * structure: for hash-consing, where children are already canonical nodes.
 * Not deterministic across runs (it orders by address). */
int compare_shallow(const Expr &a, const Expr &b);
struct ExprShallowLess {
    bool operator()(const Expr &a, const Expr &b) const { return compare_shallow(a, b) < 0; }
};

/** Orders Exprs structurally, for std::map keys. */
struct ExprStructuralLess {
    bool operator()(const Expr &a, const Expr &b) const { return compare(a, b) < 0; }
};

} // namespace Internal
} // namespace loom

#endif
