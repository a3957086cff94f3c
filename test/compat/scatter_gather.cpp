// scatter() and gather() as a Halide user writes them: update definitions
// that read several elements, then write several.

#include "CompatCommon.h"

using namespace Halide;
using Catch::Matchers::Contains;

TEST_CASE("scatter and gather swap and permute elements", "[compat][scatter]") {
    Param<bool> swap("swap");
    compat::for_each_backend([&](bool) {
        for (bool p : {false, true}) {
            Var x("x");
            Func f("f");
            f(x) = x * 10;
            // Swap f(3) and f(5) when p holds; otherwise rotate f(1), f(2), f(3)
            // (the load from 3 and the store to 5 repeat, as in Halide's example).
            f(select(swap, scatter(3, 5, 5), scatter(1, 2, 3))) =
                f(select(swap, gather(5, 3, 3), gather(2, 3, 1)));
            swap.set(p);
            Buffer<int> out = f.realize({8});
            std::vector<int> want{0, 10, 20, 30, 40, 50, 60, 70};
            if (p) {
                std::swap(want[3], want[5]);
            } else {
                want = {0, 20, 30, 10, 40, 50, 60, 70};
            }
            for (int i = 0; i < 8; i++) {
                INFO("p = " << p << ", x = " << i);
                CHECK(out(i) == want[size_t(i)]);
            }
        }
    });
}

TEST_CASE("scatter and gather over an RDom, with arithmetic element by element",
          "[compat][scatter]") {
    Var x("x"), y("y");
    RDom r(0, 6);
    Func g("g");
    g(x, y) = x + 100 * y;
    // Swap columns 0 and 1 of every row, doubling both.
    g(scatter(0, 1), r) = 2 * g(gather(1, 0), r);
    // Repeated locations: the rightmost store wins.
    g(scatter(2, 2), r) = gather(-1, -2);
    Buffer<int> out = g.realize({4, 6});
    for (int j = 0; j < 6; j++) {
        CHECK(out(0, j) == 2 * (1 + 100 * j));
        CHECK(out(1, j) == 2 * (0 + 100 * j));
        CHECK(out(2, j) == -2);
        CHECK(out(3, j) == 3 + 100 * j);
    }
}

TEST_CASE("scatter and gather sizes must agree", "[compat][scatter][errors]") {
    Var x("x");
    Func f("f");
    f(x) = x;
    CHECK_THROWS_WITH((f(scatter(1, 2)) = gather(1, 2, 3)),
                      Contains("scatter()/gather() of 2 and of 3 values"));
    Func h("h");
    CHECK_THROWS_WITH((h(x) = gather(x, x + 1)), Contains("belong in update definitions"));
    CHECK_THROWS_WITH(scatter(std::vector<Expr>{}), Contains("at least one value"));
}
