// Ahead-of-time outputs: object files (host and cross-compiled), assembly
// that follows the target's features, static libraries, headers, and that
// only the entry points are exported.

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>

#include "Loom.h"
#include "aot_test_util.h"

using namespace loom;
using Catch::Contains;

namespace {

using aot_test::read_file;
using aot_test::TempDir;

// e_machine of an ELF64 little-endian object (0 if the bytes are no such ELF).
int elf_machine(const std::string &bytes) {
    if (bytes.size() < 64 || bytes.compare(0, 4,
                                           "\x7f"
                                           "ELF") != 0)
        return 0;
    if (bytes[4] != 2 || bytes[5] != 1) return 0; // ELFCLASS64, little endian
    return int(uint8_t(bytes[18])) | (int(uint8_t(bytes[19])) << 8);
}

int elf_type(const std::string &bytes) {
    return int(uint8_t(bytes[16])) | (int(uint8_t(bytes[17])) << 8);
}

const int EM_X86_64_ = 62, EM_AARCH64_ = 183, ET_REL_ = 1;

// Global symbols the file defines, according to nm.
std::set<std::string> defined_globals(const std::string &file) {
    std::set<std::string> names;
    std::string command = "nm -g --defined-only '" + file + "' 2>/dev/null";
    FILE *p = popen(command.c_str(), "r");
    if (!p) return names;
    char line[512];
    while (std::fgets(line, sizeof(line), p)) {
        std::istringstream is(line);
        std::string address, kind, name;
        if (is >> address >> kind >> name) names.insert(name);
    }
    pclose(p);
    return names;
}

// in(x) * k + 1 over floats, vectorized 16 wide and parallel: wide enough for
// zmm registers under AVX-512 and split into ymm under AVX2.
struct Scale {
    ImageParam input{Float(32), 2, "input"};
    Param<float> k{"k"};
    Var x{"x"}, y{"y"};
    Func f{"scale"};
    Scale() {
        f(x, y) = input(x, y) * k + 1.0f;
        f.vectorize(x, 16).parallel(y);
    }
};

} // namespace

TEST_CASE("aot: compile_to_object writes a relocatable ELF exporting only the entry points",
          "[aot]") {
    TempDir dir("object");
    Scale p;
    std::string obj = dir.file("scale.o");
    p.f.compile_to_object(obj, {p.input, p.k}, "", Target("x86-64-linux-avx2"));
    std::string bytes = read_file(obj);
    REQUIRE(elf_machine(bytes) == EM_X86_64_);
    REQUIRE(elf_type(bytes) == ET_REL_);
    REQUIRE(defined_globals(obj) ==
            std::set<std::string>{"scale", "scale_argv", "scale_metadata", "scale_with_context"});
}

TEST_CASE("aot: arm-64-linux cross-compiles an AArch64 object", "[aot]") {
    TempDir dir("arm");
    Scale p;
    std::string obj = dir.file("scale_arm.o");
    p.f.compile_to_object(obj, {p.input, p.k}, "scale_arm", Target("arm-64-linux"));
    std::string bytes = read_file(obj);
    REQUIRE(elf_machine(bytes) == EM_AARCH64_);
    REQUIRE(defined_globals(obj).count("scale_arm") == 1);
    // Assembly for the same target uses NEON registers.
    std::string s = dir.file("scale_arm.s");
    p.f.compile_to_assembly(s, {p.input, p.k}, "scale_arm", Target("arm-64-linux"));
    std::string text = read_file(s);
    REQUIRE_THAT(text, Contains("scale_arm_argv"));
    REQUIRE_THAT(text, Contains(".4s"));
}

TEST_CASE("aot: target features drive the instructions in the assembly", "[aot]") {
    TempDir dir("features");
    Scale p;
    auto assembly = [&](const std::string &target) {
        std::string file = dir.file(target + ".s");
        p.f.compile_to_assembly(file, {p.input, p.k}, "", Target(target));
        return read_file(file);
    };
    std::string sse = assembly("x86-64-linux-sse41");
    std::string avx2 = assembly("x86-64-linux-avx-avx2-fma");
    std::string avx512 = assembly("x86-64-linux-avx-avx2-fma-avx512_skylake");
    INFO("the generated assembly follows the target's vector ISA");
    CHECK_THAT(sse, Contains("xmm"));
    CHECK_THAT(sse, !Contains("ymm"));
    CHECK_THAT(avx2, Contains("ymm"));
    CHECK_THAT(avx2, !Contains("zmm"));
    CHECK_THAT(avx512, Contains("zmm"));
    // debug keeps frame pointers.
    CHECK_THAT(assembly("x86-64-linux-debug"), Contains("movq\t%rsp, %rbp"));
    CHECK_THAT(assembly("x86-64-linux"), !Contains("movq\t%rsp, %rbp"));
}

TEST_CASE("aot: compile_to_static_library writes an archive and a header", "[aot]") {
    TempDir dir("library");
    Scale p;
    std::string prefix = dir.file("libscale");
    p.f.compile_to_static_library(prefix, {p.k, p.input}, "scale_lib", get_host_target());
    std::string archive = read_file(prefix + ".a");
    REQUIRE(archive.compare(0, 8, "!<arch>\n") == 0);
    REQUIRE_THAT(archive, Contains("scale_lib.o"));
    REQUIRE(defined_globals(prefix + ".a") == std::set<std::string>{"scale_lib", "scale_lib_argv",
                                                                    "scale_lib_metadata",
                                                                    "scale_lib_with_context"});
    std::string header = read_file(prefix + ".h");
    CHECK_THAT(header, Contains("#ifndef LOOM_GENERATED_SCALE_LIB_H"));
    CHECK_THAT(header, Contains("#include \"LoomRuntime.h\""));
    CHECK_THAT(header, Contains("extern \"C\" {"));
    // Arguments in the order given, then the output, each with a comment.
    CHECK_THAT(header, Contains("int scale_lib(\n"
                                "    float k, /* scalar input k: float32 */\n"
                                "    loom_buffer_t *input, /* input buffer input: float32, 2 "
                                "dimensions */\n"
                                "    loom_buffer_t *scale /* output buffer scale: float32, 2 "
                                "dimensions */);"));
    CHECK_THAT(header, Contains("int scale_lib_argv(void **argv);"));
    CHECK_THAT(header, Contains("const loom_pipeline_metadata_t *scale_lib_metadata(void);"));
    CHECK_THAT(header, Contains("int scale_lib_with_context(\n    void *user_context,"));
}

TEST_CASE("aot: compile_to_file writes an object and a header, Pipeline names the entry point "
          "after its first output",
          "[aot]") {
    TempDir dir("file");
    ImageParam in(UInt(8), 1, "in");
    Var x("x");
    Func a("first_out"), b("second_out");
    a(x) = in(x) + 1;
    b(x) = in(x)*2;
    Pipeline p({a, b});
    p.compile_to_file(dir.file("two"), {in}, "", Target("x86-64-linux"));
    REQUIRE(elf_machine(read_file(dir.file("two.o"))) == EM_X86_64_);
    REQUIRE(defined_globals(dir.file("two.o")).count("first_out_argv") == 1);
    std::string header = read_file(dir.file("two.h"));
    CHECK_THAT(header, Contains("loom_buffer_t *first_out, /* output buffer first_out"));
    CHECK_THAT(header, Contains("loom_buffer_t *second_out /* output buffer second_out"));
    p.compile_to_header(dir.file("only.h"), {in}, "renamed", Target("x86-64-linux"));
    CHECK_THAT(read_file(dir.file("only.h")), Contains("int renamed("));
}

TEST_CASE("aot: header types of scalar arguments", "[aot]") {
    TempDir dir("types");
    Param<bool> flag("flag");
    Param<int16_t> small("small");
    Param<uint64_t> big("big");
    Param<double> d("d");
    Var x("x");
    Func f("typed");
    f(x) = select(flag, cast<double>(small) + cast<double>(big), d) + x;
    f.compile_to_header(dir.file("typed.h"), {flag, small, big, d}, "", Target("x86-64-linux"));
    std::string header = read_file(dir.file("typed.h"));
    CHECK_THAT(header, Contains("bool flag,"));
    CHECK_THAT(header, Contains("int16_t small,"));
    CHECK_THAT(header, Contains("uint64_t big,"));
    CHECK_THAT(header, Contains("double d,"));
    CHECK_THAT(header, Contains("#include <stdbool.h>"));
}

TEST_CASE("aot: target strings name the AOT features and reject unknown words", "[aot]") {
    for (const char *s :
         {"host", "x86-64-linux", "x86-64-linux-sse41", "x86-64-linux-avx",
          "x86-64-linux-avx2-fma-f16c", "x86-64-linux-avx512", "x86-64-linux-avx512_skylake",
          "arm-64-linux", "host-no_asserts", "host-no_bounds_query", "host-debug"})
        CHECK(Target::validate_target_string(s));
    try {
        Target t("x86-64-linux-avx3");
        FAIL("no error for an unknown target word");
    } catch (const CompileError &e) {
        std::string msg = e.what();
        CHECK_THAT(msg, Contains("\"avx3\""));
        for (const char *word :
             {"host", "x86", "arm", "64", "linux", "sse41", "avx2", "fma", "f16c", "avx512_skylake",
              "no_asserts", "no_bounds_query", "debug"})
            CHECK_THAT(msg, Contains(word));
    }
}

TEST_CASE("aot: no_asserts leaves out the buffer checks", "[aot]") {
    TempDir dir("noasserts");
    Scale p;
    std::string with = dir.file("with.o"), without = dir.file("without.o");
    p.f.compile_to_object(with, {p.input, p.k}, "", Target("x86-64-linux-avx2"));
    p.f.compile_to_object(without, {p.input, p.k}, "", Target("x86-64-linux-avx2-no_asserts"));
    std::string a = read_file(with), b = read_file(without);
    CHECK_THAT(a, Contains("loom_error_bad_type"));
    CHECK(b.size() < a.size());
    CHECK_THAT(b, !Contains("loom_error_bad_type"));
}

TEST_CASE("aot: compile_to_c writes C source with the same entry points", "[aot]") {
    TempDir dir("csource");
    ImageParam in(UInt(8), 2, "in");
    Param<float> k("k");
    Var x("x"), y("y");
    Func f("cfun");
    f(x, y) = cast<uint8_t>(in(x, y) * k);
    f.compile_to_c(dir.file("cfun.c"), {in, k}, "", Target("x86-64-linux"));
    std::string c = read_file(dir.file("cfun.c"));
    CHECK_THAT(c, Contains("int cfun_argv(void **argv)"));
    CHECK_THAT(c, Contains("cfun_metadata"));
}

TEST_CASE("aot: LLVM triples of the AOT targets", "[aot]") {
    CHECK(Target("x86-64-linux-avx2").llvm_triple() == "x86_64-unknown-linux-gnu");
    CHECK(Target("arm-64-linux").llvm_triple() == "aarch64-unknown-linux-gnu");
    CHECK(Target("arm-32-linux").llvm_triple() == "armv7-unknown-linux-gnueabihf");
    CHECK(Target("arm-64-osx").llvm_triple() == "arm64-apple-macosx");
    CHECK(Target("x86-64-osx").llvm_triple() == "x86_64-apple-macosx");
    CHECK(Target("x86-64-windows").llvm_triple() == "x86_64-pc-windows-msvc");
}
