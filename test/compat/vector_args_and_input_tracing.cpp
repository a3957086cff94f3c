// Halide API pieces generic code uses: ImageParam and Buffer read with a
// std::vector of Vars or Exprs, ImageParam::trace_loads and
// Pipeline::trace_pipeline. Results are compared with plain C++ loops and
// trace events with the sequence the same loops predict.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "common/ScratchFile.h"
#include "compat/CompatCommon.h"

using namespace Halide;
using Catch::Matchers::Contains;

namespace {

struct Event {
    int event;
    std::string func;
    std::vector<int> coordinates;
    int value; // loads of int32 buffers only
    int id, parent_id;
};

struct TraceContext : JITUserContext {
    std::vector<Event> events;
};

/** Records each event; ids start at 100 so they differ from indices. */
int32_t record(JITUserContext *ctx, const loom_trace_event_t *e) {
    auto *c = static_cast<TraceContext *>(ctx);
    Event r{e->event, e->func, {}, 0, 100 + int(c->events.size()), e->parent_id};
    for (int i = 0; i < e->dimensions; i++) r.coordinates.push_back(e->coordinates[i]);
    if (e->event == loom_trace_load && e->type.code == loom_type_int && e->type.bits == 32)
        r.value = *static_cast<const int32_t *>(e->value);
    c->events.push_back(r);
    return r.id;
}

std::string describe(const Event &e) {
    std::string s = std::to_string(e.event) + " " + e.func + "(";
    for (size_t i = 0; i < e.coordinates.size(); i++)
        s += (i ? ", " : "") + std::to_string(e.coordinates[i]);
    return s + ") = " + std::to_string(e.value);
}

Buffer<int> numbered(int w, int h, int scale) {
    Buffer<int> b(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) b(x, y) = scale * (x + 10 * y) + 3;
    return b;
}

} // namespace

TEST_CASE("ImageParam and Buffer read with a vector of Vars or Exprs", "[compat][vector_args]") {
    compat::for_each_backend([&](bool) {
        Var x("x"), y("y");
        ImageParam im(Int(32), 2, "im");
        Buffer<int> image = numbered(6, 4, 1), constant = numbered(6, 4, 7);
        im.set(image);
        std::vector<Var> vars{x, y};
        std::vector<Expr> shifted{x + 1, y};

        Func f("f");
        f(vars) = im(vars) + 2 * constant(vars) + 3 * im(shifted) + 5 * constant(shifted);
        Buffer<int> out = f.realize({5, 4});
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 5; i++)
                CHECK(out(i, j) == image(i, j) + 2 * constant(i, j) + 3 * image(i + 1, j) +
                                       5 * constant(i + 1, j));

        // `_` stands for the remaining dimensions, as in the variadic forms.
        Func g("g");
        g(_) = im(std::vector<Var>{_}) - constant(std::vector<Var>{_}) +
               im(std::vector<Expr>{Expr(_)}) * constant(std::vector<Expr>{Expr(_)});
        Buffer<int> out_g = g.realize({6, 4});
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 6; i++)
                CHECK(out_g(i, j) == image(i, j) - constant(i, j) + image(i, j) * constant(i, j));
    });
}

TEST_CASE("ImageParam and Buffer reject a vector of the wrong length", "[compat][vector_args]") {
    Var x("x"), y("y"), z("z");
    ImageParam im(Int(32), 2, "im");
    Buffer<int> constant(3, 3, "constant");
    CHECK_THROWS_WITH(im(std::vector<Var>{x}),
                      Contains("ImageParam im is accessed with 1 argument but has 2 dimensions"));
    CHECK_THROWS_WITH(constant(std::vector<Var>{x, y, z}),
                      Contains("Buffer constant is accessed with 3 arguments but has 2"));
    CHECK_THROWS_WITH(constant(std::vector<Expr>{x}),
                      Contains("Buffer constant is accessed with 1 argument but has 2"));
    CHECK_THROWS_AS(im(std::vector<Expr>{x, Expr(0.5f)}), CompileError);
}

TEST_CASE("ImageParam::trace_loads traces the loads of that input only", "[compat][tracing]") {
    Var x("x");
    ImageParam traced(Int(32), 1, "traced"), untraced(Int(32), 1, "untraced");
    Buffer<int> a(std::vector<int>{4}), b(std::vector<int>{4});
    for (int i = 0; i < 4; i++) {
        a(i) = 10 * i + 1;
        b(i) = 100 * i;
    }
    traced.set(a);
    untraced.set(b);
    Func f("f");
    f(x) = traced(x) + 2 * untraced(x);

    // Compiled before trace_loads: no events.
    TraceContext before;
    before.handlers.custom_trace = record;
    Buffer<int> out = f.realize(&before, {3});
    CHECK(before.events.empty());

    // trace_loads afterwards compiles again, with the loads traced.
    ImageParam &same = traced.trace_loads();
    CHECK(&same == &traced);
    TraceContext ctx;
    ctx.handlers.custom_trace = record;
    out = f.realize(&ctx, {3});
    for (int i = 0; i < 3; i++) CHECK(out(i) == a(i) + 2 * b(i));
    // begin_pipeline, the input's func_type_and_dim tag, three loads.
    REQUIRE(ctx.events.size() == 6);
    CHECK(ctx.events.front().event == loom_trace_begin_pipeline);
    CHECK(ctx.events[1].event == loom_trace_tag);
    CHECK(ctx.events[1].func == "traced");
    CHECK(ctx.events.back().event == loom_trace_end_pipeline);
    for (int i = 0; i < 3; i++) {
        const Event &e = ctx.events[size_t(i) + 2];
        Event expected{loom_trace_load, "traced", {i}, a(i), 0, 0};
        CHECK(describe(e) == describe(expected));
        CHECK(e.parent_id == ctx.events.front().id);
    }
}

TEST_CASE("ImageParam::trace_loads also traces reads through the image as a Func",
          "[compat][tracing]") {
    Var x("x");
    ImageParam in(Int(32), 1, "in");
    Buffer<int> a(std::vector<int>{3});
    for (int i = 0; i < 3; i++) a(i) = 7 * i - 2;
    in.set(a);
    in.trace_loads();
    Func wrapper = in;
    Func f("f");
    f(x) = wrapper(x) * 3;
    TraceContext ctx;
    ctx.handlers.custom_trace = record;
    Buffer<int> out = f.realize(&ctx, {3});
    std::vector<std::string> loads, expected;
    for (const Event &e : ctx.events)
        if (e.event == loom_trace_load) loads.push_back(describe(e));
    for (int i = 0; i < 3; i++) {
        CHECK(out(i) == 3 * a(i));
        expected.push_back(describe(Event{loom_trace_load, "in", {i}, a(i), 0, 0}));
    }
    CHECK(loads == expected);
}

TEST_CASE("ImageParam::trace_loads of an undefined ImageParam is an error", "[compat][tracing]") {
    ImageParam none;
    CHECK_THROWS_WITH(none.trace_loads(), Contains("trace_loads of an undefined ImageParam"));
}

TEST_CASE("Pipeline::trace_pipeline emits the pipeline events of that Pipeline",
          "[compat][tracing]") {
    Var x("x");
    Func f("f");
    f(x) = x * x + 1;
    Pipeline traced(f), plain(f);

    TraceContext before;
    before.handlers.custom_trace = record;
    traced.realize(&before, {3});
    CHECK(before.events.empty());

    traced.trace_pipeline();
    TraceContext ctx;
    ctx.handlers.custom_trace = record;
    Buffer<int> out = traced.realize(&ctx, {3});
    for (int i = 0; i < 3; i++) CHECK(out(i) == i * i + 1);
    REQUIRE(ctx.events.size() == 2);
    CHECK(ctx.events[0].event == loom_trace_begin_pipeline);
    CHECK(ctx.events[1].event == loom_trace_end_pipeline);
    CHECK(ctx.events[0].parent_id == 0);
    CHECK(ctx.events[1].parent_id == ctx.events[0].id);

    // Another Pipeline of the same Func is not traced.
    TraceContext other;
    other.handlers.custom_trace = record;
    plain.realize(&other, {3});
    CHECK(other.events.empty());

    // A Callable of the traced Pipeline is.
    Callable c = traced.compile_to_callable({});
    TraceContext call;
    call.handlers.custom_trace = record;
    Buffer<int> out2(3);
    REQUIRE(c(&call, out2) == 0);
    REQUIRE(call.events.size() == 2);
    CHECK(call.events[0].func == "f"); // the pipeline, named after its output as in Halide
    CHECK(ctx.events[0].func == "f");
    for (int i = 0; i < 3; i++) CHECK(out2(i) == i * i + 1);

    // Ahead-of-time lowering of the traced Pipeline has the events too.
    auto lowered = [](Pipeline p, const std::string &name) {
        loom_test::ScratchFile file("trace_pipeline", name + ".stmt");
        p.compile_to_lowered_stmt(file.path, {});
        return loom_test::read_text(file.path);
    };
    CHECK_THAT(lowered(traced, "traced"), Contains("trace("));
    CHECK_THAT(lowered(plain, "plain"), !Contains("trace("));
}
