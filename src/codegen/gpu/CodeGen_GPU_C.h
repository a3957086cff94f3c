#ifndef LOOM_CODEGEN_GPU_CODEGEN_GPU_C_H
#define LOOM_CODEGEN_GPU_CODEGEN_GPU_C_H

// The GPU source printer: prints DeviceKernels (lower/DeviceKernel.h) as
// kernels of a C-like GPU language. All expression and statement printing is
// the C backend's (CodeGen_C); this class adds what kernels have and CPU code
// has not (signature, block and thread ids, shared memory, barriers,
// atomics) and rejects what kernels cannot do. Everything a dialect spells
// differently is a pure virtual hook below, or one of CodeGen_C's "Dialect
// hook"s: OpenCL C (codegen/opencl) and CUDA C (codegen/cuda) override them.
//
// Methods by file: CodeGen_GPU_C.cpp (kernel layout, ids, memory, calls the
// kernel cannot make), CodeGen_GPU_C_Control.cpp (loops, branches, lets,
// asserts, and barriers only where every thread of the block reaches them)
// and CodeGen_GPU_C_Atomic.cpp (atomic_update).

#include <functional>
#include <string>
#include <vector>

#include "codegen/c/CodeGen_C_Visitor.h"
#include "lower/DeviceKernel.h"

namespace loom {
namespace Internal {

class CodeGen_GPU_C : public CodeGen_C {
public:
    explicit CodeGen_GPU_C(const Target &target);

    /** Prints one kernel (a comment naming its Func, its signature and its
     * body) after those printed before. */
    void add_kernel(const DeviceKernel &k);
    /** The program: preamble(), the helper functions the kernels use, then
     * the kernels in the order they were added. */
    std::string program();

    /** The read-modify-writes a dialect may have as one atomic call. */
    using AtomicOp = AtomicRMWOp;

protected:
    // ---- Dialect hooks ----
    /** The dialect's name in messages ("OpenCL C"). */
    virtual std::string dialect_name() const = 0;
    /** Text before the kernels (pragmas, typedefs, macros); called after
     * every kernel has been printed. */
    virtual std::string preamble() = 0;
    /** Rejects, with a user_error, a kernel the target cannot run (e.g.
     * doubles without the feature that enables them). */
    virtual void check_kernel(const DeviceKernel &k);
    /** Everything before the kernel's name in its definition, e.g.
     * "__kernel __attribute__((reqd_work_group_size(16, 16, 1))) void". */
    virtual std::string kernel_declaration(const DeviceKernel &k) = 0;
    /** The parameter of a buffer argument named c_name, e.g.
     * "const __global float *restrict in_3". */
    virtual std::string buffer_parameter(const DeviceKernelArg &a, const std::string &c_name) = 0;
    /** The type a scalar argument of type t is passed as (a kernel may not
     * take every type); the kernel converts it back to t on entry. */
    virtual Type scalar_parameter_type(Type t) const;
    /** The parameter of the dynamic shared argument, or "" when the dialect
     * declares dynamic shared memory in the body instead (CUDA). */
    virtual std::string dynamic_shared_parameter(const std::string &c_name) = 0;
    /** The declaration, at kernel scope, of `bytes` bytes of shared memory
     * named c_name, 16-byte aligned; bytes < 0: dynamic shared memory (only
     * asked when dynamic_shared_parameter is ""). */
    virtual std::string shared_declaration(const std::string &c_name, int64_t bytes) = 0;
    /** Address-space qualifiers of pointers into global (argument) and
     * shared memory ("" in a dialect without them). */
    virtual std::string global_address_space() const = 0;
    virtual std::string shared_address_space() const = 0;
    /** The index of the block in the grid / thread in the block, dim 0..2. */
    virtual std::string block_id(int dim) const = 0;
    virtual std::string thread_id(int dim) const = 0;
    /** The statement of a block-wide barrier for shared memory. */
    virtual std::string barrier() const = 0;
    /** The statement of a fence ordering this thread's memory accesses. */
    virtual std::string memory_fence() const = 0;
    /** The statement that atomically applies *ptr = *ptr op operand to the
     * scalar of type t (an integer or a float) at `ptr` (a pointer of
     * atomic_pointer_type), or "" when the dialect has no such call (a
     * compare-and-swap loop then). */
    virtual std::string atomic_rmw(AtomicOp op, Type t, const std::string &ptr,
                                   const std::string &operand) = 0;
    /** An expression that atomically stores `desired` at `ptr` if it holds
     * `expected`, and gives the value it held; bits is UInt(32) or
     * UInt(64). "" when the dialect has no such call for bits. */
    virtual std::string atomic_cas(Type bits, const std::string &ptr, const std::string &expected,
                                   const std::string &desired) = 0;
    /** The value `value` (a scalar of type t) has in lane `lane` of this
     * thread's group of `width` lanes of the warp, every lane taking part;
     * "" when the dialect has no warp shuffles (the default). */
    virtual std::string warp_shuffle(Type t, const std::string &value, const std::string &lane,
                                     const std::string &width);
    /** The pointer type for atomics on t in `address_space`. Default:
     * "volatile <space> <t> *". */
    virtual std::string atomic_pointer_type(Type t, const std::string &address_space) const;

    // ---- Kernel state ----
    /** The kernel being printed (messages name it). */
    const DeviceKernel *kernel = nullptr;
    /** Declarations hoisted to the kernel's scope (shared memory). */
    std::vector<std::string> kernel_scope_declarations;
    /** The kernels printed so far. */
    std::vector<std::string> kernels;

    /** "kernel k of Func f", for messages. */
    std::string kernel_description() const;
    /** Does k compute with, store, allocate or take a value of a type
     * (element type, any lanes) `pred` holds for? */
    static bool uses_type(const DeviceKernel &k, const std::function<bool(Type)> &pred);
    /** Shared allocations of the kernel so far ("__shared" keeps its name
     * in the source only for the first). */
    int shared_allocations = 0;
    /** Names bound in the kernel: 1 when their value differs between the
     * threads of a block (thread ids and what is computed from them), else
     * 0. (Not Scope<bool>: its std::vector<bool> has no element pointers.) */
    Scope<int> thread_varying;
    /** Branches and loops around the code being printed whose condition or
     * bounds differ between the threads of a block. */
    int divergent_depth = 0;
    bool varies_by_thread(const Expr &e) const;

    /** Binds the arguments (printing conversions of scalars passed as
     * another type); returns the parameter list. */
    std::string bind_arguments(const DeviceKernel &k, std::vector<std::string> *bound);
    /** Declares the block and thread ids the body uses. */
    void declare_ids(const DeviceKernel &k, std::vector<std::string> *bound);
    /** Shared memory of a GPUShared Allocate: hoisted to kernel scope. */
    void codegen_shared_allocation(const Allocate *op);

    // ---- CodeGen_C emitters kernels handle differently ----
    std::string codegen_intrinsic(const Call *op) override;
    std::string codegen_extern(const Call *op) override;
    std::string codegen_buffer_field(const Call *op) override;
    std::string codegen_debug_print(const Call *op) override;
    std::string codegen_atomic_update(const Call *op) override;
    /** Vectors of up to 16 lanes: straight-line code compiles faster
     * (NVRTC) and reads more easily. */
    bool unroll_lane_loops(int lanes) const override { return lanes <= 16; }

public:
    using CodeGen_C::visit;
    void visit(const Allocate *op) override;
    void visit(const For *op) override;
    void visit(const AssertStmt *op) override;
    void visit(const IfThenElse *op) override;
    void visit(const LetStmt *op) override;
};

} // namespace Internal
} // namespace loom

#endif
