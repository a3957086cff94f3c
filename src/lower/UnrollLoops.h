#ifndef LOOM_LOWER_UNROLL_LOOPS_H
#define LOOM_LOWER_UNROLL_LOOPS_H

// Replaces every For of ForType::Unrolled by a Block of copies of its body,
// one per iteration, with the loop variable bound to min + i. Runs after
// storage flattening, before vectorize_loops and simplification.

#include "ir/IR.h"

namespace loom {
namespace Internal {

/** Raises CompileError for an unrolled loop whose extent is not a constant. */
Stmt unroll_loops(const Stmt &s);

} // namespace Internal
} // namespace loom

#endif
