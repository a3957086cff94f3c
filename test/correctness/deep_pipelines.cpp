// Deeply nested input compiles and runs right (issue 16, item 2): every pass
// recurses over expression trees and stage chains, so these once overflowed
// the stack. Each is compared with the same computation in plain C++.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "Loom.h"
#include "common/ScratchFile.h"

using namespace loom;

TEST_CASE("deep: 100,000 nested additions", "[correctness][deep]") {
    Var x("x");
    Expr e = x;
    int added = 0;
    for (int i = 0; i < 100000; i++) {
        e = e + (i % 7);
        added += i % 7;
    }
    Func f("long_sum");
    f(x) = e;
    Buffer<int> out = f.realize({8});
    for (int i = 0; i < 8; i++) CHECK(out(i) == i + added);
}

TEST_CASE("deep: 20,000-case select chain", "[correctness][deep]") {
    auto chain = [](int cases) {
        Var x("x");
        Expr e = -1;
        for (int i = 0; i < cases; i++) e = select(x == i * 3, i, e);
        Func f("long_select");
        f(x) = e;
        return f;
    };
    // Lowering (where the depth once overflowed the stack) of the whole
    // chain; LLVM's and C compilers' own passes are quadratic in a chain of
    // selects this long, so the values come from a shorter one.
    Func deep = chain(20000);
    loom_test::ScratchFile stmt("deep_select", "long_select.stmt");
    deep.compile_to_lowered_stmt(stmt.path, {});
    CHECK(loom_test::read_text(stmt.path).find("select") != std::string::npos);

    Buffer<int> out = chain(1000).realize({12});
    for (int i = 0; i < 12; i++) CHECK(out(i) == (i % 3 == 0 ? i / 3 : -1));
}

TEST_CASE("deep: a million-node expression is destroyed", "[correctness][deep]") {
    Var x("x");
    {
        Expr e = x;
        for (int i = 0; i < 1000000; i++) e = e * 3 + i;
    }
    // Still usable afterwards: the deferred deletions all happened.
    Func f("after_destroy");
    f(x) = x + 1;
    Buffer<int> out = f.realize({3});
    CHECK(out(2) == 3);
}

TEST_CASE("deep: 5,000 chained inlined Funcs", "[correctness][deep]") {
    Var x("x");
    Func prev("chain0");
    prev(x) = x;
    for (int i = 1; i < 5000; i++) {
        Func next("chain" + std::to_string(i));
        next(x) = prev(x) + (i % 3);
        prev = next;
    }
    int added = 0;
    for (int i = 1; i < 5000; i++) added += i % 3;
    Buffer<int> out = prev.realize({4});
    for (int i = 0; i < 4; i++) CHECK(out(i) == i + added);
}

TEST_CASE("deep: 1000 chained compute_root Funcs", "[correctness][deep]") {
    Var x("x");
    Func prev("root0");
    prev(x) = x;
    for (int i = 1; i < 1000; i++) {
        Func next("root" + std::to_string(i));
        next(x) = prev(x) * 3 + 1;
        next.compute_root();
        prev = next;
    }
    Buffer<int> out = prev.realize({4});
    for (int i = 0; i < 4; i++) {
        unsigned v = unsigned(i);
        for (int k = 1; k < 1000; k++) v = v * 3u + 1u;
        CHECK(out(i) == int(v));
    }
}

TEST_CASE("deep: unrolling the largest allowed loop", "[correctness][deep]") {
    Var x("x");
    Func f("wide_unroll");
    f(x) = x * 2 + 1;
    f.bound(x, 0, 4096).unroll(x);
    Buffer<int> out = f.realize({4096});
    CHECK(out(0) == 1);
    CHECK(out(4095) == 8191);
}

TEST_CASE("deep: chains of inlined Funcs that each use the one before several times",
          "[correctness][deep]") {
    // As trees these are 3^40 and 2^40 nodes; as graphs, 40 stages.
    Var x("x");
    Func sel("sel0"), sum("sum0");
    sel(x) = x;
    sum(x) = x;
    for (int i = 1; i < 40; i++) {
        Func s("sel" + std::to_string(i)), t("sum" + std::to_string(i));
        s(x) = select(sel(x) > 0, sel(x) - 1, sel(x) + 2);
        t(x) = sum(x) + sum(x) * 3;
        sel = s;
        sum = t;
    }
    Buffer<int> a = sel.realize({16});
    Buffer<int> b = sum.realize({16});
    for (int i = 0; i < 16; i++) {
        int v = i;
        unsigned w = unsigned(i);
        for (int k = 1; k < 40; k++) {
            v = v > 0 ? v - 1 : v + 2;
            w = w + w * 3u;
        }
        CHECK(a(i) == v);
        CHECK(b(i) == int(w));
    }
}
