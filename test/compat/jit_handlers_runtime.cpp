// Halide's JITHandlers beyond print and error, as a Halide user sets them
// (only the namespace alias changed): custom_malloc/custom_free take the
// pipeline's heap allocations, custom_do_par_for and custom_do_task its
// parallel loops, on the Pipeline or per call through a JITUserContext, with
// the LLVM and the C backend. Each result is compared with plain C++.

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <set>
#include <vector>

#include "CompatCommon.h"

using namespace Halide;

using Catch::Matchers::Contains;

namespace {

// Allocations seen by the custom allocator. It hands out deliberately
// misaligned pointers: Loom must align them itself.
struct AllocationLog {
    std::mutex mutex;
    int mallocs = 0, frees = 0;
    size_t largest = 0;
    std::set<void *> live;
    bool freed_unknown = false;
};
AllocationLog allocations;

void *misaligned_malloc(JITUserContext *, size_t bytes) {
    auto *p = static_cast<char *>(std::malloc(bytes + 1)) + 1;
    std::lock_guard<std::mutex> lock(allocations.mutex);
    allocations.mallocs++;
    allocations.largest = std::max(allocations.largest, bytes);
    allocations.live.insert(p);
    return p;
}

void misaligned_free(JITUserContext *, void *p) {
    std::lock_guard<std::mutex> lock(allocations.mutex);
    allocations.frees++;
    if (!allocations.live.erase(p)) allocations.freed_unknown = true;
    std::free(static_cast<char *>(p) - 1);
}

void *refusing_malloc(JITUserContext *, size_t) {
    return nullptr;
}

// A serial do_par_for that records the loops it was given.
struct LoopLog : JITUserContext {
    int loops = 0;
    std::vector<int> indices;
    JITUserContext *seen = nullptr; // the context the handler was given
};
LoopLog pipeline_loops;
LoopLog *record_into = &pipeline_loops;

int serial_do_par_for(JITUserContext *ctx, int (*f)(JITUserContext *, int, uint8_t *), int min,
                      int size, uint8_t *closure) {
    LoopLog *log = record_into;
    log->loops++;
    log->seen = ctx;
    // Backwards, to show the order is free.
    for (int i = min + size - 1; i >= min; i--) {
        log->indices.push_back(i);
        if (int r = f(ctx, i, closure)) return r;
    }
    return 0;
}

int failing_do_par_for(JITUserContext *, int (*)(JITUserContext *, int, uint8_t *), int, int,
                       uint8_t *) {
    return -77;
}

std::atomic<int> tasks{0};
int counting_do_task(JITUserContext *ctx, int (*f)(JITUserContext *, int, uint8_t *), int idx,
                     uint8_t *closure) {
    tasks++;
    return f(ctx, idx, closure);
}

// g(x, y) = f(x, y) + f(x + 1, y) with f on the heap (its size follows the
// output's) and the rows of g in parallel.
struct TwoStage {
    Var x{"x"}, y{"y"};
    Func f{"f"}, g{"g"};
    TwoStage() {
        f(x, y) = x * 3 + y * 5;
        g(x, y) = f(x, y) + f(x + 1, y);
        f.compute_root();
        g.parallel(y);
    }
    static void check(const Buffer<int> &out) {
        for (int y = 0; y < out.height(); y++)
            for (int x = 0; x < out.width(); x++) {
                int fx = x * 3 + y * 5, fx1 = (x + 1) * 3 + y * 5;
                REQUIRE(out(x, y) == fx + fx1);
            }
    }
};

} // namespace

TEST_CASE("custom_malloc and custom_free take the heap allocations", "[compat][jit]") {
    compat::for_each_backend([&](bool) {
        TwoStage p;
        allocations.mallocs = allocations.frees = 0;
        allocations.largest = 0;
        allocations.live.clear();
        allocations.freed_unknown = false;
        p.g.jit_handlers().custom_malloc = misaligned_malloc;
        p.g.jit_handlers().custom_free = misaligned_free;
        Buffer<int> out = p.g.realize({300, 200});
        TwoStage::check(out);
        CHECK(allocations.mallocs >= 1);
        CHECK(allocations.frees == allocations.mallocs);
        CHECK(allocations.live.empty());
        CHECK(!allocations.freed_unknown);
        // f covers 301 x 200 ints.
        CHECK(allocations.largest >= size_t(301 * 200 * 4));

        // The shorthand sets the same two members.
        p.g.set_custom_allocator(nullptr, nullptr);
        CHECK(p.g.jit_handlers().custom_malloc == nullptr);
        int before = allocations.mallocs;
        TwoStage::check(p.g.realize({64, 8}));
        CHECK(allocations.mallocs == before);
    });
}

TEST_CASE("custom_malloc per call through a JITUserContext", "[compat][jit]") {
    TwoStage p;
    allocations.mallocs = allocations.frees = 0;
    allocations.live.clear();
    JITUserContext ctx;
    ctx.handlers.custom_malloc = misaligned_malloc;
    ctx.handlers.custom_free = misaligned_free;
    Buffer<int> out(50, 40);
    p.g.realize(&ctx, out);
    TwoStage::check(out);
    CHECK(allocations.mallocs >= 1);
    CHECK(allocations.frees == allocations.mallocs);
    // Without the context: the default allocator again.
    int before = allocations.mallocs;
    p.g.realize(out);
    CHECK(allocations.mallocs == before);
}

TEST_CASE("a custom_malloc returning null fails the call with out of memory",
          "[compat][jit][error]") {
    TwoStage p;
    p.g.jit_handlers().custom_malloc = refusing_malloc;
    CHECK_THROWS_WITH(p.g.realize({30, 20}), Contains("Out of memory"));
}

TEST_CASE("custom_do_par_for runs the parallel loops", "[compat][jit]") {
    compat::for_each_backend([&](bool) {
        TwoStage p;
        pipeline_loops.loops = 0;
        pipeline_loops.indices.clear();
        p.g.jit_handlers().custom_do_par_for = serial_do_par_for;
        Buffer<int> out = p.g.realize({40, 25});
        TwoStage::check(out);
        CHECK(pipeline_loops.loops == 1);
        std::vector<int> rows = pipeline_loops.indices;
        std::sort(rows.begin(), rows.end());
        std::vector<int> expected;
        for (int y = 0; y < 25; y++) expected.push_back(y);
        CHECK(rows == expected);

        // Per call: the call's context receives the loops.
        LoopLog mine;
        mine.handlers.custom_do_par_for = serial_do_par_for;
        Buffer<int> out2(40, 7);
        record_into = &mine;
        p.g.realize(&mine, out2);
        record_into = &pipeline_loops;
        TwoStage::check(out2);
        CHECK(mine.loops == 1);
        CHECK(mine.seen == &mine);
        CHECK(mine.indices.size() == 7);
        CHECK(pipeline_loops.loops == 1);
    });
}

TEST_CASE("custom_do_task runs each index of the default parallel loop", "[compat][jit]") {
    compat::for_each_backend([&](bool) {
        TwoStage p;
        tasks = 0;
        p.g.set_custom_do_task(counting_do_task);
        Buffer<int> out = p.g.realize({16, 33});
        TwoStage::check(out);
        CHECK(tasks == 33);
        // Nested parallel loops go through it too.
        Var x("x"), y("y"), c("c");
        Func h("h");
        h(x, y, c) = x + 10 * y + 100 * c;
        Var yo("yo"), yi("yi");
        h.split(y, yo, yi, 4).parallel(yo).parallel(c);
        h.set_custom_do_task(counting_do_task);
        tasks = 0;
        Buffer<int> hb = h.realize({5, 12, 3});
        for (int cc = 0; cc < 3; cc++)
            for (int yy = 0; yy < 12; yy++)
                for (int xx = 0; xx < 5; xx++) REQUIRE(hb(xx, yy, cc) == xx + 10 * yy + 100 * cc);
        CHECK(tasks == 3 + 3 * 3); // c, then yo inside each c
    });
}

TEST_CASE("a custom_do_par_for's error fails the call", "[compat][jit][error]") {
    TwoStage p;
    p.g.set_custom_do_par_for(failing_do_par_for);
    CHECK_THROWS_WITH(p.g.realize({8, 8}), Contains("error code -77"));
}

TEST_CASE("custom_trace is set by set_custom_trace and called only when something is traced",
          "[compat][jit]") {
    TwoStage p;
    static int calls = 0;
    calls = 0;
    p.g.set_custom_trace([](JITUserContext *, const loom_trace_event_t *) -> int32_t {
        calls++;
        return 1;
    });
    CHECK(p.g.jit_handlers().custom_trace != nullptr);
    TwoStage::check(p.g.realize({8, 8}));
    CHECK(calls == 0); // nothing traced (test/compat/tracing.cpp traces)
    p.f.trace_realizations();
    TwoStage::check(p.g.realize({8, 8}));
    CHECK(calls > 0);
}
