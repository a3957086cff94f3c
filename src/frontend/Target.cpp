// Target strings, host CPU detection and the LLVM triple, without LLVM.

#include "loom/Target.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iterator>
#include <ostream>
#include <sstream>

#include "frontend/TargetFeatures.h"
#include "ir/Error.h"

namespace loom {
namespace {

struct Word {
    const char *name;
    int value;
};

const Word arch_words[] = {{"x86", Target::X86},         {"arm", Target::ARM},
                           {"riscv", Target::RISCV},     {"hexagon", Target::Hexagon},
                           {"powerpc", Target::POWERPC}, {"wasm", Target::WebAssembly},
                           {"mips", Target::MIPS}};
const Word os_words[] = {
    {"linux", Target::Linux}, {"osx", Target::OSX},         {"windows", Target::Windows},
    {"noos", Target::NoOS},   {"android", Target::Android}, {"ios", Target::IOS},
    {"qurt", Target::QuRT},   {"fuchsia", Target::Fuchsia}, {"wasmrt", Target::WebAssemblyRuntime}};
// What Loom generates code for; the other words above only parse.
const Target::Arch code_generating_arches[] = {Target::X86, Target::ARM, Target::RISCV};
const Target::OS code_generating_oses[] = {Target::OSUnknown, Target::Linux, Target::OSX,
                                           Target::Windows, Target::NoOS};
const Word bits_words[] = {{"32", 32}, {"64", 64}};
// Halide's words for a Target() with nothing set: "arch_unknown-0-os_unknown".
const char *const arch_unknown_word = "arch_unknown";
const char *const os_unknown_word = "os_unknown";
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
    {"avx512_knl", Target::AVX512_KNL},
    {"avx512_cannonlake", Target::AVX512_Cannonlake},
    {"avx512_sapphirerapids", Target::AVX512_SapphireRapids},
    {"avx512_zen4", Target::AVX512_Zen4},
    {"avx512_zen5", Target::AVX512_Zen5},
    {"avxvnni", Target::AVXVNNI},
    {"avx10_1", Target::AVX10_1},
    {"fma4", Target::FMA4},
    {"x86apx", Target::X86APX},
    {"jit", Target::JIT},
    {"enable_backtraces", Target::EnableBacktraces},
    {"armv7s", Target::ARMv7s},
    {"no_neon", Target::NoNEON},
    {"vsx", Target::VSX},
    {"power_arch_2_07", Target::POWER_ARCH_2_07},
    {"egl", Target::EGL},
    {"user_context", Target::UserContext},
    {"matlab", Target::Matlab},
    {"profile", Target::Profile},
    {"profile_by_timer", Target::ProfileByTimer},
    {"no_runtime", Target::NoRuntime},
    {"metal", Target::Metal},
    {"openglcompute", Target::OpenGLCompute},
    {"c_plus_plus_name_mangling", Target::CPlusPlusMangling},
    {"large_buffers", Target::LargeBuffers},
    {"hvx_128", Target::HVX_128},
    {"hvx_v62", Target::HVX_v62},
    {"hvx_v65", Target::HVX_v65},
    {"hvx_v66", Target::HVX_v66},
    {"hvx_v68", Target::HVX_v68},
    {"hexagon_dma", Target::HexagonDma},
    {"fuzz_float_stores", Target::FuzzFloatStores},
    {"soft_float_abi", Target::SoftFloatABI},
    {"msan", Target::MSAN},
    {"tsan", Target::TSAN},
    {"asan", Target::ASAN},
    {"sanitizer_coverage", Target::SanitizerCoverage},
    {"trace_loads", Target::TraceLoads},
    {"trace_stores", Target::TraceStores},
    {"trace_realizations", Target::TraceRealizations},
    {"trace_pipeline", Target::TracePipeline},
    {"d3d12compute", Target::D3D12Compute},
    {"hlsl_sm60", Target::HLSL_SM60},
    {"hlsl_sm61", Target::HLSL_SM61},
    {"hlsl_sm62", Target::HLSL_SM62},
    {"hlsl_sm63", Target::HLSL_SM63},
    {"hlsl_sm64", Target::HLSL_SM64},
    {"hlsl_sm65", Target::HLSL_SM65},
    {"hlsl_sm66", Target::HLSL_SM66},
    {"hlsl_sm67", Target::HLSL_SM67},
    {"hlsl_sm68", Target::HLSL_SM68},
    {"hlsl_sm69", Target::HLSL_SM69},
    {"check_unsafe_promises", Target::CheckUnsafePromises},
    {"embed_bitcode", Target::EmbedBitcode},
    {"enable_llvm_loop_opt", Target::EnableLLVMLoopOpt},
    {"disable_llvm_loop_opt", Target::DisableLLVMLoopOpt},
    {"wasm_simd128", Target::WasmSimd128},
    {"wasm_mvponly", Target::WasmMvpOnly},
    {"wasm_signext", Target::WasmSignExt},
    {"wasm_sat_float_to_int", Target::WasmSatFloatToInt},
    {"wasm_threads", Target::WasmThreads},
    {"wasm_bulk_memory", Target::WasmBulkMemory},
    {"webgpu", Target::WebGPU},
    {"sve", Target::SVE},
    {"sve2", Target::SVE2},
    {"sme2", Target::SME2},
    {"sme_svl128", Target::SME_SVL128},
    {"sme_svl256", Target::SME_SVL256},
    {"sme_svl512", Target::SME_SVL512},
    {"sme_svl1024", Target::SME_SVL1024},
    {"sme_svl2048", Target::SME_SVL2048},
    {"arm_dot_prod", Target::ARMDotProd},
    {"arm_fp16", Target::ARMFp16},
    {"armv8a", Target::ARMv8a},
    {"armv81a", Target::ARMv81a},
    {"armv82a", Target::ARMv82a},
    {"armv83a", Target::ARMv83a},
    {"armv84a", Target::ARMv84a},
    {"armv85a", Target::ARMv85a},
    {"armv86a", Target::ARMv86a},
    {"armv87a", Target::ARMv87a},
    {"armv88a", Target::ARMv88a},
    {"armv89a", Target::ARMv89a},
    {"llvm_large_code_model", Target::LLVMLargeCodeModel},
    {"rvv", Target::RVV},
    {"spirv", Target::SPIRV},
    {"vulkan", Target::Vulkan},
    {"vk_int8", Target::VulkanInt8},
    {"vk_int16", Target::VulkanInt16},
    {"vk_int64", Target::VulkanInt64},
    {"vk_float16", Target::VulkanFloat16},
    {"vk_float64", Target::VulkanFloat64},
    {"vk_v10", Target::VulkanV10},
    {"vk_v12", Target::VulkanV12},
    {"vk_v13", Target::VulkanV13},
    {"semihosting", Target::Semihosting},
    {"simulator", Target::Simulator},
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

// Halide spells some features two ways, or names a group of them.
const Word feature_aliases[] = {{"hvx", Target::HVX_128}};
const Target::Feature trace_all[] = {Target::TraceLoads, Target::TraceStores,
                                     Target::TraceRealizations};

// Halide's processor tunings ("tune_<llvm cpu>"): kept, not used.
const char *const processor_words[] = {
    "tune_amdfam10", "tune_bdver1", "tune_bdver2",  "tune_bdver3", "tune_bdver4",
    "tune_btver1",   "tune_btver2", "tune_generic", "tune_k8",     "tune_k8_sse3",
    "tune_znver1",   "tune_znver2", "tune_znver3",  "tune_znver4", "tune_znver5"};

// "vector_bits_<n>": the number, or -1 for other words.
int parse_vector_bits(const std::string &w) {
    const std::string prefix = "vector_bits_";
    if (w.compare(0, prefix.size(), prefix) != 0 || w.size() == prefix.size()) return -1;
    int n = 0;
    for (size_t i = prefix.size(); i < w.size(); i++) {
        if (w[i] < '0' || w[i] > '9' || n > 1000000) return -1;
        n = n * 10 + (w[i] - '0');
    }
    return n;
}

// a < b comparing runs of digits by their value ("x9" < "x10").
bool natural_less(const std::string &a, const std::string &b) {
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        bool da = std::isdigit(static_cast<unsigned char>(a[i])) != 0;
        bool db = std::isdigit(static_cast<unsigned char>(b[j])) != 0;
        if (da && db) {
            size_t ei = i, ej = j;
            while (ei < a.size() && std::isdigit(static_cast<unsigned char>(a[ei]))) ei++;
            while (ej < b.size() && std::isdigit(static_cast<unsigned char>(b[ej]))) ej++;
            std::string na = a.substr(i, ei - i), nb = b.substr(j, ej - j);
            if (na.size() != nb.size()) return na.size() < nb.size();
            if (na != nb) return na < nb;
            i = ei;
            j = ej;
        } else {
            if (a[i] != b[j]) return a[i] < b[j];
            i++;
            j++;
        }
    }
    return a.size() - i < b.size() - j;
}

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
    for (const Word &w : feature_aliases) os << ", " << w.name;
    os << ", trace_all, tune_<cpu> (";
    for (const char *p : processor_words) os << (p == processor_words[0] ? "" : ", ") << p;
    os << "), vector_bits_<n>";
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
        } else if (lookup(arch_words, w, &value) || w == arch_unknown_word) {
            if (w == arch_unknown_word) value = Target::ArchUnknown;
            if (seen_arch) {
                *why = "the architecture is given twice (\"" + w + "\")";
                return false;
            }
            result.arch = Target::Arch(value);
            seen_arch = true;
        } else if (lookup(bits_words, w, &value) || w == "0") {
            if (w == "0") value = 0;
            if (seen_bits) {
                *why = "the bit width is given twice (\"" + w + "\")";
                return false;
            }
            result.bits = value;
            seen_bits = true;
        } else if (lookup(os_words, w, &value) || w == os_unknown_word || w == "unknown") {
            // "os_unknown" is how to_string() writes a target without an OS
            // (as Halide); "unknown" is what older Loom wrote.
            if (w == os_unknown_word || w == "unknown") value = Target::OSUnknown;
            if (seen_os) {
                *why = "the operating system is given twice (\"" + w + "\")";
                return false;
            }
            result.os = Target::OS(value);
            seen_os = true;
        } else if (lookup(feature_words, w, &value) || lookup(feature_aliases, w, &value)) {
            result = result.with_feature(Target::Feature(value));
        } else if (w == "trace_all") {
            for (Target::Feature f : trace_all) result = result.with_feature(f);
        } else if (std::find(std::begin(processor_words), std::end(processor_words), w) !=
                   std::end(processor_words)) {
            if (!result.processor_tune.empty() && result.processor_tune != "tune_generic") {
                *why = "the processor tuning is given twice (\"" + w + "\")";
                return false;
            }
            result.processor_tune = w == "tune_generic" ? std::string() : w;
        } else if (parse_vector_bits(w) >= 0) {
            result.vector_bits = parse_vector_bits(w);
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
    // As in Halide, bits 0 means "nothing known": only with arch_unknown,
    // os_unknown and no features (the string of Target()).
    if (result.bits == 0 &&
        (result.arch != Target::ArchUnknown || result.os != Target::OSUnknown ||
         !result.features.empty() || !result.processor_tune.empty() || result.vector_bits != 0)) {
        *why = "a bit width of 0 is only for \"arch_unknown-0-os_unknown\" with no features";
        return false;
    }
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
    std::string s = arch == ArchUnknown ? arch_unknown_word : name_of(arch_words, arch);
    s += "-" + std::to_string(bits);
    s += "-";
    s += os == OSUnknown ? os_unknown_word : name_of(os_words, os);
    if (!processor_tune.empty()) s += "-" + processor_tune;
    // Features in Halide's order: by name, numbers compared as numbers
    // (so cuda_capability_86 comes before cuda_capability_100).
    // All three trace features print as "trace_all", as in Halide.
    bool all_traces = std::all_of(std::begin(trace_all), std::end(trace_all),
                                  [&](Feature f) { return has_feature(f); });
    std::vector<std::string> names;
    if (all_traces) names.push_back("trace_all");
    for (Feature f : features) {
        bool is_trace =
            std::find(std::begin(trace_all), std::end(trace_all), f) != std::end(trace_all);
        if (!(all_traces && is_trace)) names.push_back(name_of(feature_words, f));
    }
    std::sort(names.begin(), names.end(), natural_less);
    for (const std::string &n : names) s += "-" + n;
    if (vector_bits) s += "-vector_bits_" + std::to_string(vector_bits);
    return s;
}

void Target::set_feature(Feature f, bool value) {
    *this = value ? with_feature(f) : without_feature(f);
}

void Target::set_features(const std::vector<Feature> &fs, bool value) {
    for (Feature f : fs) set_feature(f, value);
}

bool Target::features_any_of(const std::vector<Feature> &fs) const {
    return std::any_of(fs.begin(), fs.end(), [&](Feature f) { return has_feature(f); });
}

bool Target::features_all_of(const std::vector<Feature> &fs) const {
    return std::all_of(fs.begin(), fs.end(), [&](Feature f) { return has_feature(f); });
}

bool Target::feature_has_effect(Feature f) {
    // Halide's features that Loom accepts and keeps, without an effect
    // (large_buffers, among them in the enum, acts: 64-bit flat indices).
    if (f == X86APX) return false;
    if (f == LargeBuffers) return true;
    // The trace_* features act too (lower/InjectTracing.cpp).
    if (f == TraceLoads || f == TraceStores || f == TraceRealizations || f == TracePipeline)
        return true;
    return f < JIT || f > Simulator;
}

std::string Target::feature_to_name(Feature f) {
    return name_of(feature_words, f);
}

bool Target::feature_from_name(const std::string &name, Feature *f) {
    int value = 0;
    if (!lookup(feature_words, name, &value) && !lookup(feature_aliases, name, &value))
        return false;
    *f = Feature(value);
    return true;
}

bool Target::can_generate_code() const {
    return words_without_code_generation().empty();
}

std::vector<std::string> Target::words_without_code_generation() const {
    std::vector<std::string> words;
    if (arch != ArchUnknown &&
        std::find(std::begin(code_generating_arches), std::end(code_generating_arches), arch) ==
            std::end(code_generating_arches))
        words.push_back(name_of(arch_words, arch));
    if (std::find(std::begin(code_generating_oses), std::end(code_generating_oses), os) ==
        std::end(code_generating_oses))
        words.push_back(name_of(os_words, os));
    return words;
}

std::vector<std::string> Target::validate() const {
    std::vector<std::string> ignored = words_without_code_generation();
    if (!processor_tune.empty()) ignored.push_back(processor_tune);
    std::vector<Feature> sorted = features;
    std::sort(sorted.begin(), sorted.end());
    for (Feature f : sorted)
        if (!feature_has_effect(f)) ignored.push_back(feature_to_name(f));
    if (vector_bits) ignored.push_back("vector_bits_" + std::to_string(vector_bits));
    return ignored;
}

bool Target::supports_type(const Type &t) const {
    if (t.is_float() && t.bits == 64 && has_feature(OpenCL)) return has_feature(CLDoubles);
    return true;
}

int Target::natural_vector_size(const Type &t) const {
    int bytes = 16; // SSE, NEON and the C backend's default
    if (arch == X86) {
        // Halide's rule: AVX widens only floats (its integer instructions
        // are 16 bytes wide), as do AVX-512 F and KNL; AVX2 and the AVX-512
        // families from Skylake on widen integers too.
        bool integer = !t.is_float();
        bool avx512_int = features_any_of({AVX512_Skylake, AVX512_Cannonlake, AVX512_SapphireRapids,
                                           AVX512_Zen4, AVX512_Zen5, AVX10_1});
        bool avx512_float = avx512_int || features_any_of({AVX512, AVX512_KNL});
        if (integer ? avx512_int : avx512_float)
            bytes = 64;
        else if (has_feature(AVX2) || (!integer && has_feature(AVX)))
            bytes = 32;
    }
    return std::max(1, bytes / std::max(1, t.bytes()));
}

namespace Internal {

bool is_x86_isa_feature(Target::Feature f) {
    switch (f) {
    case Target::SSE41:
    case Target::AVX:
    case Target::AVX2:
    case Target::FMA:
    case Target::F16C:
    case Target::AVX512:
    case Target::AVX512_KNL:
    case Target::AVX512_Skylake:
    case Target::AVX512_Cannonlake:
    case Target::AVX512_SapphireRapids:
    case Target::AVX512_Zen4:
    case Target::AVX512_Zen5:
    case Target::AVXVNNI:
    case Target::AVX10_1:
    case Target::FMA4:
        return true;
    default:
        return false;
    }
}

std::vector<std::string> x86_isa_extensions(const Target &t) {
    std::vector<std::string> ext;
    auto add = [&](std::initializer_list<const char *> names) {
        for (const char *n : names)
            if (std::find(ext.begin(), ext.end(), n) == ext.end()) ext.push_back(n);
    };
    if (t.arch != Target::X86) return ext;
    // Each AVX-512 generation includes the ones before it (as in Halide).
    bool zen5 = t.has_feature(Target::AVX512_Zen5);
    bool zen4 = zen5 || t.has_feature(Target::AVX512_Zen4);
    bool sapphire = t.has_feature(Target::AVX512_SapphireRapids);
    bool cannon = zen4 || sapphire || t.has_feature(Target::AVX512_Cannonlake);
    // Loom's plain avx512 has always meant the Skylake set.
    bool skylake = cannon || t.features_any_of({Target::AVX512_Skylake, Target::AVX512});
    bool avx512 = skylake || t.has_feature(Target::AVX512_KNL);
    bool avx2 = avx512 || t.features_any_of({Target::AVX2, Target::AVX10_1});
    if (avx2 || t.features_any_of({Target::SSE41, Target::AVX, Target::AVXVNNI})) add({"sse4.1"});
    if (avx2 || t.features_any_of({Target::AVX, Target::AVXVNNI})) add({"avx"});
    if (avx2 || t.has_feature(Target::AVXVNNI)) add({"avx2"});
    if (avx512 || t.has_feature(Target::FMA)) add({"fma"});
    if (avx512 || t.has_feature(Target::F16C)) add({"f16c"});
    if (t.has_feature(Target::FMA4)) add({"fma4"});
    if (avx512) add({"avx512f", "avx512cd"});
    if (skylake) add({"avx512bw", "avx512dq", "avx512vl"});
    if (cannon) add({"avx512ifma", "avx512vbmi"});
    if (sapphire || zen4) add({"avx512vnni", "avx512bf16"});
    if (sapphire || t.has_feature(Target::AVXVNNI)) add({"avxvnni"});
    if (zen4) add({"avx512bitalg", "avx512vbmi2", "avx512vpopcntdq"});
    if (zen5) add({"avx512vp2intersect"});
    if (t.has_feature(Target::AVX10_1)) add({"avx10.1-512"});
    return ext;
}

void check_can_generate_code(const Target &t, const std::string &what) {
    std::vector<std::string> words = t.words_without_code_generation();
    if (words.empty()) return;
    std::ostringstream os;
    for (size_t i = 0; i < words.size(); i++) os << (i ? " and \"" : "\"") << words[i] << "\"";
    user_error(
        "Cannot compile " << what << " for target " << t.to_string()
                          << ": the target is accepted but Loom cannot generate code for it ("
                          << os.str() << (words.size() > 1 ? " have" : " has")
                          << " no code generator). Loom generates code for the "
                             "architectures x86, arm and riscv on linux, osx, windows, "
                             "noos or an unnamed OS.");
}

} // namespace Internal

std::ostream &operator<<(std::ostream &os, const Target &t) {
    return os << t.to_string();
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
    case Hexagon:
        cpu = "hexagon";
        break;
    case POWERPC:
        cpu = bits == 32 ? "powerpc" : "powerpc64le";
        break;
    case WebAssembly:
        cpu = bits == 32 ? "wasm32" : "wasm64";
        break;
    case MIPS:
        cpu = bits == 32 ? "mipsel" : "mips64el";
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
    case Android:
        return cpu + (arch == ARM && bits == 32 ? "-linux-androideabi" : "-linux-android");
    case IOS:
        return (arch == ARM && bits == 64 ? std::string("arm64") : cpu) + "-apple-ios";
    case QuRT:
        return cpu + "-unknown-unknown-elf";
    case Fuchsia:
        return cpu + "-unknown-fuchsia";
    case WebAssemblyRuntime:
        return cpu + "-unknown-unknown-wasm";
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
    if (processor_tune != o.processor_tune || vector_bits != o.vector_bits) return false;
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
#elif defined(__powerpc__) || defined(__powerpc64__)
    t.arch = Target::POWERPC;
#elif defined(__wasm__)
    t.arch = Target::WebAssembly;
#elif defined(__mips__)
    t.arch = Target::MIPS;
#endif
    return t;
}

namespace {

bool runs_on_host(const Target &t, const Target &host) {
    return t.arch == host.arch && t.bits == host.bits && t.os == host.os;
}

} // namespace

Target get_target_from_environment() {
    const char *s = std::getenv("LOOM_TARGET");
    return s && *s ? Target(std::string(s)) : get_host_target();
}

Target get_jit_target_from_environment() {
    Target host = get_host_target();
    const char *s = std::getenv("LOOM_JIT_TARGET");
    if (s && *s) {
        Target t{std::string(s)};
        if (!runs_on_host(t, host))
            user_error("LOOM_JIT_TARGET must name the host's architecture, bit width and OS: it "
                       "is \""
                       << s << "\" and the host is " << host.to_string()
                       << ". (Start it with \"host\", e.g. \"host-opencl\".)");
        return t;
    }
    Target t = get_target_from_environment();
    return runs_on_host(t, host) ? t : host;
}

} // namespace loom
