// The reference side of perf_cuda: a device-to-device copy, cuBLAS SGEMM
// and CUB's DeviceHistogram, compiled by nvcc (cuda_references.cu) behind a
// plain C++ interface, so that perf_cuda.cpp itself needs no CUDA headers.
// They run in the CUDA runtime's primary context, which Loom's CUDA runtime
// shares; every call waits for the device before it returns.

#ifndef LOOM_TEST_PERFORMANCE_CUDA_REFERENCES_H
#define LOOM_TEST_PERFORMANCE_CUDA_REFERENCES_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace cuda_ref {

/** Starts the CUDA runtime on device 0 (its primary context). False with
 *  the reason in *error where there is no usable GPU. */
bool init(std::string *device_name, std::string *error);

void *device_alloc(size_t bytes);
void device_free(void *p);
void upload(void *device, const void *host, size_t bytes);
void download(void *host, const void *device, size_t bytes);

/** Copies `bytes` from src to dst on the device (cudaMemcpy, device to
 *  device), `reps` times, then waits. */
void copy(void *dst, const void *src, size_t bytes, int reps);

/** Row-major C (MxN) = A (MxK) * B (KxN) in FP32 through cuBLAS, TF32 off,
 *  `reps` times, then waits. */
void sgemm(int M, int N, int K, const float *A, const float *B, float *C, int reps);

/** A 256-bin histogram of n bytes into 256 int32 counts through CUB's
 *  DeviceHistogram::HistogramEven, `reps` times, then waits. */
void histogram(const uint8_t *samples, int n, int *bins, int reps);

/** Releases cuBLAS and CUB's scratch memory. */
void shutdown();

} // namespace cuda_ref

#endif
