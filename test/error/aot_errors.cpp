// Bad requests to the ahead-of-time outputs raise CompileErrors that say
// what is wrong: the function name, the target, the file.

#include <catch2/catch.hpp>

#include "Loom.h"

using namespace loom;
using Catch::Contains;

namespace {
struct Simple {
    ImageParam in{UInt(8), 1, "in"};
    Var x{"x"};
    Func f{"simple"};
    Simple() { f(x) = in(x) + 1; }
};
} // namespace

TEST_CASE("aot: a function name that is not a C identifier", "[error][aot]") {
    Simple p;
    CHECK_THROWS_WITH(p.f.compile_to_object("/tmp/never_written.o", {p.in}, "my-pipeline",
                                            Target("x86-64-linux")),
                      Contains("\"my-pipeline\" is not a C identifier"));
    CHECK_THROWS_AS(
        p.f.compile_to_header("/tmp/never_written.h", {p.in}, "2fast", Target("x86-64-linux")),
        CompileError);
    CHECK_THROWS_WITH(
        p.f.compile_to_static_library("/tmp/never_written", {p.in}, "int", Target("x86-64-linux")),
        Contains("compile_to_static_library"));
}

TEST_CASE("aot: a GPU kernel may not read a Buffer embedded in the library", "[error][aot][gpu]") {
    // A concrete Buffer becomes read-only data in the object; kernels need
    // device memory recorded in the buffer, so it must be an input instead.
    Buffer<float> table(16);
    table.fill(1.0f);
    ImageParam in(Float(32), 1, "in");
    Var x("x"), xo("xo"), xi("xi");
    Func lookup("lookup");
    lookup(x) = table(x % 16) * in(x);
    lookup.gpu_tile(x, xo, xi, 8);
    Target t("x86-64-linux-opencl");
    CHECK_THROWS_WITH(lookup.compile_to_static_library("/tmp/never_written", {in}, "", t),
                      Contains("compile_to_static_library: GPU kernel") &&
                          Contains("of Func lookup reads Buffer " + table.name()) &&
                          Contains("make it an input"));
    // The header needs no device code, and host code may read the Buffer.
    CHECK_NOTHROW(lookup.compile_to_header("/tmp/gpu_embedded_table.h", {in}, "", t));
    Func on_cpu("on_cpu"), scaled("scaled");
    on_cpu(x) = table(x % 16) * in(x);
    scaled(x) = on_cpu(x) * 2.0f;
    on_cpu.compute_root();
    scaled.gpu_tile(x, xo, xi, 8);
    CHECK_NOTHROW(scaled.compile_to_object("/tmp/gpu_embedded_table.o", {in}, "", t));
}

TEST_CASE("aot: an output file that cannot be written", "[error][aot]") {
    Simple p;
    CHECK_THROWS_WITH(
        p.f.compile_to_object("/nonexistent_dir/simple.o", {p.in}, "", Target("x86-64-linux")),
        Contains("Cannot open /nonexistent_dir/simple.o"));
    CHECK_THROWS_WITH(p.f.compile_to_static_library("/nonexistent_dir/simple", {p.in}, "",
                                                    Target("x86-64-linux")),
                      Contains("/nonexistent_dir/simple.a"));
}

TEST_CASE("aot: compiling a Func without a definition", "[error][aot]") {
    Func undefined("never_defined");
    CHECK_THROWS_WITH(
        undefined.compile_to_assembly("/tmp/never_written.s", {}, "", Target("x86-64-linux")),
        Contains("never_defined"));
}

TEST_CASE("aot: unknown target words list the valid ones", "[error][aot]") {
    CHECK_THROWS_WITH(Target("arm-64-linux-neon2"),
                      Contains("unknown word \"neon2\"") && Contains("Valid words:") &&
                          Contains("avx512_skylake") && Contains("no_bounds_query"));
}
