// Parts of the CUDA driver runtime that need no driver: the disk-cache key
// of compiled programs, the driver API declarations (against the toolkit's
// cuda.h where one is installed), and the copy plan shapes that become
// cuMemcpy2D/3D calls.

#include <catch2/catch.hpp>

#include <cstddef>
#include <vector>

#include "runtime/cuda_internal.h"

#if __has_include(<cuda.h>)
#include <cuda.h>
#define LOOM_TEST_HAVE_CUDA_H 1
#endif

using loom_rt::CopyPlan;
using loom_rt::cuda_kernel_cache_key;

TEST_CASE("cuda_runtime: the kernel cache key holds capability, NVRTC version and options",
          "[cuda_runtime]") {
    const std::string source = "extern \"C\" __global__ void k(int *p) { *p = 1; }";
    const std::vector<std::string> options = {"--ptxas-options=--verbose"};
    const std::string key = cuda_kernel_cache_key(source, options, 90, true, 13000);
    // Deterministic, and every input changes it.
    REQUIRE(key == cuda_kernel_cache_key(source, options, 90, true, 13000));
    REQUIRE(key != cuda_kernel_cache_key(source, options, 86, true, 13000));
    REQUIRE(key != cuda_kernel_cache_key(source, options, 90, true, 12080));
    REQUIRE(key != cuda_kernel_cache_key(source, options, 90, false, 13000));
    REQUIRE(key != cuda_kernel_cache_key(source, {}, 90, true, 13000));
    REQUIRE(key != cuda_kernel_cache_key(source + " ", options, 90, true, 13000));
    // Readable: the values themselves, not only a hash of them.
    REQUIRE_THAT(key, Catch::Contains("cubin sm_90"));
    REQUIRE_THAT(key, Catch::Contains("nvrtc 13000"));
    REQUIRE_THAT(key, Catch::Contains("option --ptxas-options=--verbose"));
    REQUIRE_THAT(key, Catch::EndsWith(source));
    // Options that run together differ from options apart.
    REQUIRE(cuda_kernel_cache_key(source, {"-a", "b"}, 90, true, 13000) !=
            cuda_kernel_cache_key(source, {"-a b"}, 90, true, 13000));
}

#ifdef LOOM_TEST_HAVE_CUDA_H
TEST_CASE("cuda_runtime: the driver API declarations match the toolkit's cuda.h",
          "[cuda_runtime]") {
    namespace cu = loom_rt::cu;
    STATIC_REQUIRE(sizeof(cu::CUdeviceptr) == sizeof(::CUdeviceptr));
    STATIC_REQUIRE(sizeof(cu::CUdevice) == sizeof(::CUdevice));
    STATIC_REQUIRE(sizeof(cu::CUresult) == sizeof(::CUresult));
    STATIC_REQUIRE(sizeof(cu::CUmemorytype) == sizeof(::CUmemorytype));
    STATIC_REQUIRE(int(cu::CUDA_ERROR_INVALID_VALUE) == int(::CUDA_ERROR_INVALID_VALUE));
    STATIC_REQUIRE(int(cu::CUDA_ERROR_OUT_OF_MEMORY) == int(::CUDA_ERROR_OUT_OF_MEMORY));
    STATIC_REQUIRE(int(cu::CUDA_ERROR_NO_DEVICE) == int(::CUDA_ERROR_NO_DEVICE));
    STATIC_REQUIRE(int(cu::CUDA_ERROR_NOT_FOUND) == int(::CUDA_ERROR_NOT_FOUND));
#define LOOM_SAME_VALUE(name) STATIC_REQUIRE(int(cu::name) == int(::name));
    LOOM_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)
    LOOM_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)
    LOOM_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)
    LOOM_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)
    LOOM_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)
    LOOM_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)
    LOOM_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)
    LOOM_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)
    LOOM_SAME_VALUE(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
    LOOM_SAME_VALUE(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
    LOOM_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
    LOOM_SAME_VALUE(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)
    LOOM_SAME_VALUE(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)
    LOOM_SAME_VALUE(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)
    LOOM_SAME_VALUE(CU_FUNC_ATTRIBUTE_NUM_REGS)
    LOOM_SAME_VALUE(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
    LOOM_SAME_VALUE(CU_POINTER_ATTRIBUTE_CONTEXT)
    LOOM_SAME_VALUE(CU_JIT_INFO_LOG_BUFFER)
    LOOM_SAME_VALUE(CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES)
    LOOM_SAME_VALUE(CU_JIT_ERROR_LOG_BUFFER)
    LOOM_SAME_VALUE(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
    LOOM_SAME_VALUE(CU_MEMORYTYPE_HOST)
    LOOM_SAME_VALUE(CU_MEMORYTYPE_DEVICE)
#undef LOOM_SAME_VALUE
#define LOOM_SAME_FIELD(type, field)                                                               \
    STATIC_REQUIRE(offsetof(cu::type, field) == offsetof(::type, field));
    STATIC_REQUIRE(sizeof(cu::CUDA_MEMCPY2D) == sizeof(::CUDA_MEMCPY2D));
    LOOM_SAME_FIELD(CUDA_MEMCPY2D, srcMemoryType)
    LOOM_SAME_FIELD(CUDA_MEMCPY2D, srcHost)
    LOOM_SAME_FIELD(CUDA_MEMCPY2D, srcDevice)
    LOOM_SAME_FIELD(CUDA_MEMCPY2D, srcPitch)
    LOOM_SAME_FIELD(CUDA_MEMCPY2D, dstMemoryType)
    LOOM_SAME_FIELD(CUDA_MEMCPY2D, dstHost)
    LOOM_SAME_FIELD(CUDA_MEMCPY2D, dstDevice)
    LOOM_SAME_FIELD(CUDA_MEMCPY2D, dstPitch)
    LOOM_SAME_FIELD(CUDA_MEMCPY2D, WidthInBytes)
    LOOM_SAME_FIELD(CUDA_MEMCPY2D, Height)
    STATIC_REQUIRE(sizeof(cu::CUDA_MEMCPY3D) == sizeof(::CUDA_MEMCPY3D));
    LOOM_SAME_FIELD(CUDA_MEMCPY3D, srcMemoryType)
    LOOM_SAME_FIELD(CUDA_MEMCPY3D, srcHost)
    LOOM_SAME_FIELD(CUDA_MEMCPY3D, srcDevice)
    LOOM_SAME_FIELD(CUDA_MEMCPY3D, srcPitch)
    LOOM_SAME_FIELD(CUDA_MEMCPY3D, srcHeight)
    LOOM_SAME_FIELD(CUDA_MEMCPY3D, dstMemoryType)
    LOOM_SAME_FIELD(CUDA_MEMCPY3D, dstHost)
    LOOM_SAME_FIELD(CUDA_MEMCPY3D, dstDevice)
    LOOM_SAME_FIELD(CUDA_MEMCPY3D, dstPitch)
    LOOM_SAME_FIELD(CUDA_MEMCPY3D, dstHeight)
    LOOM_SAME_FIELD(CUDA_MEMCPY3D, WidthInBytes)
    LOOM_SAME_FIELD(CUDA_MEMCPY3D, Height)
    LOOM_SAME_FIELD(CUDA_MEMCPY3D, Depth)
#undef LOOM_SAME_FIELD
}
#endif

TEST_CASE("cuda_runtime: copy plans give the blocks of cuMemcpy2D/3D calls", "[cuda_runtime]") {
    // A 4x3x2 region of int with row stride 10 and plane stride 50 on the
    // source, dense on the destination: runs of 16 bytes, then rows and planes.
    const int32_t extent[3] = {4, 3, 2};
    const int64_t src_stride[3] = {1, 10, 50}, dst_stride[3] = {1, 4, 12};
    CopyPlan plan;
    std::string error;
    REQUIRE(plan.init(3, extent, src_stride, dst_stride, 4, &error));
    REQUIRE(!plan.is_empty());
    REQUIRE(plan.run_size() == 16);
    REQUIRE(plan.outer_dims() == 2);
    REQUIRE(plan.outer_extent(0) == 3);
    REQUIRE(plan.outer_src_stride(0) == 40);
    REQUIRE(plan.outer_dst_stride(0) == 16);
    REQUIRE(plan.outer_extent(1) == 2);
    REQUIRE(plan.outer_src_stride(1) == 200);
    REQUIRE(plan.outer_dst_stride(1) == 48);
    // Blocks of the rows: one per plane, at the planes' offsets.
    std::vector<std::pair<int64_t, int64_t>> blocks;
    plan.for_each_outer(1, 8, 0, [&](int64_t s, int64_t d) {
        blocks.emplace_back(s, d);
        return 0;
    });
    REQUIRE(blocks == std::vector<std::pair<int64_t, int64_t>>{{8, 0}, {208, 48}});
    // Everything in one block: one call at the bases.
    blocks.clear();
    plan.for_each_outer(2, 8, 4, [&](int64_t s, int64_t d) {
        blocks.emplace_back(s, d);
        return 0;
    });
    REQUIRE(blocks == std::vector<std::pair<int64_t, int64_t>>{{8, 4}});
    // The runs are still all there, and an error stops the walk.
    int runs = 0;
    REQUIRE(plan.for_each_run(0, 0, [&](const loom_rt::CopyRun &run) {
        REQUIRE(run.bytes == 16);
        return ++runs == 4 ? 9 : 0;
    }) == 9);
    REQUIRE(runs == 4);
}

TEST_CASE("cuda_runtime: pooled allocations round up by at most a quarter", "[cuda_runtime]") {
    using loom_rt::allocation_size_class;
    REQUIRE(allocation_size_class(1) == 256);
    REQUIRE(allocation_size_class(256) == 256);
    REQUIRE(allocation_size_class(257) == 320);
    REQUIRE(allocation_size_class(1000) == 1024);
    REQUIRE(allocation_size_class(1025) == 1280);
    for (size_t bytes : {size_t(300), size_t(4097), size_t(1) << 20, (size_t(3) << 20) + 1}) {
        size_t cls = allocation_size_class(bytes);
        REQUIRE(cls >= bytes);
        REQUIRE(cls - bytes <= bytes / 4);
        REQUIRE(allocation_size_class(cls) == cls);
    }
}
