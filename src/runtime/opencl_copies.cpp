// Host <-> device copies with Halide's dirty flags: copy_to_device copies only
// a host-dirty buffer (and a buffer whose device memory it just allocated,
// since that memory holds nothing yet), copy_to_host only a device-dirty one;
// a buffer dirty on both sides has lost data and is an error. Copies follow
// the buffer's strides in as few contiguous runs as they allow, so a crop of
// a larger host image never writes the pixels between its rows.

#include <cstring>

#include "opencl_internal.h"

namespace loom_rt {

namespace {

int both_dirty(void *uc, const loom_buffer_t *b, const char *operation) {
    return both_dirty_error(uc, "OpenCL", b, operation);
}

// Waits for the queue; a failure here may come from an earlier kernel.
int finish(void *uc, OpenCLState &s, const std::string &what) {
    cl_int err = s.api->clFinish(s.queue);
    return err == CL_SUCCESS
               ? 0
               : cl_fail(uc, err, "clFinish", what + "; an earlier kernel may have failed");
}

int plan_or_error(void *uc, const loom_buffer_t *b, CopyPlan *plan) {
    std::string error;
    if (same_layout_copy_plan(b, plan, &error)) return 0;
    return device_error(uc, "OpenCL: cannot copy " + describe_buffer(b) + ": " + error);
}

} // namespace

int copy_to_device_locked(void *uc, OpenCLState &s, loom_buffer_t *b) {
    if (host_dirty(b) && device_dirty(b)) return both_dirty(uc, b, "copy_to_device");
    bool fresh = !b->device;
    if (fresh) {
        if (device_dirty(b))
            return device_error(uc, "OpenCL: copy_to_device of " + describe_buffer(b) +
                                        ", which is marked device-dirty but has no device memory");
        if (int r = malloc_locked(uc, s, b)) return r;
    }
    if (!host_dirty(b) && !(fresh && b->host)) return 0;
    if (!b->host)
        return device_error(uc, "OpenCL: copy_to_device of " + describe_buffer(b) +
                                    ", which is marked host-dirty but has no host memory");
    cl_mem mem = nullptr;
    if (int r = device_mem_of(uc, s, b, "copy_to_device of a buffer", &mem)) return r;
    CopyPlan plan;
    if (int r = plan_or_error(uc, b, &plan)) return r;
    // Non-blocking writes, then one wait: host memory stays untouched until then.
    int r = plan.for_each_run(0, 0, [&](const CopyRun &run) {
        cl_int err = s.api->clEnqueueWriteBuffer(s.queue, mem, CL_FALSE, size_t(run.dst_offset),
                                                 size_t(run.bytes), b->host + run.src_offset, 0,
                                                 nullptr, nullptr);
        return err == CL_SUCCESS ? 0
                                 : cl_fail(uc, err, "clEnqueueWriteBuffer",
                                           "copying " + describe_buffer(b) + " to the device");
    });
    int f = finish(uc, s, "copying " + describe_buffer(b) + " to the device");
    if (r || f) return r ? r : f;
    b->flags &= ~uint64_t(loom_buffer_flag_host_dirty);
    return 0;
}

int copy_to_host_locked(void *uc, OpenCLState &s, loom_buffer_t *b) {
    if (!device_dirty(b)) return 0;
    if (host_dirty(b)) return both_dirty(uc, b, "copy_to_host");
    if (!b->host)
        return device_error(uc, "OpenCL: copy_to_host of " + describe_buffer(b) +
                                    ", a device-only buffer (its host pointer is NULL)");
    cl_mem mem = nullptr;
    if (int r = device_mem_of(uc, s, b, "copy_to_host of a buffer", &mem)) return r;
    CopyPlan plan;
    if (int r = plan_or_error(uc, b, &plan)) return r;
    int r = plan.for_each_run(0, 0, [&](const CopyRun &run) {
        cl_int err = s.api->clEnqueueReadBuffer(s.queue, mem, CL_FALSE, size_t(run.src_offset),
                                                size_t(run.bytes), b->host + run.dst_offset, 0,
                                                nullptr, nullptr);
        return err == CL_SUCCESS ? 0
                                 : cl_fail(uc, err, "clEnqueueReadBuffer",
                                           "copying " + describe_buffer(b) + " to the host");
    });
    int f = finish(uc, s, "copying " + describe_buffer(b) + " to the host");
    if (r || f) return r ? r : f;
    b->flags &= ~uint64_t(loom_buffer_flag_device_dirty);
    return 0;
}

int buffer_copy_locked(void *uc, OpenCLState &s, loom_buffer_t *src, bool to_device,
                       loom_buffer_t *dst) {
    CopyPlan plan;
    int64_t src_base = 0;
    if (int r = plan_buffer_copy(uc, "OpenCL", src, dst, &plan, &src_base)) return r;
    if (host_dirty(src) && device_dirty(src)) return both_dirty(uc, src, "buffer_copy");
    bool from_device = src->device && (device_dirty(src) || !src->host);
    cl_mem src_mem = nullptr, dst_mem = nullptr;
    if (from_device) {
        if (int r = device_mem_of(uc, s, src, "buffer_copy source", &src_mem)) return r;
    } else if (!src->host) {
        return device_error(uc, "OpenCL: buffer_copy from " + describe_buffer(src) +
                                    ", which has neither host nor device memory");
    }
    // Bring the side of dst that is written up to date first: the copy may
    // cover only part of it.
    if (to_device) {
        if (int r = copy_to_device_locked(uc, s, dst)) return r;
        if (int r = device_mem_of(uc, s, dst, "buffer_copy destination", &dst_mem)) return r;
    } else {
        if (!dst->host)
            return device_error(uc, "OpenCL: buffer_copy to the host memory of " +
                                        describe_buffer(dst) + ", which has none");
        if (int r = copy_to_host_locked(uc, s, dst)) return r;
    }
    const CLApi &api = *s.api;
    int r = plan.for_each_run(src_base, 0, [&](const CopyRun &run) -> int {
        size_t so = size_t(run.src_offset), d = size_t(run.dst_offset), n = size_t(run.bytes);
        cl_int err = CL_SUCCESS;
        const char *call = "";
        if (!from_device && !to_device) {
            std::memmove(dst->host + d, src->host + so, n);
        } else if (!from_device) {
            call = "clEnqueueWriteBuffer";
            err = api.clEnqueueWriteBuffer(s.queue, dst_mem, CL_FALSE, d, n, src->host + so, 0,
                                           nullptr, nullptr);
        } else if (!to_device) {
            call = "clEnqueueReadBuffer";
            err = api.clEnqueueReadBuffer(s.queue, src_mem, CL_FALSE, so, n, dst->host + d, 0,
                                          nullptr, nullptr);
        } else {
            call = "clEnqueueCopyBuffer";
            err = api.clEnqueueCopyBuffer(s.queue, src_mem, dst_mem, so, d, n, 0, nullptr, nullptr);
        }
        return err == CL_SUCCESS ? 0 : cl_fail(uc, err, call, "buffer_copy");
    });
    int f = finish(uc, s, "buffer_copy");
    if (r || f) return r ? r : f;
    dst->flags |= to_device ? loom_buffer_flag_device_dirty : loom_buffer_flag_host_dirty;
    return 0;
}

} // namespace loom_rt
