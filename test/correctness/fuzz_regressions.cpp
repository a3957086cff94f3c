// Programs the pipeline fuzzer (test/fuzz, docs/guide/fuzzing.md) found
// wrong, reduced by hand; each compared with plain C++.

#include <catch2/catch.hpp>

#include <algorithm>

#include "Loom.h"

using namespace loom;

TEST_CASE("fuzz: a Func with an update read at a coordinate computed from itself",
          "[fuzz][reduction]") {
    // f is left inline but has an update, so it is computed at the
    // innermost loop of g; the region g needs depends on f's own values,
    // which do not exist yet there: the clamp bounds it instead (this was an
    // InternalError "call to Func f, which has no storage").
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = x + y;
    RDom r(1, 12);
    f(r, y) = f(r - 1, y) + y;
    g(x, y) = f(x, clamp(f(x, y), 2, 8));
    Buffer<int> out = g.realize({5, 4});

    // The scan adds j at x = 1..12 to f(0, j) = j.
    auto f_ref = [](int i, int j) { return i >= 0 && i <= 12 ? j + i * j : i + j; };
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 5; i++) {
            INFO("at (" << i << ", " << j << ")");
            CHECK(out(i, j) == f_ref(i, std::clamp(f_ref(i, j), 2, 8)));
        }
}

TEST_CASE("fuzz: a scheduled Func read only where an inlined Func ignores the read", "[fuzz]") {
    // g reads f only in a coordinate that the inlined h does not use, so no
    // use of f is left after inlining: f is not computed (this was an
    // InternalError "Func f is scheduled but never used").
    for (int placement = 0; placement < 3; placement++) {
        INFO("placement " << placement);
        Var x("x"), y("y");
        Func h("h"), f("f"), g("g");
        h(x, y) = 2 * y;
        f(x, y) = x + y;
        g(x, y) = h(f(x, y), y) + x;
        if (placement == 0) f.compute_at(g, y);
        if (placement == 1) f.compute_root();
        if (placement == 2) f.compute_at(g, x).store_root();
        Buffer<int> out = g.realize({6, 5});
        for (int j = 0; j < 5; j++)
            for (int i = 0; i < 6; i++) CHECK(out(i, j) == 2 * j + i);
    }
}

TEST_CASE("fuzz: a Func read at a coordinate computed from another Func computed at the same "
          "loop",
          "[fuzz][reduction]") {
    // a and b have updates, so left inline each is computed at the innermost
    // loop of c; b's region depends on a's values, which are computed after
    // b's region is needed (this was an InternalError "call to Func a, which
    // has no storage"). The clamp bounds the read instead.
    for (int schedule = 0; schedule < 3; schedule++) {
        INFO("schedule " << schedule);
        Var x("x"), y("y");
        Func a("a"), b("b"), c("c");
        a(x, y) = x - y;
        RDom ra(0, 3);
        a(x, y) = a(x, y) + ra;
        b(x, y) = x * 10 + y;
        RDom rb(3, 2);
        b(rb, y) = b(rb - 1, y) + 1;
        c(x, y) = b(clamp(a(y - 2, y), 0, 17), y);
        if (schedule == 1) b.compute_at(c, x);
        if (schedule == 2) a.compute_at(c, x);
        Buffer<int> out = c.realize({7, 5});

        auto a_ref = [](int i, int j) { return i - j + 3; }; // + 0 + 1 + 2
        auto b_ref = [](int i, int j) {
            if (i == 3) return 20 + j + 1;
            if (i == 4) return 20 + j + 2;
            return i * 10 + j;
        };
        for (int j = 0; j < 5; j++)
            for (int i = 0; i < 7; i++) {
                INFO("at (" << i << ", " << j << ")");
                CHECK(out(i, j) == b_ref(std::clamp(a_ref(j - 2, j), 0, 17), j));
            }
    }
}
