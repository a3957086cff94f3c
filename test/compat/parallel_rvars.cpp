// Parallel and reordered RVars of updates whose iterations never touch the
// same element (scatters such as f(r * 2) = ...), as Halide accepts them:
// each compared with plain C++, and the loop checked to be parallel. Updates
// whose iterations may meet stay errors.

#include "Loom.h"
namespace Halide = loom;

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "../common/ScratchFile.h"

using namespace Halide;
using Catch::Matchers::Contains;

namespace {

/** The lowered statement of f, as text. */
std::string lowered(Func f, const std::string &tag) {
    loom_test::ScratchFile file("parallel_rvars", tag + ".stmt");
    f.compile_to_lowered_stmt(file.path, {});
    return loom_test::read_text(file.path);
}

} // namespace

TEST_CASE("parallel RVars: strided and offset scatters run in parallel",
          "[compat][parallel_rvars]") {
    Func f("strided_scatter");
    Var x("x");
    RDom r(0, 50);
    f(x) = -1;
    f(r * 2) = r * 3;        // even elements
    f(99 - r) += 1;          // reversed: odd elements get 1 more than before
    f(r + 3) = f(r + 3) * 2; // reads only the element it writes
    f.update(0).parallel(r);
    f.update(1).parallel(r);
    f.update(2).parallel(r);
    Buffer<int> out = f.realize({100});

    std::vector<int> ref(100, -1);
    for (int i = 0; i < 50; i++) ref[size_t(i * 2)] = i * 3;
    for (int i = 0; i < 50; i++) ref[size_t(99 - i)] += 1;
    for (int i = 0; i < 50; i++) ref[size_t(i + 3)] *= 2;
    for (int i = 0; i < 100; i++) CHECK(out(i) == ref[size_t(i)]);

    std::string stmt = lowered(f, "strided");
    CHECK_THAT(stmt, Contains("parallel"));
}

TEST_CASE("parallel RVars: a 2-D scatter may reorder and parallelize its RVars",
          "[compat][parallel_rvars]") {
    // Transposed writes: every (r.x, r.y) has its own element, so neither the
    // order of the loops nor running one in parallel changes the result.
    Func f("transposed_scatter");
    Var x("x"), y("y");
    RDom r(0, 12, 0, 9);
    f(x, y) = 0;
    f(r.y, r.x) = f(r.y, r.x) * 7 + r.x + r.y * 100;
    f.update(0).reorder(r.y, r.x).parallel(r.x).vectorize(r.y, 4);
    Buffer<int> out = f.realize({9, 12});
    for (int j = 0; j < 12; j++)
        for (int i = 0; i < 9; i++) CHECK(out(i, j) == j + i * 100);
    CHECK_THAT(lowered(f, "transposed"), Contains("parallel"));
}

TEST_CASE("parallel RVars: an independent RVar moves around an ordered one",
          "[compat][parallel_rvars]") {
    // f(r.x) = f(r.x) * 3 + r.y is not associative in r.y, but r.x picks the
    // element: each element still sees r.y in order when r.x's loop moves
    // inside it, or runs in parallel.
    Func f("row_scan");
    Var x("x");
    RDom r(0, 16, 0, 5);
    f(x) = x;
    f(r.x) = f(r.x) * 3 + r.y;
    f.update(0).reorder(r.y, r.x).parallel(r.x);
    Buffer<int> out = f.realize({16});
    for (int i = 0; i < 16; i++) {
        int v = i;
        for (int k = 0; k < 5; k++) v = v * 3 + k;
        CHECK(out(i) == v);
    }
}

TEST_CASE("parallel RVars: iterations that may meet stay errors", "[compat][parallel_rvars]") {
    Var x("x");
    {
        // r.x + r.y: different r.x meet at the same element.
        Func f("diagonal_sum");
        RDom r(0, 8, 0, 8);
        f(x) = 0;
        f(r.x + r.y) += 1;
        f.update(0).parallel(r.x);
        CHECK_THROWS_WITH(f.realize({15}), Contains("diagonal_sum") && Contains("race condition") &&
                                               Contains("atomic()"));
    }
    {
        // Reads a neighbour another iteration writes.
        Func f("neighbour_scan");
        RDom r(1, 20);
        f(x) = x;
        f(r * 2) = f(r * 2 - 2) + 1;
        f.update(0).parallel(r);
        CHECK_THROWS_WITH(f.realize({42}),
                          Contains("neighbour_scan") && Contains("race condition"));
    }
    {
        // A coordinate that is not linear in the RVar.
        Func f("square_scatter");
        RDom r(0, 6);
        f(x) = 0;
        f(r * r) = r;
        f.update(0).parallel(r);
        CHECK_THROWS_WITH(f.realize({36}),
                          Contains("square_scatter") && Contains("race condition"));
    }
    {
        // Two ordered RVars may not swap, even beside an independent one.
        Func f("ordered_pair");
        RDom r(0, 4, 0, 3, 0, 3);
        f(x) = 1;
        f(r.x) = f(r.x) * 2 + r.y - r.z;
        f.update(0).reorder(r.x, r.z, r.y);
        CHECK_THROWS_WITH(f.realize({4}),
                          Contains("ordered_pair") && Contains("Keep the RVars' loops in order"));
    }
}
