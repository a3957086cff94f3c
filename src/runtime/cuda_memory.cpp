// Device memory of the CUDA runtime. A buffer's device handle is its
// CUdeviceptr, covering the buffer's span with the element at the mins at
// byte 0; crops and slices are pointers into their source's memory. Every
// pointer the runtime hands out is recorded (allocations, wrapped pointers,
// crops), so that a pointer freed twice or never made here is an error,
// never a driver crash. Freed allocations wait in a pool per context by size
// class for the next allocation of that class on the same stream (pipelines
// allocate the same sizes on every call).

#include <algorithm>

#include "cuda_internal.h"

namespace loom_rt {

namespace {

const char *const api_name = "CUDA";

CUdeviceptr ptr_of(const loom_buffer_t *b) {
    return CUdeviceptr(b->device);
}

void set_device(loom_buffer_t *b, CUdeviceptr pointer) {
    b->device = uint64_t(pointer);
    b->device_interface = pointer ? loom_cuda_device_interface() : nullptr;
}

int allocate_locked(void *uc, CudaState &s, const CallScope &call, size_t bytes,
                    const loom_buffer_t *b, CUdeviceptr *out) {
    ContextState &c = *call.context();
    size_t cls = allocation_size_class(bytes);
    CUdeviceptr pointer = 0;
    auto range = c.pool.equal_range(cls);
    for (auto it = range.first; it != range.second; ++it) {
        if (it->second.stream != call.stream()) continue;
        pointer = it->second.pointer;
        c.pool.erase(it);
        c.pooled_bytes -= cls;
        break;
    }
    if (!pointer) {
        CUresult err = s.api->cuMemAlloc(&pointer, cls);
        if (err == cu::CUDA_ERROR_OUT_OF_MEMORY && !c.pool.empty()) {
            // Pooled blocks of other sizes may be what is missing.
            release_pool_locked(s, c);
            err = s.api->cuMemAlloc(&pointer, cls);
        }
        if (err != cu::CUDA_SUCCESS)
            return cu_fail(uc, err, "cuMemAlloc",
                           std::to_string(cls) + " bytes for " + describe_buffer(b) + " on \"" +
                               c.info.name + "\"");
    }
    Allocation a;
    a.kind = Allocation::Owned;
    a.owner = &c;
    a.bytes = cls;
    a.stream = call.stream();
    a.range_begin = pointer;
    a.range_end = pointer + cls;
    s.allocations[pointer] = a;
    count_live_allocations(1);
    *out = pointer;
    return 0;
}

// An owned allocation goes back to its context's pool, or to the driver
// when the pool is full.
void recycle_locked(CudaState &s, CUdeviceptr pointer, const Allocation &a) {
    ContextState &c = *a.owner;
    size_t limit = std::min<size_t>(pool_max_bytes, c.info.total_memory / 4);
    if (c.pool.size() < pool_max_entries && c.pooled_bytes + a.bytes <= limit) {
        c.pool.emplace(a.bytes, PooledBlock{pointer, a.stream});
        c.pooled_bytes += a.bytes;
        return;
    }
    PushContext push(s.api, c.context);
    if (push.ok()) s.api->cuMemFree(pointer);
}

int unknown_pointer(void *uc, const loom_buffer_t *b, const char *operation) {
    return device_error(uc, std::string("CUDA: ") + operation + " of " + describe_buffer(b) +
                                ": its device pointer was not made by this CUDA runtime, or "
                                "was freed already");
}

// The crop record of b, when b's device memory is a crop or slice.
CropRecord *crop_of(CudaState &s, const loom_buffer_t *b) {
    auto it = s.crops.find(b);
    return it != s.crops.end() && it->second.pointer == ptr_of(b) ? &it->second : nullptr;
}

// The crop record of b, or of a crop with b's device pointer: a copy of a
// loom_buffer_t shares its crop (Runtime::Buffer copies and views share
// device memory). For lookups only: a crop is released through the
// loom_buffer_t that made it.
const CropRecord *crop_sharing_pointer(CudaState &s, const loom_buffer_t *b) {
    if (const CropRecord *crop = crop_of(s, b)) return crop;
    for (const auto &entry : s.crops)
        if (entry.second.pointer == ptr_of(b)) return &entry.second;
    return nullptr;
}

// The live allocation (owned or wrapped) b's device pointer is, if any.
Allocation *allocation_of(CudaState &s, const loom_buffer_t *b) {
    auto it = s.allocations.find(ptr_of(b));
    return it != s.allocations.end() && !it->second.freed ? &it->second : nullptr;
}

// Forgets one crop or slice; the allocation it points into goes back to
// the pool when it was freed while crops lived and this was the last.
void drop_crop_locked(CudaState &s, const CropRecord &crop) {
    count_live_allocations(-1);
    auto it = s.allocations.find(crop.root);
    if (it == s.allocations.end()) return;
    Allocation &a = it->second;
    if (--a.crop_count > 0) return;
    if (a.kind == Allocation::Wrapped) {
        if (a.wrap_count == 0) s.allocations.erase(it);
    } else if (a.freed) {
        Allocation freed = a;
        s.allocations.erase(it);
        recycle_locked(s, crop.root, freed);
    }
}

} // namespace

void release_pool_locked(CudaState &s, ContextState &c) {
    if (c.pool.empty()) return;
    PushContext push(s.api, c.context);
    if (push.ok())
        for (auto &entry : c.pool) s.api->cuMemFree(entry.second.pointer);
    c.pool.clear();
    c.pooled_bytes = 0;
}

int malloc_locked(void *uc, CudaState &s, const CallScope &call, loom_buffer_t *b) {
    if (b->device) {
        if (b->device_interface == loom_cuda_device_interface()) return 0;
        return device_error(uc, "CUDA: device_malloc of " + describe_buffer(b) +
                                    ", which has device memory of another API");
    }
    size_t bytes = 0;
    if (int r = device_span_bytes(uc, b, api_name, &bytes)) return r;
    CUdeviceptr pointer = 0;
    if (int r = allocate_locked(uc, s, call, bytes, b, &pointer)) return r;
    set_device(b, pointer);
    return 0;
}

int free_locked(void *uc, CudaState &s, loom_buffer_t *b) {
    if (!b->device) return 0;
    if (CropRecord *crop = crop_of(s, b)) {
        CropRecord record = *crop;
        s.crops.erase(b);
        drop_crop_locked(s, record);
        set_device(b, 0);
        return 0;
    }
    Allocation *a = allocation_of(s, b);
    if (!a) return unknown_pointer(uc, b, "device_free");
    CUdeviceptr pointer = ptr_of(b);
    if (a->kind == Allocation::Wrapped) {
        // The caller owns a wrapped pointer: forget it, free nothing.
        if (--a->wrap_count == 0 && a->crop_count == 0) s.allocations.erase(pointer);
    } else {
        count_live_allocations(-1);
        if (a->crop_count > 0) {
            a->freed = true; // its crops still use it
        } else {
            Allocation freed = *a;
            s.allocations.erase(pointer);
            recycle_locked(s, pointer, freed);
        }
    }
    set_device(b, 0);
    return 0;
}

int crop_locked(void *uc, CudaState &s, const loom_buffer_t *src, loom_buffer_t *dst, int slice_dim,
                int slice_pos) {
    const std::string what = slice_dim < 0 ? "device_crop" : "device_slice";
    if (!src->device || src->device_interface != loom_cuda_device_interface())
        return device_error(uc, "CUDA: " + what + " of " + describe_buffer(src) +
                                    ", which has no CUDA device memory");
    if (dst->device)
        return device_error(uc, "CUDA: " + what + ": the destination " + describe_buffer(dst) +
                                    " already has device memory");
    CropRecord record;
    if (const CropRecord *crop = crop_sharing_pointer(s, src)) {
        record = *crop;
    } else if (const Allocation *a = allocation_of(s, src)) {
        record.owner = a->owner;
        record.root = ptr_of(src);
        record.range_begin = a->range_begin;
        record.range_end = a->range_end;
    } else {
        return unknown_pointer(uc, src, what.c_str());
    }
    int64_t offset = 0;
    if (int r = crop_byte_offset(uc, src, dst, slice_dim, slice_pos, &offset)) return r;
    size_t bytes = 0;
    if (int r = device_span_bytes(uc, dst, api_name, &bytes)) return r;
    record.pointer = ptr_of(src) + CUdeviceptr(offset);
    if (record.pointer < record.range_begin || record.pointer + bytes > record.range_end)
        return device_error(uc, "CUDA: " + what + ": bytes " + std::to_string(offset) + " to " +
                                    std::to_string(offset + int64_t(bytes)) + " of " +
                                    describe_buffer(src) +
                                    " lie outside the device memory it points into");
    // A stale record of dst (its device field cleared by hand) is dropped.
    auto stale = s.crops.find(dst);
    if (stale != s.crops.end()) {
        CropRecord old = stale->second;
        s.crops.erase(stale);
        drop_crop_locked(s, old);
    }
    s.allocations[record.root].crop_count++;
    s.crops[dst] = record;
    count_live_allocations(1);
    set_device(dst, record.pointer);
    return 0;
}

int release_crop_locked(void *uc, CudaState &s, loom_buffer_t *b) {
    if (!b->device) return 0;
    if (!crop_of(s, b)) {
        if (allocation_of(s, b))
            return device_error(uc, "CUDA: device_release_crop of " + describe_buffer(b) +
                                        ", whose device memory is not a crop or slice; use "
                                        "device_free");
        return unknown_pointer(uc, b, "device_release_crop");
    }
    return free_locked(uc, s, b);
}

int wrap_locked(void *uc, CudaState &s, const CallScope &call, loom_buffer_t *b, uint64_t handle) {
    if (!handle) return device_error(uc, "CUDA: wrap_native was given a NULL CUdeviceptr");
    CUdeviceptr pointer = CUdeviceptr(handle);
    auto known = s.allocations.find(pointer);
    if (known != s.allocations.end() && known->second.kind != Allocation::Wrapped)
        return device_error(uc, "CUDA: wrap_native of a CUdeviceptr this runtime allocated "
                                "for another buffer; use a crop instead");
    const ContextState &c = *call.context();
    CUcontext context = nullptr;
    CUresult err =
        s.api->cuPointerGetAttribute(&context, cu::CU_POINTER_ATTRIBUTE_CONTEXT, pointer);
    if (err != cu::CUDA_SUCCESS)
        return cu_fail(uc, err, "cuPointerGetAttribute",
                       "the CUdeviceptr given to wrap_native is not CUDA device memory");
    // Stream-ordered allocations name no context; others must be the call's.
    if (context && context != c.context)
        return device_error(uc, "CUDA: wrap_native was given a CUdeviceptr of another CUDA "
                                "context than the call's (device \"" +
                                    c.info.name +
                                    "\"); pass that context with loom_cuda_set_context or "
                                    "the context hooks");
    CUdeviceptr base = 0;
    size_t size = 0;
    err = s.api->cuMemGetAddressRange(&base, &size, pointer);
    if (err != cu::CUDA_SUCCESS)
        return cu_fail(uc, err, "cuMemGetAddressRange", "the CUdeviceptr given to wrap_native");
    size_t bytes = 0;
    if (int r = device_span_bytes(uc, b, api_name, &bytes)) return r;
    size_t available = size_t(base + size - pointer);
    if (available < bytes)
        return device_error(uc, "CUDA: wrap_native: the CUdeviceptr has " +
                                    std::to_string(available) +
                                    " bytes from it to the end of its allocation but " +
                                    describe_buffer(b) + " spans " + std::to_string(bytes));
    Allocation &a = s.allocations[pointer];
    a.kind = Allocation::Wrapped;
    a.owner = call.context();
    a.wrap_count++;
    a.range_begin = base;
    a.range_end = base + size;
    set_device(b, pointer);
    return 0;
}

int detach_locked(void *uc, CudaState &s, loom_buffer_t *b) {
    if (!b->device) return 0;
    const Allocation *a = crop_of(s, b) ? nullptr : allocation_of(s, b);
    if (!a) {
        if (crop_of(s, b))
            return device_error(uc, "CUDA: detach_native of " + describe_buffer(b) +
                                        ", whose device memory is a crop or slice; use "
                                        "device_release_crop");
        return unknown_pointer(uc, b, "detach_native");
    }
    if (a->kind != Allocation::Wrapped)
        return device_error(uc, "CUDA: detach_native of " + describe_buffer(b) +
                                    ", whose device memory was not wrapped with wrap_native; "
                                    "use device_free");
    return free_locked(uc, s, b);
}

int device_ptr_of(void *uc, CudaState &s, const CallScope &call, const loom_buffer_t *b,
                  const std::string &what, CUdeviceptr *out) {
    if (!b) return device_error(uc, "CUDA: " + what + " is a NULL buffer");
    if (!b->device)
        return device_error(uc, "CUDA: " + what + ", " + describe_buffer(b) +
                                    ", has no device memory (copy_to_device or device_malloc "
                                    "it first)");
    if (b->device_interface != loom_cuda_device_interface())
        return device_error(
            uc, "CUDA: " + what + ", " + describe_buffer(b) + ", has device memory of " +
                    (b->device_interface ? b->device_interface->name : "no API") + ", not CUDA");
    const ContextState *owner = nullptr;
    if (const CropRecord *crop = crop_sharing_pointer(s, b))
        owner = crop->owner;
    else if (const Allocation *a = allocation_of(s, b))
        owner = a->owner;
    if (!owner)
        return device_error(uc, "CUDA: " + what + ", " + describe_buffer(b) +
                                    ", has a device pointer that this CUDA runtime did not "
                                    "make or has freed");
    if (owner != call.context())
        return device_error(uc, "CUDA: " + what + ", " + describe_buffer(b) +
                                    ", has device memory of another CUDA context than the "
                                    "call's; copy it to the host and free it first");
    *out = ptr_of(b);
    return 0;
}

} // namespace loom_rt
