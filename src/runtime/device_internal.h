// Helpers shared by the device-API implementations of the runtime (OpenCL,
// CUDA): error reporting, the live-allocation count, dirty flags, pool size
// classes, the layout arithmetic of a buffer's device allocation and of
// copies, and the launch checks every API shares. Internal to the runtime.
#ifndef LOOM_RUNTIME_DEVICE_INTERNAL_H
#define LOOM_RUNTIME_DEVICE_INTERNAL_H

#include <cstddef>
#include <cstdint>
#include <string>

#include "RuntimeFunctions.h"

namespace loom_rt {

/** Reports `message` through loom_report_error; returns loom_error_code_device. */
int device_error(void *uc, const std::string &message);

/** Adds `delta` to the count loom_device_live_allocations() returns. */
void count_live_allocations(int64_t delta);

/** "buffer (uint8, 2-D 640x480)": how errors name a buffer that has no name. */
std::string describe_buffer(const loom_buffer_t *b);

/** Bytes of one element (all lanes). */
size_t element_bytes(const loom_buffer_t *b);

/** The bytes a device allocation of `b` needs: from the element at the mins
 * (offset 0) to the last element, at least 1. Negative strides are an error
 * (the host pointer would not be the lowest address). Returns 0 or an error. */
int device_span_bytes(void *uc, const loom_buffer_t *b, const char *api_name, size_t *bytes);

/** Byte offset of the first element of `dst` within `src`, where dst is a
 * crop of src (slice_dim < 0) or the slice at `slice_pos` of dimension
 * `slice_dim` (dst then has one dimension less). Returns 0 or an error when
 * dst does not lie inside src. */
int crop_byte_offset(void *uc, const loom_buffer_t *src, const loom_buffer_t *dst, int slice_dim,
                     int slice_pos, int64_t *offset);

/** One contiguous piece of a copy: bytes at src_offset go to dst_offset. */
struct CopyRun {
    int64_t src_offset, dst_offset, bytes;
};

/** A copy of a region of `dims` dimensions of extents `extent`, with element
 * strides src_stride / dst_stride on either side, split into as few
 * contiguous runs as the strides allow (dimensions that continue each other
 * on both sides merge). */
class CopyPlan {
public:
    static constexpr int max_dims = 16;
    /** Returns false (with `error` set) for more than max_dims dimensions. */
    bool init(int dims, const int32_t *extent, const int64_t *src_stride, const int64_t *dst_stride,
              size_t elem_bytes, std::string *error);
    /** Calls f(run) for every run; stops at and returns f's first nonzero result. */
    template <typename F> int for_each_run(int64_t src_base, int64_t dst_base, F &&f) const {
        return for_each_outer(0, src_base, dst_base, [&](int64_t s, int64_t d) {
            return f(CopyRun{s, d, run_bytes});
        });
    }
    /** One run covers everything. */
    bool single_run() const { return !empty && n == 0; }

    /** The plan's shape, for APIs that copy strided blocks in one call
     * (cuMemcpy2D/3D): whether it copies nothing, the bytes of one run, and
     * the outer dimensions left after merging (extent, byte strides), the
     * innermost first. */
    bool is_empty() const { return empty; }
    int64_t run_size() const { return run_bytes; }
    int outer_dims() const { return n; }
    int64_t outer_extent(int i) const { return ext[i]; }
    int64_t outer_src_stride(int i) const { return src[i]; }
    int64_t outer_dst_stride(int i) const { return dst[i]; }

    /** Calls f(src_offset, dst_offset) for every position of the outer
     * dimensions from `first` on (dimensions below `first` are left to f);
     * stops at and returns f's first nonzero result. for_each_run is
     * for_each_outer(0, ...) with the run's size. */
    template <typename F>
    int for_each_outer(int first, int64_t src_base, int64_t dst_base, F &&f) const {
        if (empty) return 0;
        int64_t pos[max_dims] = {0};
        while (true) {
            int64_t s = src_base, d = dst_base;
            for (int i = first; i < n; i++) s += pos[i] * src[i], d += pos[i] * dst[i];
            if (int r = f(s, d)) return r;
            int i = first;
            for (; i < n; i++) {
                if (++pos[i] < ext[i]) break;
                pos[i] = 0;
            }
            if (i >= n) return 0;
        }
    }

private:
    bool empty = false;
    int n = 0; // outer dimensions left after merging
    int64_t ext[max_dims] = {0}, src[max_dims] = {0}, dst[max_dims] = {0}; // strides in bytes
    int64_t run_bytes = 0;
};

/** A plan for copying all of `b` between two memories of the same layout
 * (host <-> its device allocation). */
bool same_layout_copy_plan(const loom_buffer_t *b, CopyPlan *plan, std::string *error);

/** The copy of a device interface's buffer_copy(src -> dst), over dst's
 * region: checks that the element sizes and dimension counts match and that
 * dst's region lies inside src, then plans it; `*src_base` is the byte
 * offset of the region's first element in src (dst's is 0). Returns 0, or
 * an error whose message starts with "<api_name>: buffer_copy". */
int plan_buffer_copy(void *uc, const char *api_name, const loom_buffer_t *src,
                     const loom_buffer_t *dst, CopyPlan *plan, int64_t *src_base);

/** The dirty flags of a buffer. */
inline bool host_dirty(const loom_buffer_t *b) {
    return (b->flags & loom_buffer_flag_host_dirty) != 0;
}
inline bool device_dirty(const loom_buffer_t *b) {
    return (b->flags & loom_buffer_flag_device_dirty) != 0;
}

/** Reports that `operation` met a buffer dirty on both sides (data lost). */
int both_dirty_error(void *uc, const char *api_name, const loom_buffer_t *b, const char *operation);

/** The size class of a pooled device allocation of `bytes`: 256 bytes, then
 * four steps per power of two (at most 25% waste), so that a freed block
 * serves later requests of about its size. */
size_t allocation_size_class(size_t bytes);

/** How much freed device memory an API keeps for reuse (per context); the
 * byte limit is also capped at a quarter of the device's memory. */
constexpr size_t pool_max_entries = 64;
constexpr size_t pool_max_bytes = size_t(256) << 20;

/** "16x16x1": how launch errors write a grid or a block. */
std::string launch_dims_text(const int32_t v[3]);

/** Checks that a launch's blocks have at least one thread in each dimension
 * and its grid no negative dimension; `who` starts the message ("CUDA kernel
 * f: "). Returns 0 or an error. */
int check_launch_dims(void *uc, const std::string &who, const int32_t blocks[3],
                      const int32_t threads[3]);

/** The dynamic shared bytes of a launch with `count` argument kinds: its
 * shared_bytes when the last kind is 's', else 0; an error when shared_bytes
 * is negative, or positive with no 's' argument to pass it in. */
int launch_dynamic_shared(void *uc, const std::string &who, int32_t shared_bytes,
                          const char *arg_kinds, size_t count, int64_t *dynamic_shared);

/** The errors for an 's' argument kind before the last, and for a kind other
 * than b, 1, 2, 4, 8 and s. */
int shared_arg_not_last_error(void *uc, const std::string &who, const char *arg_kinds);
int unknown_arg_kind_error(void *uc, const std::string &who, size_t index, char kind);

/** LOOM_DEBUG as a number (0 when unset). */
int debug_level();

} // namespace loom_rt

#endif
