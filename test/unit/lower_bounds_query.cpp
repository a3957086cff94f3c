#include <catch2/catch.hpp>

#include <algorithm>

#include "codegen/c/CodeGen_C.h"
#include "jit/CSourceJIT.h"
#include "jit/JITModule.h"
#include "lower/Lower.h"
#include "lower_interpreter.h"
#include "lower_test_util.h"

// Bounds-query mode: a buffer argument without host memory asks for the
// region the pipeline needs; the no_bounds_query target feature leaves that
// code out. Checked through both back ends.

using namespace lower_test;

namespace {

using ArgvFunction = JITModule::ArgvFunction;

/** f(x, y) = in(x + 1, y) * 2 + in(x, y + 2), split by 4 (13 is not a multiple). */
LoweredFunc lower_stencil(const Target &target) {
    Parameter in(Int(32), true, 2, "in");
    Function f =
        make_func("f", {"x", "y"},
                  {Add::make(Mul::make(Call::make(in, {Add::make(ivar("x"), 1), ivar("y")}), 2),
                             Call::make(in, {ivar("x"), Add::make(ivar("y"), 2)}))});
    f.definition().schedule.splits = {split_of("x", 4, TailStrategy::GuardWithIf)};
    f.definition().schedule.dims = {Dim{"x.i", ForType::Serial, DeviceAPI::None, false},
                                    Dim{"x.o", ForType::Serial, DeviceAPI::None, false},
                                    Dim{"y", ForType::Serial, DeviceAPI::None, false}};
    return lower({f}, "stencil", target);
}

int call(ArgvFunction fn, loom_buffer_t *in, loom_buffer_t *out) {
    std::vector<void *> argv{nullptr, in, out};
    return fn(argv.data());
}

bool calls_bounds_query(const LoweredFunc &lf) {
    return !find_nodes<Call>(lf.body, [](const Call *c) {
                return c->name == "loom_bounds_query_set_dim";
            }).empty();
}

void check_query_then_run(ArgvFunction fn) {
    const int width = 13, height = 7;
    TestBuffer out({0, 0}, {width, height});
    for (auto &v : out.data) v = -1;

    // The query: no host memory, a shape to be filled in.
    std::vector<loom_dimension_t> query_dims(2, loom_dimension_t{0, 0, 0, 0});
    loom_buffer_t query{};
    query.type = loom_type_t{loom_type_int, 32, 1};
    query.dimensions = 2;
    query.dim = query_dims.data();
    REQUIRE(call(fn, &query, &out.raw) == 0);
    CHECK(query.host == nullptr);
    CHECK(query_dims[0].min == 0);
    CHECK(query_dims[0].extent == width + 1);
    CHECK(query_dims[0].stride == 1);
    CHECK(query_dims[1].min == 0);
    CHECK(query_dims[1].extent == height + 2);
    CHECK(query_dims[1].stride == width + 1);
    // Nothing was computed.
    CHECK(std::count(out.data.begin(), out.data.end(), -1) == width * height);

    // An input of exactly the answered shape is enough.
    TestBuffer in({query_dims[0].min, query_dims[1].min},
                  {query_dims[0].extent, query_dims[1].extent});
    for (int y = 0; y < height + 2; y++)
        for (int x = 0; x < width + 1; x++) in.at({x, y}) = x * 5 + y * 11;
    REQUIRE(call(fn, &in.raw, &out.raw) == 0);
    int wrong = 0;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
            wrong += out.at({x, y}) != in.at({x + 1, y}) * 2 + in.at({x, y + 2});
    CHECK(wrong == 0);
}

} // namespace

TEST_CASE("a buffer without host memory gets the region the pipeline needs", "[lower][jit]") {
    LoweredFunc lf = lower_stencil(get_host_target());
    CHECK(calls_bounds_query(lf));
    SECTION("LLVM back end") {
        JITModule m = JITModule::compile(lf, get_host_target());
        check_query_then_run(m.argv_function());
    }
    SECTION("C back end") {
        CSourceModule m = compile_c_source_module(lf, get_host_target());
        check_query_then_run(m.argv);
    }
}

TEST_CASE("bounds queries work without asserts", "[lower][jit]") {
    Target target = get_host_target().with_feature(Target::NoAsserts);
    LoweredFunc lf = lower_stencil(target);
    CHECK(calls_bounds_query(lf));
    JITModule m = JITModule::compile(lf, target);
    check_query_then_run(m.argv_function());
}

TEST_CASE("no_bounds_query leaves the bounds-query code out", "[lower][jit]") {
    Target target = get_host_target().with_feature(Target::NoBoundsQuery);
    LoweredFunc lf = lower_stencil(target);
    CHECK_FALSE(calls_bounds_query(lf));
    CHECK(codegen_c(lf, target).find("loom_bounds_query_set_dim") == std::string::npos);

    // Allocated buffers still compute, and the region checks still hold.
    JITModule m = JITModule::compile(lf, target);
    TestBuffer in({0, 0}, {14, 9}), out({0, 0}, {13, 7}), small({0, 0}, {13, 9});
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 14; x++) in.at({x, y}) = x - y;
    REQUIRE(call(m.argv_function(), &in.raw, &out.raw) == 0);
    CHECK(out.at({12, 6}) == in.at({13, 6}) * 2 + in.at({12, 8}));
    loom_error_handler_t old = loom_set_error_handler([](void *, const char *) {});
    CHECK(call(m.argv_function(), &small.raw, &out.raw) == loom_error_code_buffer_too_small);
    loom_set_error_handler(old);
}
