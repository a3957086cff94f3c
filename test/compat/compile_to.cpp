// Halide's other compile_to_* forms: compile_to_bitcode, compile_to (a map
// of outputs), compile_to_conceptual_stmt and the multitarget library and
// object files, whose wrapper picks a variant by the CPU it runs on.

#include "Loom.h"
#include "common/ScratchFile.h"
namespace Halide = loom;

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#ifndef LOOM_TEST_LINK_FLAGS // the runtime's link flags (test/CMakeLists.txt)
#define LOOM_TEST_LINK_FLAGS ""
#endif

using namespace Halide;
using Catch::Matchers::Contains;

namespace {

// A fresh directory per test case, removed afterwards.
struct ScratchDir : loom_test::ScratchDir {
    explicit ScratchDir(const std::string &tag)
        : loom_test::ScratchDir("compat_compile_to_" + tag) {}
};
using loom_test::read_bytes;

bool starts_with(const std::string &s, const std::string &prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}

const std::string elf_magic("\x7f"
                            "ELF",
                            4);
const std::string bitcode_magic("BC\xc0\xde", 4);

// out(x, y) = in(x, y) * scale + y, vectorized.
struct Scale {
    ImageParam in{Int(32), 2, "in"};
    Param<int> scale{"scale"};
    Var x{"x"}, y{"y"};
    Func out{"scaled"};
    Scale() {
        out(x, y) = in(x, y) * scale + y;
        out.vectorize(x, 8);
    }
};

bool on_x86_64_linux() {
    Target host = get_host_target();
    return host.arch == Target::X86 && host.bits == 64 && host.os == Target::Linux;
}

} // namespace

TEST_CASE("compat compile_to: compile_to_bitcode writes LLVM bitcode", "[compat][compile_to]") {
    ScratchDir dir("bitcode");
    Scale p;
    p.out.compile_to_bitcode(dir.file("scaled.bc"), {p.in, p.scale}, "scaled_bc",
                             Target("x86-64-linux-avx2"));
    std::string bc = read_bytes(dir.file("scaled.bc"));
    REQUIRE(starts_with(bc, bitcode_magic));
    CHECK(bc.find("scaled_bc_argv") != std::string::npos);
    // The same through Pipeline, for another architecture.
    Pipeline(p.out).compile_to_bitcode(dir.file("arm.bc"), {p.in, p.scale}, Target("arm-64-linux"));
    CHECK(starts_with(read_bytes(dir.file("arm.bc")), bitcode_magic));
    CHECK(read_bytes(dir.file("arm.bc")).find("aarch64") != std::string::npos);
    // llvm-dis reads it back when LLVM's tools are installed.
    const char *llvm_dis = "/usr/lib/llvm-19/bin/llvm-dis";
    if (std::filesystem::exists(llvm_dis)) {
        std::string ll = dir.file("scaled.ll");
        std::string cmd =
            std::string(llvm_dis) + " '" + dir.file("scaled.bc") + "' -o '" + ll + "'";
        REQUIRE(std::system(cmd.c_str()) == 0);
        CHECK_THAT(read_bytes(ll), Contains("define") && Contains("@scaled_bc("));
    }
}

TEST_CASE("compat compile_to: compile_to writes every output of a map", "[compat][compile_to]") {
    ScratchDir dir("map");
    Scale p;
    std::map<OutputFileType, std::string> outputs = {
        {OutputFileType::object, dir.file("s.o")},
        {OutputFileType::assembly, dir.file("s.s")},
        {OutputFileType::bitcode, dir.file("s.bc")},
        {OutputFileType::llvm_assembly, dir.file("s.ll")},
        {OutputFileType::c_header, dir.file("s.h")},
        {OutputFileType::c_source, dir.file("s.c")},
        {OutputFileType::static_library, dir.file("s.a")},
        {OutputFileType::stmt, dir.file("s.stmt")},
        {OutputFileType::stmt_html, dir.file("s.html")},
        {OutputFileType::conceptual_stmt, dir.file("s.cstmt")},
        {OutputFileType::conceptual_stmt_html, dir.file("s.chtml")},
    };
    Target t("x86-64-linux-sse41");
    p.out.compile_to(outputs, {p.in, p.scale}, "scaled_all", t);
    CHECK(starts_with(read_bytes(dir.file("s.o")), elf_magic));
    CHECK_THAT(read_bytes(dir.file("s.s")), Contains("scaled_all:"));
    CHECK(starts_with(read_bytes(dir.file("s.bc")), bitcode_magic));
    CHECK_THAT(read_bytes(dir.file("s.ll")),
               Contains("define") && Contains("@scaled_all(") && Contains("x86_64"));
    CHECK_THAT(read_bytes(dir.file("s.h")), Contains("int scaled_all(") && Contains("scale"));
    CHECK_THAT(read_bytes(dir.file("s.c")), Contains("scaled_all("));
    CHECK(starts_with(read_bytes(dir.file("s.a")), "!<arch>\n"));
    CHECK_THAT(read_bytes(dir.file("s.stmt")), Contains("scaled"));
    CHECK_THAT(read_bytes(dir.file("s.html")), Contains("<html") || Contains("<HTML"));
    CHECK_THAT(read_bytes(dir.file("s.cstmt")), Contains("scaled"));
    CHECK_THAT(read_bytes(dir.file("s.chtml")), Contains("<html") || Contains("<HTML"));

    // Halide's outputs Loom does not write are refused before anything is written.
    std::map<OutputFileType, std::string> stub = {{OutputFileType::object, dir.file("t.o")},
                                                  {OutputFileType::cpp_stub, dir.file("t.stub.h")}};
    CHECK_THROWS_WITH(p.out.compile_to(stub, {p.in, p.scale}, "scaled_all", t),
                      Contains("cannot write the cpp_stub output") && Contains("t.stub.h") &&
                          Contains("llvm_assembly"));
    CHECK_FALSE(std::filesystem::exists(dir.file("t.o")));
}

TEST_CASE("compat compile_to: the conceptual statement keeps GPU loops in place",
          "[compat][compile_to]") {
    ScratchDir dir("conceptual");
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func g("conceptual_g");
    g(x, y) = x + y * 3;
    g.gpu_tile(x, y, xo, yo, xi, yi, 8, 8);
    Target t = get_host_target().with_feature(Target::OpenCL);
    g.compile_to_conceptual_stmt(dir.file("c.stmt"), {}, StmtOutputFormat::Text, t);
    g.compile_to_lowered_stmt(dir.file("l.stmt"), {}, StmtOutputFormat::Text, t);
    std::string conceptual = read_bytes(dir.file("c.stmt"));
    std::string lowered = read_bytes(dir.file("l.stmt"));
    INFO(conceptual);
    CHECK_THAT(conceptual,
               Contains("func conceptual_g(") && Contains("gpu_block") && Contains("gpu_thread"));
    // The lowered statement launches outlined kernels instead.
    CHECK(conceptual != lowered);
    CHECK_THAT(lowered, Contains("kernel"));
}

TEST_CASE("compat compile_to: multitarget object files and static library link and run",
          "[compat][compile_to]") {
    if (!on_x86_64_linux()) {
        WARN("multitarget check needs an x86-64 Linux host");
        return;
    }
    // The extension lists the wrapper checks agree with the compiler's.
    __builtin_cpu_init();
    CHECK(loom_can_use_cpu_features("") == 1);
    CHECK(loom_can_use_cpu_features("avx2") == (__builtin_cpu_supports("avx2") ? 1 : 0));
    CHECK(loom_can_use_cpu_features("sse4.1,avx") ==
          (__builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("avx") ? 1 : 0));
    CHECK(loom_can_use_cpu_features("avx512f,avx512bw") ==
          (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") ? 1 : 0));
    CHECK(loom_can_use_cpu_features("sse4.1,no_such_extension") == 0);

    ScratchDir dir("multitarget");
    Scale p;
    // Each variant adds its own tag, so the client sees which one ran.
    p.out = Func("scaled");
    p.out(p.x, p.y) = p.in(p.x, p.y) * p.scale + p.y +
                      select(target_has_feature(Target::AVX512_Skylake), 1000,
                             target_has_feature(Target::AVX2), 100, 0);
    p.out.vectorize(p.x, 8);
    auto cpu = [](std::initializer_list<const char *> names) {
        for (const char *n : names)
            if (!loom_can_use_cpu_features(n)) return false;
        return true;
    };
    int expected_tag = cpu({"sse4.1", "avx", "avx2", "fma", "f16c", "avx512f", "avx512cd",
                            "avx512bw", "avx512dq", "avx512vl"})
                           ? 1000
                       : cpu({"sse4.1", "avx", "avx2", "fma"}) ? 100
                                                               : 0;
    // Most specialized first; the last is the fallback every x86-64 CPU runs.
    std::vector<Target> targets = {Target("x86-64-linux-avx512_skylake"),
                                   Target("x86-64-linux-sse41-avx-avx2-fma"),
                                   Target("x86-64-linux")};
    std::vector<std::string> suffixes = {"skx", "avx2", "base"};
    std::string prefix = dir.file("mt");
    p.out.compile_to_multitarget_object_files(prefix, {p.in, p.scale}, targets, suffixes);
    for (const std::string &s : suffixes) {
        std::string obj = read_bytes(prefix + "-" + s + ".o");
        CHECK(starts_with(obj, elf_magic));
        CHECK(obj.find("scaled_" + s + "_argv") != std::string::npos);
    }
    std::string wrapper = read_bytes(prefix + "_wrapper.o");
    REQUIRE(starts_with(wrapper, elf_magic));
    for (const std::string &s : suffixes)
        CHECK(wrapper.find("scaled_" + s + "_with_context") != std::string::npos);
    CHECK(wrapper.find("loom_can_use_cpu_features") != std::string::npos);
    CHECK_THAT(read_bytes(prefix + ".h"), Contains("int scaled("));

    Pipeline(p.out).compile_to_multitarget_static_library(dir.file("mtlib"), {p.in, p.scale},
                                                          targets);
    CHECK(starts_with(read_bytes(dir.file("mtlib.a")), "!<arch>\n"));

    std::ofstream(dir.file("client.cpp")) << R"(
#include <cstdio>
#include "LoomBuffer.h"
#include HEADER

int main() {
    const int w = 37, h = 5;
    loom::Runtime::Buffer<int32_t> in(w, h), out(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) in(x, y) = x * 7 - y;
    for (int call = 0; call < 3; call++) {
        if (scaled(in.raw_buffer(), 3 + call, out.raw_buffer()) != 0) return 2;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                if (out(x, y) != in(x, y) * (3 + call) + y + TAG) {
                    std::printf("wrong at %d %d: %d\n", x, y, out(x, y));
                    return 1;
                }
    }
    const loom_pipeline_metadata_t *md = scaled_metadata();
    std::printf("%s %s\n", md->name, md->target);
    return 0;
}
)";
    auto build_and_run = [&](const std::string &inputs, const std::string &header,
                             std::string *log) {
        std::string exe = dir.file("client_" + std::to_string(std::hash<std::string>()(inputs)));
        std::string out = dir.file("client.log");
        std::string cmd = std::string("'") + LOOM_TEST_CXX + "' -std=c++17 -O1 -o '" + exe + "' '" +
                          dir.file("client.cpp") + "' -DHEADER='\"" + header +
                          "\"' -DTAG=" + std::to_string(expected_tag) + " -I'" +
                          LOOM_TEST_INCLUDE_DIR + "' " + inputs + " '" + LOOM_TEST_RUNTIME_LIB +
                          "' " + LOOM_TEST_LINK_FLAGS + " -lpthread -ldl > '" + out +
                          "' 2>&1 && '" + exe + "' > '" + out + "' 2>&1";
        int rc = std::system(cmd.c_str());
        *log = cmd + "\n" + read_bytes(out);
        return rc;
    };
    std::string objects = "'" + prefix + "_wrapper.o'";
    for (const std::string &s : suffixes) objects += " '" + prefix + "-" + s + ".o'";
    {
        std::string log;
        int rc = build_and_run(objects, prefix + ".h", &log);
        INFO(log);
        CHECK(rc == 0);
        CHECK_THAT(log, Contains("scaled x86-64-linux"));
    }
    {
        std::string log;
        int rc = build_and_run("'" + dir.file("mtlib.a") + "'", dir.file("mtlib.h"), &log);
        INFO(log);
        CHECK(rc == 0);
        CHECK_THAT(log, Contains("scaled x86-64-linux"));
    }
}

TEST_CASE("compat compile_to: multitarget errors name what is wrong", "[compat][compile_to]") {
    ScratchDir dir("multitarget_errors");
    Scale p;
    std::string prefix = dir.file("bad");
    CHECK_THROWS_WITH(
        p.out.compile_to_multitarget_object_files(
            prefix, {p.in, p.scale}, {Target("arm-64-linux"), Target("x86-64-linux")}, {}),
        Contains("same architecture, bit width and OS") && Contains("arm-64-linux") &&
            Contains("x86-64-linux"));
    CHECK_THROWS_WITH(p.out.compile_to_multitarget_object_files(
                          prefix, {p.in, p.scale},
                          {Target("x86-64-linux-avx2"), Target("x86-64-linux")}, {"one"}),
                      Contains("1 suffixes for 2 targets"));
    CHECK_THROWS_WITH(p.out.compile_to_multitarget_static_library(prefix, {p.in, p.scale}, {}),
                      Contains("at least one target"));
    CHECK_THROWS_WITH(p.out.compile_to_multitarget_object_files(
                          prefix, {p.in, p.scale},
                          {Target("x86-64-linux-avx2"), Target("x86-64-linux")}, {"a-b", "a_b"}),
                      Contains("\"a_b\"") && Contains("each target needs its own"));
    CHECK_THROWS_WITH(p.out.compile_to_multitarget_static_library(
                          prefix, {p.in, p.scale},
                          {Target("hexagon-32-qurt"), Target("hexagon-32-qurt-hvx_128")}),
                      Contains("Loom cannot generate code for it"));
}
