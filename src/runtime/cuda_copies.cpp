// Host <-> device copies with Halide's dirty flags (the rules of
// opencl_copies.cpp: copy_to_device copies only a host-dirty buffer, or one
// whose device memory it just allocated; copy_to_host only a device-dirty
// one; dirty on both sides is an error). A copy moves only the region the
// buffer covers: the CopyPlan merges what is contiguous, and each block of
// up to two outer dimensions becomes one cuMemcpy2D/3D call where the
// strides allow (else one call per contiguous run). Copies are queued on
// the call's stream, then waited for, so host memory is free again on return.

#include <climits>
#include <cstring>

#include "cuda_internal.h"

namespace loom_rt {

namespace {

// One side of a copy: host memory or a device pointer.
struct Side {
    bool device = false;
    uint8_t *host = nullptr;
    CUdeviceptr pointer = 0;
};

// How many outer dimensions of the plan one cuMemcpy2D (1) or cuMemcpy3D
// (2) call can take: rows need pitches of at least the run's width, and
// planes a pitch that is a whole number of rows on both sides.
int dims_per_call(const CopyPlan &plan) {
    const int64_t width = plan.run_size();
    auto pitch_ok = [&](int64_t pitch) { return pitch >= width && pitch <= INT32_MAX; };
    if (plan.outer_dims() < 1 || !pitch_ok(plan.outer_src_stride(0)) ||
        !pitch_ok(plan.outer_dst_stride(0)))
        return 0;
    if (plan.outer_dims() < 2) return 1;
    auto rows_ok = [&](int64_t plane, int64_t pitch) {
        return plane > 0 && plane % pitch == 0 && plane / pitch >= plan.outer_extent(0);
    };
    return rows_ok(plan.outer_src_stride(1), plan.outer_src_stride(0)) &&
                   rows_ok(plan.outer_dst_stride(1), plan.outer_dst_stride(0))
               ? 2
               : 1;
}

class Copier {
public:
    Copier(void *uc, CudaState &s, CUstream stream, Side src, Side dst, std::string what)
        : uc(uc), s(s), stream(stream), src(src), dst(dst), what(std::move(what)) {}

    int run(const CopyPlan &plan, int64_t src_base, int64_t dst_base) {
        int k = src.device || dst.device ? dims_per_call(plan) : 0;
        return plan.for_each_outer(k, src_base, dst_base, [&](int64_t so, int64_t d) {
            return k == 0 ? linear(so, d, plan.run_size()) : block(plan, k, so, d);
        });
    }

private:
    // One contiguous run.
    int linear(int64_t so, int64_t d, int64_t bytes) {
        size_t n = size_t(bytes);
        CUresult err = cu::CUDA_SUCCESS;
        const char *call = "";
        if (!src.device && !dst.device) {
            std::memmove(dst.host + d, src.host + so, n);
        } else if (!src.device) {
            call = "cuMemcpyHtoDAsync";
            err = s.api->cuMemcpyHtoDAsync(dst.pointer + CUdeviceptr(d), src.host + so, n, stream);
        } else if (!dst.device) {
            call = "cuMemcpyDtoHAsync";
            err = s.api->cuMemcpyDtoHAsync(dst.host + d, src.pointer + CUdeviceptr(so), n, stream);
        } else {
            call = "cuMemcpyDtoDAsync";
            err = s.api->cuMemcpyDtoDAsync(dst.pointer + CUdeviceptr(d),
                                           src.pointer + CUdeviceptr(so), n, stream);
        }
        return err == cu::CUDA_SUCCESS ? 0 : cu_fail(uc, err, call, what);
    }

    template <typename Copy> void set_sides(Copy &c, int64_t so, int64_t d) {
        c.srcMemoryType = src.device ? cu::CU_MEMORYTYPE_DEVICE : cu::CU_MEMORYTYPE_HOST;
        if (src.device)
            c.srcDevice = src.pointer + CUdeviceptr(so);
        else
            c.srcHost = src.host + so;
        c.dstMemoryType = dst.device ? cu::CU_MEMORYTYPE_DEVICE : cu::CU_MEMORYTYPE_HOST;
        if (dst.device)
            c.dstDevice = dst.pointer + CUdeviceptr(d);
        else
            c.dstHost = dst.host + d;
    }

    int block(const CopyPlan &plan, int k, int64_t so, int64_t d) {
        CUresult err;
        const char *call;
        if (k == 1) {
            cu::CUDA_MEMCPY2D c{};
            set_sides(c, so, d);
            c.srcPitch = size_t(plan.outer_src_stride(0));
            c.dstPitch = size_t(plan.outer_dst_stride(0));
            c.WidthInBytes = size_t(plan.run_size());
            c.Height = size_t(plan.outer_extent(0));
            call = "cuMemcpy2DAsync";
            err = s.api->cuMemcpy2DAsync(&c, stream);
        } else {
            cu::CUDA_MEMCPY3D c{};
            set_sides(c, so, d);
            c.srcPitch = size_t(plan.outer_src_stride(0));
            c.srcHeight = size_t(plan.outer_src_stride(1) / plan.outer_src_stride(0));
            c.dstPitch = size_t(plan.outer_dst_stride(0));
            c.dstHeight = size_t(plan.outer_dst_stride(1) / plan.outer_dst_stride(0));
            c.WidthInBytes = size_t(plan.run_size());
            c.Height = size_t(plan.outer_extent(0));
            c.Depth = size_t(plan.outer_extent(1));
            call = "cuMemcpy3DAsync";
            err = s.api->cuMemcpy3DAsync(&c, stream);
        }
        return err == cu::CUDA_SUCCESS ? 0 : cu_fail(uc, err, call, what);
    }

    void *uc;
    CudaState &s;
    CUstream stream;
    Side src, dst;
    std::string what;
};

Side host_side(uint8_t *host) {
    Side side;
    side.host = host;
    return side;
}

Side device_side(CUdeviceptr pointer) {
    Side side;
    side.device = true;
    side.pointer = pointer;
    return side;
}

int plan_or_error(void *uc, const loom_buffer_t *b, CopyPlan *plan) {
    std::string error;
    if (same_layout_copy_plan(b, plan, &error)) return 0;
    return device_error(uc, "CUDA: cannot copy " + describe_buffer(b) + ": " + error);
}

// Queues the copy, then waits for the stream; the copy's error comes first.
int copy_and_wait(void *uc, CudaState &s, const CallScope &call, Copier &copier,
                  const CopyPlan &plan, int64_t src_base, const std::string &what) {
    int r = copier.run(plan, src_base, 0);
    int w = sync_locked(uc, s, call, what);
    return r ? r : w;
}

// Copies all of `b` between its host memory and its device allocation (the
// same layout on both sides) and waits for the copy.
int copy_whole_buffer(void *uc, CudaState &s, const CallScope &call, loom_buffer_t *b,
                      bool to_device) {
    CUdeviceptr pointer = 0;
    const std::string operation = to_device ? "copy_to_device" : "copy_to_host";
    if (int r = device_ptr_of(uc, s, call, b, operation + " of a buffer", &pointer)) return r;
    CopyPlan plan;
    if (int r = plan_or_error(uc, b, &plan)) return r;
    std::string what =
        "copying " + describe_buffer(b) + (to_device ? " to the device" : " to the host");
    Side host = host_side(b->host), device = device_side(pointer);
    Copier copier(uc, s, call.stream(), to_device ? host : device, to_device ? device : host, what);
    return copy_and_wait(uc, s, call, copier, plan, 0, what);
}

} // namespace

int copy_to_device_locked(void *uc, CudaState &s, const CallScope &call, loom_buffer_t *b) {
    if (host_dirty(b) && device_dirty(b)) return both_dirty_error(uc, "CUDA", b, "copy_to_device");
    bool fresh = !b->device;
    if (fresh) {
        if (device_dirty(b))
            return device_error(uc, "CUDA: copy_to_device of " + describe_buffer(b) +
                                        ", which is marked device-dirty but has no device memory");
        if (int r = malloc_locked(uc, s, call, b)) return r;
    }
    if (!host_dirty(b) && !(fresh && b->host)) return 0;
    if (!b->host)
        return device_error(uc, "CUDA: copy_to_device of " + describe_buffer(b) +
                                    ", which is marked host-dirty but has no host memory");
    if (int r = copy_whole_buffer(uc, s, call, b, true)) return r;
    b->flags &= ~uint64_t(loom_buffer_flag_host_dirty);
    return 0;
}

int copy_to_host_locked(void *uc, CudaState &s, const CallScope &call, loom_buffer_t *b) {
    if (!device_dirty(b)) return 0;
    if (host_dirty(b)) return both_dirty_error(uc, "CUDA", b, "copy_to_host");
    if (!b->host)
        return device_error(uc, "CUDA: copy_to_host of " + describe_buffer(b) +
                                    ", a device-only buffer (its host pointer is NULL)");
    if (int r = copy_whole_buffer(uc, s, call, b, false)) return r;
    b->flags &= ~uint64_t(loom_buffer_flag_device_dirty);
    return 0;
}

int buffer_copy_locked(void *uc, CudaState &s, const CallScope &call, loom_buffer_t *src,
                       bool to_device, loom_buffer_t *dst) {
    CopyPlan plan;
    int64_t src_base = 0;
    if (int r = plan_buffer_copy(uc, "CUDA", src, dst, &plan, &src_base)) return r;
    if (host_dirty(src) && device_dirty(src))
        return both_dirty_error(uc, "CUDA", src, "buffer_copy");
    bool from_device = src->device && (device_dirty(src) || !src->host);
    Side from = host_side(src->host), to;
    if (from_device) {
        CUdeviceptr pointer = 0;
        if (int r = device_ptr_of(uc, s, call, src, "buffer_copy source", &pointer)) return r;
        from = device_side(pointer);
    } else if (!src->host) {
        return device_error(uc, "CUDA: buffer_copy from " + describe_buffer(src) +
                                    ", which has neither host nor device memory");
    }
    // Bring the side of dst that is written up to date first: the copy may
    // cover only part of it.
    if (to_device) {
        if (int r = copy_to_device_locked(uc, s, call, dst)) return r;
        CUdeviceptr pointer = 0;
        if (int r = device_ptr_of(uc, s, call, dst, "buffer_copy destination", &pointer)) return r;
        to = device_side(pointer);
    } else {
        if (!dst->host)
            return device_error(uc, "CUDA: buffer_copy to the host memory of " +
                                        describe_buffer(dst) + ", which has none");
        if (int r = copy_to_host_locked(uc, s, call, dst)) return r;
        to = host_side(dst->host);
    }
    Copier copier(uc, s, call.stream(), from, to, "buffer_copy");
    if (int r = copy_and_wait(uc, s, call, copier, plan, src_base, "buffer_copy")) return r;
    dst->flags |= to_device ? loom_buffer_flag_device_dirty : loom_buffer_flag_host_dirty;
    return 0;
}

} // namespace loom_rt
