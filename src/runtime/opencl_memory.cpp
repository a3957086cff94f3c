// Device memory of the OpenCL runtime. A buffer's device handle is its cl_mem
// cast to uint64_t, covering the buffer's span with the element at the mins
// at byte 0. Every handle the runtime hands out is recorded (allocations,
// crops, wrapped natives), so that a handle freed twice or never made here
// is an error, never a driver crash. Freed allocations wait in a pool by
// size class for the next allocation of that class (pipelines allocate the
// same sizes on every call).

#include <algorithm>

#include "opencl_internal.h"

namespace loom_rt {

namespace {

bool is_out_of_memory(cl_int err) {
    return err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES ||
           err == CL_OUT_OF_HOST_MEMORY;
}

cl_mem mem_of(const loom_buffer_t *b) {
    return reinterpret_cast<cl_mem>(static_cast<uintptr_t>(b->device));
}

void set_device(loom_buffer_t *b, cl_mem mem) {
    b->device = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(mem));
    b->device_interface = mem ? loom_opencl_device_interface() : nullptr;
}

int allocate_locked(void *uc, OpenCLState &s, size_t bytes, const loom_buffer_t *b, cl_mem *out) {
    if (bytes > s.info.max_mem_alloc_size)
        return device_error(uc, "OpenCL: " + describe_buffer(b) + " needs " +
                                    std::to_string(bytes) + " bytes of device memory, more than " +
                                    "the device's largest allocation of " +
                                    std::to_string(s.info.max_mem_alloc_size) +
                                    " bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE)");
    size_t cls = std::min<size_t>(allocation_size_class(bytes), s.info.max_mem_alloc_size);
    auto pooled = s.pool.find(cls);
    cl_mem mem = nullptr;
    if (pooled != s.pool.end()) {
        mem = pooled->second;
        s.pool.erase(pooled);
        s.pooled_bytes -= cls;
    } else {
        cl_int err = CL_SUCCESS;
        mem = s.api->clCreateBuffer(s.context, CL_MEM_READ_WRITE, cls, nullptr, &err);
        if (is_out_of_memory(err) && !s.pool.empty()) {
            // Pooled blocks of other sizes may be what is missing.
            release_pool_locked(s);
            mem = s.api->clCreateBuffer(s.context, CL_MEM_READ_WRITE, cls, nullptr, &err);
        }
        if (err != CL_SUCCESS)
            return cl_fail(uc, err, "clCreateBuffer",
                           std::to_string(cls) + " bytes for " + describe_buffer(b));
    }
    s.allocations[mem] = Allocation{Allocation::Owned, cls, 0};
    count_live_allocations(1);
    *out = mem;
    return 0;
}

// An owned allocation goes back to the pool, or to the driver when the pool is full.
void recycle_locked(OpenCLState &s, cl_mem mem, size_t bytes) {
    size_t limit = std::min<size_t>(pool_max_bytes, size_t(s.info.global_mem_size / 4));
    if (s.pool.size() < pool_max_entries && s.pooled_bytes + bytes <= limit) {
        s.pool.emplace(bytes, mem);
        s.pooled_bytes += bytes;
    } else {
        s.api->clReleaseMemObject(mem);
    }
}

int unknown_handle(void *uc, const loom_buffer_t *b, const char *operation) {
    return device_error(uc, std::string("OpenCL: ") + operation + " of " + describe_buffer(b) +
                                ": its device handle was not made by this OpenCL runtime, or "
                                "was freed already");
}

template <typename T> T mem_value(const OpenCLState &s, cl_mem mem, cl_mem_info what) {
    T value{};
    s.api->clGetMemObjectInfo(mem, what, sizeof(T), &value, nullptr);
    return value;
}

} // namespace

void release_pool_locked(OpenCLState &s) {
    for (auto &entry : s.pool) s.api->clReleaseMemObject(entry.second);
    s.pool.clear();
    s.pooled_bytes = 0;
}

int malloc_locked(void *uc, OpenCLState &s, loom_buffer_t *b) {
    if (b->device) {
        if (b->device_interface == loom_opencl_device_interface()) return 0;
        return device_error(uc, "OpenCL: device_malloc of " + describe_buffer(b) +
                                    ", which has device memory of another API");
    }
    size_t bytes = 0;
    if (int r = device_span_bytes(uc, b, "OpenCL", &bytes)) return r;
    cl_mem mem = nullptr;
    if (int r = allocate_locked(uc, s, bytes, b, &mem)) return r;
    set_device(b, mem);
    return 0;
}

int free_locked(void *uc, OpenCLState &s, loom_buffer_t *b) {
    if (!b->device) return 0;
    cl_mem mem = mem_of(b);
    auto it = s.allocations.find(mem);
    if (it == s.allocations.end()) return unknown_handle(uc, b, "device_free");
    Allocation a = it->second;
    // Like cuMemFree, a free waits for the work queued before it: a kernel
    // still writing the memory must not outlive it (or the process: PoCL
    // compiles a queued kernel lazily, and exit() unloads its compiler under it).
    if (a.kind != Allocation::Wrapped) s.api->clFinish(s.queue);
    switch (a.kind) {
    case Allocation::Owned:
        s.allocations.erase(it);
        count_live_allocations(-1);
        recycle_locked(s, mem, a.bytes);
        break;
    case Allocation::Crop:
        s.allocations.erase(it);
        count_live_allocations(-1);
        s.api->clReleaseMemObject(mem);
        break;
    case Allocation::Wrapped:
        // The caller owns a wrapped handle: forget it, release nothing.
        if (--it->second.wrap_count == 0) s.allocations.erase(it);
        break;
    }
    set_device(b, nullptr);
    return 0;
}

int crop_locked(void *uc, OpenCLState &s, const loom_buffer_t *src, loom_buffer_t *dst,
                int slice_dim, int slice_pos) {
    const char *what = slice_dim < 0 ? "device_crop" : "device_slice";
    cl_mem src_mem = nullptr;
    if (int r = device_mem_of(uc, s, src, std::string(what) + " source", &src_mem)) return r;
    if (dst->device)
        return device_error(uc, std::string("OpenCL: ") + what + ": the destination " +
                                    describe_buffer(dst) + " already has device memory");
    int64_t offset = 0;
    if (int r = crop_byte_offset(uc, src, dst, slice_dim, slice_pos, &offset)) return r;
    size_t bytes = 0;
    if (int r = device_span_bytes(uc, dst, "OpenCL", &bytes)) return r;
    // Sub-buffers of sub-buffers are not allowed: cut from the root allocation.
    cl_mem root = mem_value<cl_mem>(s, src_mem, CL_MEM_ASSOCIATED_MEMOBJECT);
    if (root)
        offset += int64_t(mem_value<size_t>(s, src_mem, CL_MEM_OFFSET));
    else
        root = src_mem;
    size_t root_size = mem_value<size_t>(s, root, CL_MEM_SIZE);
    if (size_t(offset) + bytes > root_size)
        return device_error(uc, std::string("OpenCL: ") + what + ": bytes " +
                                    std::to_string(offset) + " to " +
                                    std::to_string(size_t(offset) + bytes) +
                                    " lie outside the source's device memory of " +
                                    std::to_string(root_size) + " bytes");
    cl_uint align = s.info.base_addr_align_bytes;
    if (offset % align != 0)
        return device_error(
            uc, std::string("OpenCL: ") + what + " of " + describe_buffer(src) + ": the " +
                    (slice_dim < 0 ? "crop" : "slice") + " starts " + std::to_string(offset) +
                    " bytes into its device memory, which is not a multiple of the device's "
                    "sub-buffer alignment of " +
                    std::to_string(align) +
                    " bytes (CL_DEVICE_MEM_BASE_ADDR_ALIGN); start it at a multiple of " +
                    std::to_string(align) + " bytes, or copy the region into its own buffer");
    cl_buffer_region region{size_t(offset), bytes};
    cl_int err = CL_SUCCESS;
    cl_mem sub = s.api->clCreateSubBuffer(root, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
                                          &region, &err);
    if (err != CL_SUCCESS)
        return cl_fail(uc, err, "clCreateSubBuffer",
                       std::string(what) + " at byte " + std::to_string(offset) + " of " +
                           describe_buffer(src));
    s.allocations[sub] = Allocation{Allocation::Crop, bytes, 0};
    count_live_allocations(1);
    set_device(dst, sub);
    return 0;
}

int release_crop_locked(void *uc, OpenCLState &s, loom_buffer_t *b) {
    if (!b->device) return 0;
    auto it = s.allocations.find(mem_of(b));
    if (it == s.allocations.end()) return unknown_handle(uc, b, "device_release_crop");
    if (it->second.kind != Allocation::Crop)
        return device_error(uc, "OpenCL: device_release_crop of " + describe_buffer(b) +
                                    ", whose device memory is not a crop or slice; use "
                                    "device_free");
    return free_locked(uc, s, b);
}

int wrap_locked(void *uc, OpenCLState &s, loom_buffer_t *b, uint64_t handle) {
    if (!handle) return device_error(uc, "OpenCL: wrap_native was given a NULL cl_mem");
    cl_mem mem = reinterpret_cast<cl_mem>(static_cast<uintptr_t>(handle));
    auto known = s.allocations.find(mem);
    if (known != s.allocations.end() && known->second.kind != Allocation::Wrapped)
        return device_error(uc, "OpenCL: wrap_native of a cl_mem this runtime allocated "
                                "for another buffer; use a crop instead");
    cl_context context = nullptr;
    cl_int err = s.api->clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof(context), &context, nullptr);
    if (err != CL_SUCCESS)
        return cl_fail(uc, err, "clGetMemObjectInfo", "the cl_mem given to wrap_native");
    if (context != s.context)
        return device_error(uc, "OpenCL: wrap_native was given a cl_mem of another context; "
                                "Loom's OpenCL runtime uses one context per process, on device \"" +
                                    s.info.device_name + "\"");
    size_t bytes = 0;
    if (int r = device_span_bytes(uc, b, "OpenCL", &bytes)) return r;
    size_t size = mem_value<size_t>(s, mem, CL_MEM_SIZE);
    if (size < bytes)
        return device_error(uc, "OpenCL: wrap_native: the cl_mem holds " + std::to_string(size) +
                                    " bytes but " + describe_buffer(b) + " spans " +
                                    std::to_string(bytes));
    Allocation &a = s.allocations[mem];
    a.kind = Allocation::Wrapped;
    a.bytes = size;
    a.wrap_count++;
    set_device(b, mem);
    return 0;
}

int detach_locked(void *uc, OpenCLState &s, loom_buffer_t *b) {
    if (!b->device) return 0;
    auto it = s.allocations.find(mem_of(b));
    if (it == s.allocations.end()) return unknown_handle(uc, b, "detach_native");
    if (it->second.kind != Allocation::Wrapped)
        return device_error(uc, "OpenCL: detach_native of " + describe_buffer(b) +
                                    ", whose device memory was not wrapped with wrap_native; "
                                    "use device_free");
    return free_locked(uc, s, b);
}

int device_mem_of(void *uc, const OpenCLState &s, const loom_buffer_t *b, const std::string &what,
                  cl_mem *out) {
    if (!b) return device_error(uc, "OpenCL: " + what + " is a NULL buffer");
    if (!b->device)
        return device_error(uc, "OpenCL: " + what + ", " + describe_buffer(b) +
                                    ", has no device memory (copy_to_device or device_malloc "
                                    "it first)");
    if (b->device_interface != loom_opencl_device_interface())
        return device_error(
            uc, "OpenCL: " + what + ", " + describe_buffer(b) + ", has device memory of " +
                    (b->device_interface ? b->device_interface->name : "no API") + ", not OpenCL");
    if (s.allocations.find(mem_of(b)) == s.allocations.end())
        return device_error(uc, "OpenCL: " + what + ", " + describe_buffer(b) +
                                    ", has a device handle that this OpenCL runtime did not "
                                    "make or has freed");
    *out = mem_of(b);
    return 0;
}

} // namespace loom_rt
