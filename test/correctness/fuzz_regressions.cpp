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
