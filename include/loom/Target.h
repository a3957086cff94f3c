#ifndef LOOM_TARGET_H
#define LOOM_TARGET_H

/** \file Target: the machine to generate code for, parsed from strings like
 * "host", "x86-64-linux-avx2" or "host-cuda-no_asserts". */

#include <string>
#include <vector>

#include "loom/DeviceAPI.h"

namespace loom {

struct Target {
    enum OS { OSUnknown, Linux, OSX, Windows, NoOS };
    enum Arch { ArchUnknown, X86, ARM, RISCV };
    enum Feature {
        SSE41,
        AVX,
        AVX2,
        FMA,
        F16C,
        AVX512,
        AVX512_Skylake,
        NoAsserts,
        NoBoundsQuery,
        Debug,
        CUDA,
        OpenCL,
        StrictFloat,
        NoStreamingStores, // never write outputs with non-temporal stores
        NoAutoPrefetch,    // no software prefetch for loads with long strides
        CLDoubles,         // the OpenCL device has cl_khr_fp64: kernels may use double
        CLHalf,            // the OpenCL device has cl_khr_fp16: kernels may use half
        CLAtomics64,       // the OpenCL device has 64-bit integer atomics (cl_khr_int64_*)
        // The CUDA device is at least compute capability N/10 (cuda_capability_N).
        // 30 to 70 parse (Halide's names) but NVRTC 13 compiles for 75 and later
        // only: lowering says which capabilities the NVRTC found supports.
        CUDACapability30,
        CUDACapability32,
        CUDACapability35,
        CUDACapability50,
        CUDACapability61,
        CUDACapability70,
        CUDACapability75,  // 7.5 (Turing)
        CUDACapability80,  // 8.0 (Ampere A100)
        CUDACapability86,  // 8.6 (Ampere consumer)
        CUDACapability89,  // 8.9 (Ada)
        CUDACapability90,  // 9.0 (Hopper)
        CUDACapability100, // 10.0 (Blackwell B100/B200)
        CUDACapability103, // 10.3 (Blackwell B300)
        CUDACapability110, // 11.0 (Thor)
        CUDACapability120, // 12.0 (Blackwell consumer)
        CUDACapability121, // 12.1 (GB10)
        FeatureEnd
    };

    OS os = OSUnknown;
    Arch arch = ArchUnknown;
    int bits = 0;
    std::vector<Feature> features;

    Target() = default;
    Target(OS o, Arch a, int b, std::vector<Feature> f = {})
        : os(o), arch(a), bits(b), features(std::move(f)) {}
    /** Parse a target string; throws CompileError listing the valid words. */
    explicit Target(const std::string &s);
    Target(const char *s) : Target(std::string(s)) {}

    bool has_feature(Feature f) const;
    Target with_feature(Feature f) const;
    Target without_feature(Feature f) const;
    /** Does the target run GPU loops, i.e. name a GPU API (cuda or opencl)? */
    bool has_gpu_feature() const { return has_feature(CUDA) || has_feature(OpenCL); }
    /** The lowest CUDA compute capability the target names (75 for
     * cuda_capability_75), or 0 when it names none: then JIT compiles for
     * the device found at run time, and source printing assumes 75. */
    int get_cuda_capability_lower_bound() const;
    /** Does the target enable loops of this device API? None and Host
     * always; Default_GPU when has_gpu_feature(); CUDA and OpenCL when
     * the target has that feature. */
    bool supports_device_api(DeviceAPI api) const;
    /** The GPU API whose runtime the target needs, as in Halide (CUDA
     * first, then OpenCL), or DeviceAPI::None for CPU-only targets. */
    DeviceAPI get_required_device_api() const;
    /** "x86-64-linux-avx2-fma". */
    std::string to_string() const;
    /** The LLVM triple, e.g. "x86_64-unknown-linux-gnu". */
    std::string llvm_triple() const;
    bool operator==(const Target &o) const;
    bool operator!=(const Target &o) const { return !(*this == o); }

    /** Is s a valid target string? */
    static bool validate_target_string(const std::string &s);
};

/** The API that DeviceAPI::Default_GPU loops use on target t: OpenCL when
 * t has opencl, else CUDA when it has cuda, else Host (no GPU). */
DeviceAPI get_default_device_api_for_target(const Target &t);

/** The machine Loom is running on, with the CPU features it really has. */
Target get_host_target();
/** The target of LOOM_TARGET from the environment, else the host. */
Target get_target_from_environment();
/** get_target_from_environment() unless LOOM_JIT_TARGET is set. */
Target get_jit_target_from_environment();

} // namespace loom

#endif
