// See cuda_references.h.

#include "cuda_references.h"

#include <cub/device/device_histogram.cuh>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdexcept>

namespace cuda_ref {

namespace {

void check(cudaError_t e, const char *what) {
    if (e != cudaSuccess)
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(e) + " (" +
                                 cudaGetErrorString(e) + ")");
}

void check(cublasStatus_t s, const char *what) {
    if (s != CUBLAS_STATUS_SUCCESS)
        throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(int(s)));
}

cublasHandle_t blas = nullptr;
void *hist_scratch = nullptr;
size_t hist_scratch_bytes = 0;

} // namespace

bool init(std::string *device_name, std::string *error) {
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        *error = e != cudaSuccess ? std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e)
                                  : "no CUDA device";
        return false;
    }
    cudaDeviceProp prop;
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    *device_name = std::string(prop.name) + " (sm_" + std::to_string(prop.major) +
                   std::to_string(prop.minor) + ", " + std::to_string(prop.multiProcessorCount) +
                   " SMs)";
    check(cudaSetDevice(0), "cudaSetDevice");
    check(cudaFree(nullptr), "cudaFree(0)");
    return true;
}

void *device_alloc(size_t bytes) {
    void *p = nullptr;
    check(cudaMalloc(&p, bytes), "cudaMalloc");
    return p;
}

void device_free(void *p) {
    check(cudaFree(p), "cudaFree");
}

void upload(void *device, const void *host, size_t bytes) {
    check(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to device");
}

void download(void *host, const void *device, size_t bytes) {
    check(cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy to host");
}

void copy(void *dst, const void *src, size_t bytes, int reps) {
    for (int i = 0; i < reps; i++)
        check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpyAsync");
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

void sgemm(int M, int N, int K, const float *A, const float *B, float *C, int reps) {
    if (!blas) {
        check(cublasCreate(&blas), "cublasCreate");
        // Plain FP32: no TF32 tensor-core rounding.
        check(cublasSetMathMode(blas, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
    }
    const float one = 1.0f, zero = 0.0f;
    // Row-major C = A B is column-major C^T = B^T A^T.
    for (int i = 0; i < reps; i++)
        check(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N),
              "cublasSgemm");
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

void histogram(const uint8_t *samples, int n, int *bins, int reps) {
    size_t need = 0;
    check(cub::DeviceHistogram::HistogramEven(nullptr, need, samples, bins, 257, 0, 256, n),
          "DeviceHistogram (size query)");
    if (need > hist_scratch_bytes) {
        if (hist_scratch) device_free(hist_scratch);
        hist_scratch = device_alloc(need);
        hist_scratch_bytes = need;
    }
    for (int i = 0; i < reps; i++)
        check(
            cub::DeviceHistogram::HistogramEven(hist_scratch, need, samples, bins, 257, 0, 256, n),
            "DeviceHistogram");
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

void shutdown() {
    if (blas) cublasDestroy(blas);
    blas = nullptr;
    if (hist_scratch) cudaFree(hist_scratch);
    hist_scratch = nullptr;
    hist_scratch_bytes = 0;
}

} // namespace cuda_ref
