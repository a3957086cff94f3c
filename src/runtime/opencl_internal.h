// Internal declarations of the OpenCL runtime (src/runtime/opencl_*.cpp).
//
// One process-wide state: the driver's entry points (dlopen'ed), one context
// and one in-order queue on one device, the program and kernel caches, and
// the device allocations. One mutex guards all of it: pipelines launch
// kernels from parallel CPU loops, and cl_kernel argument setting plus
// enqueueing must not interleave between threads. Functions named *_locked
// expect the caller to hold the mutex.
#ifndef LOOM_RUNTIME_OPENCL_INTERNAL_H
#define LOOM_RUNTIME_OPENCL_INTERNAL_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "device_internal.h"

namespace loom_rt {

// The OpenCL 1.2 entry points the runtime uses, as members of the same names.
#define LOOM_CL_FUNCTIONS(X)                                                                       \
    X(clGetPlatformIDs)                                                                            \
    X(clGetPlatformInfo)                                                                           \
    X(clGetDeviceIDs)                                                                              \
    X(clGetDeviceInfo)                                                                             \
    X(clCreateContext)                                                                             \
    X(clReleaseContext)                                                                            \
    X(clCreateCommandQueue)                                                                        \
    X(clReleaseCommandQueue)                                                                       \
    X(clFinish)                                                                                    \
    X(clCreateProgramWithSource)                                                                   \
    X(clCreateProgramWithBinary)                                                                   \
    X(clBuildProgram)                                                                              \
    X(clGetProgramBuildInfo)                                                                       \
    X(clGetProgramInfo)                                                                            \
    X(clReleaseProgram)                                                                            \
    X(clCreateKernel)                                                                              \
    X(clReleaseKernel)                                                                             \
    X(clGetKernelInfo)                                                                             \
    X(clGetKernelWorkGroupInfo)                                                                    \
    X(clSetKernelArg)                                                                              \
    X(clEnqueueNDRangeKernel)                                                                      \
    X(clCreateBuffer)                                                                              \
    X(clCreateSubBuffer)                                                                           \
    X(clReleaseMemObject)                                                                          \
    X(clGetMemObjectInfo)                                                                          \
    X(clEnqueueReadBuffer)                                                                         \
    X(clEnqueueWriteBuffer)                                                                        \
    X(clEnqueueCopyBuffer)

struct CLApi {
#define LOOM_CL_MEMBER(name) decltype(&::name) name = nullptr;
    LOOM_CL_FUNCTIONS(LOOM_CL_MEMBER)
#undef LOOM_CL_MEMBER
};

/** The driver's entry points, loading libOpenCL.so.1 (else libOpenCL.so) on
 * first use; NULL when it cannot be loaded, with `*why` saying what was
 * tried. `*library` is the name that loaded. Call under the mutex. */
const CLApi *load_opencl_locked(std::string *library, std::string *why);

/** "CL_OUT_OF_RESOURCES" for -5; "unknown OpenCL error -1234" otherwise. */
std::string cl_error_name(cl_int err);

/** Reports "OpenCL: <call> failed with <NAME> (<context>)"; returns
 * loom_error_code_device. `context` names the kernel or buffer involved. */
int cl_fail(void *uc, cl_int err, const char *call, const std::string &context);

/** The device chosen from LOOM_OCL_DEVICE_TYPE and LOOM_OCL_PLATFORM_NAME. */
struct DeviceChoice {
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
};
/** Chooses the device; on failure reports what was tried (library, platforms
 * with their devices, the type asked) and returns an error code. */
int select_device(void *uc, const CLApi &api, const std::string &library, DeviceChoice *out);

/** What launches and allocations check against, and what keys the disk cache. */
struct DeviceInfo {
    std::string platform_name, device_name, device_version, driver_version;
    cl_ulong local_mem_size = 0, max_mem_alloc_size = 0, global_mem_size = 0;
    size_t max_work_group_size = 0, max_work_item_sizes[3] = {0, 0, 0};
    cl_uint base_addr_align_bytes = 1; // CL_DEVICE_MEM_BASE_ADDR_ALIGN / 8
};

/** A kernel object with what launch checks need, created once per program. */
struct KernelEntry {
    std::string name;
    cl_kernel kernel = nullptr;
    cl_uint num_args = 0;
    size_t work_group_size = 0;
    size_t compile_work_group_size[3] = {0, 0, 0}; // reqd_work_group_size, or zeros
    cl_ulong static_local_bytes = 0;               // before any dynamic __local argument is set
};

struct ProgramEntry {
    std::string source; // also verifies the pointer fast path
    cl_program program = nullptr;
    std::vector<std::unique_ptr<KernelEntry>> kernels;
};

/** A device allocation the runtime made, a crop of one, or a wrapped handle. */
struct Allocation {
    enum Kind { Owned, Crop, Wrapped } kind = Owned;
    size_t bytes = 0;   // bytes of the cl_mem (Owned: the rounded pool size)
    int wrap_count = 0; // Wrapped: buffers wrapping this handle
};

struct OpenCLState {
    std::mutex mutex;
    const CLApi *api = nullptr;
    bool initialized = false;
    DeviceChoice choice;
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
    DeviceInfo info;

    // Programs: by source text, plus a fast path by the source's address
    // (generated code passes the same string literal on every launch).
    std::vector<std::unique_ptr<ProgramEntry>> programs;
    std::unordered_map<std::string_view, ProgramEntry *> programs_by_source;
    std::unordered_map<const char *, ProgramEntry *> programs_by_pointer;
    int64_t built_from_source = 0, loaded_from_binary = 0;
    std::unordered_set<uint64_t> printed_sources; // LOOM_DEBUG: once per process

    // Memory: every live handle, and freed allocations kept for reuse by size.
    std::unordered_map<cl_mem, Allocation> allocations;
    std::multimap<size_t, cl_mem> pool;
    size_t pooled_bytes = 0;
};

/** The state; never destroyed (kernels may be in flight at exit). */
OpenCLState &cl_state();

/** Loads the driver, chooses the device and creates the context and queue
 * unless done already. Returns 0 or an error code. */
int ensure_initialized_locked(void *uc, OpenCLState &s);

/** The kernel `name` of the program of `source`, building the program (or
 * loading it from the disk cache) on first use. */
int get_kernel_locked(void *uc, OpenCLState &s, const char *source, const char *name,
                      KernelEntry **out);
/** Releases every kernel and program. */
void release_programs_locked(OpenCLState &s);

// Device memory (opencl_memory.cpp). The device handle of a buffer is its
// cl_mem cast to uint64_t; crops and slices are sub-buffers (cl_mem too).

/** Releases the pooled allocations. */
void release_pool_locked(OpenCLState &s);
/** The interface's operations on a buffer's device memory (see LoomRuntime.h). */
int malloc_locked(void *uc, OpenCLState &s, loom_buffer_t *b);
int free_locked(void *uc, OpenCLState &s, loom_buffer_t *b);
/** A crop (slice_dim < 0) or slice of src's device memory for dst. */
int crop_locked(void *uc, OpenCLState &s, const loom_buffer_t *src, loom_buffer_t *dst,
                int slice_dim, int slice_pos);
int release_crop_locked(void *uc, OpenCLState &s, loom_buffer_t *b);
int wrap_locked(void *uc, OpenCLState &s, loom_buffer_t *b, uint64_t handle);
int detach_locked(void *uc, OpenCLState &s, loom_buffer_t *b);

/** The cl_mem of a buffer, or an error naming `what` when the buffer has no
 * device memory this runtime made, cropped or wrapped. */
int device_mem_of(void *uc, const OpenCLState &s, const loom_buffer_t *b, const std::string &what,
                  cl_mem *out);

// Copies (opencl_copies.cpp), with the dirty-flag rules of LoomRuntime.h.
int copy_to_host_locked(void *uc, OpenCLState &s, loom_buffer_t *b);
int copy_to_device_locked(void *uc, OpenCLState &s, loom_buffer_t *b);
/** Copies src into dst over dst's region, to dst's device memory
 * (to_device) or to its host memory; marks that side dirty. */
int buffer_copy_locked(void *uc, OpenCLState &s, loom_buffer_t *src, bool to_device,
                       loom_buffer_t *dst);

/** Quoted source lines that the build log points at ("<source>:12:5: error"
 * style), each with its number and a caret under the column; "" when the
 * log names none. */
std::string quote_source_lines_from_log(const std::string &source, const std::string &log);

} // namespace loom_rt

#endif
