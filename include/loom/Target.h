#ifndef LOOM_TARGET_H
#define LOOM_TARGET_H

/** \file Target: the machine to generate code for, parsed from strings like
 * "host", "x86-64-linux-avx2" or "host-cuda-no_asserts". */

#include <iosfwd>
#include <string>
#include <vector>

#include "loom/DeviceAPI.h"
#include "loom/Type.h"

namespace loom {

struct Target {
    /** Android, IOS, QuRT, Fuchsia and WebAssemblyRuntime (Halide's other
     * systems) parse and are kept in the string, but Loom cannot generate
     * code for them (see can_generate_code()). */
    enum OS {
        OSUnknown,
        Linux,
        OSX,
        Windows,
        NoOS,
        Android,
        IOS,
        QuRT,
        Fuchsia,
        WebAssemblyRuntime
    };
    /** Hexagon, POWERPC, WebAssembly and MIPS (Halide's other architectures;
     * Halide 14 still has MIPS) parse and are kept in the string, but Loom
     * cannot generate code for them. */
    enum Arch { ArchUnknown, X86, ARM, RISCV, Hexagon, POWERPC, WebAssembly, MIPS };
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
        // Halide's other features. The x86 ones select instructions (like the
        // ones above); the rest are accepted and kept in the target string
        // but have no effect in Loom (except large_buffers and trace_*):
        // Target::validate() lists them.
        AVX512_KNL,
        AVX512_Cannonlake,
        AVX512_SapphireRapids,
        AVX512_Zen4,
        AVX512_Zen5,
        AVXVNNI,
        AVX10_1,
        FMA4,
        X86APX,
        JIT,
        EnableBacktraces,
        ARMv7s,
        NoNEON,
        VSX,
        POWER_ARCH_2_07,
        EGL,
        UserContext,
        Matlab,
        Profile,
        ProfileByTimer,
        NoRuntime,
        Metal,
        OpenGLCompute,
        CPlusPlusMangling,
        LargeBuffers,
        HVX_128,
        HVX = HVX_128, ///< Halide's name for HVX_128
        HVX_v62,
        HVX_v65,
        HVX_v66,
        HVX_v68,
        HexagonDma,
        FuzzFloatStores,
        SoftFloatABI,
        MSAN,
        TSAN,
        ASAN,
        SanitizerCoverage,
        TraceLoads,
        TraceStores,
        TraceRealizations,
        TracePipeline,
        D3D12Compute,
        HLSL_SM60,
        HLSL_SM61,
        HLSL_SM62,
        HLSL_SM63,
        HLSL_SM64,
        HLSL_SM65,
        HLSL_SM66,
        HLSL_SM67,
        HLSL_SM68,
        HLSL_SM69,
        CheckUnsafePromises,
        EmbedBitcode,
        EnableLLVMLoopOpt,
        DisableLLVMLoopOpt,
        WasmSimd128,
        WasmMvpOnly,
        WasmSignExt,
        WasmSatFloatToInt,
        WasmThreads,
        WasmBulkMemory,
        WebGPU,
        SVE,
        SVE2,
        SME2,
        SME_SVL128,
        SME_SVL256,
        SME_SVL512,
        SME_SVL1024,
        SME_SVL2048,
        ARMDotProd,
        ARMFp16,
        ARMv8a,
        ARMv81a,
        ARMv82a,
        ARMv83a,
        ARMv84a,
        ARMv85a,
        ARMv86a,
        ARMv87a,
        ARMv88a,
        ARMv89a,
        LLVMLargeCodeModel,
        RVV,
        SPIRV,
        Vulkan,
        VulkanInt8,
        VulkanInt16,
        VulkanInt64,
        VulkanFloat16,
        VulkanFloat64,
        VulkanV10,
        VulkanV12,
        VulkanV13,
        Semihosting,
        Simulator,
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
    /** Halide's "tune_<cpu>" word (e.g. "tune_znver4"), kept but unused by
     * Loom; empty for the generic tuning. */
    std::string processor_tune;
    /** Halide's "vector_bits_<n>" (the vector length of SVE/RVV targets),
     * kept but unused by Loom; 0 when not given. */
    int vector_bits = 0;

    Target() = default;
    Target(OS o, Arch a, int b, std::vector<Feature> f = {})
        : os(o), arch(a), bits(b), features(std::move(f)) {}
    /** Parse a target string; throws CompileError listing the valid words. */
    explicit Target(const std::string &s);
    explicit Target(const char *s) : Target(std::string(s)) {}

    bool has_feature(Feature f) const;
    Target with_feature(Feature f) const;
    Target without_feature(Feature f) const;
    void set_feature(Feature f, bool value = true);
    void set_features(const std::vector<Feature> &fs, bool value = true);
    bool features_any_of(const std::vector<Feature> &fs) const;
    bool features_all_of(const std::vector<Feature> &fs) const;

    /** Does Loom act on feature f? False for the Halide features it only
     * accepts and keeps in the target string (trace_loads, hvx, ...). */
    static bool feature_has_effect(Feature f);
    /** The word of a feature in target strings ("avx2"), and back (false
     * when name is no feature). */
    static std::string feature_to_name(Feature f);
    static bool feature_from_name(const std::string &name, Feature *f);
    /** What of this target Loom accepts but ignores, one entry per word:
     * first the architecture and OS words it cannot generate code for (see
     * words_without_code_generation), then the tune_ processor, the
     * features without effect and vector_bits_; empty when everything in it
     * acts. The generator driver prints these. */
    std::vector<std::string> validate() const;
    /** Can Loom generate code for this target's architecture and operating
     * system? False for Halide's architectures and systems that Loom only
     * accepts (hexagon, powerpc, wasm; android, ios, qurt, fuchsia,
     * wasmrt): compiling for one is a CompileError naming the target. */
    bool can_generate_code() const;
    /** The words of this target that make can_generate_code() false (e.g.
     * {"hexagon", "qurt"}); validate() lists them first, and the generator
     * driver notes them as "accepted but Loom cannot generate code for it". */
    std::vector<std::string> words_without_code_generation() const;

    /** Can code for this target use values of type t? (Everything on CPUs;
     * float64 on OpenCL needs cl_doubles.) */
    bool supports_type(const Type &t) const;
    /** Lanes of t in the target's natural vector (16, 32 or 64 bytes). */
    int natural_vector_size(const Type &t) const;
    template <typename T> int natural_vector_size() const {
        return natural_vector_size(type_of<T>());
    }
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

/** Prints t.to_string(). */
std::ostream &operator<<(std::ostream &os, const Target &t);

/** The machine Loom is running on, with the CPU features it really has. */
Target get_host_target();
/** The target of LOOM_TARGET from the environment (Halide's HL_TARGET),
 * else the host. */
Target get_target_from_environment();
/** The target of LOOM_JIT_TARGET (Halide's HL_JIT_TARGET), which must name
 * the host's architecture, bit width and OS (CompileError otherwise). When
 * it is not set: LOOM_TARGET if that names the host's architecture, bit width
 * and OS (so `LOOM_TARGET=host-opencl ./program` runs JIT code on OpenCL),
 * else the host. */
Target get_jit_target_from_environment();

} // namespace loom

#endif
