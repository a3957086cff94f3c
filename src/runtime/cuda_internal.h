// Internal declarations of the CUDA driver runtime (src/runtime/cuda_*.cpp).
//
// One process-wide state: the driver's entry points (dlopen'ed), and per
// CUDA context the device's limits, the loaded modules with their functions
// and the pool of freed allocations. Every CUDA operation of a call runs
// inside a CallScope: the call's context and stream are chosen (the user's
// hooks, the context given to loom_cuda_set_context, or the primary context
// of LOOM_CUDA_DEVICE), the context is pushed current on the calling thread
// for the operation and popped after (so any thread may call, and the
// caller's own current context is left as it was). One mutex guards the
// state; functions named *_locked expect the caller to hold it.
#ifndef LOOM_RUNTIME_CUDA_INTERNAL_H
#define LOOM_RUNTIME_CUDA_INTERNAL_H

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "cuda_driver_api.h"
#include "device_internal.h"

namespace loom_rt {

using cu::CUcontext;
using cu::CUdevice;
using cu::CUdeviceptr;
using cu::CUfunction;
using cu::CUmodule;
using cu::CUresult;
using cu::CUstream;

/** The driver's entry points, loading libcuda.so.1 and calling cuInit on
 * first use; NULL when either fails, with `*why` the whole error message
 * (no driver found, with dlerror's words; or cuInit's error). Call under the
 * mutex. */
const cu::DriverApi *load_cuda_driver_locked(std::string *why);

/** "CUDA_ERROR_OUT_OF_MEMORY (out of memory)": the driver's name and text of
 * an error, or its number when the driver does not know it. */
std::string cu_error_text(const cu::DriverApi *api, CUresult err);

/** Reports "CUDA: <call> failed with <NAME> (<text>) (<context>)"; returns
 * loom_error_code_device. `context` names the kernel or buffer involved. */
int cu_fail(void *uc, CUresult err, const char *call, const std::string &context);

/** What launches and allocations check against: asked of the driver once per
 * context (never by compiling a probe kernel). */
struct CudaDeviceInfo {
    CUdevice device = 0;
    std::string name;
    int capability = 0; // major * 10 + minor: 75, 86, 90, ...
    int max_threads_per_block = 0, max_block[3] = {0, 0, 0}, max_grid[3] = {0, 0, 0};
    int shared_per_block = 0, shared_per_block_optin = 0;
    size_t total_memory = 0;
};

/** A kernel of a module, looked up once; launches check against these. */
struct FunctionEntry {
    std::string name;
    CUfunction function = nullptr;
    int max_threads_per_block = 0; // CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK
    int static_shared_bytes = 0;   // CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES
    int num_regs = 0;
    int dynamic_shared_limit = 0; // MAX_DYNAMIC_SHARED_SIZE_BYTES as set so far (0: default)
    bool params_known = false;    // param_bytes is filled (the driver has cuFuncGetParamInfo)
    std::vector<size_t> param_bytes;
};

/** One module per (pipeline source, context). */
struct ModuleEntry {
    std::string source; // also verifies the pointer fast path
    CUmodule module = nullptr;
    std::vector<std::unique_ptr<FunctionEntry>> functions;
};

/** A freed allocation waiting for reuse, with the stream it was used on: a
 * block is reused only on that stream, where earlier work on it is ordered
 * before the new work. */
struct PooledBlock {
    CUdeviceptr pointer = 0;
    CUstream stream = nullptr;
};

/** What the runtime keeps per CUDA context. */
struct ContextState {
    CUcontext context = nullptr;
    CudaDeviceInfo info;
    std::vector<std::unique_ptr<ModuleEntry>> modules;
    std::unordered_map<std::string_view, ModuleEntry *> modules_by_source;
    std::unordered_map<const char *, ModuleEntry *> modules_by_pointer;
    std::multimap<size_t, PooledBlock> pool;
    size_t pooled_bytes = 0;
};

/** A device allocation the runtime made, or a wrapped CUdeviceptr, by its
 * pointer. Crops and slices are pointers into these, recorded per buffer
 * (a crop at offset 0 has its source's pointer); an allocation freed while
 * crops of it live stays here, marked freed, until the last crop goes (as
 * an OpenCL sub-buffer keeps its parent). */
struct Allocation {
    enum Kind { Owned, Wrapped } kind = Owned;
    ContextState *owner = nullptr;
    size_t bytes = 0;                           // Owned: the size class
    CUstream stream = nullptr;                  // Owned: the stream of the call that allocated it
    int wrap_count = 0;                         // Wrapped: buffers wrapping this pointer
    int crop_count = 0;                         // crops and slices into it
    bool freed = false;                         // Owned: freed while crops lived
    CUdeviceptr range_begin = 0, range_end = 0; // the bytes crops may cover
};

struct CropRecord {
    CUdeviceptr pointer = 0;
    ContextState *owner = nullptr;
    CUdeviceptr root = 0; // the key of the Allocation it points into
    CUdeviceptr range_begin = 0, range_end = 0;
};

/** Context hooks of LoomRuntime.h, and the fixed context of loom_cuda_set_context. */
struct ContextChoice {
    int (*acquire)(void *, void **, void **) = nullptr;
    void (*release)(void *, void *) = nullptr;
    CUcontext fixed_context = nullptr;
    CUstream fixed_stream = nullptr;
};

struct CudaState {
    std::mutex mutex;
    const cu::DriverApi *api = nullptr;
    ContextChoice choice;
    // The primary context of LOOM_CUDA_DEVICE, retained once.
    CUcontext primary = nullptr;
    CUdevice primary_device = 0;
    std::vector<std::unique_ptr<ContextState>> contexts;

    std::unordered_map<CUdeviceptr, Allocation> allocations;
    std::unordered_map<const loom_buffer_t *, CropRecord> crops;

    int64_t built_from_source = 0, loaded_from_cache = 0;
    std::unordered_set<uint64_t> printed_programs; // LOOM_DEBUG: once per process
};

/** The state; never destroyed (kernels may be in flight at exit). */
CudaState &cuda_state();

/** The context and stream one operation of a call runs on. begin() loads
 * the driver, chooses the context (calling the user's acquire hook outside
 * the mutex), pushes it current and returns with the mutex held; the
 * destructor unlocks, pops and calls the release hook. */
class CallScope {
public:
    explicit CallScope(void *uc) : uc(uc) {}
    ~CallScope();
    CallScope(const CallScope &) = delete;
    CallScope &operator=(const CallScope &) = delete;
    /** Returns 0 or an error code (after reporting it). */
    int begin(CudaState &s);
    ContextState *context() const { return ctx; }
    CUstream stream() const { return call_stream; }

private:
    void *uc;
    CudaState *state = nullptr;
    std::unique_lock<std::mutex> lock;
    CUcontext acquired = nullptr;
    void *hook_context = nullptr; // what the acquire hook gave, for its release
    bool from_hook = false, pushed = false;
    ContextState *ctx = nullptr;
    CUstream call_stream = nullptr;
};

/** Pushes `context` current on this thread for the scope (under the mutex;
 * for work on memory of a known context, such as frees). */
class PushContext {
public:
    PushContext(const cu::DriverApi *api, CUcontext context);
    ~PushContext();
    bool ok() const { return pushed; }
    CUresult error() const { return err; }

private:
    const cu::DriverApi *api;
    bool pushed = false;
    CUresult err = 0;
};

/** Waits for all work of the call's stream (or of its context, on the NULL stream). */
int sync_locked(void *uc, CudaState &s, const CallScope &call, const std::string &what);

// Modules and functions (cuda_modules.cpp).

/** The function `name` of the module of `source` in the call's context,
 * loading the module on first use: the best image of an AOT CUDA bundle,
 * else the CUDA C compiled with NVRTC (or loaded from the disk cache). */
int get_function_locked(void *uc, CudaState &s, ContextState &ctx, const char *source,
                        const char *name, FunctionEntry **out);
/** Unloads every module of `ctx`. */
void release_modules_locked(CudaState &s, ContextState &ctx);

/** Everything that decides a compiled CUDA program: the key of the disk
 * cache, and what tests check. */
std::string cuda_kernel_cache_key(const std::string &source,
                                  const std::vector<std::string> &options, int capability,
                                  bool cubin, int nvrtc_version);

// Device memory (cuda_memory.cpp). A buffer's device handle is its
// CUdeviceptr; crops and slices point into their source's memory.

/** Frees the pooled blocks of `ctx`. */
void release_pool_locked(CudaState &s, ContextState &ctx);
int malloc_locked(void *uc, CudaState &s, const CallScope &call, loom_buffer_t *b);
/** Frees a buffer's memory (allocation, crop or wrapped pointer) without a
 * call context: memory knows its own. */
int free_locked(void *uc, CudaState &s, loom_buffer_t *b);
int crop_locked(void *uc, CudaState &s, const loom_buffer_t *src, loom_buffer_t *dst, int slice_dim,
                int slice_pos);
int release_crop_locked(void *uc, CudaState &s, loom_buffer_t *b);
int wrap_locked(void *uc, CudaState &s, const CallScope &call, loom_buffer_t *b, uint64_t handle);
int detach_locked(void *uc, CudaState &s, loom_buffer_t *b);

/** The CUdeviceptr of a buffer, or an error naming `what` when the buffer
 * has no device memory this runtime made, cropped or wrapped, or memory of
 * another context than the call's. */
int device_ptr_of(void *uc, CudaState &s, const CallScope &call, const loom_buffer_t *b,
                  const std::string &what, CUdeviceptr *out);

// Copies (cuda_copies.cpp), with the dirty-flag rules of LoomRuntime.h.
int copy_to_host_locked(void *uc, CudaState &s, const CallScope &call, loom_buffer_t *b);
int copy_to_device_locked(void *uc, CudaState &s, const CallScope &call, loom_buffer_t *b);
int buffer_copy_locked(void *uc, CudaState &s, const CallScope &call, loom_buffer_t *src,
                       bool to_device, loom_buffer_t *dst);

} // namespace loom_rt

#endif
