#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include "jit/CSourceJIT.h"
#include "lower/Lower.h"
#include "lower_interpreter.h"
#include "lower_test_util.h"

#include "common/ScopedEnv.h"

// The C-source JIT compiles against the LoomRuntime.h built into libloom, so
// it needs no include folder; $LOOM_INCLUDE_DIR overrides that copy.

using namespace lower_test;

namespace {

using loom_test::ScopedEnv;

LoweredFunc plus_one() {
    Parameter in(Int(32), true, 1, "in");
    Function f = make_func("f", {"x"}, {Add::make(Call::make(in, {ivar("x")}), 1)});
    return lower({f}, "plus_one", get_host_target());
}

} // namespace

TEST_CASE("the C JIT needs no include folder for LoomRuntime.h", "[codegen_c][jit]") {
    LoweredFunc lf = plus_one();
    ScopedEnv no_override("LOOM_INCLUDE_DIR", nullptr);
    CSourceModule m = compile_c_source_module(lf, get_host_target());
    TestBuffer in({0}, {5}), out({0}, {5});
    for (int x = 0; x < 5; x++) in.at({x}) = x * x;
    std::vector<void *> argv{nullptr, &in.raw, &out.raw};
    REQUIRE(m.argv(argv.data()) == 0);
    for (int x = 0; x < 5; x++) CHECK(out.at({x}) == x * x + 1);
}

TEST_CASE("LOOM_INCLUDE_DIR overrides the built-in LoomRuntime.h", "[codegen_c][jit]") {
    LoweredFunc lf = plus_one();
    {
        ScopedEnv bogus("LOOM_INCLUDE_DIR", "/nonexistent/loom/include");
        CHECK_THROWS_WITH(compile_c_source_module(lf, get_host_target()),
                          Catch::Contains("LoomRuntime.h"));
    }
    ScopedEnv source_tree("LOOM_INCLUDE_DIR", LOOM_TEST_INCLUDE_DIR);
    CHECK(compile_c_source_module(lf, get_host_target()).argv != nullptr);
}
