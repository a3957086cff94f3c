#ifndef LOOM_TARGET_H
#define LOOM_TARGET_H

/** \file Target: the machine to generate code for, parsed from strings like
 * "host", "x86-64-linux-avx2" or "host-cuda-no_asserts". */

#include <string>
#include <vector>

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
    bool has_gpu_feature() const { return has_feature(CUDA) || has_feature(OpenCL); }
    /** "x86-64-linux-avx2-fma". */
    std::string to_string() const;
    /** The LLVM triple, e.g. "x86_64-unknown-linux-gnu". */
    std::string llvm_triple() const;
    bool operator==(const Target &o) const;
    bool operator!=(const Target &o) const { return !(*this == o); }

    /** Is s a valid target string? */
    static bool validate_target_string(const std::string &s);
};

/** The machine Loom is running on, with the CPU features it really has. */
Target get_host_target();
/** The target of LOOM_TARGET from the environment, else the host. */
Target get_target_from_environment();
/** get_target_from_environment() unless LOOM_JIT_TARGET is set. */
Target get_jit_target_from_environment();

} // namespace loom

#endif
