#ifndef LOOM_CODEGEN_CUDA_CODEGEN_CUDA_C_H
#define LOOM_CODEGEN_CUDA_CODEGEN_CUDA_C_H

// DeviceKernels -> one CUDA C++ translation unit: the GPU printer
// (codegen/gpu/CodeGen_GPU_C.h) with the CUDA C dialect. It compiles with
// NVRTC (no include paths needed) and with nvcc alike. Each kernel is an
// `extern "C" __global__ void <DeviceKernel::name>(...)`, with
// `__launch_bounds__(N)` when the block size N is known at compile time,
// taking its DeviceKernel::args in order: buffers as `T *__restrict__` (T
// the element type, uint8_t for bools, loom_half for 16-bit floats; const
// when only read), scalars by value. A kernel with dynamic shared memory
// declares `extern __shared__` and takes no argument for it: the launch
// passes its size (the 's' argument kind) as the dynamic shared bytes.
//
// Floats are IEEE (compile without --use_fast_math); as in Halide, a * b + c
// may contract to one fused multiply-add unless the target has strict_float.
// The target's lowest cuda_capability_N (else 7.5) decides which atomics are
// native; an atomic the capability cannot do at all is a CompileError
// naming the kernel and the capability it needs.

#include <string>
#include <vector>

#include "loom/Target.h"
#include "lower/DeviceKernel.h"

namespace loom {
namespace Internal {

std::string codegen_cuda_c(const std::vector<DeviceKernel> &kernels, const Target &target);

} // namespace Internal
} // namespace loom

#endif
