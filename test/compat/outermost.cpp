// Var::outermost(): a Func computed or stored at the outermost level of a
// consumer's loop nest, inside its production but outside all its loops,
// as in Halide (compute_at(f, Var::outermost())).

#include "Loom.h"
namespace Halide = loom;

#include <catch2/catch.hpp>

#include <string>

using namespace Halide;
using Catch::Matchers::Contains;

namespace {

/** Where `needle` first appears in `hay` (npos when it does not). */
size_t at(const std::string &hay, const std::string &needle) {
    return hay.find(needle);
}

} // namespace

TEST_CASE("compat outermost: compute_at(f, Var::outermost()) computes once per production of f",
          "[compat][outermost]") {
    Func g("g"), f("f"), h("h");
    Var x("x"), y("y");
    g(x, y) = x * 3 + y;
    f(x, y) = g(x, y) + g(x + 1, y);
    h(x, y) = f(x, y) * 2;
    f.compute_at(h, y);
    g.compute_at(f, Var::outermost());
    CHECK(Var::outermost().name() == "__outermost");

    std::string nest = Pipeline(h).loop_nest();
    INFO(nest);
    // g is produced inside f's production, before f's own loops, and inside
    // h's loop over y.
    size_t h_y = at(nest, "for y"), produce_f = at(nest, "produce f"),
           produce_g = at(nest, "produce g"), f_store = at(nest, "f(...) =");
    REQUIRE(produce_g != std::string::npos);
    CHECK(h_y < produce_f);
    CHECK(produce_f < produce_g);
    CHECK(produce_g < f_store);
    // g's loops are its own: none of f's loops is around them.
    CHECK(nest.substr(produce_f, produce_g - produce_f).find("for y") == std::string::npos);

    Buffer<int> out = h.realize({10, 6});
    for (int j = 0; j < 6; j++) {
        for (int i = 0; i < 10; i++) {
            int expected = ((i * 3 + j) + ((i + 1) * 3 + j)) * 2;
            CHECK(out(i, j) == expected);
        }
    }
}

TEST_CASE("compat outermost: store_at(f, Var::outermost()) with compute_at an inner loop",
          "[compat][outermost]") {
    Func g("g"), f("f");
    Var x("x"), y("y");
    RDom r(0, 3);
    g(x, y) = x + y * 100;
    f(x, y) = 0;
    f(x, y) += g(x + r, y);
    g.store_at(f, Var::outermost()).compute_at(f, y);
    std::string nest = Pipeline(f).loop_nest();
    INFO(nest);
    // The storage of g (realize or allocation) is outside the loops of f.
    CHECK_THAT(nest, Contains("produce g"));

    Buffer<int> out = f.realize({8, 5});
    for (int j = 0; j < 5; j++) {
        for (int i = 0; i < 8; i++) {
            int expected = 0;
            for (int k = 0; k < 3; k++) expected += (i + k) + j * 100;
            CHECK(out(i, j) == expected);
        }
    }
}

TEST_CASE("compat outermost: at the outermost level of an update stage", "[compat][outermost]") {
    Func g("g"), f("f");
    Var x("x");
    RDom r(0, 4);
    g(x) = x * x;
    f(x) = x;
    f(r) = f(r) + g(r) + g(r + 10);
    g.compute_at(f, Var::outermost());
    Buffer<int> out = f.realize({6});
    for (int i = 0; i < 6; i++) {
        int expected = i < 4 ? i + i * i + (i + 10) * (i + 10) : i;
        CHECK(out(i) == expected);
    }
}

TEST_CASE("compat outermost: errors name the Func and the legal levels", "[compat][outermost]") {
    Func g("g"), f("f"), other("other");
    Var x("x");
    g(x) = x;
    f(x) = g(x) + 1;
    other(x) = x * 2;
    // other does not use g: its outermost level cannot hold g.
    Func out("out");
    out(x) = f(x) + other(x);
    f.compute_root();
    other.compute_root();
    g.compute_at(other, Var::outermost());
    CHECK_THROWS_WITH(out.realize({4}), Contains("Func g is computed at other.__outermost") &&
                                            Contains("does not use g"));
    // g stored at f's outermost level but computed at root (outside it).
    g.compute_root().store_at(f, Var::outermost());
    CHECK_THROWS_WITH(out.realize({4}), Contains("Func g is stored at f.__outermost"));
}
