// The part of the CUDA driver API (cuda.h) that Loom's CUDA runtime uses,
// declared here so that libloom and AOT libraries build without the CUDA
// toolkit: opaque handles, the enum values and structs of the calls, and the
// entry points, resolved from libcuda.so.1 with dlsym under the symbol names
// the driver exports (the _v2 ones where cuda.h maps a name to a _v2 symbol).
// test/unit/cuda_driver_api_test.cpp checks every value and layout against
// the toolkit's cuda.h where one is installed.
#ifndef LOOM_RUNTIME_CUDA_DRIVER_API_H
#define LOOM_RUNTIME_CUDA_DRIVER_API_H

#include <cstddef>
#include <cstdint>

namespace loom_rt {
namespace cu {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
using CUcontext = CUctx_st *;
struct CUmod_st;
using CUmodule = CUmod_st *;
struct CUfunc_st;
using CUfunction = CUfunc_st *;
struct CUstream_st;
using CUstream = CUstream_st *;
struct CUarray_st;
using CUarray = CUarray_st *;

enum : CUresult {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_NOT_FOUND = 500,
};

enum CUdevice_attribute {
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
};

enum CUfunction_attribute {
    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
    CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
    CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
    CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};

enum CUpointer_attribute {
    CU_POINTER_ATTRIBUTE_CONTEXT = 1,
};

enum CUjit_option {
    CU_JIT_INFO_LOG_BUFFER = 3,
    CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
    CU_JIT_ERROR_LOG_BUFFER = 5,
    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

enum CUmemorytype {
    CU_MEMORYTYPE_HOST = 1,
    CU_MEMORYTYPE_DEVICE = 2,
};

/** cuMemcpy2D's parameters (CUDA_MEMCPY2D_v2). */
struct CUDA_MEMCPY2D {
    size_t srcXInBytes, srcY;
    CUmemorytype srcMemoryType;
    const void *srcHost;
    CUdeviceptr srcDevice;
    CUarray srcArray;
    size_t srcPitch;
    size_t dstXInBytes, dstY;
    CUmemorytype dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    CUarray dstArray;
    size_t dstPitch;
    size_t WidthInBytes, Height;
};

/** cuMemcpy3D's parameters (CUDA_MEMCPY3D_v2). */
struct CUDA_MEMCPY3D {
    size_t srcXInBytes, srcY, srcZ, srcLOD;
    CUmemorytype srcMemoryType;
    const void *srcHost;
    CUdeviceptr srcDevice;
    CUarray srcArray;
    void *reserved0;
    size_t srcPitch, srcHeight;
    size_t dstXInBytes, dstY, dstZ, dstLOD;
    CUmemorytype dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    CUarray dstArray;
    void *reserved1;
    size_t dstPitch, dstHeight;
    size_t WidthInBytes, Height, Depth;
};

// X(member, symbol, parameter list): the entry points the runtime needs.
#define LOOM_CU_FUNCTIONS(X)                                                                       \
    X(cuInit, "cuInit", (unsigned flags))                                                          \
    X(cuDriverGetVersion, "cuDriverGetVersion", (int *version))                                    \
    X(cuGetErrorName, "cuGetErrorName", (CUresult error, const char **name))                       \
    X(cuGetErrorString, "cuGetErrorString", (CUresult error, const char **text))                   \
    X(cuDeviceGetCount, "cuDeviceGetCount", (int *count))                                          \
    X(cuDeviceGet, "cuDeviceGet", (CUdevice * device, int ordinal))                                \
    X(cuDeviceGetName, "cuDeviceGetName", (char *name, int length, CUdevice device))               \
    X(cuDeviceGetAttribute, "cuDeviceGetAttribute",                                                \
      (int *value, CUdevice_attribute attribute, CUdevice device))                                 \
    X(cuDeviceTotalMem, "cuDeviceTotalMem_v2", (size_t * bytes, CUdevice device))                  \
    X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain",                                        \
      (CUcontext * context, CUdevice device))                                                      \
    X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", (CUdevice device))                \
    X(cuCtxPushCurrent, "cuCtxPushCurrent_v2", (CUcontext context))                                \
    X(cuCtxPopCurrent, "cuCtxPopCurrent_v2", (CUcontext * context))                                \
    X(cuCtxGetDevice, "cuCtxGetDevice", (CUdevice * device))                                       \
    X(cuCtxSynchronize, "cuCtxSynchronize", ())                                                    \
    X(cuStreamSynchronize, "cuStreamSynchronize", (CUstream stream))                               \
    X(cuMemAlloc, "cuMemAlloc_v2", (CUdeviceptr * pointer, size_t bytes))                          \
    X(cuMemFree, "cuMemFree_v2", (CUdeviceptr pointer))                                            \
    X(cuMemGetAddressRange, "cuMemGetAddressRange_v2",                                             \
      (CUdeviceptr * base, size_t * bytes, CUdeviceptr pointer))                                   \
    X(cuPointerGetAttribute, "cuPointerGetAttribute",                                              \
      (void *data, CUpointer_attribute attribute, CUdeviceptr pointer))                            \
    X(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2",                                                   \
      (CUdeviceptr dst, const void *src, size_t bytes, CUstream stream))                           \
    X(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2",                                                   \
      (void *dst, CUdeviceptr src, size_t bytes, CUstream stream))                                 \
    X(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2",                                                   \
      (CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream))                           \
    X(cuMemcpy2DAsync, "cuMemcpy2DAsync_v2", (const CUDA_MEMCPY2D *copy, CUstream stream))         \
    X(cuMemcpy3DAsync, "cuMemcpy3DAsync_v2", (const CUDA_MEMCPY3D *copy, CUstream stream))         \
    X(cuModuleLoadDataEx, "cuModuleLoadDataEx",                                                    \
      (CUmodule * module, const void *image, unsigned count, CUjit_option *options,                \
       void **values))                                                                             \
    X(cuModuleUnload, "cuModuleUnload", (CUmodule module))                                         \
    X(cuModuleGetFunction, "cuModuleGetFunction",                                                  \
      (CUfunction * function, CUmodule module, const char *name))                                  \
    X(cuFuncGetAttribute, "cuFuncGetAttribute",                                                    \
      (int *value, CUfunction_attribute attribute, CUfunction function))                           \
    X(cuFuncSetAttribute, "cuFuncSetAttribute",                                                    \
      (CUfunction function, CUfunction_attribute attribute, int value))                            \
    X(cuLaunchKernel, "cuLaunchKernel",                                                            \
      (CUfunction function, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,   \
       unsigned block_y, unsigned block_z, unsigned shared_bytes, CUstream stream, void **params,  \
       void **extra))

// Entry points of newer drivers, used when present: cuFuncGetParamInfo
// (CUDA 12.4) lets a launch check its arguments against the kernel's.
#define LOOM_CU_OPTIONAL_FUNCTIONS(X)                                                              \
    X(cuFuncGetParamInfo, "cuFuncGetParamInfo",                                                    \
      (CUfunction function, size_t index, size_t * offset, size_t * bytes))

/** The driver's entry points, as members of the cuda.h names. */
struct DriverApi {
#define LOOM_CU_MEMBER(name, symbol, params) CUresult(*name) params = nullptr;
    LOOM_CU_FUNCTIONS(LOOM_CU_MEMBER)
    LOOM_CU_OPTIONAL_FUNCTIONS(LOOM_CU_MEMBER)
#undef LOOM_CU_MEMBER
};

} // namespace cu
} // namespace loom_rt

#endif
