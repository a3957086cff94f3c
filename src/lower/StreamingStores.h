#ifndef LOOM_LOWER_STREAMING_STORES_H
#define LOOM_LOWER_STREAMING_STORES_H

// Streaming (non-temporal) stores for large pipeline outputs. A store that
// misses the cache first reads the line it writes (read-for-ownership); a
// streaming store writes whole lines straight to memory, so an output much
// larger than the cache costs one memory transfer per line instead of two.
//
// In an innermost serial loop whose dense, unpredicated vector stores into an
// output buffer (one the pipeline never reads) advance by exactly one vector
// per iteration (`ramp(lanes * v + ...)`, optionally clamped by a ShiftInwards
// `min(lanes * v, e)`), each such store gets a streaming twin:
//
//   let v.streaming = <out>.streaming_ok && <address of the first store> %
//                     vector bytes == 0 && <the clamp keeps the alignment>
//   for (v, ...) { ... let out.stored_value = value
//                      if (v.streaming) out[ramp] = out.stored_value (streaming)
//                      else out[ramp] = out.stored_value ... }
//
// The branch is loop invariant and perfectly predicted; versioning the whole
// loop instead (two copies) measured 11-15% more JIT compile time for the
// blur and unsharp benchmarks, the branch 2-5%, at about the same run time.
//
// `<out>.streaming_ok` is computed once outside the outermost loop: the
// output's size in bytes >= loom_streaming_store_threshold() (runtime, env
// LOOM_STREAMING_STORES). Streaming stores are weakly ordered on x86, so each
// parallel task body and each outermost loop nest that contains them ends
// with a memory fence. Vectors of 16, 32 or 64 bytes no wider than the
// target's native vectors only; the NoStreamingStores target feature (and
// targets other than x86 and 64-bit ARM) turn the pass off.
//
// Runs last but one, after the last simplify, CSE and dead-let removal (no
// later pass rebuilds loops or stores) and before bind_host_pointers, which
// binds the host pointers "<out>" the alignment checks read.

#include <vector>

#include "loom/Target.h"
#include "lower/LoweredFunc.h"

namespace loom {
namespace Internal {

Stmt streaming_stores(const Stmt &s, const std::vector<LoweredArgument> &args,
                      const Target &target);

/** The widest vector (bytes) the target stores natively, 0 when the pass
 * does not apply to it. */
int streaming_store_max_vector_bytes(const Target &target);

} // namespace Internal
} // namespace loom

#endif
