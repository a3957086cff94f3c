// The CUDA device interface table (LoomRuntime.h): each entry either runs
// in a CallScope (the call's context current, the runtime's mutex held) or,
// for operations on memory the runtime already knows (free, crops, detach),
// only takes the mutex, and calls the *_locked implementation in
// cuda_memory.cpp / cuda_copies.cpp.

#include "cuda_entry.h"
#include "cuda_internal.h"

namespace loom_rt {

namespace {

// Runs f(state, call) in the call's context.
template <typename F> int with_call(void *uc, F &&f) {
    CudaState &s = cuda_state();
    CallScope call(uc);
    if (int r = call.begin(s)) return r;
    return f(s, call);
}

// Runs f(state) under the mutex, for memory that knows its own context.
template <typename F> int with_state(void *uc, F &&f) {
    CudaState &s = cuda_state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.api) {
        std::string why;
        s.api = load_cuda_driver_locked(&why);
        if (!s.api) return device_error(uc, why);
    }
    return f(s);
}

bool is_cuda(const loom_device_interface_t *iface) {
    return iface == loom_cuda_device_interface();
}

int not_cuda(void *uc, const char *operation, const loom_device_interface_t *iface) {
    return device_error(uc, std::string("CUDA: ") + operation + " was called with the " +
                                (iface && iface->name ? iface->name : "NULL") +
                                " device interface");
}

int cuda_device_malloc(void *uc, loom_buffer_t *b, const loom_device_interface_t *iface) {
    if (!is_cuda(iface)) return not_cuda(uc, "device_malloc", iface);
    return with_call(uc,
                     [&](CudaState &s, CallScope &call) { return malloc_locked(uc, s, call, b); });
}

int cuda_device_free(void *uc, loom_buffer_t *b) {
    if (!b->device) return 0;
    return with_state(uc, [&](CudaState &s) { return free_locked(uc, s, b); });
}

int cuda_device_sync(void *uc, loom_buffer_t *) {
    // The call's stream orders all of its work on the buffer.
    return cuda_sync_all(uc);
}

int cuda_copy_to_host(void *uc, loom_buffer_t *b) {
    return with_call(
        uc, [&](CudaState &s, CallScope &call) { return copy_to_host_locked(uc, s, call, b); });
}

int cuda_copy_to_device(void *uc, loom_buffer_t *b, const loom_device_interface_t *iface) {
    if (!is_cuda(iface)) return not_cuda(uc, "copy_to_device", iface);
    return with_call(
        uc, [&](CudaState &s, CallScope &call) { return copy_to_device_locked(uc, s, call, b); });
}

int cuda_buffer_copy(void *uc, loom_buffer_t *src, const loom_device_interface_t *dst_iface,
                     loom_buffer_t *dst) {
    if (!src || !dst) return device_error(uc, "CUDA: buffer_copy was given a NULL buffer");
    if (dst_iface && !is_cuda(dst_iface)) return not_cuda(uc, "buffer_copy", dst_iface);
    return with_call(uc, [&](CudaState &s, CallScope &call) {
        return buffer_copy_locked(uc, s, call, src, dst_iface != nullptr, dst);
    });
}

int cuda_device_crop(void *uc, const loom_buffer_t *src, loom_buffer_t *dst) {
    return with_state(uc, [&](CudaState &s) { return crop_locked(uc, s, src, dst, -1, 0); });
}

int cuda_device_slice(void *uc, const loom_buffer_t *src, int dim, int pos, loom_buffer_t *dst) {
    if (dim < 0 || dim >= src->dimensions)
        return device_error(uc, "CUDA: device_slice of dimension " + std::to_string(dim) +
                                    " of a buffer of " + std::to_string(src->dimensions) +
                                    " dimensions");
    return with_state(uc, [&](CudaState &s) { return crop_locked(uc, s, src, dst, dim, pos); });
}

int cuda_device_release_crop(void *uc, loom_buffer_t *b) {
    return with_state(uc, [&](CudaState &s) { return release_crop_locked(uc, s, b); });
}

int cuda_wrap_native(void *uc, loom_buffer_t *b, uint64_t handle,
                     const loom_device_interface_t *iface) {
    if (!is_cuda(iface)) return not_cuda(uc, "wrap_native", iface);
    return with_call(
        uc, [&](CudaState &s, CallScope &call) { return wrap_locked(uc, s, call, b, handle); });
}

int cuda_detach_native(void *uc, loom_buffer_t *b) {
    return with_state(uc, [&](CudaState &s) { return detach_locked(uc, s, b); });
}

const loom_device_interface_t cuda_interface = {cuda_device_malloc,
                                                cuda_device_free,
                                                cuda_device_sync,
                                                cuda_copy_to_host,
                                                cuda_copy_to_device,
                                                cuda_buffer_copy,
                                                cuda_device_crop,
                                                cuda_device_slice,
                                                cuda_device_release_crop,
                                                cuda_wrap_native,
                                                cuda_detach_native,
                                                cuda_release,
                                                "CUDA",
                                                loom_device_api_cuda};

} // namespace

} // namespace loom_rt

extern "C" const loom_device_interface_t *loom_cuda_device_interface(void) {
    return &loom_rt::cuda_interface;
}
