#ifndef LOOM_LOWER_DEVICE_KERNEL_H
#define LOOM_LOWER_DEVICE_KERNEL_H

// A GPU kernel outlined from a pipeline's loop nest (lower/OutlineGPUKernels),
// the contract between device lowering and the GPU source printers
// (codegen/gpu with its CUDA C and OpenCL C dialects).
//
// Inside `body`:
//  - the Int(32) Variables "__block_id_x/y/z" and "__thread_id_x/y/z" are
//    the block index within the grid and the thread index within the block
//    (OpenCL get_group_id/get_local_id, CUDA blockIdx/threadIdx); only the
//    dimensions below block_dims/thread_dims occur;
//  - Load/Store name a buffer argument (global memory), a GPUShared
//    Allocate (block-shared memory), or a per-thread Allocate (registers or
//    private memory: constant size, MemoryType Register/Stack/Auto);
//  - "__shared" is the one packed block-shared allocation: bytes, UInt(8),
//    loaded and stored at element indices of the access's own type (its
//    offsets are aligned to 16 bytes). With constant shared_bytes it is an
//    Allocate of MemoryType::GPUShared at the top of the body; otherwise it
//    is the kernel's last argument (is_dynamic_shared) of shared_bytes bytes;
//  - Evaluate(Call gpu_thread_barrier) is a block-wide barrier for shared
//    memory (every thread of the block reaches it);
//  - atomic_update calls are atomic read-modify-writes of global or shared
//    memory;
//  - every other free Variable is a scalar argument.
// There are no GPU For loops left in the body (their variables are bound
// from the ids with LetStmts) and no host-only constructs (parallel loops,
// heap allocations, extern calls other than math).

#include <string>
#include <vector>

#include "ir/IR.h"
#include "loom/Schedule.h"

namespace loom {
namespace Internal {

struct DeviceKernelArg {
    /** Buffers: the name Load/Store use; scalars: the Variable's name. */
    std::string name;
    /** Scalars: the value type; buffers: the element type of the
     * accesses (UInt(8) for the dynamic shared argument). */
    Type type;
    bool is_buffer = false;
    bool is_dynamic_shared = false;
    /** Buffers: does the kernel read / write it? (Both when it does both.) */
    bool read = false, written = false;
};

struct DeviceKernel {
    /** A C identifier unique in the pipeline, naming Func, stage and var
     * ("blur_y_s0_y_yo" style). */
    std::string name;
    /** The Func(s) the kernel computes, for the comment above it. */
    std::string func_name;
    DeviceAPI device_api = DeviceAPI::OpenCL;
    std::vector<DeviceKernelArg> args;
    Stmt body;
    int block_dims = 1, thread_dims = 1;
    /** Threads per block in x, y, z when known at compile time (0 when it
     * depends on the inputs): the printers declare the exact block size
     * (reqd_work_group_size, __launch_bounds__). */
    int threads[3] = {1, 1, 1};
    /** Bytes of "__shared" (see above); 0 when the kernel has none. */
    int64_t constant_shared_bytes = 0;
    /** Shared bytes per block when known at compile time, whether declared
     * statically (constant_shared_bytes) or given at launch (CUDA blocks
     * over 48 KiB); 0 when none or unknown. Checked against the device. */
    int64_t known_shared_bytes = 0;
};

} // namespace Internal
} // namespace loom

#endif
