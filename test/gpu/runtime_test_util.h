// Helpers of the OpenCL runtime tests (opencl_*_test.cpp, buffer_device_test.cpp):
// an error-capturing call context, host buffers with their own storage, and
// kernel sources unique to a process (so that a test never depends on what
// an earlier run left in the disk cache), and the program counts of
// loom_device_program_stats. The CUDA runtime tests use them too.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <unistd.h>
#include <vector>

#include "runtime/RuntimeFunctions.h"

namespace gpu_rt_test {

/** A loom_call_context_t that collects every message reported through it. */
struct ErrorCapture {
    std::string text;
    loom_call_context_t context{
        &ErrorCapture::handler, this, nullptr, nullptr, nullptr, nullptr, nullptr};
    void *uc() { return &context; }
    static void handler(loom_call_context_t *c, const char *message) {
        auto *self = static_cast<ErrorCapture *>(c->user_data);
        self->text += message;
        self->text += "\n";
    }
};

/** A dense host buffer of T with extents `sizes` (first innermost); without
 * host memory when with_host is false. */
template <typename T> struct HostBuffer {
    std::vector<T> data;
    std::vector<loom_dimension_t> dims;
    loom_buffer_t buf{};

    explicit HostBuffer(std::vector<int> sizes, bool with_host = true) {
        int32_t stride = 1;
        for (int s : sizes) {
            dims.push_back(loom_dimension_t{0, s, stride, 0});
            stride *= s;
        }
        if (with_host) data.assign(size_t(stride), T(0));
        buf.host = with_host ? reinterpret_cast<uint8_t *>(data.data()) : nullptr;
        buf.type = type();
        buf.dimensions = int32_t(dims.size());
        buf.dim = dims.data();
    }
    HostBuffer(const HostBuffer &) = delete;
    HostBuffer &operator=(const HostBuffer &) = delete;

    static loom_type_t type() {
        if (std::is_floating_point<T>::value)
            return loom_type_t{loom_type_float, uint8_t(8 * sizeof(T)), 1};
        if (std::is_signed<T>::value) return loom_type_t{loom_type_int, uint8_t(8 * sizeof(T)), 1};
        return loom_type_t{loom_type_uint, uint8_t(8 * sizeof(T)), 1};
    }
    loom_buffer_t *raw() { return &buf; }
    uint64_t arg() { return uint64_t(reinterpret_cast<uintptr_t>(&buf)); }
    T &operator[](size_t i) { return data[i]; }
    bool host_dirty() const { return (buf.flags & loom_buffer_flag_host_dirty) != 0; }
    bool device_dirty() const { return (buf.flags & loom_buffer_flag_device_dirty) != 0; }
};

/** `body` preceded by a comment line naming this process and a counter, so
 * that its program is new to the disk cache. */
inline std::string unique_source(const std::string &body) {
    static int counter = 0;
    return "// loom gpu test, process " + std::to_string(getpid()) + ", source " +
           std::to_string(counter++) + "\n" + body;
}

inline const loom_device_interface_t *opencl() {
    return loom_opencl_device_interface();
}

/** loom_device_program_stats of a device API: its programs built from
 * source and loaded from the disk cache so far. */
struct ProgramStats {
    int64_t from_source = 0, from_cache = 0;
};
inline ProgramStats program_stats(int32_t device_api) {
    ProgramStats s;
    loom_device_program_stats(device_api, &s.from_source, &s.from_cache);
    return s;
}

/** Launches a 1-D grid through loom_device_run. */
inline int run_1d(void *uc, const std::string &source, const char *kernel, int blocks, int threads,
                  const char *kinds, const std::vector<uint64_t> &args, int shared_bytes = 0) {
    return loom_device_run(uc, loom_device_api_opencl, source.c_str(), kernel, blocks, 1, 1,
                           threads, 1, 1, shared_bytes, kinds, args.data());
}

} // namespace gpu_rt_test
