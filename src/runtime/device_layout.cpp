// Layout arithmetic of device allocations: a buffer's device memory has the
// same strides as its host memory, with the element at the mins (the host
// pointer) at byte 0. These helpers size allocations (and their pool size
// classes), place crops and slices, check and plan copies, and split them
// into contiguous runs; they know nothing of any device API.

#include <algorithm>
#include <cstdlib>

#include "device_internal.h"

namespace loom_rt {

size_t element_bytes(const loom_buffer_t *b) {
    return size_t((b->type.bits + 7) / 8) * (b->type.lanes ? b->type.lanes : 1);
}

std::string describe_buffer(const loom_buffer_t *b) {
    static const char *kinds[] = {"int", "uint", "float", "handle"};
    std::string s = "buffer (";
    if (b->type.code <= 3) s += kinds[b->type.code];
    s += std::to_string(int(b->type.bits));
    if (b->type.lanes > 1) s += "x" + std::to_string(int(b->type.lanes));
    s += ", " + std::to_string(b->dimensions) + "-D";
    for (int i = 0; i < b->dimensions; i++) s += (i ? "x" : " ") + std::to_string(b->dim[i].extent);
    return s + ")";
}

int device_span_bytes(void *uc, const loom_buffer_t *b, const char *api_name, size_t *bytes) {
    int64_t last = 0;
    bool empty = false;
    for (int i = 0; i < b->dimensions; i++) {
        const loom_dimension_t &d = b->dim[i];
        if (d.stride < 0)
            return device_error(uc, std::string(api_name) + ": cannot allocate device memory for " +
                                        describe_buffer(b) + ": dimension " + std::to_string(i) +
                                        " has the negative stride " + std::to_string(d.stride) +
                                        "; device allocations need strides >= 0");
        if (d.extent <= 0)
            empty = true;
        else
            last += int64_t(d.extent - 1) * d.stride;
    }
    *bytes = empty ? 1 : size_t(last + 1) * element_bytes(b);
    return 0;
}

int crop_byte_offset(void *uc, const loom_buffer_t *src, const loom_buffer_t *dst, int slice_dim,
                     int slice_pos, int64_t *offset) {
    int expected_dims = slice_dim < 0 ? src->dimensions : src->dimensions - 1;
    if (dst->dimensions != expected_dims || element_bytes(dst) != element_bytes(src))
        return device_error(uc, "Device crop/slice: the destination " + describe_buffer(dst) +
                                    " is not shaped as a " + (slice_dim < 0 ? "crop" : "slice") +
                                    " of the source " + describe_buffer(src));
    int64_t elems = 0;
    for (int i = 0, j = 0; i < src->dimensions; i++) {
        const loom_dimension_t &s = src->dim[i];
        int32_t lo, hi;
        if (i == slice_dim) {
            lo = hi = slice_pos;
        } else {
            const loom_dimension_t &d = dst->dim[j++];
            if (d.stride != s.stride)
                return device_error(uc, "Device crop/slice: dimension " + std::to_string(i) +
                                            " of the destination has stride " +
                                            std::to_string(d.stride) + " but the source has " +
                                            std::to_string(s.stride));
            lo = d.min;
            hi = d.min + d.extent - 1;
            if (d.extent <= 0) hi = lo;
        }
        if (lo < s.min || hi > s.min + s.extent - 1)
            return device_error(uc, "Device crop/slice: coordinates " + std::to_string(lo) +
                                        " to " + std::to_string(hi) + " of dimension " +
                                        std::to_string(i) + " lie outside the source (" +
                                        std::to_string(s.min) + " to " +
                                        std::to_string(s.min + s.extent - 1) + ")");
        elems += int64_t(lo - s.min) * s.stride;
    }
    *offset = elems * int64_t(element_bytes(src));
    return 0;
}

bool CopyPlan::init(int dims, const int32_t *extent, const int64_t *src_stride,
                    const int64_t *dst_stride, size_t elem_bytes, std::string *error) {
    struct Dim {
        int64_t ext, src, dst;
    };
    Dim ds[max_dims];
    int count = 0;
    empty = false;
    for (int i = 0; i < dims; i++) {
        if (extent[i] <= 0) {
            empty = true;
            n = 0;
            return true;
        }
        // Extent 1 moves nowhere; both strides 0 copies the same bytes again.
        if (extent[i] == 1 || (src_stride[i] == 0 && dst_stride[i] == 0)) continue;
        if (count == max_dims) {
            *error = "a copy of more than " + std::to_string(max_dims) + " dimensions";
            return false;
        }
        int64_t eb = int64_t(elem_bytes);
        ds[count++] = Dim{extent[i], src_stride[i] * eb, dst_stride[i] * eb};
    }
    std::stable_sort(ds, ds + count, [](const Dim &a, const Dim &b) {
        return std::llabs(a.dst) < std::llabs(b.dst);
    });
    // Innermost dimensions that continue the run on both sides join it.
    run_bytes = int64_t(elem_bytes);
    int first = 0;
    while (first < count && ds[first].src == run_bytes && ds[first].dst == run_bytes)
        run_bytes *= ds[first++].ext;
    // Outer dimensions that continue each other on both sides merge.
    n = 0;
    for (int i = first; i < count; i++) {
        if (n > 0 && ds[i].src == src[n - 1] * ext[n - 1] && ds[i].dst == dst[n - 1] * ext[n - 1]) {
            ext[n - 1] *= ds[i].ext;
            continue;
        }
        ext[n] = ds[i].ext;
        src[n] = ds[i].src;
        dst[n] = ds[i].dst;
        n++;
    }
    return true;
}

bool same_layout_copy_plan(const loom_buffer_t *b, CopyPlan *plan, std::string *error) {
    if (b->dimensions > CopyPlan::max_dims) {
        *error = "a buffer of more than " + std::to_string(CopyPlan::max_dims) + " dimensions";
        return false;
    }
    int32_t extent[CopyPlan::max_dims];
    int64_t stride[CopyPlan::max_dims];
    for (int i = 0; i < b->dimensions; i++) {
        extent[i] = b->dim[i].extent;
        stride[i] = b->dim[i].stride;
    }
    return plan->init(b->dimensions, extent, stride, stride, element_bytes(b), error);
}

int plan_buffer_copy(void *uc, const char *api_name, const loom_buffer_t *src,
                     const loom_buffer_t *dst, CopyPlan *plan, int64_t *src_base) {
    const std::string who = std::string(api_name) + ": buffer_copy";
    if (src->dimensions != dst->dimensions || element_bytes(src) != element_bytes(dst) ||
        src->dimensions > CopyPlan::max_dims)
        return device_error(uc, who + " from " + describe_buffer(src) + " to " +
                                    describe_buffer(dst) +
                                    ": the element sizes or dimension counts differ");
    int32_t extent[CopyPlan::max_dims];
    int64_t src_stride[CopyPlan::max_dims], dst_stride[CopyPlan::max_dims];
    int64_t base = 0, eb = int64_t(element_bytes(src));
    for (int i = 0; i < dst->dimensions; i++) {
        const loom_dimension_t &d = dst->dim[i], &sd = src->dim[i];
        if (d.extent > 0 && (d.min < sd.min || d.min + d.extent > sd.min + sd.extent))
            return device_error(uc, who + ": dimension " + std::to_string(i) +
                                        " of the destination (" + std::to_string(d.min) + " to " +
                                        std::to_string(d.min + d.extent - 1) +
                                        ") is not inside the source (" + std::to_string(sd.min) +
                                        " to " + std::to_string(sd.min + sd.extent - 1) + ")");
        extent[i] = d.extent;
        src_stride[i] = sd.stride;
        dst_stride[i] = d.stride;
        base += int64_t(d.min - sd.min) * sd.stride * eb;
    }
    std::string error;
    if (!plan->init(dst->dimensions, extent, src_stride, dst_stride, element_bytes(src), &error))
        return device_error(uc, who + ": " + error);
    *src_base = base;
    return 0;
}

int both_dirty_error(void *uc, const char *api_name, const loom_buffer_t *b,
                     const char *operation) {
    return device_error(uc, std::string(api_name) + ": " + operation + " of " + describe_buffer(b) +
                                ", which is both host-dirty and device-dirty: the host and the "
                                "device each hold changes the other lacks");
}

size_t allocation_size_class(size_t bytes) {
    if (bytes <= 256) return 256;
    size_t p = 1;
    while (p <= bytes / 2) p *= 2;
    size_t step = p / 4;
    return (bytes + step - 1) / step * step;
}

int debug_level() {
    const char *s = std::getenv("LOOM_DEBUG");
    return s ? std::atoi(s) : 0;
}

} // namespace loom_rt
