#ifndef LOOM_LOWER_UNPACK_BUFFERS_H
#define LOOM_LOWER_UNPACK_BUFFERS_H

// Binds the fields of every buffer argument b to the Variables the other
// passes use: "b.min.<d>", "b.extent.<d>", "b.stride.<d>", and the host
// pointer "b" that Loads and Stores name, read from the loom_buffer_t *
// "b.buffer" with the buffer_get_* intrinsics. A constant stride constraint
// on dimension 0 (stride 1 by default) replaces "b.stride.0" in the body, so
// vectorized indices simplify to dense ramps; add_image_checks verifies it.

#include <vector>

#include "lower/LoweredFunc.h"

namespace loom {
namespace Internal {

Stmt unpack_buffers(const Stmt &s, const std::vector<LoweredArgument> &args);

/** Binds each buffer argument's host pointer "b" after the leading asserts
 * of s. It runs last: Loads and Stores name the pointer without a Variable,
 * so passes that drop unused lets would drop it. */
Stmt bind_host_pointers(const Stmt &s, const std::vector<LoweredArgument> &args);

/** The stride that dimension 0 of buffer argument arg must have, or an
 * undefined Expr when any stride is allowed: the user's constraint if set,
 * else 1 (Halide's default: dense vector loads and stores), unless lifted
 * with dim(0).set_stride(Expr()). A concrete Buffer input keeps the default
 * only if it really has stride 1. */
Expr innermost_stride_constraint(const LoweredArgument &arg);

/** The Handle Variable "b.buffer" of a buffer argument. */
Expr buffer_handle(const LoweredArgument &arg);

} // namespace Internal
} // namespace loom

#endif
