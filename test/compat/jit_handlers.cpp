// JIT hooks and targets as Halide code uses them: jit_handlers(), the
// set_custom_print/set_error_handler shorthands, a JITUserContext per
// realize, realize with a Target, and compile_jit's cache.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "Loom.h"
#include "frontend/JITStats.h"

namespace Halide = loom;
using namespace Halide;

using Catch::Matchers::Contains;

namespace {

std::vector<std::string> pipeline_prints, pipeline_errors;

void to_pipeline_prints(JITUserContext *, const char *message) {
    pipeline_prints.push_back(message);
}

void to_pipeline_errors(JITUserContext *, const char *message) {
    pipeline_errors.push_back(message);
}

struct CountingContext : JITUserContext {
    int prints = 0;
};

void count_print(JITUserContext *ctx, const char *) {
    static_cast<CountingContext *>(ctx)->prints++;
}

} // namespace

TEST_CASE("jit_handlers: custom print for every call, overridden per call", "[compat][jit]") {
    Var x("x");
    Func f("f");
    f(x) = print(x * 2, "twice");
    pipeline_prints.clear();
    f.jit_handlers().custom_print = to_pipeline_prints;
    Buffer<int> out = f.realize({4});
    REQUIRE(pipeline_prints.size() == 4);
    CHECK_THAT(pipeline_prints[3], Contains("6") && Contains("twice"));
    for (int i = 0; i < 4; i++) CHECK(out(i) == 2 * i);

    CountingContext ctx;
    ctx.handlers.custom_print = count_print;
    f.realize(&ctx, {5});
    CHECK(ctx.prints == 5);
    CHECK(pipeline_prints.size() == 4); // the call's handler took them

    f.set_custom_print(nullptr); // back to stderr
    CHECK(f.jit_handlers().custom_print == nullptr);
}

TEST_CASE("set_error_handler: realize reports through it and returns", "[compat][jit][error]") {
    ImageParam in(Int(32), 1, "in");
    Var x("x");
    Func f("f");
    f(x) = in(x + 1);
    Buffer<int> small(4);
    in.set(small);
    CHECK_THROWS_WITH(f.realize({8}), Contains("Input buffer in is accessed at 1 to 8"));

    pipeline_errors.clear();
    f.set_error_handler(to_pipeline_errors);
    CHECK_NOTHROW(f.realize({8}));
    REQUIRE(pipeline_errors.size() == 1);
    CHECK_THAT(pipeline_errors[0], Contains("Input buffer in is accessed at 1 to 8"));

    // Pipeline has the same hooks.
    Pipeline p(f);
    pipeline_errors.clear();
    p.set_error_handler(to_pipeline_errors);
    p.realize({8});
    CHECK(pipeline_errors.size() == 1);
}

TEST_CASE("realize with a Target", "[compat][jit]") {
    Var x("x");
    Func f("f");
    f(x) = x * x;
    Buffer<int> a = f.realize({5}, Target()); // Halide's "the JIT target"
    CHECK(a(4) == 16);
    Buffer<int> b = f.realize({5}, get_host_target());
    CHECK(b(3) == 9);
    Buffer<int> c = f.realize({5}, get_host_target().with_feature(Target::NoAsserts));
    CHECK(c(2) == 4);
    Pipeline p(f);
    Buffer<int> d(6);
    p.realize(Realization(d), get_jit_target_from_environment());
    CHECK(d(5) == 25);

    Target foreign = get_host_target();
    foreign.arch = foreign.arch == Target::ARM ? Target::X86 : Target::ARM;
    CHECK_THROWS_WITH(f.realize({5}, foreign), Contains("cannot be JIT-compiled for target") &&
                                                   Contains("compile_to_static_library"));
}

TEST_CASE("compile_jit compiles once per target and definition", "[compat][jit]") {
    Var x("x");
    Func f("f");
    f(x) = x + 1;
    uint64_t before = Internal::pipeline_jit_compilations();
    f.compile_jit();
    f.compile_jit();
    f.realize({4});
    CHECK(Internal::pipeline_jit_compilations() == before + 1);
    f.compile_jit(get_jit_target_from_environment().with_feature(Target::NoAsserts));
    CHECK(Internal::pipeline_jit_compilations() == before + 2);
    f.vectorize(x, 4); // a new schedule
    f.realize({8});
    CHECK(Internal::pipeline_jit_compilations() == before + 3);

    Pipeline p(f);
    p.compile_jit();
    p.invalidate_cache();
    p.compile_jit();
    CHECK(Internal::pipeline_jit_compilations() == before + 5);
}
