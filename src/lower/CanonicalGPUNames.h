#ifndef LOOM_LOWER_CANONICAL_GPU_NAMES_H
#define LOOM_LOWER_CANONICAL_GPU_NAMES_H

#include "ir/IR.h"

namespace loom {
namespace Internal {

/** Gives every GPU loop its dimension: the innermost block (thread) loop of
 * a nest is x, the next y, then z. A loop "f.s0.x.xo" becomes
 * "f.s0.x.xo.__block_id_x" (gpu_loop_dim() reads it back); uses of the loop
 * variable follow the new name. */
Stmt canonical_gpu_names(const Stmt &s);

/** The deepest nesting of GPU thread loops inside s: the dimension a thread
 * loop around s gets (0 is x). */
int gpu_thread_depth(const Stmt &s);

} // namespace Internal
} // namespace loom

#endif
