// Target strings, host CPU detection and the LLVM triple, without LLVM.

#include "loom/Target.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "ir/Error.h"

namespace loom {
namespace {

struct Word {
    const char *name;
    int value;
};

const Word arch_words[] = {{"x86", Target::X86}, {"arm", Target::ARM}, {"riscv", Target::RISCV}};
const Word os_words[] = {{"linux", Target::Linux},
                         {"osx", Target::OSX},
                         {"windows", Target::Windows},
                         {"noos", Target::NoOS}};
const Word bits_words[] = {{"32", 32}, {"64", 64}};
// Indexed by Target::Feature; to_string() prints features in this order.
const Word feature_words[] = {
    {"sse41", Target::SSE41},
    {"avx", Target::AVX},
    {"avx2", Target::AVX2},
    {"fma", Target::FMA},
    {"f16c", Target::F16C},
    {"avx512", Target::AVX512},
    {"avx512_skylake", Target::AVX512_Skylake},
    {"no_asserts", Target::NoAsserts},
    {"no_bounds_query", Target::NoBoundsQuery},
    {"debug", Target::Debug},
    {"cuda", Target::CUDA},
    {"opencl", Target::OpenCL},
    {"strict_float", Target::StrictFloat},
    {"no_streaming_stores", Target::NoStreamingStores},
    {"no_auto_prefetch", Target::NoAutoPrefetch},
    {"cl_doubles", Target::CLDoubles},
    {"cl_half", Target::CLHalf},
    {"cl_atomics64", Target::CLAtomics64},
    {"cuda_capability_30", Target::CUDACapability30},
    {"cuda_capability_32", Target::CUDACapability32},
    {"cuda_capability_35", Target::CUDACapability35},
    {"cuda_capability_50", Target::CUDACapability50},
    {"cuda_capability_61", Target::CUDACapability61},
    {"cuda_capability_70", Target::CUDACapability70},
    {"cuda_capability_75", Target::CUDACapability75},
    {"cuda_capability_80", Target::CUDACapability80},
    {"cuda_capability_86", Target::CUDACapability86},
    {"cuda_capability_89", Target::CUDACapability89},
    {"cuda_capability_90", Target::CUDACapability90},
    {"cuda_capability_100", Target::CUDACapability100},
    {"cuda_capability_103", Target::CUDACapability103},
    {"cuda_capability_110", Target::CUDACapability110},
    {"cuda_capability_120", Target::CUDACapability120},
    {"cuda_capability_121", Target::CUDACapability121},
};
static_assert(sizeof(feature_words) / sizeof(feature_words[0]) == Target::FeatureEnd,
              "every Target::Feature needs a word");

template <size_t N> const char *name_of(const Word (&words)[N], int value) {
    for (const Word &w : words)
        if (w.value == value) return w.name;
    return "unknown";
}

template <size_t N> bool lookup(const Word (&words)[N], const std::string &token, int *value) {
    for (const Word &w : words) {
        if (token == w.name) {
            *value = w.value;
            return true;
        }
    }
    return false;
}

std::string valid_words() {
    std::ostringstream os;
    os << "host (first only)";
    for (const Word &w : arch_words) os << ", " << w.name;
    for (const Word &w : bits_words) os << ", " << w.name;
    for (const Word &w : os_words) os << ", " << w.name;
    for (const Word &w : feature_words) os << ", " << w.name;
    return os.str();
}

std::vector<std::string> split_words(const std::string &s) {
    std::vector<std::string> words;
    size_t start = 0;
    while (true) {
        size_t dash = s.find('-', start);
        words.push_back(
            s.substr(start, dash == std::string::npos ? std::string::npos : dash - start));
        if (dash == std::string::npos) return words;
        start = dash + 1;
    }
}

// Parses s into *t; on failure returns false and describes why in *why.
bool parse_target(const std::string &s, Target *t, std::string *why) {
    if (s.empty() || s == "host") {
        *t = get_host_target();
        return true;
    }
    std::vector<std::string> words = split_words(s);
    Target result;
    bool seen_arch = false, seen_bits = false, seen_os = false;
    for (size_t i = 0; i < words.size(); i++) {
        const std::string &w = words[i];
        int value = 0;
        if (w == "host") {
            if (i != 0) {
                *why = "\"host\" may only be the first word";
                return false;
            }
            result = get_host_target();
            seen_arch = seen_bits = seen_os = true;
        } else if (lookup(arch_words, w, &value)) {
            if (seen_arch) {
                *why = "the architecture is given twice (\"" + w + "\")";
                return false;
            }
            result.arch = Target::Arch(value);
            seen_arch = true;
        } else if (lookup(bits_words, w, &value)) {
            if (seen_bits) {
                *why = "the bit width is given twice (\"" + w + "\")";
                return false;
            }
            result.bits = value;
            seen_bits = true;
        } else if (lookup(os_words, w, &value)) {
            if (seen_os) {
                *why = "the operating system is given twice (\"" + w + "\")";
                return false;
            }
            result.os = Target::OS(value);
            seen_os = true;
        } else if (lookup(feature_words, w, &value)) {
            result = result.with_feature(Target::Feature(value));
        } else {
            *why = w.empty() ? std::string("it has an empty word") : "unknown word \"" + w + "\"";
            return false;
        }
    }
    if (!seen_arch || !seen_bits) {
        *why = "it names no architecture and bit width (e.g. \"x86-64-linux\") and does not start "
               "with \"host\"";
        return false;
    }
    if (!seen_os) result.os = Target::OSUnknown;
    *t = result;
    return true;
}

} // namespace

Target::Target(const std::string &s) {
    std::string why;
    if (!parse_target(s, this, &why)) {
        user_error("Did not understand target string \""
                   << s << "\": " << why << ". A target string is \"host\" or "
                   << "arch-bits-os, followed by features separated by '-'. "
                   << "Valid words: " << valid_words() << ".");
    }
}

bool Target::validate_target_string(const std::string &s) {
    Target t;
    std::string why;
    return parse_target(s, &t, &why);
}

bool Target::has_feature(Feature f) const {
    return std::find(features.begin(), features.end(), f) != features.end();
}

Target Target::with_feature(Feature f) const {
    Target t = *this;
    if (!t.has_feature(f)) {
        t.features.push_back(f);
        std::sort(t.features.begin(), t.features.end());
    }
    return t;
}

Target Target::without_feature(Feature f) const {
    Target t = *this;
    t.features.erase(std::remove(t.features.begin(), t.features.end(), f), t.features.end());
    return t;
}

std::string Target::to_string() const {
    std::string s = name_of(arch_words, arch);
    s += "-" + std::to_string(bits);
    s += "-";
    s += os == OSUnknown ? "unknown" : name_of(os_words, os);
    std::vector<Feature> sorted = features;
    std::sort(sorted.begin(), sorted.end());
    for (Feature f : sorted) {
        s += "-";
        s += name_of(feature_words, f);
    }
    return s;
}

std::string Target::llvm_triple() const {
    std::string cpu;
    switch (arch) {
    case X86:
        cpu = bits == 32 ? "i386" : "x86_64";
        break;
    case ARM:
        cpu = bits == 32 ? "armv7" : "aarch64";
        break;
    case RISCV:
        cpu = bits == 32 ? "riscv32" : "riscv64";
        break;
    default:
        cpu = "unknown";
        break;
    }
    switch (os) {
    case Linux:
        return cpu +
               (arch == ARM && bits == 32 ? "-unknown-linux-gnueabihf" : "-unknown-linux-gnu");
    case OSX:
        // Apple calls 64-bit ARM "arm64"; "-ios" would pick the iPhone ABI.
        return (arch == ARM && bits == 64 ? std::string("arm64") : cpu) + "-apple-macosx";
    case Windows:
        return cpu + "-pc-windows-msvc";
    case NoOS:
        return cpu + "-unknown-none-elf";
    default:
        return cpu + "-unknown-unknown";
    }
}

int Target::get_cuda_capability_lower_bound() const {
    // The capability features are declared in ascending order.
    for (int f = CUDACapability30; f <= CUDACapability121; f++) {
        if (has_feature(Feature(f))) {
            const std::string word = name_of(feature_words, f);
            return std::stoi(word.substr(word.rfind('_') + 1));
        }
    }
    return 0;
}

bool Target::supports_device_api(DeviceAPI api) const {
    switch (api) {
    case DeviceAPI::None:
    case DeviceAPI::Host:
        return true;
    case DeviceAPI::Default_GPU:
        return has_gpu_feature();
    case DeviceAPI::CUDA:
        return has_feature(CUDA);
    case DeviceAPI::OpenCL:
        return has_feature(OpenCL);
    }
    return false;
}

DeviceAPI Target::get_required_device_api() const {
    if (has_feature(CUDA)) return DeviceAPI::CUDA;
    if (has_feature(OpenCL)) return DeviceAPI::OpenCL;
    return DeviceAPI::None;
}

DeviceAPI get_default_device_api_for_target(const Target &t) {
    if (t.has_feature(Target::OpenCL)) return DeviceAPI::OpenCL;
    if (t.has_feature(Target::CUDA)) return DeviceAPI::CUDA;
    return DeviceAPI::Host;
}

bool Target::operator==(const Target &o) const {
    if (os != o.os || arch != o.arch || bits != o.bits) return false;
    std::vector<Feature> a = features, b = o.features;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
    b.erase(std::unique(b.begin(), b.end()), b.end());
    return a == b;
}

Target get_host_target() {
    Target t;
#if defined(__linux__)
    t.os = Target::Linux;
#elif defined(__APPLE__)
    t.os = Target::OSX;
#elif defined(_WIN32)
    t.os = Target::Windows;
#endif
    t.bits = sizeof(void *) == 8 ? 64 : 32;
#if defined(__x86_64__) || defined(__i386__)
    t.arch = Target::X86;
    __builtin_cpu_init();
    if (__builtin_cpu_supports("sse4.1")) t = t.with_feature(Target::SSE41);
    if (__builtin_cpu_supports("avx")) t = t.with_feature(Target::AVX);
    if (__builtin_cpu_supports("avx2")) t = t.with_feature(Target::AVX2);
    if (__builtin_cpu_supports("fma")) t = t.with_feature(Target::FMA);
    if (__builtin_cpu_supports("f16c")) t = t.with_feature(Target::F16C);
    if (__builtin_cpu_supports("avx512f")) {
        t = t.with_feature(Target::AVX512);
        if (__builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
            __builtin_cpu_supports("avx512vl"))
            t = t.with_feature(Target::AVX512_Skylake);
    }
#elif defined(__aarch64__) || defined(__arm__)
    t.arch = Target::ARM;
#elif defined(__riscv)
    t.arch = Target::RISCV;
#endif
    return t;
}

Target get_target_from_environment() {
    const char *s = std::getenv("LOOM_TARGET");
    return s && *s ? Target(std::string(s)) : get_host_target();
}

Target get_jit_target_from_environment() {
    const char *s = std::getenv("LOOM_JIT_TARGET");
    return s && *s ? Target(std::string(s)) : get_target_from_environment();
}

} // namespace loom
