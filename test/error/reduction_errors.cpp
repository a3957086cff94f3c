// Errors in reductions: races, bad rfactor, bad left-hand sides, undefined
// Funcs in updates, misuse of RDoms. Each is a CompileError naming the Func.

#include <catch2/catch.hpp>

#include "Loom.h"

using namespace loom;
using Catch::Contains;

TEST_CASE("parallel or vectorized RVars that race suggest atomic() and rfactor",
          "[error][reductions]") {
    Buffer<uint8_t> im(16, 16);
    Func hist("race_hist");
    Var i("i");
    RDom r(0, 16, 0, 16);
    hist(i) = 0;
    hist(cast<int>(im(r.x, r.y))) += 1;
    hist.update(0).parallel(r.y);
    CHECK_THROWS_WITH(hist.realize({256}), Contains("race condition") && Contains("atomic()") &&
                                               Contains("rfactor()") && Contains(r.y.name()) &&
                                               Contains("race_hist"));

    Func s("race_sum");
    Var x("x");
    RDom k(0, 10);
    s(x) = 0;
    s(x) += k;
    s.update(0).vectorize(k, 4);
    CHECK_THROWS_WITH(s.realize({4}),
                      Contains("race_sum") && Contains("vectorized") && Contains("atomic()"));
}

TEST_CASE("rfactor of a non-associative update is an error", "[error][reductions]") {
    Func f("nonassoc");
    Var x("x"), u("u");
    RDom r(0, 10, 0, 4);
    f(x) = 1;
    f(x) = f(x) * 2 - r.x;
    CHECK_THROWS_WITH(f.update(0).rfactor(r.y, u),
                      Contains("nonassoc") && Contains("not an associative"));
    Func g("rf_bad_var");
    g(x) = 0;
    g(x) += r.x + r.y;
    RDom other(0, 3);
    CHECK_THROWS_WITH(g.update(0).rfactor(RVar(other), u),
                      Contains("rf_bad_var") && Contains("not a dimension of its RDom"));
    CHECK_THROWS_WITH(g.update(0).rfactor(r.y, x), Contains("already a pure Var"));
    CHECK_THROWS_WITH(g.rfactor(r.y, u).rfactor(r.x, u), Contains("already a pure Var"));
    Func p("pure_only");
    p(x) = x;
    CHECK_THROWS_WITH(Stage(p.function(), 0).rfactor(r.x, u), Contains("only update definitions"));
}

TEST_CASE("bad left-hand sides of updates name the Func and the Var", "[error][reductions]") {
    Func f("lhs_func");
    Var x("x"), y("y"), z("z");
    f(x, y) = x + y;
    CHECK_THROWS_WITH((f(y, x) = 1), Contains("lhs_func") && Contains("Var y is argument 0") &&
                                         Contains("keep its position"));
    CHECK_THROWS_WITH((f(x, y) = z), Contains("lhs_func") && Contains("Var z"));
    RDom r(0, 3);
    CHECK_THROWS_WITH((f(x, r) = y), Contains("Var y") && Contains("not itself an argument"));
    CHECK_THROWS_WITH((f(x) = 1), Contains("lhs_func") && Contains("1 arguments"));
    CHECK_THROWS_WITH((f(x, y) = 1.5f), Contains("lhs_func") && Contains("cast it"));
    RDom r2(0, 4);
    CHECK_THROWS_WITH((f(x, y) = f(x, y) + r + r2), Contains("two different RDoms"));
}

TEST_CASE("updates of undefined Funcs and RVars in pure definitions", "[error][reductions]") {
    Func f("never_defined");
    Var x("x");
    RDom r(0, 4);
    CHECK_THROWS_WITH((f(r) = 1), Contains("never_defined") && Contains("not a Var"));
    CHECK_THROWS_WITH((f(x + 1) = 1), Contains("never_defined"));
    Func g("uses_undefined");
    g(x) = 0;
    CHECK_THROWS_WITH((g(x) = g(x) + f(x)), Contains("never_defined"));
    Func h("pure_rvar");
    CHECK_THROWS_WITH((h(x) = x + r), Contains("pure_rvar") && Contains("RVar"));
    Func u("undef_pure");
    // A whole undef() value is fine (it stores nothing); inside an expression it is not.
    CHECK_THROWS_WITH((u(x) = undef<int>() + 1),
                      Contains("undef_pure") && Contains("inside an expression"));
    Func k("reduced");
    k(x) = 0;
    k(x) += r;
    CHECK_THROWS_WITH(r.where(r > 2), Contains("where()") && Contains("after an update"));
    CHECK_THROWS_WITH(sum(x + 1), Contains("uses no RVar"));
}

TEST_CASE("splitting RVars of an update takes only GuardWithIf tails", "[error][reductions]") {
    Func f("tail_update");
    Var x("x");
    RDom r(0, 10);
    f(x) = 0;
    f(x) += r;
    RVar ro("ro"), ri("ri");
    f.update(0).split(r, ro, ri, 3, TailStrategy::RoundUp);
    CHECK_THROWS_WITH(f.realize({3}), Contains("tail_update") && Contains("GuardWithIf"));
}

TEST_CASE("reordering the RVars of a non-associative update is an error", "[error][reductions]") {
    Func f("ordered_scan");
    Var x("x");
    RDom r(0, 5, 0, 5);
    f(x) = 0;
    f(x) = f(x) * 2 + r.x * r.y;
    f.update(0).reorder(r.y, r.x);
    CHECK_THROWS_WITH(f.realize({3}), Contains("ordered_scan") && Contains("not associative") &&
                                          Contains("Keep the RVars' loops in order"));
}

TEST_CASE("rfactor after scheduling pure Vars of the update is an error", "[error][reductions]") {
    Func f("rf_pure_split");
    Var x("x"), xo("xo"), xi("xi"), u("u");
    RDom r(0, 10, 0, 4);
    f(x) = 0;
    f(x) += r.x + r.y;
    f.update(0).split(x, xo, xi, 4);
    CHECK_THROWS_WITH(f.update(0).rfactor(r.y, u), Contains("rf_pure_split") &&
                                                       Contains("pure Var x") &&
                                                       Contains("only RVars"));
    Func g("rf_split_away");
    RVar ro("ro"), ri("ri");
    g(x) = 0;
    g(x) += r.x + r.y;
    g.update(0).split(r.y, ro, ri, 2);
    // r.y is no longer a loop; its parts are.
    CHECK_THROWS_WITH(g.update(0).rfactor(r.y, u),
                      Contains("rf_split_away") && Contains("not a dimension") && Contains(".ro"));
}

TEST_CASE("a scatter to bins the data chooses without a bound asks for a clamp",
          "[error][reductions]") {
    // A float of unknown range converted to int32 bounded the bins by
    // int32's whole range, whose 32-bit extent wrapped to zero: the
    // histogram was allocated empty and written at -2^31 + 1 (a crash).
    Buffer<float> values(64);
    Buffer<int32_t> indices(64);
    for (int i = 0; i < 64; i++) {
        values(i) = float(i % 8) / 8.0f;
        indices(i) = i % 8;
    }
    Var x("x");
    RDom r(0, 64, "r");
    auto histogram = [&](const std::string &name, Expr bin) {
        Func h(name), out(name + "_out");
        h(x) = 0;
        h(bin) += 1;
        out(x) = h(x) * 2;
        return out;
    };
    CHECK_THROWS_WITH(histogram("from_floats", cast<int>(values(r) * 8.0f)).realize({8}),
                      Contains("Func from_floats") && Contains("without a bound") &&
                          Contains("dimension 0 (x)") && Contains("clamp the coordinates"));
    CHECK_THROWS_WITH(histogram("from_ints", indices(r)).realize({8}),
                      Contains("Func from_ints") && Contains("clamp the coordinates"));
    // Clamped, both count each bin's 8 values.
    for (Expr bin : {cast<int>(clamp(values(r), 0.0f, 1.0f) * 8.0f), clamp(indices(r), 0, 7)}) {
        Buffer<int> counts = histogram("clamped", bin).realize({8});
        for (int i = 0; i < 8; i++) CHECK(counts(i) == 16);
    }
}
