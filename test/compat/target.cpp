// Target strings with every Halide feature name: what Loom acts on, what it
// keeps without an effect (Target::validate(), the generator driver's note),
// and the LOOM_TARGET / LOOM_JIT_TARGET environment (Halide's HL_TARGET /
// HL_JIT_TARGET).

#include "Loom.h"
namespace Halide = loom;

#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "common/ScopedEnv.h"
#include "common/ScratchFile.h"

using namespace Halide;
using Catch::Matchers::Contains;

namespace {

// Halide's feature names (Halide 14 and later), CUDA capabilities aside.
const char *const halide_features[] = {"jit",
                                       "debug",
                                       "enable_backtraces",
                                       "no_asserts",
                                       "no_bounds_query",
                                       "sse41",
                                       "avx",
                                       "avx2",
                                       "avxvnni",
                                       "fma",
                                       "fma4",
                                       "f16c",
                                       "armv7s",
                                       "no_neon",
                                       "vsx",
                                       "power_arch_2_07",
                                       "cuda",
                                       "opencl",
                                       "cl_doubles",
                                       "cl_half",
                                       "cl_atomics64",
                                       "egl",
                                       "user_context",
                                       "matlab",
                                       "profile",
                                       "no_runtime",
                                       "metal",
                                       "openglcompute",
                                       "c_plus_plus_name_mangling",
                                       "large_buffers",
                                       "hvx",
                                       "hvx_128",
                                       "hvx_v62",
                                       "hvx_v65",
                                       "hvx_v66",
                                       "hvx_v68",
                                       "fuzz_float_stores",
                                       "soft_float_abi",
                                       "msan",
                                       "avx512",
                                       "avx512_knl",
                                       "avx512_skylake",
                                       "avx512_cannonlake",
                                       "avx512_sapphirerapids",
                                       "avx512_zen4",
                                       "avx512_zen5",
                                       "trace_loads",
                                       "trace_stores",
                                       "trace_realizations",
                                       "trace_pipeline",
                                       "d3d12compute",
                                       "hlsl_sm60",
                                       "hlsl_sm61",
                                       "hlsl_sm62",
                                       "hlsl_sm63",
                                       "hlsl_sm64",
                                       "hlsl_sm65",
                                       "hlsl_sm66",
                                       "hlsl_sm67",
                                       "hlsl_sm68",
                                       "hlsl_sm69",
                                       "strict_float",
                                       "tsan",
                                       "asan",
                                       "check_unsafe_promises",
                                       "hexagon_dma",
                                       "embed_bitcode",
                                       "enable_llvm_loop_opt",
                                       "disable_llvm_loop_opt",
                                       "wasm_simd128",
                                       "wasm_mvponly",
                                       "wasm_signext",
                                       "wasm_sat_float_to_int",
                                       "wasm_threads",
                                       "wasm_bulk_memory",
                                       "webgpu",
                                       "sve",
                                       "sve2",
                                       "sme2",
                                       "sme_svl128",
                                       "sme_svl256",
                                       "sme_svl512",
                                       "sme_svl1024",
                                       "sme_svl2048",
                                       "arm_dot_prod",
                                       "arm_fp16",
                                       "llvm_large_code_model",
                                       "rvv",
                                       "armv8a",
                                       "armv81a",
                                       "armv82a",
                                       "armv83a",
                                       "armv84a",
                                       "armv85a",
                                       "armv86a",
                                       "armv87a",
                                       "armv88a",
                                       "armv89a",
                                       "sanitizer_coverage",
                                       "profile_by_timer",
                                       "spirv",
                                       "vulkan",
                                       "vk_int8",
                                       "vk_int16",
                                       "vk_int64",
                                       "vk_float16",
                                       "vk_float64",
                                       "vk_v10",
                                       "vk_v12",
                                       "vk_v13",
                                       "semihosting",
                                       "avx10_1",
                                       "x86apx",
                                       "simulator"};

// The ones Loom acts on.
const char *const acting_features[] = {"debug",
                                       "no_asserts",
                                       "no_bounds_query",
                                       "sse41",
                                       "avx",
                                       "avx2",
                                       "avxvnni",
                                       "fma",
                                       "fma4",
                                       "f16c",
                                       "cuda",
                                       "opencl",
                                       "cl_doubles",
                                       "cl_half",
                                       "cl_atomics64",
                                       "avx512",
                                       "avx512_knl",
                                       "avx512_skylake",
                                       "avx512_cannonlake",
                                       "avx512_sapphirerapids",
                                       "avx512_zen4",
                                       "avx512_zen5",
                                       "strict_float",
                                       "large_buffers",
                                       "avx10_1",
                                       "trace_loads",
                                       "trace_stores",
                                       "trace_realizations",
                                       "trace_pipeline"};

bool acts(const std::string &name) {
    return std::find(std::begin(acting_features), std::end(acting_features), name) !=
           std::end(acting_features);
}

} // namespace

TEST_CASE("compat target: every Halide feature name parses and round-trips", "[compat][target]") {
    for (const char *name : halide_features) {
        std::string s = std::string("x86-64-linux-") + name;
        INFO(s);
        REQUIRE(Target::validate_target_string(s));
        Target t(s);
        Target::Feature f;
        REQUIRE(Target::feature_from_name(name, &f));
        CHECK(t.has_feature(f));
        CHECK(Target(t.to_string()) == t);
        CHECK(Target::feature_has_effect(f) == acts(name));
        std::vector<std::string> ignored = t.validate();
        if (acts(name)) {
            CHECK(ignored.empty());
        } else {
            REQUIRE(ignored.size() == 1);
            CHECK(ignored[0] == Target::feature_to_name(f));
        }
    }
    // Every name at once, too.
    std::string all = "x86-64-linux";
    for (const char *name : halide_features) all += std::string("-") + name;
    Target t(all);
    CHECK(Target(t.to_string()) == t);
}

TEST_CASE("compat target: Halide's other target words are kept", "[compat][target]") {
    Target t("x86-64-linux-tune_znver4-trace_all-vector_bits_512");
    CHECK(t.processor_tune == "tune_znver4");
    CHECK(t.vector_bits == 512);
    CHECK(t.features_all_of({Target::TraceLoads, Target::TraceStores, Target::TraceRealizations}));
    CHECK(Target(t.to_string()) == t);
    CHECK_THAT(t.to_string(), Contains("tune_znver4") && Contains("vector_bits_512"));
    std::vector<std::string> ignored = t.validate();
    // trace_all acts (test/compat/tracing.cpp).
    CHECK(ignored == std::vector<std::string>{"tune_znver4", "vector_bits_512"});
    CHECK(Target("x86-64-linux-hvx") == Target("x86-64-linux-hvx_128"));
    CHECK(Target("x86-64-linux-tune_generic") == Target("x86-64-linux"));

    Target s("x86-64-linux");
    s.set_feature(Target::Profile);
    s.set_features({Target::AVX, Target::AVX2});
    CHECK(s.features_any_of({Target::SSE41, Target::AVX2}));
    s.set_feature(Target::AVX2, false);
    CHECK_FALSE(s.has_feature(Target::AVX2));
    CHECK(s.natural_vector_size<float>() == 8);
    CHECK(Target("x86-64-linux-avx512_sapphirerapids").natural_vector_size(UInt(8)) == 64);
    CHECK(Target("x86-64-linux-sse41").natural_vector_size<int16_t>() == 8);
    CHECK(Target("x86-64-linux-opencl").supports_type(Float(64)) == false);
    CHECK(Target("x86-64-linux-opencl-cl_doubles").supports_type(Float(64)));
}

TEST_CASE("compat target: unknown words are errors that list the valid ones", "[compat][target]") {
    CHECK_FALSE(Target::validate_target_string("x86-64-linux-avx9"));
    CHECK_FALSE(Target::validate_target_string("x86-64-linux-tune_pentium"));
    CHECK_FALSE(Target::validate_target_string("x86-64-linux-vector_bits_"));
    CHECK_THROWS_WITH(Target("x86-64-linux-avx9"),
                      Contains("\"avx9\"") && Contains("trace_loads") && Contains("hvx_v68") &&
                          Contains("tune_znver4") && Contains("vector_bits_<n>"));
}

TEST_CASE("compat target: the x86 extensions select instructions", "[compat][target]") {
    Var x("x");
    Func f("f");
    f(x) = x * 2;
    auto features_of = [&](const char *target) {
        loom_test::ScratchFile ll("compat_target", std::string(target) + ".ll");
        f.compile_to_llvm_assembly(ll.path, {}, Target(target));
        return loom_test::read_text(ll.path);
    };
    CHECK_THAT(features_of("x86-64-linux-avx512_sapphirerapids"),
               Contains("+avx512bf16") && Contains("+avx512vnni") && Contains("+avx512bw"));
    CHECK_THAT(features_of("x86-64-linux-avx512_zen4"), Contains("+avx512vpopcntdq"));
    CHECK_THAT(features_of("x86-64-linux-avx512_cannonlake"), Contains("+avx512vbmi"));
    CHECK_THAT(features_of("x86-64-linux-avxvnni"), Contains("+avxvnni"));
    CHECK_THAT(features_of("x86-64-linux-fma4"), Contains("+fma4"));
    // Features without an effect change nothing in the code (only the target
    // string recorded in the metadata differs).
    auto body = [](const std::string &ll) {
        size_t start = ll.find("define i32 @f_with_context");
        return start == std::string::npos ? std::string()
                                          : ll.substr(start, ll.find("\n}\n", start) - start);
    };
    std::string plain = body(features_of("x86-64-linux-avx2"));
    std::string profiled = body(features_of("x86-64-linux-avx2-profile-matlab"));
    CHECK_FALSE(plain.empty());
    CHECK(plain == profiled);
}

TEST_CASE("compat target: LOOM_TARGET and LOOM_JIT_TARGET act as HL_TARGET and HL_JIT_TARGET",
          "[compat][target]") {
    Target host = get_host_target();
    {
        loom_test::ScopedEnv target("LOOM_TARGET", "arm-64-linux-sve2");
        loom_test::ScopedEnv jit("LOOM_JIT_TARGET", nullptr);
        CHECK(get_target_from_environment() == Target("arm-64-linux-sve2"));
        CHECK(get_jit_target_from_environment() == host); // not the host's architecture
    }
    {
        loom_test::ScopedEnv target("LOOM_TARGET", nullptr);
        loom_test::ScopedEnv jit("LOOM_JIT_TARGET", "host-no_asserts-profile");
        Target t = get_jit_target_from_environment();
        CHECK(t.has_feature(Target::NoAsserts));
        CHECK(t.has_feature(Target::Profile));
        CHECK(get_target_from_environment() == host);
        // JIT code runs under it.
        Var x;
        Func f;
        f(x) = x + 1;
        Buffer<int> out = f.realize({3});
        CHECK(out(2) == 3);
    }
    {
        std::string other = host.arch == Target::ARM ? "x86-64-linux" : "arm-64-linux";
        loom_test::ScopedEnv jit("LOOM_JIT_TARGET", other.c_str());
        CHECK_THROWS_WITH(get_jit_target_from_environment(), Contains("LOOM_JIT_TARGET") &&
                                                                 Contains(other) &&
                                                                 Contains("host's architecture"));
    }
    {
        loom_test::ScopedEnv jit("LOOM_JIT_TARGET", "host-avx9");
        CHECK_THROWS_WITH(get_jit_target_from_environment(), Contains("\"avx9\""));
    }
}

namespace {

class Doubler : public Generator<Doubler> {
public:
    Input<Buffer<int, 1>> input{"input"};
    Output<Buffer<int, 1>> output{"output"};
    void generate() {
        Var x;
        output(x) = input(x) * 2;
    }
};

} // namespace

LOOM_REGISTER_GENERATOR(Doubler, compat_doubler)

TEST_CASE("compat target: the generator driver names the words that have no effect",
          "[compat][target]") {
    loom_test::ScratchFile dir("compat_target", "generated");
    auto run = [&](const std::string &target, std::string *err_text) {
        std::string t = "target=" + target;
        std::vector<std::string> args = {"gen", "-g", "compat_doubler", "-o", dir.path, "-e",
                                         "h",   t};
        std::vector<char *> argv;
        for (std::string &a : args) argv.push_back(a.data());
        std::ostringstream out, err;
        int rc = Internal::generate_filter_main(int(argv.size()), argv.data(), out, err);
        *err_text = err.str();
        return rc;
    };
    std::string err;
    CHECK(run("x86-64-linux-avx2-trace_loads-hvx-profile", &err) == 0);
    CHECK_THAT(err, Contains("accepted but has no effect in Loom") && Contains("hvx_128") &&
                        Contains("profile"));
    // trace_loads acts (test/compat/tracing.cpp): only the target names it.
    CHECK_THAT(err.substr(err.find("in Loom:")), !Contains("trace_loads"));
    CHECK_THAT(err, !Contains("avx2,") && !Contains(": avx2"));
    CHECK(run("x86-64-linux-avx2", &err) == 0);
    CHECK(err.empty());
    // An architecture or OS without a code generator: named, then refused.
    CHECK(run("hexagon-32-qurt-hvx_128", &err) != 0);
    CHECK_THAT(err, Contains("accepted but Loom cannot generate code for it: hexagon, qurt") &&
                        Contains("accepted but has no effect in Loom: hvx_128") &&
                        Contains("Cannot compile pipeline"));
    std::filesystem::remove_all(dir.path);
}

TEST_CASE("compat target: Halide's other architectures and systems parse and round-trip",
          "[compat][target]") {
    struct Case {
        const char *text;
        Target::Arch arch;
        int bits;
        Target::OS os;
        std::vector<std::string> no_code;
    };
    const Case cases[] = {
        {"arm-64-android", Target::ARM, 64, Target::Android, {"android"}},
        {"arm-32-android", Target::ARM, 32, Target::Android, {"android"}},
        {"arm-64-ios", Target::ARM, 64, Target::IOS, {"ios"}},
        {"hexagon-32-qurt-hvx_128", Target::Hexagon, 32, Target::QuRT, {"hexagon", "qurt"}},
        {"hexagon-32-noos", Target::Hexagon, 32, Target::NoOS, {"hexagon"}},
        {"x86-64-fuchsia", Target::X86, 64, Target::Fuchsia, {"fuchsia"}},
        {"arm-64-fuchsia", Target::ARM, 64, Target::Fuchsia, {"fuchsia"}},
        {"wasm-32-wasmrt-wasm_simd128",
         Target::WebAssembly,
         32,
         Target::WebAssemblyRuntime,
         {"wasm", "wasmrt"}},
        {"powerpc-64-linux-vsx", Target::POWERPC, 64, Target::Linux, {"powerpc"}},
        {"mips-32-linux", Target::MIPS, 32, Target::Linux, {"mips"}},
        {"riscv-64-linux-rvv", Target::RISCV, 64, Target::Linux, {}},
    };
    for (const Case &c : cases) {
        INFO(c.text);
        REQUIRE(Target::validate_target_string(c.text));
        Target t(c.text);
        CHECK(t.arch == c.arch);
        CHECK(t.bits == c.bits);
        CHECK(t.os == c.os);
        CHECK(t.to_string() == c.text);
        CHECK(Target(t.to_string()) == t);
        CHECK(t.words_without_code_generation() == c.no_code);
        CHECK(t.can_generate_code() == c.no_code.empty());
        // validate() names them first, then the features without effect.
        std::vector<std::string> ignored = t.validate();
        REQUIRE(ignored.size() >= c.no_code.size());
        CHECK(std::vector<std::string>(ignored.begin(), ignored.begin() + c.no_code.size()) ==
              c.no_code);
    }
    CHECK(Target("hexagon-32-qurt-hvx_128").validate() ==
          std::vector<std::string>{"hexagon", "qurt", "hvx_128"});
    CHECK(Target("arm-64-android").llvm_triple() == "aarch64-linux-android");
    CHECK(Target("wasm-32-wasmrt").llvm_triple() == "wasm32-unknown-unknown-wasm");
    CHECK(Target("x86-64-linux").can_generate_code());
    CHECK_FALSE(Target::validate_target_string("x86-64-linux-android"));
    CHECK_THROWS_WITH(Target("sparc-64-linux"), Contains("\"sparc\"") && Contains("hexagon") &&
                                                    Contains("powerpc") && Contains("wasmrt") &&
                                                    Contains("fuchsia"));
}

TEST_CASE("compat target: compiling for an architecture or OS Loom has no code generator for "
          "is an error naming the target",
          "[compat][target]") {
    Var x("x");
    Func f("no_codegen_f");
    f(x) = x * 2;
    loom_test::ScratchFile obj("compat_target", "no_codegen.o");
    const char *targets[] = {"hexagon-32-qurt",  "arm-64-android", "wasm-32-wasmrt",
                             "powerpc-64-linux", "arm-64-ios",     "x86-64-fuchsia",
                             "mips-64-linux"};
    for (const char *s : targets) {
        INFO(s);
        Target t(s);
        std::string word = t.words_without_code_generation()[0];
        CHECK_THROWS_WITH(
            f.compile_to_object(obj.path, {}, "no_codegen_f", t),
            Contains("Cannot compile pipeline no_codegen_f for target " + t.to_string()) &&
                Contains("\"" + word + "\"") &&
                Contains("accepted but Loom cannot generate code for it") &&
                Contains("x86, arm and riscv"));
        CHECK_THROWS_AS(f.compile_to_c(obj.path, {}, "no_codegen_f", t), CompileError);
        CHECK_THROWS_AS(f.compile_to_assembly(obj.path, {}, "no_codegen_f", t), CompileError);
        CHECK_THROWS_AS(f.compile_to_lowered_stmt(obj.path, {}, StmtOutputFormat::Text, t),
                        CompileError);
        CHECK_THROWS_AS(f.realize({4}, t), CompileError);
    }
}
