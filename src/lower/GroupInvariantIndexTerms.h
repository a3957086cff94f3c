#ifndef LOOM_LOWER_GROUP_INVARIANT_INDEX_TERMS_H
#define LOOM_LOWER_GROUP_INVARIANT_INDEX_TERMS_H

// Rewrites data-dependent scalar Load/Store indices inside loops (a
// histogram's `(int32(in[x]) - min) + extent * u`) so that the terms that do
// not change in the innermost loop form one subexpression:
// `int32(in[x]) + (extent * u - min)`. LLVM then computes that sum once
// outside the loop and folds it into the address, leaving one load and one
// add per element; its pass list has no Reassociate, and affine indices do
// not need it (ScalarEvolution handles them). Runs after the last simplify,
// which would undo the grouping.

#include "ir/IR.h"

namespace loom {
namespace Internal {

Stmt group_invariant_index_terms(const Stmt &s);

} // namespace Internal
} // namespace loom

#endif
