#ifndef LOOM_LOWER_FUSE_GPU_THREAD_LOOPS_H
#define LOOM_LOWER_FUSE_GPU_THREAD_LOOPS_H

#include "ir/IR.h"

namespace loom {
namespace Internal {

/** Turns the body of each kernel's innermost block loop into the code one
 * GPU thread runs (after canonical_gpu_names):
 *  - every thread loop becomes `let v = min + __thread_id_d` under a guard
 *    `__thread_id_d < extent` (none when the extent is the block size), so
 *    the stages of a block run as one thread block of the largest extents;
 *  - block-level code with side effects outside thread loops runs in thread 0;
 *  - block-level allocations (Funcs computed at a block loop) move into one
 *    packed block-shared allocation "__shared", where allocations that are
 *    never live together share bytes; per-thread allocations get constant sizes;
 *  - a barrier goes exactly between two stages when the later one reads
 *    shared memory the earlier wrote, or overwrites memory it read (also
 *    across iterations of serial loops around them).
 * The block size is recorded as LetStmts "__gpu_threads_x/y/z" at the top of
 * the body, for OutlineGPUKernels. Throws CompileError when a thread extent or
 * an allocation size has no bound it can use. */
Stmt fuse_gpu_thread_loops(const Stmt &s);

/** The names of the block-size LetStmts above. */
std::string gpu_threads_marker(int dim);
/** The name of the packed shared allocation. */
extern const char *const shared_allocation_name;

} // namespace Internal
} // namespace loom

#endif
