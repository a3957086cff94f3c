#ifndef LOOM_CODEGEN_OPENCL_CODEGEN_OPENCL_C_H
#define LOOM_CODEGEN_OPENCL_CODEGEN_OPENCL_C_H

// DeviceKernels -> one OpenCL C 1.2 program: the GPU printer
// (codegen/gpu/CodeGen_GPU_C.h) with the OpenCL C dialect. Each kernel is a
// `__kernel void <DeviceKernel::name>(...)` taking its DeviceKernel::args in
// order: buffers as `__global T *restrict` (T the element type, uchar for
// bools; const when only read), scalars by value (bools as uchar), the
// dynamic shared argument as `__local uchar *`.
//
// Target features: cl_doubles (64-bit floats), cl_half (16-bit floats),
// cl_atomics64 (64-bit integer atomics) enable the OpenCL extensions; a
// kernel needing one the target lacks is a CompileError. strict_float turns
// off floating-point contraction (FP_CONTRACT OFF); the program is IEEE
// either way, so build it without -cl-fast-relaxed-math.

#include <string>
#include <vector>

#include "loom/Target.h"
#include "lower/DeviceKernel.h"

namespace loom {
namespace Internal {

std::string codegen_opencl_c(const std::vector<DeviceKernel> &kernels, const Target &target);

} // namespace Internal
} // namespace loom

#endif
