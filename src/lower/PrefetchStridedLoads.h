#ifndef LOOM_LOWER_PREFETCH_STRIDED_LOADS_H
#define LOOM_LOWER_PREFETCH_STRIDED_LOADS_H

// Software prefetch for loads that walk memory with a long stride. The
// hardware prefetchers of x86 cores follow streams of adjacent lines and
// strides of up to about 2 KB; a loop that steps down the rows of an image
// (matmul's B(x, k) in a loop over k, a column reduction) advances by a whole
// row per iteration, so each of its loads misses L1 and waits for L2 or L3.
//
// In an innermost serial host loop over v, a load from a buffer whose index
// (vector base, lets of the loop body expanded) moves by a loop-invariant
// step per iteration — a buffer stride, or a constant of at least 2 KB — gets
// prefetches of the cache lines the same load reads `prefetch_distance`
// iterations later:
//
//   for (k, ...) { prefetch(B, i + 8 * step), prefetch(B, i + 23 + 8 * step)
//                  ... = B[ramp(i, 1, 24)] ... }
//
// Loads whose indices differ by a constant share their prefetches (one
// group: one prefetch per 128 bytes from the lowest to the highest element
// they read). Predicated loads are prefetched too. Loads from small buffers
// of constant size (which live in L1) are left alone, and so are loops of a
// few iterations. A prefetch never faults, so prefetching past a buffer's end
// or for a lane the predicate turns off is harmless.
//
// Measured gain is small on the 2-core AVX-512 VM (Halide's matmul schedule:
// 1-3% faster; a column sum: none, the out-of-order core already overlaps
// its misses), and LLVM's loop strength reduction takes longer with each
// prefetch address (+4% JIT compile time for matmul).
//
// Runs after streaming_stores (the loops are final) and before
// bind_host_pointers. x86 and ARM targets only; the NoAutoPrefetch target
// feature turns the pass off.

#include "ir/IR.h"
#include "loom/Target.h"

namespace loom {
namespace Internal {

/** Iterations ahead that a strided load's lines are prefetched. */
constexpr int prefetch_distance = 8;

Stmt prefetch_strided_loads(const Stmt &s, const Target &target);

} // namespace Internal
} // namespace loom

#endif
