// Errors of tail strategies and undef(): a ShiftInwards split of an output
// whose extent is below the factor (a RuntimeError naming the Func, the Var,
// the factor and the extent), tails that updates do not allow, and undef()
// inside an expression.

#include <catch2/catch.hpp>

#include "Loom.h"

using namespace loom;
using Catch::Contains;

TEST_CASE("ShiftInwards on an output smaller than the factor names the split",
          "[error][schedule]") {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func f("narrow");
    f(x, y) = x + y;
    f.vectorize(x, 8); // Auto: ShiftInwards
    CHECK_THROWS_AS(f.realize({5, 3}), RuntimeError);
    CHECK_THROWS_WITH(f.realize({5, 3}),
                      Contains("Func narrow splits x by 8 with TailStrategy::Auto "
                               "(ShiftInwards for a pure definition)") &&
                          Contains("the extent of x is 5") &&
                          Contains("TailStrategy::GuardWithIf") &&
                          Contains("a factor of at most 5"));
    // Large enough: fine.
    Buffer<int> ok = f.realize({8, 3});
    CHECK(ok(7, 2) == 9);

    Func g("narrow_explicit");
    g(x, y) = x * y;
    g.split(y, xo, xi, 4, TailStrategy::ShiftInwards);
    CHECK_THROWS_WITH(g.realize({6, 3}), Contains("Func narrow_explicit splits y by 4 with "
                                                  "TailStrategy::ShiftInwards") &&
                                             Contains("the extent of y is 3"));

    // In a specialization too.
    Param<int> wide("wide");
    Func h("narrow_specialized");
    h(x) = x;
    h.specialize(wide > 0).vectorize(x, 16);
    wide.set(1);
    CHECK_THROWS_WITH(h.realize({5}), Contains("narrow_specialized splits x by 16") &&
                                          Contains("the extent of x is 5"));
}

TEST_CASE("tail strategies that updates do not allow", "[error][schedule][reductions]") {
    Var x("x"), xo("xo"), xi("xi"), xio("xio"), xii("xii");
    RDom r(0, 4);

    Func out("roundup_output");
    out(x) = x;
    out(x) += r;
    out.update(0).split(x, xo, xi, 8, TailStrategy::RoundUp);
    CHECK_THROWS_AS(out.realize({10}), CompileError);
    CHECK_THROWS_WITH(out.realize({10}),
                      Contains("split of x in update 0 of Func roundup_output") &&
                          Contains("write beyond the output buffer") &&
                          Contains("TailStrategy::GuardWithIf"));

    Func f("roundup_inner"), g("roundup_inner_user");
    f(x) = x;
    f(x) += 1;
    g(x) = f(x);
    f.compute_root().update(0).split(x, xo, xi, 8).split(xi, xio, xii, 3, TailStrategy::RoundUp);
    CHECK_THROWS_WITH(g.realize({10}), Contains("update 0 of Func roundup_inner") &&
                                           Contains("inner loop of an earlier split") &&
                                           Contains("TailStrategy::GuardWithIf"));

    Func s("shift_update"), t("shift_update_user");
    s(x) = x;
    s(x) += 1;
    t(x) = s(x);
    s.compute_root().update(0).vectorize(x, 4, TailStrategy::ShiftInwards);
    CHECK_THROWS_WITH(t.realize({10}), Contains("update 0 of Func shift_update") &&
                                           Contains("TailStrategy::ShiftInwards") &&
                                           Contains("twice"));
}

TEST_CASE("undef() inside an expression", "[error][reductions]") {
    Var x("x");
    Func f("undef_expr");
    CHECK_THROWS_WITH((f(x) = undef<int>() * 2),
                      Contains("undef_expr") && Contains("inside an expression"));
    Func g("undef_expr_update");
    g(x) = x;
    CHECK_THROWS_WITH((g(x) = g(x) + undef<int>()),
                      Contains("undef_expr_update") && Contains("inside an expression"));
}

TEST_CASE("fold_storage along an inner loop while values cross the outer loop",
          "[error][schedule]") {
    Buffer<int> in(10, 6);
    Var x("x"), y("y");
    Func c = BoundaryConditions::repeat_edge(in);
    Func p("crossing"), out("crossing_out");
    p(x, y) = c(x, y);
    out(x, y) = p(x, y - 1) + p(x, y + 1);
    p.store_root().compute_at(out, x).fold_storage(x, 4);
    CHECK_THROWS_WITH(out.realize({10, 5}), Contains("fold_storage(x, 4) of Func crossing") &&
                                                Contains("values flow across the iterations"));
}
