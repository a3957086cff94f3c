// The simplifier's constant ranges walk an expression as a tree. Bounds of
// fused loops build DAGs whose shared subexpressions unfold exponentially as
// a tree; the walk stops after a fixed number of nodes and answers with the
// type's range, so such an expression costs bounded time (before, the DAG
// below would have taken 2^64 steps) and the answer stays sound.

#include <catch2/catch.hpp>

#include "analysis/Simplify_Internal.h"
#include "simplify_test_util.h"

using namespace loom;
using namespace loom::Internal;
using namespace loom::Internal::test_ir;

TEST_CASE("const_bounds of a deep shared DAG ends and stays sound", "[simplify]") {
    Scope<Interval> none;
    Simplifier s(none);
    ScopedBinding<ConstBounds> x_range(s.var_bounds, "x", ConstBounds::range(0, 10));

    // Small: exact.
    Expr small = add(min(var("x"), i32(4)), i32(1));
    ConstBounds b = s.const_bounds(small);
    CHECK((b.has_min && b.min == 1 && b.has_max && b.max == 5));

    // Each level uses the previous one twice: a tree of 2^64 nodes.
    Expr e = var("x");
    for (int i = 0; i < 64; i++) e = max(min(e, i32(100)), e);
    ConstBounds deep = s.const_bounds(e);
    // Sound: whatever is known must hold for x in [0, 10] (e == x).
    CHECK((!deep.has_min || deep.min <= 0));
    CHECK((!deep.has_max || deep.max >= 10));

    // The budget is per top-level call: a small expression afterwards is
    // exact again.
    b = s.const_bounds(small);
    CHECK((b.has_min && b.min == 1 && b.has_max && b.max == 5));
}
