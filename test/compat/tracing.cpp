// Tracing as Halide code uses it: trace_loads/trace_stores/
// trace_realizations/add_trace_tag, the trace_* target features, a
// custom_trace handler (per Pipeline and per call) and the default handler's
// printed lines. Each event sequence is compared with one built by plain
// C++ loops over the same region.

#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "compat/CompatCommon.h"

using namespace Halide;
using Catch::Matchers::Contains;

namespace {

struct Event {
    int event;
    std::string func;
    int value_index;
    std::vector<int> coordinates;
    int value; // loads and stores of int32 Funcs only
    std::string tag;
    int id, parent_id;
};

std::string describe(const Event &e) {
    std::string s =
        std::to_string(e.event) + " " + e.func + "." + std::to_string(e.value_index) + "(";
    for (size_t i = 0; i < e.coordinates.size(); i++)
        s += (i ? ", " : "") + std::to_string(e.coordinates[i]);
    s += ")";
    if (e.event <= loom_trace_store) s += " = " + std::to_string(e.value);
    if (!e.tag.empty()) s += " tag " + e.tag;
    return s;
}

/** Collects events; ids start at 100 so they differ from indices. */
struct TraceContext : JITUserContext {
    std::vector<Event> events;
};

std::vector<Event> *pipeline_events = nullptr;

Event record(const loom_trace_event_t *e, int id) {
    Event r{e->event, e->func,     e->value_index, {}, 0, e->trace_tag ? e->trace_tag : "",
            id,       e->parent_id};
    for (int i = 0; i < e->dimensions; i++) r.coordinates.push_back(e->coordinates[i]);
    if (e->event <= loom_trace_store && e->type.code == loom_type_int && e->type.bits == 32)
        std::memcpy(&r.value, e->value, sizeof(int32_t));
    return r;
}

int32_t to_context(JITUserContext *ctx, const loom_trace_event_t *e) {
    auto *c = static_cast<TraceContext *>(ctx);
    int id = 100 + int(c->events.size());
    c->events.push_back(record(e, id));
    return id;
}

int32_t to_pipeline_events(JITUserContext *, const loom_trace_event_t *e) {
    int id = 100 + int(pipeline_events->size());
    pipeline_events->push_back(record(e, id));
    return id;
}

bool is_type_and_dim_tag(const Event &e) {
    return e.event == loom_trace_tag && e.tag.rfind("func_type_and_dim:", 0) == 0;
}

/** Events as text, without the pipeline events (whose func is the
 * compiled function's name), without the func_type_and_dim tags (checked
 * by test/compat/trace_file.cpp) and without ids. */
std::vector<std::string> texts(const std::vector<Event> &events) {
    std::vector<std::string> t;
    for (const Event &e : events)
        if (e.event != loom_trace_begin_pipeline && e.event != loom_trace_end_pipeline &&
            !is_type_and_dim_tag(e))
            t.push_back(describe(e));
    return t;
}

Event ev(int event, const std::string &func, std::vector<int> coordinates, int value = 0,
         const std::string &tag = "") {
    return Event{event, func, 0, std::move(coordinates), value, tag, 0, 0};
}

int f_value(int x, int y) {
    return x * 3 + y * 5;
}

/** f (compute_root, all three traced, two tags) feeding g (stores traced),
 * realized over w x h. */
struct TwoStage {
    Var x{"x"}, y{"y"};
    Func f{"f"}, g{"g"};
    TwoStage() {
        f(x, y) = x * 3 + y * 5;
        g(x, y) = f(x, y) + f(x + 1, y);
        f.compute_root().trace_loads().trace_stores().trace_realizations();
        f.add_trace_tag("first").add_trace_tag("second");
        g.trace_stores();
    }

    /** What Halide reports for g.realize({w, h}). */
    static std::vector<Event> expected(int w, int h) {
        std::vector<int> f_region{0, w + 1, 0, h};
        std::vector<Event> e{
            ev(loom_trace_tag, "f", {}, 0, "first"), ev(loom_trace_tag, "f", {}, 0, "second"),
            ev(loom_trace_begin_realization, "f", f_region), ev(loom_trace_produce, "f", f_region)};
        for (int y = 0; y < h; y++)
            for (int x = 0; x <= w; x++)
                e.push_back(ev(loom_trace_store, "f", {x, y}, f_value(x, y)));
        e.push_back(ev(loom_trace_end_produce, "f", f_region));
        e.push_back(ev(loom_trace_consume, "f", f_region));
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                e.push_back(ev(loom_trace_load, "f", {x, y}, f_value(x, y)));
                e.push_back(ev(loom_trace_load, "f", {x + 1, y}, f_value(x + 1, y)));
                e.push_back(ev(loom_trace_store, "g", {x, y}, f_value(x, y) + f_value(x + 1, y)));
            }
        e.push_back(ev(loom_trace_end_consume, "f", f_region));
        e.push_back(ev(loom_trace_end_realization, "f", f_region));
        return e;
    }
};

/** The id of the last event before `i` with code `event` and func `func`. */
int id_of_last(const std::vector<Event> &events, size_t i, int event, const std::string &func) {
    for (size_t k = i; k-- > 0;)
        if (events[k].event == event && events[k].func == func) return events[k].id;
    return -1;
}

} // namespace

TEST_CASE("tracing: a custom_trace handler sees Halide's events of a two-stage pipeline",
          "[compat][tracing]") {
    compat::for_each_backend([&](bool) {
        TwoStage p;
        TraceContext ctx;
        ctx.handlers.custom_trace = to_context;
        Buffer<int> out = p.g.realize(&ctx, {3, 2});
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 3; x++) REQUIRE(out(x, y) == f_value(x, y) + f_value(x + 1, y));

        const std::vector<Event> &events = ctx.events;
        REQUIRE(events.size() >= 2);
        CHECK(events.front().event == loom_trace_begin_pipeline);
        CHECK(events.front().parent_id == 0);
        CHECK(events.back().event == loom_trace_end_pipeline);
        CHECK(events.front().func == "g"); // the pipeline, named as in Halide
        CHECK(events.back().func == events.front().func);
        CHECK(texts(events) == texts(TwoStage::expected(3, 2)));

        // Ids: begin_pipeline's is the parent of the tags and the
        // realization; the realization's of produce and consume; theirs of
        // the loads and stores inside. g's realization is not traced: 0.
        int pipeline = events.front().id;
        CHECK(events.back().parent_id == pipeline);
        for (size_t i = 1; i + 1 < events.size(); i++) {
            const Event &e = events[i];
            INFO("event " << i << ": " << describe(e));
            switch (e.event) {
            case loom_trace_tag:
            case loom_trace_begin_realization:
                CHECK(e.parent_id == pipeline);
                break;
            case loom_trace_produce:
            case loom_trace_consume:
            case loom_trace_end_realization:
                CHECK(e.parent_id == id_of_last(events, i, loom_trace_begin_realization, "f"));
                break;
            case loom_trace_end_produce:
                CHECK(e.parent_id == id_of_last(events, i, loom_trace_produce, "f"));
                break;
            case loom_trace_end_consume:
            case loom_trace_load:
                CHECK(e.parent_id == id_of_last(events, i, loom_trace_consume, "f"));
                break;
            case loom_trace_store:
                if (e.func == "f")
                    CHECK(e.parent_id == id_of_last(events, i, loom_trace_produce, "f"));
                else
                    CHECK(e.parent_id == 0);
                break;
            default:
                FAIL("unexpected event");
            }
        }
    });
}

TEST_CASE("tracing: the per-call handler overrides the Pipeline's, and no trace means no events",
          "[compat][tracing]") {
    TwoStage p;
    std::vector<Event> events;
    pipeline_events = &events;
    p.g.jit_handlers().custom_trace = to_pipeline_events;
    p.g.realize({2, 1});
    CHECK(texts(events) == texts(TwoStage::expected(2, 1)));

    TraceContext ctx;
    ctx.handlers.custom_trace = to_context;
    events.clear();
    p.g.realize(&ctx, {2, 2});
    CHECK(events.empty());
    CHECK(texts(ctx.events) == texts(TwoStage::expected(2, 2)));

    // An untraced pipeline calls no handler at all.
    Var x("x");
    Func plain("plain");
    plain(x) = x;
    plain.jit_handlers().custom_trace = to_pipeline_events;
    plain.realize({4});
    CHECK(events.empty());
    pipeline_events = nullptr;
}

TEST_CASE("tracing: vectorized and tuple stores are traced one element at a time",
          "[compat][tracing]") {
    compat::for_each_backend([&](bool) {
        Var x("x");
        Func v("v");
        v(x) = x * 7;
        v.vectorize(x, 4).trace_stores();
        TraceContext ctx;
        ctx.handlers.custom_trace = to_context;
        v.realize(&ctx, {8});
        std::vector<std::string> expected;
        for (int i = 0; i < 8; i++)
            expected.push_back(describe(ev(loom_trace_store, "v", {i}, i * 7)));
        CHECK(texts(ctx.events) == expected);

        Func t("t");
        t(x) = Tuple(x + 1, x * 2);
        t.trace_stores();
        TraceContext tuple_ctx;
        tuple_ctx.handlers.custom_trace = to_context;
        t.realize(&tuple_ctx, {2});
        std::vector<std::string> got = texts(tuple_ctx.events), want;
        for (int i = 0; i < 2; i++) {
            want.push_back(describe(ev(loom_trace_store, "t", {i}, i + 1)));
            Event second = ev(loom_trace_store, "t", {i}, i * 2);
            second.value_index = 1;
            want.push_back(describe(second));
        }
        CHECK(got == want);
    });
}

TEST_CASE("tracing: the trace_* target features trace every Func and input", "[compat][tracing]") {
    Var x("x");
    Buffer<int> input(std::vector<int>{4}, "input");
    for (int i = 0; i < 4; i++) input(i) = 10 * i;
    Func a("a"), b("b");
    a(x) = input(x) + 1;
    b(x) = a(x) * 2;
    a.compute_root();
    Target host = get_jit_target_from_environment();

    SECTION("trace_stores also traces realizations, as in Halide") {
        TraceContext ctx;
        ctx.handlers.custom_trace = to_context;
        b.realize(&ctx, {2}, host.with_feature(Target::TraceStores));
        std::vector<Event> e{ev(loom_trace_begin_realization, "b", {0, 2}),
                             ev(loom_trace_begin_realization, "a", {0, 2}),
                             ev(loom_trace_produce, "a", {0, 2}),
                             ev(loom_trace_store, "a", {0}, 1),
                             ev(loom_trace_store, "a", {1}, 11),
                             ev(loom_trace_end_produce, "a", {0, 2}),
                             ev(loom_trace_consume, "a", {0, 2}),
                             ev(loom_trace_produce, "b", {0, 2}),
                             ev(loom_trace_store, "b", {0}, 2),
                             ev(loom_trace_store, "b", {1}, 22),
                             ev(loom_trace_end_produce, "b", {0, 2}),
                             ev(loom_trace_end_consume, "a", {0, 2}),
                             ev(loom_trace_end_realization, "a", {0, 2}),
                             ev(loom_trace_end_realization, "b", {0, 2})};
        CHECK(texts(ctx.events) == texts(e));
    }
    SECTION("trace_loads traces loads of input buffers, parented to the pipeline") {
        TraceContext ctx;
        ctx.handlers.custom_trace = to_context;
        b.realize(&ctx, {2}, host.with_feature(Target::TraceLoads));
        std::vector<Event> loads;
        for (const Event &e : ctx.events)
            if (e.event == loom_trace_load) loads.push_back(e);
        REQUIRE(loads.size() == 4);
        CHECK(describe(loads[0]) == describe(ev(loom_trace_load, "input", {0}, 0)));
        CHECK(describe(loads[1]) == describe(ev(loom_trace_load, "input", {1}, 10)));
        CHECK(describe(loads[2]) == describe(ev(loom_trace_load, "a", {0}, 1)));
        CHECK(describe(loads[3]) == describe(ev(loom_trace_load, "a", {1}, 11)));
        CHECK(loads[0].parent_id == ctx.events.front().id);
    }
    SECTION("trace_pipeline alone gives the pipeline events only") {
        TraceContext ctx;
        ctx.handlers.custom_trace = to_context;
        Buffer<int> out = b.realize(&ctx, {3}, host.with_feature(Target::TracePipeline));
        REQUIRE(ctx.events.size() == 2);
        CHECK(ctx.events[0].event == loom_trace_begin_pipeline);
        CHECK(ctx.events[1].event == loom_trace_end_pipeline);
        CHECK(ctx.events[1].parent_id == ctx.events[0].id);
        for (int i = 0; i < 3; i++) CHECK(out(i) == (10 * i + 1) * 2);
    }
}

TEST_CASE("tracing: the default handler prints Halide's lines through custom_print",
          "[compat][tracing]") {
    compat::for_each_backend([&](bool) {
        Var x("x"), y("y");
        Func h("h");
        h(x, y) = cast<float>(x) + 0.5f * cast<float>(y);
        h.trace_stores().trace_realizations().add_trace_tag("my tag");
        struct Lines : JITUserContext {
            std::vector<std::string> lines;
        } ctx;
        ctx.handlers.custom_print = [](JITUserContext *c, const char *line) {
            static_cast<Lines *>(c)->lines.push_back(line);
        };
        h.realize(&ctx, {2, 1});
        REQUIRE(ctx.lines.size() == 10);
        CHECK(ctx.lines[0] == "Begin pipeline h.0()\n");
        // float32 (code 2), two dimensions over [0, 2) x [0, 1).
        CHECK(ctx.lines[1] == "Tag h.0() tag = \"func_type_and_dim: 1 2 32 1 2 0 2 0 1\"\n");
        CHECK(ctx.lines[2] == "Tag h.0() tag = \"my tag\"\n");
        CHECK(ctx.lines[3] == "Begin realization h.0(0, 2, 0, 1)\n");
        CHECK(ctx.lines[4] == "Produce h.0(0, 2, 0, 1)\n");
        CHECK(ctx.lines[5] == "Store h.0(0, 0) = 0.000000\n");
        CHECK(ctx.lines[6] == "Store h.0(1, 0) = 1.000000\n");
        CHECK(ctx.lines[7] == "End produce h.0(0, 2, 0, 1)\n");
        CHECK(ctx.lines[8] == "End realization h.0(0, 2, 0, 1)\n");
        CHECK(ctx.lines[9] == "End pipeline h.0()\n");
    });
}

TEST_CASE("tracing: a Func computed inside another's loops is realized once per iteration",
          "[compat][tracing]") {
    Var x("x"), y("y");
    Func p("p"), c("c");
    p(x, y) = x + y;
    c(x, y) = p(x, y) * 2;
    p.compute_at(c, y).trace_realizations();
    TraceContext ctx;
    ctx.handlers.custom_trace = to_context;
    c.realize(&ctx, {3, 4});
    std::vector<std::string> want;
    for (int y = 0; y < 4; y++) {
        std::vector<int> row{0, 3, y, 1};
        for (int event : {loom_trace_begin_realization, loom_trace_produce, loom_trace_end_produce,
                          loom_trace_consume, loom_trace_end_consume, loom_trace_end_realization})
            want.push_back(describe(ev(event, "p", row)));
    }
    CHECK(texts(ctx.events) == want);
}

TEST_CASE("tracing: bad uses are errors naming the Func", "[compat][tracing][error]") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x + y;
    CHECK_THROWS_WITH(f.add_trace_tag(std::string("bad\0tag", 7)),
                      Contains("add_trace_tag of Func f") && Contains("null character"));

    Func k("k");
    k(x, y) = x * y;
    Var bx("bx"), by("by"), tx("tx"), ty("ty");
    k.gpu_tile(x, y, bx, by, tx, ty, 8, 8).trace_stores();
    Target gpu = get_host_target().with_feature(Target::OpenCL);
    CHECK_THROWS_WITH(k.compile_to_lowered_stmt("/dev/null", {}, StmtOutputFormat::Text, gpu),
                      Contains("Func k is traced (trace_stores)") &&
                          Contains("inside the GPU loop") && Contains("schedule k on the CPU"));

    // Traced by the target: the message names the feature.
    Func m("m");
    m(x, y) = x - y;
    m.gpu_tile(x, y, bx, by, tx, ty, 8, 8);
    CHECK_THROWS_WITH(m.compile_to_lowered_stmt("/dev/null", {}, StmtOutputFormat::Text,
                                                gpu.with_feature(Target::TraceStores)),
                      Contains("Func m is traced (the target feature trace_stores)"));
}

TEST_CASE("tracing: stores of a sliding window are traced once per element", "[compat][tracing]") {
    // Halide's sliding-window tests count stores with a trace handler: each
    // row of f is computed once, tracing or not.
    compat::for_each_backend([&](bool) {
        Var x("x"), y("y");
        Func f("f"), g("g");
        f(x, y) = x + 10 * y;
        g(x, y) = f(x, y) + f(x, y + 1);
        f.store_root().compute_at(g, y).trace_stores();
        TraceContext ctx;
        ctx.handlers.custom_trace = to_context;
        Buffer<int> out = g.realize(&ctx, {4, 5});
        for (int yy = 0; yy < 5; yy++)
            for (int xx = 0; xx < 4; xx++)
                REQUIRE(out(xx, yy) == (xx + 10 * yy) + (xx + 10 * (yy + 1)));
        std::vector<std::string> want;
        for (int yy = 0; yy < 6; yy++)
            for (int xx = 0; xx < 4; xx++)
                want.push_back(describe(ev(loom_trace_store, "f", {xx, yy}, xx + 10 * yy)));
        CHECK(texts(ctx.events) == want);
    });
}
