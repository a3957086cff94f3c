// CUDA C -> cubin/PTX with NVRTC (libnvrtc loaded with dlopen), and the text
// bundle in which AOT libraries carry CUDA device code. Shared by the CUDA
// runtime (JIT: compile the source for the device found at run time), the
// AOT writer (compile once per listed capability) and the tests (every
// kernel compiles for sm_75 and sm_90). Internal to Loom.
#ifndef LOOM_RUNTIME_CUDA_COMPILE_H
#define LOOM_RUNTIME_CUDA_COMPILE_H

#include <string>
#include <vector>

namespace loom_rt {

/** What one NVRTC compile gave. */
struct NvrtcOutput {
    bool ok = false;
    /** The cubin (is_cubin) or the PTX text (with its terminating NUL). */
    std::string binary;
    bool is_cubin = false;
    /** NVRTC's program log: errors, warnings and, with verbose ptxas
     * options, the registers/spill/shared figures per kernel. */
    std::string log;
    /** When !ok: why, in words a user can act on (NVRTC not found and where
     * it was looked for, or the compile error with the offending source line). */
    std::string error;
};

/** Is NVRTC loadable? When not, *why_not (if given) says what was tried:
 * LOOM_NVRTC_LIBRARY when set (then nothing else: a named library is never
 * silently replaced), else libnvrtc.so.13/12/11.2/11 and libnvrtc.so in the
 * loader path, then in $CUDA_PATH/lib64 and /usr/local/cuda/lib64. Loaded
 * once per process. */
bool nvrtc_available(std::string *why_not = nullptr);

/** NVRTC's version as major * 1000 + minor * 10 (13000 for 13.0); 0 when
 * NVRTC is not available. Part of every compiled-kernel cache key. */
int nvrtc_version();

/** The compute capabilities (75, 80, 86, 89, 90, ...) this NVRTC compiles
 * for, ascending (empty when NVRTC is not available). */
std::vector<int> nvrtc_supported_capabilities();

/** Compiles `source` (CUDA C) for sm_<capability> (e.g. 75, 90): a cubin
 * when want_cubin, else PTX for compute_<capability>. Options always include
 * the architecture and --std=c++17; never --use_fast_math unless listed in
 * extra_options. Kernels' ptxas figures appear in the log when
 * extra_options has "--ptxas-options=--verbose". Thread-safe. */
NvrtcOutput nvrtc_compile(const std::string &source, int capability, bool want_cubin,
                          const std::vector<std::string> &extra_options = {});

/** CUDA device code as an AOT library embeds it: cubins for some
 * capabilities, PTX for some, and the CUDA C source. */
struct CudaBundle {
    struct Image {
        int capability = 0; // 75, 90, ...
        bool is_cubin = false;
        std::string data; // cubin bytes or PTX text
    };
    std::vector<Image> images;
    std::string source;
};

/** The bundle as one NUL-free text (so it travels as a C string through
 * loom_device_run's `source`): a first line "//LOOM_CUDA_BUNDLE 1", then one
 * line per image "//cubin <cap> <base64>" or "//ptx <cap> <base64>", then
 * the CUDA C source. */
std::string cuda_bundle_encode(const CudaBundle &bundle);

/** True when `text` starts like an encoded bundle. */
bool is_cuda_bundle(const char *text);

/** Decodes cuda_bundle_encode's text; false (with *error) when malformed. */
bool cuda_bundle_decode(const char *text, CudaBundle *bundle, std::string *error);

/** The image to load on a device of `device_capability`: an exact-major
 * cubin with the highest capability <= the device's, else the PTX with the
 * highest capability <= the device's; nullptr when none fits (the caller
 * then compiles bundle.source with NVRTC if it can, else reports which
 * capabilities the bundle has). */
const CudaBundle::Image *cuda_bundle_select(const CudaBundle &bundle, int device_capability);

} // namespace loom_rt

#endif
