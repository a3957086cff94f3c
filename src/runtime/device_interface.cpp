// The device-API-generic buffer operations: they check the dirty flags and
// which API owns a buffer's device memory, then dispatch through
// loom_buffer_t::device_interface (Halide's halide_copy_to_device & co.).
// Also the calls generated host code makes (loom_device_run, the
// loom_buffer_* forms taking an API number, pipeline-internal device buffers)
// and the live-allocation count.

#include <atomic>
#include <climits>
#include <cstddef>
#include <new>

#include "cuda_entry.h"
#include "device_internal.h"
#include "opencl_entry.h"

namespace {

std::atomic<int64_t> live_allocations{0};

// A pipeline-internal device buffer and its one dimension in one heap block
// (loom_device_buffer_create/destroy).
struct DeviceBufferBlock {
    loom_buffer_t buffer; // first: destroy casts the buffer back to its block
    loom_dimension_t dim;
};
static_assert(offsetof(DeviceBufferBlock, buffer) == 0, "buffer must come first");

bool is_device_dirty(const loom_buffer_t *b) {
    return (b->flags & loom_buffer_flag_device_dirty) != 0;
}

const char *api_name(int32_t api) {
    return api == loom_device_api_opencl ? "OpenCL"
           : api == loom_device_api_cuda ? "CUDA"
                                         : "an unknown device API";
}

int no_interface(void *uc, int32_t api) {
    return loom_rt::device_error(uc, std::string("No device interface for ") + api_name(api) +
                                         " (device API " + std::to_string(api) +
                                         ") in this Loom runtime");
}

int null_buffer(void *uc, const char *what) {
    return loom_rt::device_error(uc, std::string(what) + " was given a NULL buffer");
}

// A buffer whose device memory belongs to another API than `to` moves its
// data to the host first and gives that memory up (as Halide does).
int leave_other_api(void *uc, loom_buffer_t *b, const loom_device_interface_t *to) {
    if (!b->device || b->device_interface == to) return 0;
    if (int r = loom_copy_to_host(uc, b)) return r;
    return loom_device_free(uc, b);
}

} // namespace

namespace loom_rt {

int device_error(void *uc, const std::string &message) {
    loom_report_error(uc, message.c_str());
    return loom_error_code_device;
}

void count_live_allocations(int64_t delta) {
    live_allocations.fetch_add(delta, std::memory_order_relaxed);
}

} // namespace loom_rt

extern "C" {

const loom_device_interface_t *loom_device_interface_for(int32_t device_api) {
    if (device_api == loom_device_api_opencl) return loom_opencl_device_interface();
    if (device_api == loom_device_api_cuda) return loom_cuda_device_interface();
    return nullptr;
}

int loom_device_malloc(void *uc, loom_buffer_t *b, const loom_device_interface_t *iface) {
    if (!b) return null_buffer(uc, "loom_device_malloc");
    if (!iface) iface = b->device_interface;
    if (!iface)
        return loom_rt::device_error(uc, "loom_device_malloc was given no device interface");
    if (b->device) {
        if (b->device_interface == iface) return 0;
        return loom_rt::device_error(uc, "loom_device_malloc: " + loom_rt::describe_buffer(b) +
                                             " already has device memory of " +
                                             b->device_interface->name + "; free it before " +
                                             "allocating on " + iface->name);
    }
    return iface->device_malloc(uc, b, iface);
}

int loom_device_free(void *uc, loom_buffer_t *b) {
    if (!b) return null_buffer(uc, "loom_device_free");
    if (!b->device) return 0;
    if (!b->device_interface)
        return loom_rt::device_error(uc, "loom_device_free: " + loom_rt::describe_buffer(b) +
                                             " has a device handle but no device interface");
    int r = b->device_interface->device_free(uc, b);
    // Whatever the device held is gone (Halide: device_free clears device_dirty).
    b->flags &= ~uint64_t(loom_buffer_flag_device_dirty);
    return r;
}

int loom_device_sync(void *uc, loom_buffer_t *b) {
    if (!b) {
        int r = loom_rt::opencl_sync_all(uc);
        int c = loom_rt::cuda_sync_all(uc);
        return r ? r : c;
    }
    if (!b->device_interface) return 0;
    return b->device_interface->device_sync(uc, b);
}

int loom_copy_to_host(void *uc, loom_buffer_t *b) {
    if (!b) return null_buffer(uc, "loom_copy_to_host");
    if (!is_device_dirty(b)) return 0;
    if (!b->device || !b->device_interface)
        return loom_rt::device_error(uc, "loom_copy_to_host: " + loom_rt::describe_buffer(b) +
                                             " is marked device-dirty but has no device memory");
    return b->device_interface->copy_to_host(uc, b);
}

int loom_copy_to_device(void *uc, loom_buffer_t *b, const loom_device_interface_t *iface) {
    if (!b) return null_buffer(uc, "loom_copy_to_device");
    if (!iface) iface = b->device_interface;
    if (!iface)
        return loom_rt::device_error(uc, "loom_copy_to_device: " + loom_rt::describe_buffer(b) +
                                             " has no device memory and no device interface "
                                             "was given");
    if (int r = leave_other_api(uc, b, iface)) return r;
    return iface->copy_to_device(uc, b, iface);
}

int loom_device_wrap_native(void *uc, loom_buffer_t *b, const loom_device_interface_t *iface,
                            uint64_t handle) {
    if (!b) return null_buffer(uc, "loom_device_wrap_native");
    if (!iface) return loom_rt::device_error(uc, "loom_device_wrap_native: no device interface");
    if (b->device)
        return loom_rt::device_error(uc, "loom_device_wrap_native: " + loom_rt::describe_buffer(b) +
                                             " already has device memory; free or detach it "
                                             "first");
    return iface->wrap_native(uc, b, handle, iface);
}

int loom_device_detach_native(void *uc, loom_buffer_t *b) {
    if (!b) return null_buffer(uc, "loom_device_detach_native");
    if (!b->device) return 0;
    if (!b->device_interface)
        return loom_rt::device_error(uc, "loom_device_detach_native: no device interface");
    return b->device_interface->detach_native(uc, b);
}

int64_t loom_device_live_allocations(void) {
    return live_allocations.load(std::memory_order_relaxed);
}

int loom_device_run(void *uc, int32_t device_api, const char *source, const char *kernel_name,
                    int32_t blocks_x, int32_t blocks_y, int32_t blocks_z, int32_t threads_x,
                    int32_t threads_y, int32_t threads_z, int32_t shared_bytes,
                    const char *arg_kinds, const uint64_t *args) {
    const int32_t blocks[3] = {blocks_x, blocks_y, blocks_z};
    const int32_t threads[3] = {threads_x, threads_y, threads_z};
    if (device_api == loom_device_api_opencl)
        return loom_rt::opencl_run(uc, source, kernel_name, blocks, threads, shared_bytes,
                                   arg_kinds, args);
    if (device_api == loom_device_api_cuda)
        return loom_rt::cuda_run(uc, source, kernel_name, blocks, threads, shared_bytes, arg_kinds,
                                 args);
    return no_interface(uc, device_api);
}

int loom_device_get_limits(void *uc, int32_t device_api, loom_device_limits_t *limits) {
    if (!limits) return loom_rt::device_error(uc, "loom_device_get_limits was given NULL");
    *limits = loom_device_limits_t{};
    if (device_api == loom_device_api_opencl) return loom_rt::opencl_get_limits(uc, limits);
    if (device_api == loom_device_api_cuda) return loom_rt::cuda_get_limits(uc, limits);
    return no_interface(uc, device_api);
}

int loom_buffer_copy_to_device(void *uc, loom_buffer_t *b, int32_t device_api) {
    const loom_device_interface_t *iface = loom_device_interface_for(device_api);
    if (!iface) return no_interface(uc, device_api);
    return loom_copy_to_device(uc, b, iface);
}

int loom_buffer_copy_to_host(void *uc, loom_buffer_t *b) {
    return loom_copy_to_host(uc, b);
}

int loom_buffer_set_host_dirty(void *uc, loom_buffer_t *b, int32_t dirty) {
    if (!b) return null_buffer(uc, "loom_buffer_set_host_dirty");
    if (dirty)
        b->flags |= loom_buffer_flag_host_dirty;
    else
        b->flags &= ~uint64_t(loom_buffer_flag_host_dirty);
    return 0;
}

int loom_buffer_set_device_dirty(void *uc, loom_buffer_t *b, int32_t dirty) {
    if (!b) return null_buffer(uc, "loom_buffer_set_device_dirty");
    if (dirty)
        b->flags |= loom_buffer_flag_device_dirty;
    else
        b->flags &= ~uint64_t(loom_buffer_flag_device_dirty);
    return 0;
}

void loom_device_program_stats(int32_t device_api, int64_t *built_from_source,
                               int64_t *loaded_from_cache) {
    if (built_from_source) *built_from_source = 0;
    if (loaded_from_cache) *loaded_from_cache = 0;
    if (device_api == loom_device_api_opencl)
        loom_rt::opencl_program_stats(built_from_source, loaded_from_cache);
    if (device_api == loom_device_api_cuda)
        loom_rt::cuda_program_stats(built_from_source, loaded_from_cache);
}

int loom_device_reset(void *uc, int32_t device_api) {
    if (device_api == loom_device_api_opencl) return loom_rt::opencl_reset(uc);
    if (device_api == loom_device_api_cuda) return loom_rt::cuda_reset(uc);
    return no_interface(uc, device_api);
}

loom_buffer_t *loom_device_buffer_create(void *uc, void *host, int64_t bytes, int32_t device_api) {
    const loom_device_interface_t *iface = loom_device_interface_for(device_api);
    if (!iface) {
        no_interface(uc, device_api);
        return nullptr;
    }
    if (bytes < 0 || bytes > INT32_MAX) {
        loom_rt::device_error(uc, "loom_device_buffer_create: " + std::to_string(bytes) +
                                      " bytes is outside [0, 2^31)");
        return nullptr;
    }
    DeviceBufferBlock *block = new (std::nothrow) DeviceBufferBlock{};
    if (!block) {
        loom_error_out_of_memory(uc);
        return nullptr;
    }
    block->dim = loom_dimension_t{0, int32_t(bytes), 1, 0};
    loom_buffer_t &b = block->buffer;
    b.host = static_cast<uint8_t *>(host);
    b.type = loom_type_t{loom_type_uint, 8, 1};
    b.dimensions = 1;
    b.dim = &block->dim;
    if (loom_device_malloc(uc, &b, iface) != 0) {
        delete block;
        return nullptr;
    }
    return &b;
}

int loom_device_buffer_destroy(void *uc, loom_buffer_t *b) {
    if (!b) return 0;
    int r = loom_device_free(uc, b);
    delete reinterpret_cast<DeviceBufferBlock *>(b);
    return r;
}

} // extern "C"
