#ifndef LOOM_LOWER_GPU_LOOPS_H
#define LOOM_LOWER_GPU_LOOPS_H

// Conventions and small analyses shared by the device lowering passes
// (ValidateGPULoops, SelectGPUAPI, CanonicalGPUNames, FuseGPUThreadLoops,
// OutlineGPUKernels, InjectDeviceBuffers, InjectHostDeviceCopies).

#include <map>
#include <optional>
#include <string>

#include "ir/IR.h"

namespace loom {
namespace Internal {

inline bool is_gpu_block(ForType t) {
    return t == ForType::GPUBlock;
}
/** Thread loops; gpu_lanes loops run as the innermost thread dimension. */
inline bool is_gpu_thread(ForType t) {
    return t == ForType::GPUThread || t == ForType::GPULane;
}
inline bool is_gpu_loop(ForType t) {
    return is_gpu_block(t) || is_gpu_thread(t);
}

/** "x", "y", "z" for GPU dimension 0, 1, 2. */
const char *gpu_dim_name(int dim);
/** The kernel-side index variables: "__block_id_x", "__thread_id_y", ... */
std::string block_id_name(int dim);
std::string thread_id_name(int dim);
/** The suffix CanonicalGPUNames gives a GPU loop: ".__block_id_x", ... */
std::string gpu_loop_suffix(bool block, int dim);
/** The dimension of a canonically named GPU loop (-1 when not one). */
int gpu_loop_dim(const std::string &loop_name);

/** A loop name like "blur.s0.x.xo" (or with a canonical suffix) in words for
 * error messages: "loop xo of Func blur (pure definition)". */
std::string describe_loop(const std::string &loop_name);
/** The Func a loop belongs to ("blur" for "blur.s0.x.xo"). */
std::string loop_func_name(const std::string &loop_name);

/** Does s contain a For loop of a GPU type? Of a block type? */
bool contains_gpu_loop(const Stmt &s);
bool contains_block_loop(const Stmt &s);

/** The memory a statement reads and writes, by Load/Store name (atomic
 * updates count as both), with the element type of the first access. */
struct BufferAccesses {
    std::map<std::string, Type> read, written;
    bool touches(const std::string &name) const {
        return read.count(name) > 0 || written.count(name) > 0;
    }
};
BufferAccesses buffer_accesses(const Stmt &s);

/** The Evaluate of a gpu_thread_barrier. */
Stmt gpu_barrier();

/** A compile-time upper (or lower, when !upper) bound of e, seeing through
 * the lets in `lets` (values by name), or nothing when none is found. Knows
 * that min(a + c, m) - min(a, m) lies in [0, c] (clamped tile extents). */
std::optional<int64_t> constant_bound(const Expr &e, bool upper,
                                      const std::map<std::string, Expr> &lets);

/** An upper bound of e that may depend on Params (for sizes the host
 * computes at launch): e with the lets in `lets` written out, where
 * min(a + x, m) - min(a, m) becomes max(x, 0). Undefined when writing the
 * lets out grows e beyond a sane size. */
Expr symbolic_upper_bound(const Expr &e, const std::map<std::string, Expr> &lets);

} // namespace Internal
} // namespace loom

#endif
