// compute_root buffers are freed after their last use, not when the whole
// pipeline ends (lower/InjectEarlyFrees.h): a chain of N stages holds two
// buffers at a time, and an error midway frees every live buffer exactly
// once. Checked through a custom allocator, with the LLVM and the C backend;
// values are compared with plain C++.

#include <catch2/catch.hpp>

#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "Loom.h"
#include "common/ScopedEnv.h"
#include "common/ScratchFile.h"

using namespace loom;
using Catch::Contains;

namespace {

struct Allocations {
    std::mutex mutex;
    int mallocs = 0, frees = 0;
    size_t most_live = 0;
    std::set<void *> live;
    bool freed_unknown = false;

    void reset() {
        mallocs = frees = 0;
        most_live = 0;
        live.clear();
        freed_unknown = false;
    }
};

Allocations allocations;

void *logging_malloc(JITUserContext *, size_t bytes) {
    void *p = std::malloc(bytes + 64);
    std::lock_guard<std::mutex> lock(allocations.mutex);
    allocations.mallocs++;
    allocations.live.insert(p);
    allocations.most_live = std::max(allocations.most_live, allocations.live.size());
    return p;
}

void logging_free(JITUserContext *, void *p) {
    std::lock_guard<std::mutex> lock(allocations.mutex);
    allocations.frees++;
    if (!allocations.live.erase(p)) allocations.freed_unknown = true;
    std::free(p);
}

template <typename F> void for_each_backend(F body) {
    {
        INFO("backend: LLVM");
        body();
    }
    {
        loom_test::ScopedEnv c_backend("LOOM_JIT_BACKEND", "c");
        INFO("backend: C");
        body();
    }
}

/** f0(x) = x; fi(x) = f(i-1)(x) * 3 + i, each compute_root (on the heap:
 * the sizes follow the output's). `check_at` stage's value must stay below
 * `limit` (a require()). */
Func root_chain(int stages, int check_at, Param<int> &limit) {
    Var x("x");
    Func prev("c0");
    prev(x) = x;
    prev.compute_root();
    for (int i = 1; i < stages; i++) {
        Func next("c" + std::to_string(i));
        Expr value = prev(x) * 3 + i;
        if (i == check_at) value = require(value < limit, value, "stage value too large");
        next(x) = value;
        if (i + 1 < stages) next.compute_root();
        prev = next;
    }
    return prev;
}

int reference(int x, int stages) {
    unsigned v = unsigned(x);
    for (int i = 1; i < stages; i++) v = v * 3u + unsigned(i);
    return int(v);
}

} // namespace

TEST_CASE("early frees: a chain of compute_root stages holds two buffers at a time",
          "[correctness][early_frees]") {
    for_each_backend([] {
        Param<int> limit("limit");
        limit.set(1 << 30);
        Func out = root_chain(12, 1, limit);
        out.set_custom_allocator(logging_malloc, logging_free);
        allocations.reset();
        Buffer<int> result = out.realize({20000});
        for (int x = 0; x < 20000; x += 997) CHECK(result(x) == reference(x, 12));
        // c0 .. c10 are compute_root: 11 heap buffers, never more than two live.
        CHECK(allocations.mallocs == 11);
        CHECK(allocations.frees == allocations.mallocs);
        CHECK(allocations.most_live <= 2);
        CHECK_FALSE(allocations.freed_unknown);
    });
}

TEST_CASE("early frees: an error midway frees each live buffer once",
          "[correctness][early_frees]") {
    for_each_backend([] {
        Param<int> limit("limit");
        limit.set(10);
        // Stage 7 fails its require() after c0 .. c5 are freed or live.
        Func out = root_chain(12, 7, limit);
        out.set_custom_allocator(logging_malloc, logging_free);
        allocations.reset();
        CHECK_THROWS_WITH(out.realize({20000}), Contains("stage value too large"));
        CHECK(allocations.mallocs >= 7);
        CHECK(allocations.frees == allocations.mallocs);
        CHECK(allocations.live.empty());
        CHECK_FALSE(allocations.freed_unknown);
    });
}

TEST_CASE("early frees: a buffer read inside a later loop lives through that loop",
          "[correctness][early_frees]") {
    for_each_backend([] {
        Var x("x"), y("y");
        Func a("a"), b("b"), c("c");
        a(x, y) = x + y * 7;
        b(x, y) = a(x, y) * 2;
        // c reads a (in its loop over y) after b is done with it.
        c(x, y) = b(x, y) + a(x + 1, y);
        a.compute_root();
        b.compute_root();
        c.parallel(y);
        c.set_custom_allocator(logging_malloc, logging_free);
        allocations.reset();
        Buffer<int> result = c.realize({300, 200});
        for (int yy = 0; yy < 200; yy += 13)
            for (int xx = 0; xx < 300; xx += 17)
                CHECK(result(xx, yy) == (xx + yy * 7) * 2 + (xx + 1 + yy * 7));
        CHECK(allocations.frees == allocations.mallocs);
        CHECK_FALSE(allocations.freed_unknown);
    });
}

// Past 32 loop nests, the LLVM backend gives each top-level nest a function
// of its own (CodeGen_LLVM::codegen_outlined_loop); the C backend keeps one.
// Values, frees and errors must be the same.
TEST_CASE("early frees: a chain long enough for outlined loop nests",
          "[correctness][early_frees][outlined]") {
    for_each_backend([] {
        Param<int> limit("limit");
        limit.set(1 << 30);
        Func out = root_chain(60, 1, limit);
        // Each of the 59 compute_root nests and the output's is a function.
        loom_test::ScratchFile ll("outlined", "chain.ll");
        out.compile_to_llvm_assembly(ll.path, {limit}, "chain", get_host_target());
        std::string ir = loom_test::read_text(ll.path);
        size_t nests = 0;
        for (size_t at = ir.find("define internal"); at != std::string::npos;
             at = ir.find("define internal", at + 1)) {
            nests += ir.compare(ir.find('@', at), 11, "@loop_nest.") == 0;
        }
        CHECK(nests == 60);
        out.set_custom_allocator(logging_malloc, logging_free);
        allocations.reset();
        Buffer<int> result = out.realize({5000});
        for (int x = 0; x < 5000; x += 331) CHECK(result(x) == reference(x, 60));
        CHECK(allocations.mallocs == 59);
        CHECK(allocations.frees == allocations.mallocs);
        CHECK(allocations.most_live <= 2);
        CHECK_FALSE(allocations.freed_unknown);
    });
}

TEST_CASE("early frees: an error inside an outlined loop nest frees each buffer once",
          "[correctness][early_frees][outlined]") {
    for_each_backend([] {
        Var x("x"), y("y");
        Param<int> limit("limit");
        limit.set(1000);
        // 40 two-dimensional stages; each computes a helper per row of its
        // own (a heap buffer inside the nest), and stage 25 fails its
        // require() inside its nest.
        Func prev("s0");
        prev(x, y) = x + y;
        prev.compute_root();
        for (int i = 1; i < 40; i++) {
            Func row("row" + std::to_string(i)), next("s" + std::to_string(i));
            row(x, y) = prev(x, y) + prev(x + 1, y);
            Expr value = row(x, y) - prev(x, y) + 1; // = prev(x + 1, y) + 1
            if (i == 25) value = require(value < limit, value, "stage 25 value too large");
            next(x, y) = value;
            row.compute_at(next, y);
            if (i < 39) next.compute_root();
            prev = next;
        }
        prev.set_custom_allocator(logging_malloc, logging_free);

        allocations.reset();
        Buffer<int> result = prev.realize({50, 4});
        // Stage i holds (x + i) + y + i.
        for (int yy = 0; yy < 4; yy++)
            for (int xx = 0; xx < 50; xx += 7) CHECK(result(xx, yy) == xx + yy + 2 * 39);
        CHECK(allocations.frees == allocations.mallocs);
        CHECK_FALSE(allocations.freed_unknown);

        limit.set(40);
        allocations.reset();
        CHECK_THROWS_WITH(prev.realize({50, 4}), Contains("stage 25 value too large"));
        CHECK(allocations.mallocs >= 25);
        CHECK(allocations.frees == allocations.mallocs);
        CHECK(allocations.live.empty());
        CHECK_FALSE(allocations.freed_unknown);
    });
}
