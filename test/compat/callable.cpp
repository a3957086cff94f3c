// Callable (compile_to_callable) as Halide code uses it: buffers and
// scalars passed per call, several threads calling one Callable at once,
// per-call handlers, and the errors of bad calls.

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "Loom.h"
#include "LoomBuffer.h"

namespace Halide = loom;
using namespace Halide;

using Catch::Matchers::Contains;

namespace {

struct Brighten {
    ImageParam input{UInt(8), 2, "input"};
    Param<uint8_t> offset{"offset"};
    Param<float> gain{"gain"};
    Var x{"x"}, y{"y"};
    Func out{"out"};
    Brighten() {
        out(x, y) = cast<uint8_t>(min(cast<float>(input(x, y) + offset) * gain, 255.0f));
        out.vectorize(x, 8).parallel(y);
    }
    static uint8_t reference(uint8_t in, uint8_t offset, float gain) {
        float v = float(uint8_t(in + offset)) * gain;
        return uint8_t(v < 255.0f ? v : 255.0f);
    }
};

struct MessageContext : JITUserContext {
    std::vector<std::string> errors, prints;
};

void collect_error(JITUserContext *ctx, const char *message) {
    static_cast<MessageContext *>(ctx)->errors.push_back(message);
}

void collect_print(JITUserContext *ctx, const char *message) {
    static_cast<MessageContext *>(ctx)->prints.push_back(message);
}

} // namespace

TEST_CASE("Callable takes buffers and scalars per call", "[compat][callable]") {
    Brighten b;
    Callable c = b.out.compile_to_callable({b.input, b.offset, b.gain});
    REQUIRE(c.defined());
    REQUIRE(c.arguments().size() == 4);
    CHECK(c.arguments()[3].name == "out");
    CHECK(c.arguments()[3].is_output());

    Buffer<uint8_t> in(37, 5), out(37, 5);
    in.fill([](int x, int y) { return uint8_t(x * 5 + y * 11); });
    b.offset.set(200); // a Callable never reads the Params' own values
    REQUIRE(c(in, uint8_t(3), 1.5f, out) == 0);
    out.for_each_element(
        [&](int x, int y) { REQUIRE(out(x, y) == Brighten::reference(in(x, y), 3, 1.5f)); });

    // Runtime buffers and raw loom_buffer_t * work as well.
    Runtime::Buffer<uint8_t> rin(16, 2), rout(16, 2);
    rin.fill(100);
    REQUIRE(c(rin.raw_buffer(), uint8_t(1), 2.0f, rout) == 0);
    CHECK(rout.all_equal(202));

    // As a std::function.
    auto fn = c.make_std_function<Buffer<uint8_t>, uint8_t, float, Buffer<uint8_t>>();
    REQUIRE(fn(in, uint8_t(0), 0.5f, out) == 0);
    CHECK(out(4, 2) == Brighten::reference(in(4, 2), 0, 0.5f));
}

TEST_CASE("one Callable called from four threads at once", "[compat][callable]") {
    Brighten b;
    Callable c = b.out.compile_to_callable({b.input, b.offset, b.gain});
    const int threads = 4, rounds = 25, w = 53, h = 9;
    std::atomic<int> failures{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; t++) {
        pool.emplace_back([&, t] {
            Buffer<uint8_t> in(w, h), out(w, h);
            for (int r = 0; r < rounds; r++) {
                in.fill([&](int x, int y) { return uint8_t(x + y * t + r); });
                uint8_t offset = uint8_t(t * 10 + r);
                float gain = 0.5f + float(t);
                if (c(in, offset, gain, out) != 0) failures++;
                out.for_each_element([&](int x, int y) {
                    if (out(x, y) != Brighten::reference(in(x, y), offset, gain)) failures++;
                });
            }
        });
    }
    for (auto &th : pool) th.join();
    CHECK(failures == 0);
}

TEST_CASE("Callable with Tuple outputs and a concrete Buffer", "[compat][callable]") {
    Buffer<int> table(8);
    table.fill([](int i) { return i * i; });
    Param<int> k("k");
    Var x("x");
    Func f("f");
    f(x) = Tuple(table(x % 8) + k, x * k);
    Callable c = f.compile_to_callable({k});
    Buffer<int> a(12), b(12);
    REQUIRE(c(5, a, b) == 0);
    for (int i = 0; i < 12; i++) {
        REQUIRE(a(i) == (i % 8) * (i % 8) + 5);
        REQUIRE(b(i) == i * 5);
    }
}

TEST_CASE("Callable errors: bad calls throw unless a custom error handler is set",
          "[compat][callable][error]") {
    Brighten b;
    Callable c = b.out.compile_to_callable({b.input, b.offset, b.gain});
    Buffer<uint8_t> in(8, 8), out(8, 8), small(4, 8);

    CHECK_THROWS_WITH(c(in, 3, 1.0f, out), Contains("Argument 1 (offset)") &&
                                               Contains("scalar of type uint8") &&
                                               Contains("gave a scalar of type int32"));
    CHECK_THROWS_WITH(c(in, uint8_t(3), 1.0f), Contains("takes 4 arguments (input, offset, "
                                                        "gain, out) but was called with 3"));
    CHECK_THROWS_WITH(c(uint8_t(1), uint8_t(3), 1.0f, out),
                      Contains("Argument 0 (input)") && Contains("2-dimensional buffer of uint8"));
    CHECK_THROWS_AS(c(small, uint8_t(3), 1.0f, out), RuntimeError);
    CHECK_THROWS_WITH(c(small, uint8_t(3), 1.0f, out), Contains("Input buffer input"));

    MessageContext ctx;
    ctx.handlers.custom_error = collect_error;
    int r = c(&ctx, small, uint8_t(3), 1.0f, out);
    CHECK(r < 0);
    REQUIRE(ctx.errors.size() == 1);
    CHECK_THAT(ctx.errors[0], Contains("Input buffer input"));
    CHECK(c(&ctx, in, 3, 1.0f, out) < 0);
    CHECK(ctx.errors.size() == 2);

    CHECK_THROWS_WITH(Callable()(in), Contains("default-constructed Callable"));
    CHECK_THROWS_WITH(b.out.compile_to_callable({b.input, b.offset}),
                      Contains("reads Param gain, which is not in the argument list"));
    CHECK_THROWS_WITH(b.out.compile_to_callable({b.input, b.input, b.offset, b.gain}),
                      Contains("the argument input is listed twice"));
}

TEST_CASE("Callable uses the call's print handler", "[compat][callable]") {
    Param<int> p("p");
    Var x("x");
    Func f("f");
    f(x) = print(x + p, "<- value");
    Callable c = f.compile_to_callable({p});
    MessageContext ctx;
    ctx.handlers.custom_print = collect_print;
    Buffer<int> out(3);
    REQUIRE(c(&ctx, 10, out) == 0);
    REQUIRE(ctx.prints.size() == 3);
    CHECK_THAT(ctx.prints[0], Contains("10") && Contains("<- value"));
    CHECK_THAT(ctx.prints[2], Contains("12"));
}
