#ifndef LOOM_LOWER_CHECK_VECTOR_EXTENTS_H
#define LOOM_LOWER_CHECK_VECTOR_EXTENTS_H

// After bounds inference: every vectorized loop must have an extent known at
// compile time (vectorize(v) without a factor on a loop whose bounds depend
// on the buffer sizes cannot be vectorized). Throws a CompileError naming the
// Func and the loop, suggesting vectorize(v, factor). Returns s with those
// extents written as the constants they are, for the vectorizer.

#include "ir/IR.h"

namespace loom {
namespace Internal {

Stmt check_vector_extents(const Stmt &s);

} // namespace Internal
} // namespace loom

#endif
