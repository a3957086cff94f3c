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

TEST_CASE("aot: GPU targets are not supported ahead of time", "[error][aot]") {
    Simple p;
    CHECK_THROWS_WITH(
        p.f.compile_to_object("/tmp/never_written.o", {p.in}, "", Target("host-cuda")),
        Contains("CPU targets only"));
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
