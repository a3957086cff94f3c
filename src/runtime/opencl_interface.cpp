// The OpenCL device interface table (LoomRuntime.h): each entry takes the
// runtime's mutex, creates the context on first use and calls the *_locked
// implementation in opencl_memory.cpp / opencl_copies.cpp.

#include "opencl_entry.h"
#include "opencl_internal.h"

namespace loom_rt {

namespace {

// Runs f(state) under the mutex once the runtime is initialized.
template <typename F> int with_state(void *uc, F &&f) {
    OpenCLState &s = cl_state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (int r = ensure_initialized_locked(uc, s)) return r;
    return f(s);
}

bool is_opencl(const loom_device_interface_t *iface) {
    return iface == loom_opencl_device_interface();
}

int not_opencl(void *uc, const char *operation, const loom_device_interface_t *iface) {
    return device_error(uc, std::string("OpenCL: ") + operation + " was called with the " +
                                (iface && iface->name ? iface->name : "NULL") +
                                " device interface");
}

int ocl_device_malloc(void *uc, loom_buffer_t *b, const loom_device_interface_t *iface) {
    if (!is_opencl(iface)) return not_opencl(uc, "device_malloc", iface);
    return with_state(uc, [&](OpenCLState &s) { return malloc_locked(uc, s, b); });
}

int ocl_device_free(void *uc, loom_buffer_t *b) {
    if (!b->device) return 0;
    return with_state(uc, [&](OpenCLState &s) { return free_locked(uc, s, b); });
}

int ocl_device_sync(void *uc, loom_buffer_t *) {
    // One in-order queue: waiting for it waits for everything touching the buffer.
    return opencl_sync_all(uc);
}

int ocl_copy_to_host(void *uc, loom_buffer_t *b) {
    return with_state(uc, [&](OpenCLState &s) { return copy_to_host_locked(uc, s, b); });
}

int ocl_copy_to_device(void *uc, loom_buffer_t *b, const loom_device_interface_t *iface) {
    if (!is_opencl(iface)) return not_opencl(uc, "copy_to_device", iface);
    return with_state(uc, [&](OpenCLState &s) { return copy_to_device_locked(uc, s, b); });
}

int ocl_buffer_copy(void *uc, loom_buffer_t *src, const loom_device_interface_t *dst_iface,
                    loom_buffer_t *dst) {
    if (!src || !dst) return device_error(uc, "OpenCL: buffer_copy was given a NULL buffer");
    if (dst_iface && !is_opencl(dst_iface)) return not_opencl(uc, "buffer_copy", dst_iface);
    return with_state(uc, [&](OpenCLState &s) {
        return buffer_copy_locked(uc, s, src, dst_iface != nullptr, dst);
    });
}

int ocl_device_crop(void *uc, const loom_buffer_t *src, loom_buffer_t *dst) {
    return with_state(uc, [&](OpenCLState &s) { return crop_locked(uc, s, src, dst, -1, 0); });
}

int ocl_device_slice(void *uc, const loom_buffer_t *src, int dim, int pos, loom_buffer_t *dst) {
    if (dim < 0 || dim >= src->dimensions)
        return device_error(uc, "OpenCL: device_slice of dimension " + std::to_string(dim) +
                                    " of a buffer of " + std::to_string(src->dimensions) +
                                    " dimensions");
    return with_state(uc, [&](OpenCLState &s) { return crop_locked(uc, s, src, dst, dim, pos); });
}

int ocl_device_release_crop(void *uc, loom_buffer_t *b) {
    return with_state(uc, [&](OpenCLState &s) { return release_crop_locked(uc, s, b); });
}

int ocl_wrap_native(void *uc, loom_buffer_t *b, uint64_t handle,
                    const loom_device_interface_t *iface) {
    if (!is_opencl(iface)) return not_opencl(uc, "wrap_native", iface);
    return with_state(uc, [&](OpenCLState &s) { return wrap_locked(uc, s, b, handle); });
}

int ocl_detach_native(void *uc, loom_buffer_t *b) {
    return with_state(uc, [&](OpenCLState &s) { return detach_locked(uc, s, b); });
}

const loom_device_interface_t opencl_interface = {
    ocl_device_malloc, ocl_device_free,       ocl_device_sync,
    ocl_copy_to_host,  ocl_copy_to_device,    ocl_buffer_copy,
    ocl_device_crop,   ocl_device_slice,      ocl_device_release_crop,
    ocl_wrap_native,   ocl_detach_native,     opencl_release,
    "OpenCL",          loom_device_api_opencl};

} // namespace

} // namespace loom_rt

extern "C" const loom_device_interface_t *loom_opencl_device_interface(void) {
    return &loom_rt::opencl_interface;
}
