// Hand-written OpenCL C kernels launched through loom_device_run on the
// OpenCL device (PoCL in CI), each result compared with plain C++.

#include <catch2/catch.hpp>

#include <cstring>

#include "runtime_test_util.h"

using namespace gpu_rt_test;

TEST_CASE("gpu: a kernel reads an input and writes an output", "[gpu][opencl]") {
    const std::string source = unique_source(R"(
__kernel void affine(__global const int *in, __global int *out, int scale, int offset) {
    int i = get_group_id(0) * get_local_size(0) + get_local_id(0);
    out[i] = in[i] * scale + offset;
}
)");
    const int n = 1000;
    HostBuffer<int> in({n}), out({n});
    for (int i = 0; i < n; i++) in[size_t(i)] = i * 7 - 300;
    ErrorCapture errors;
    loom_buffer_set_host_dirty(errors.uc(), in.raw(), 1);
    REQUIRE(loom_buffer_copy_to_device(errors.uc(), in.raw(), loom_device_api_opencl) == 0);
    REQUIRE(loom_device_malloc(errors.uc(), out.raw(), opencl()) == 0);
    int scale = -3, offset = 11;
    // 1000 = 125 blocks of 8 threads.
    REQUIRE(run_1d(errors.uc(), source, "affine", 125, 8, "bb44",
                   {in.arg(), out.arg(), uint64_t(uint32_t(scale)), uint64_t(offset)}) == 0);
    loom_buffer_set_device_dirty(errors.uc(), out.raw(), 1);
    REQUIRE(loom_copy_to_host(errors.uc(), out.raw()) == 0);
    INFO(errors.text);
    for (int i = 0; i < n; i++) REQUIRE(out[size_t(i)] == in[size_t(i)] * scale + offset);
    REQUIRE(loom_device_free(errors.uc(), in.raw()) == 0);
    REQUIRE(loom_device_free(errors.uc(), out.raw()) == 0);
}

TEST_CASE("gpu: a 2-D grid of 2-D blocks covers a strided image", "[gpu][opencl]") {
    const std::string source = unique_source(R"(
__kernel void transpose_add(__global const float *in, __global float *out, int width,
                            int height) {
    int x = get_group_id(0) * get_local_size(0) + get_local_id(0);
    int y = get_group_id(1) * get_local_size(1) + get_local_id(1);
    if (x < width && y < height) out[x * height + y] = in[y * width + x] + 0.5f;
}
)");
    const int w = 37, h = 21; // not multiples of the block size
    HostBuffer<float> in({w, h}), out({h, w});
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) in[size_t(y * w + x)] = float(x) * 0.25f - float(y);
    ErrorCapture errors;
    REQUIRE(loom_copy_to_device(errors.uc(), in.raw(), opencl()) == 0);
    REQUIRE(loom_device_malloc(errors.uc(), out.raw(), opencl()) == 0);
    const uint64_t args[] = {in.arg(), out.arg(), uint64_t(w), uint64_t(h)};
    REQUIRE(loom_device_run(errors.uc(), loom_device_api_opencl, source.c_str(), "transpose_add",
                            (w + 7) / 8, (h + 3) / 4, 1, 8, 4, 1, 0, "bb44", args) == 0);
    out.buf.flags |= loom_buffer_flag_device_dirty;
    REQUIRE(loom_copy_to_host(errors.uc(), out.raw()) == 0);
    INFO(errors.text);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) REQUIRE(out[size_t(x * h + y)] == in[size_t(y * w + x)] + 0.5f);
    loom_device_free(errors.uc(), in.raw());
    loom_device_free(errors.uc(), out.raw());
}

TEST_CASE("gpu: scalar arguments of 1, 2, 4 and 8 bytes", "[gpu][opencl]") {
    const std::string source = unique_source(R"(
__kernel void scalars(__global long *out, char a, uchar b, short c, ushort d, int e, float f,
                      long g, ulong h) {
    out[0] = a; out[1] = b; out[2] = c; out[3] = d; out[4] = e;
    out[5] = (long)(f * 4.0f); out[6] = g; out[7] = (long)(h >> 1);
}
)");
    HostBuffer<int64_t> out({8});
    ErrorCapture errors;
    REQUIRE(loom_device_malloc(errors.uc(), out.raw(), opencl()) == 0);
    float f = -2.75f;
    uint32_t f_bits;
    std::memcpy(&f_bits, &f, 4);
    const int64_t g = -123456789012345LL;
    const uint64_t h = 0xF000000000000002ULL;
    // Signed values arrive sign-extended in the 64-bit slots: only the low
    // bytes may count, so the high bytes hold garbage on purpose.
    const uint64_t args[] = {out.arg(),
                             0xAAAAAAAAAAAAAA00ULL | uint8_t(int8_t(-5)),
                             0x5555555555555500ULL | 250u,
                             0xAAAAAAAAAAAA0000ULL | uint16_t(int16_t(-30000)),
                             0x5555555555550000ULL | 60000u,
                             0xAAAAAAAA00000000ULL | uint32_t(-2000000000),
                             0x5555555500000000ULL | f_bits,
                             uint64_t(g),
                             h};
    REQUIRE(loom_device_run(errors.uc(), loom_device_api_opencl, source.c_str(), "scalars", 1, 1, 1,
                            1, 1, 1, 0, "b11224488", args) == 0);
    out.buf.flags |= loom_buffer_flag_device_dirty;
    REQUIRE(loom_copy_to_host(errors.uc(), out.raw()) == 0);
    INFO(errors.text);
    CHECK(out[0] == -5);
    CHECK(out[1] == 250);
    CHECK(out[2] == -30000);
    CHECK(out[3] == 60000);
    CHECK(out[4] == -2000000000);
    CHECK(out[5] == -11);
    CHECK(out[6] == g);
    CHECK(out[7] == int64_t(h >> 1));
    loom_device_free(errors.uc(), out.raw());
}

TEST_CASE("gpu: the dynamic local memory argument is shared within a block", "[gpu][opencl]") {
    // Each block reverses its slice of the input through local memory.
    const std::string source = unique_source(R"(
__kernel void reverse_blocks(__global const int *in, __global int *out, __local int *tmp) {
    int t = get_local_id(0), n = get_local_size(0), base = get_group_id(0) * n;
    tmp[t] = in[base + t];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[base + t] = tmp[n - 1 - t];
}
)");
    const int threads = 64, blocks = 10, n = threads * blocks;
    HostBuffer<int> in({n}), out({n});
    for (int i = 0; i < n; i++) in[size_t(i)] = i * i - 5;
    ErrorCapture errors;
    REQUIRE(loom_copy_to_device(errors.uc(), in.raw(), opencl()) == 0);
    REQUIRE(loom_device_malloc(errors.uc(), out.raw(), opencl()) == 0);
    REQUIRE(run_1d(errors.uc(), source, "reverse_blocks", blocks, threads, "bbs",
                   {in.arg(), out.arg(), 0}, threads * int(sizeof(int))) == 0);
    out.buf.flags |= loom_buffer_flag_device_dirty;
    REQUIRE(loom_copy_to_host(errors.uc(), out.raw()) == 0);
    INFO(errors.text);
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < threads; t++)
            REQUIRE(out[size_t(b * threads + t)] == in[size_t(b * threads + threads - 1 - t)]);
    loom_device_free(errors.uc(), in.raw());
    loom_device_free(errors.uc(), out.raw());
}

TEST_CASE("gpu: launches from parallel CPU tasks share one kernel safely", "[gpu][opencl]") {
    // Every task sets its own scalar on the same cl_kernel and launches: the
    // runtime's mutex must keep set-arguments + enqueue together.
    static const std::string source = unique_source(R"(
__kernel void put(__global int *out, int index, int value) { out[index] = value; }
)");
    const int n = 64;
    static HostBuffer<int> *out_ptr = nullptr;
    HostBuffer<int> out({n});
    out_ptr = &out;
    ErrorCapture errors;
    REQUIRE(loom_device_malloc(errors.uc(), out.raw(), opencl()) == 0);
    auto task = [](void *uc, int i, uint8_t *) {
        const uint64_t args[] = {out_ptr->arg(), uint64_t(i), uint64_t(i * 3 + 1)};
        return loom_device_run(uc, loom_device_api_opencl, source.c_str(), "put", 1, 1, 1, 1, 1, 1,
                               0, "b44", args);
    };
    REQUIRE(loom_do_par_for(errors.uc(), task, 0, n, nullptr) == 0);
    out.buf.flags |= loom_buffer_flag_device_dirty;
    REQUIRE(loom_copy_to_host(errors.uc(), out.raw()) == 0);
    INFO(errors.text);
    for (int i = 0; i < n; i++) REQUIRE(out[size_t(i)] == i * 3 + 1);
    loom_device_free(errors.uc(), out.raw());
}
