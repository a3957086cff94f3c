#ifndef LOOM_LOWER_BLOCK_REGISTERS_H
#define LOOM_LOWER_BLOCK_REGISTERS_H

#include <map>
#include <string>

#include "ir/IR.h"

namespace loom {
namespace Internal {

/** Gives each GPU thread its own part of a Func computed at a block loop and
 * stored in MemoryType::Register (as in Halide: register blocking, where each
 * thread keeps the sums it owns in registers across the serial loop that
 * stages inputs in shared memory). Runs inside fuse_gpu_thread_loops, after
 * thread loops became thread ids, on the allocation named `name`.
 *
 * Every access must be an affine function of the thread ids, the symbols
 * outside the allocation and the non-thread loops inside it; the part of the
 * thread ids and outer symbols (the thread's base) must be the same in every
 * access up to a constant, and the loops must have constant ranges. The
 * allocation then shrinks to the constant span a thread touches, and each
 * index becomes its offset from the thread's base (constants once loops are
 * unrolled, so the C compiler keeps the values in registers). Kernel
 * arguments are read through `host_lets` (the host's lets around the
 * kernel), so one value computed two ways compares equal. Throws
 * CompileError naming the Func when that does not hold. */
Stmt give_threads_their_registers(const Stmt &s, const std::string &name,
                                  const std::string &kernel_description,
                                  const std::map<std::string, Expr> &host_lets);

} // namespace Internal
} // namespace loom

#endif
