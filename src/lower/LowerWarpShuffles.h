#ifndef LOOM_LOWER_LOWER_WARP_SHUFFLES_H
#define LOOM_LOWER_LOWER_WARP_SHUFFLES_H

#include "ir/IR.h"

namespace loom {
namespace Internal {

/** Keeps Funcs that the lanes of a warp compute together in registers, and
 * exchanges their values with warp shuffles (CUDA kernels only), as in
 * Halide: a Func computed inside a GPU thread loop (so per warp, not per
 * block) whose every access is inside gpu_lanes loops of one extent W (a
 * power of two up to 32, and the block's x size) is striped across the
 * lanes: element i lives in lane i % W, register i / W. Each lane stores
 * only its own elements (indices lane + a multiple of W); a read of element
 * c * lane + d (c a constant from 0 to 4, d the same in every lane) becomes
 * c + 1 shuffles of registers (one when c is 0, none when it is the lane's
 * own element), hoisted out of the expression so that every lane of the
 * warp runs them. Without that, the Func would be per thread and the lanes
 * would read elements other lanes wrote.
 *
 * Runs after loop unrolling (so register indices are constants) and before
 * fuse_gpu_thread_loops. Where an allocation of that kind cannot be lowered
 * (another device API, a lane-dependent branch around a read, a vector
 * access, ...) this throws CompileError naming the Func and why. */
Stmt lower_warp_shuffles(const Stmt &s);

} // namespace Internal
} // namespace loom

#endif
