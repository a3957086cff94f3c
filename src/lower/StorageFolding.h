#ifndef LOOM_LOWER_STORAGE_FOLDING_H
#define LOOM_LOWER_STORAGE_FOLDING_H

// Storage folding: when the region of a Func touched by each iteration of a
// serial loop inside its Realize moves monotonically in one dimension and
// spans at most F coordinates there, that dimension of its storage becomes a
// circular buffer of F entries (coordinates are taken modulo F). Automatic
// folds use the next power of two above the footprint; fold_storage(var, n)
// asks for n and is checked against the footprint. Runs after the sliding
// window, before storage flattening, which then sees a Realize of [0, F).

#include "lower/LowerUtil.h"

namespace loom {
namespace Internal {

/** Raises CompileError when a fold_storage extent is smaller than the
 * footprint, or when no loop lets the storage fold. */
Stmt storage_folding(const Stmt &s, const Environment &env);

} // namespace Internal
} // namespace loom

#endif
