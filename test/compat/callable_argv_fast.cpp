// Callable::call_argv_fast as Halide code uses it (only the namespace alias
// changed): a prepared argv (the JITUserContext **, scalars by pointer,
// buffers as raw buffer pointers), reused across calls; a wrong count is an
// error naming what the call takes. Results are compared with plain C++.

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "Loom.h"

namespace Halide = loom;
using namespace Halide;

using Catch::Matchers::Contains;

namespace {

struct Scale {
    ImageParam input{Int(16), 2, "input"};
    Param<int16_t> offset{"offset"};
    Param<float> gain{"gain"};
    Var x{"x"}, y{"y"};
    Func out{"out"};
    Scale() {
        out(x, y) = cast<int32_t>(cast<float>(input(x, y) + offset) * gain);
        out.vectorize(x, 8).parallel(y);
    }
    static int32_t reference(int16_t in, int16_t offset, float gain) {
        return int32_t(float(int16_t(in + offset)) * gain);
    }
};

struct ErrorContext : JITUserContext {
    std::vector<std::string> errors;
};

void collect_error(JITUserContext *ctx, const char *message) {
    static_cast<ErrorContext *>(ctx)->errors.push_back(message);
}

} // namespace

TEST_CASE("call_argv_fast runs a Callable from a prepared argv", "[compat][callable]") {
    Scale s;
    Callable c = s.out.compile_to_callable({s.input, s.offset, s.gain});
    Buffer<int16_t> in(37, 11);
    in.for_each_element([&](int x, int y) { in(x, y) = int16_t(x * 13 - y * 101); });
    Buffer<int32_t> out(37, 11);

    JITUserContext *no_context = nullptr;
    int16_t offset = 7;
    float gain = 1.5f;
    const void *argv[] = {&no_context, in.raw_buffer(), &offset, &gain, out.raw_buffer()};
    for (int round = 0; round < 3; round++) {
        offset = int16_t(7 + round * 100);
        gain = 1.5f - 0.75f * float(round);
        REQUIRE(c.call_argv_fast(5, argv) == 0);
        for (int y = 0; y < 11; y++)
            for (int x = 0; x < 37; x++)
                REQUIRE(out(x, y) == Scale::reference(in(x, y), offset, gain));
    }

    // The same Callable through operator() agrees.
    Buffer<int32_t> out2(37, 11);
    REQUIRE(c(in, offset, gain, out2) == 0);
    for (int y = 0; y < 11; y++)
        for (int x = 0; x < 37; x++) REQUIRE(out2(x, y) == out(x, y));
}

TEST_CASE("call_argv_fast reports errors through the handlers", "[compat][callable][error]") {
    Scale s;
    Callable c = s.out.compile_to_callable({s.input, s.offset, s.gain});
    Buffer<int16_t> in(8, 4);
    Buffer<int32_t> out(16, 4); // wider than the input: the pipeline's check fails
    int16_t offset = 1;
    float gain = 2.0f;
    JITUserContext *no_context = nullptr;

    const void *too_few[] = {&no_context, in.raw_buffer(), &offset};
    CHECK_THROWS_WITH(c.call_argv_fast(3, too_few),
                      Contains("call_argv_fast of the Callable of out takes 5 argv entries") &&
                          Contains("input, offset, gain, out") && Contains("given 3"));

    const void *argv[] = {&no_context, in.raw_buffer(), &offset, &gain, out.raw_buffer()};
    CHECK_THROWS_WITH(c.call_argv_fast(5, argv), Contains("input"));

    // With a custom error handler in the context: the error code comes back.
    ErrorContext ctx;
    ctx.handlers.custom_error = collect_error;
    JITUserContext *context = &ctx;
    argv[0] = &context;
    int result = c.call_argv_fast(5, argv);
    CHECK(result < 0);
    REQUIRE(ctx.errors.size() == 1);
    CHECK_THAT(ctx.errors[0], Contains("input"));
    CHECK(c.call_argv_fast(4, argv) < 0);
    CHECK(ctx.errors.size() == 2);

    Callable empty;
    const void *just_context[] = {&no_context};
    CHECK_THROWS_WITH(empty.call_argv_fast(1, just_context),
                      Contains("default-constructed Callable"));
    // Its handler, when the argv names one.
    CHECK(empty.call_argv_fast(1, argv) < 0);
    CHECK_THAT(ctx.errors.back(), Contains("default-constructed Callable"));
}
