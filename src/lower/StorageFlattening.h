#ifndef LOOM_LOWER_STORAGE_FLATTENING_H
#define LOOM_LOWER_STORAGE_FLATTENING_H

// Turns multi-dimensional storage into flat memory: Realize becomes Allocate
// (dense; the first dimension, or reorder_storage's first, innermost), Provide becomes Store and
// calls to Funcs and images become Loads, indexed in elements by
// sum((coordinate_d - min_d) * stride_d). Output Funcs and input images live
// in buffer arguments, whose "b.min.<d>" and "b.stride.<d>" Variables
// unpack_buffers defines.

#include <vector>

#include "loom/Target.h"
#include "lower/LowerUtil.h"

namespace loom {
namespace Internal {

/** env gives each realized Func's storage order (reorder_storage). With
 * target's large_buffers, flat indices (and internal strides) are Int(64).
 * Each host allocation is checked to hold at most 2^31 - 1 elements
 * (2^63 - 1 bytes with large_buffers). */
Stmt storage_flattening(const Stmt &s, const std::vector<Function> &outputs, const Environment &env,
                        const Target &target);

} // namespace Internal
} // namespace loom

#endif
