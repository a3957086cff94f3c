#ifndef LOOM_LOWER_INJECT_EARLY_FREES_H
#define LOOM_LOWER_INJECT_EARLY_FREES_H

// Frees each host allocation right after the statement that uses it last,
// instead of where its Allocate ends. compute_root stages nest, so without
// this every buffer of a long chain stays live (and allocated) until the
// whole pipeline ends: memory and, in the code generators, live pointers
// and cleanup paths grow with the pipeline.
//
// A Free goes only where the code runs straight to it from the Allocate: a
// last use inside a loop or a branch frees after that whole loop or branch.
// Allocations referenced other than by Loads and Stores (device buffers,
// intrinsics that name them) keep their usual lifetime.

#include "ir/IR.h"

namespace loom {
namespace Internal {

Stmt inject_early_frees(const Stmt &s);

} // namespace Internal
} // namespace loom

#endif
