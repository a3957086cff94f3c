// RDoms whose bounds are only known when the pipeline runs, as Halide
// allows them: from a Param, from an element of a Buffer, and from another
// Func's value (computed first). Each compared with plain C++.

#include "Loom.h"
namespace Halide = loom;

#include <catch2/catch.hpp>

using namespace Halide;

TEST_CASE("dynamic RDoms: bounds from a Param, a Buffer element and a Func",
          "[compat][dynamic_rdom]") {
    Var x("x");
    auto triangle = [](int n) { return n * (n - 1) / 2; };
    {
        Param<int> count("rdom_count");
        Func f("param_bounded");
        RDom r(0, count);
        f(x) = x;
        f(x) += r;
        for (int n : {0, 1, 9}) {
            count.set(n);
            Buffer<int> out = f.realize({3});
            for (int i = 0; i < 3; i++) CHECK(out(i) == i + triangle(n));
        }
    }
    {
        Buffer<int> sizes(2);
        sizes(0) = 2;
        sizes(1) = 7;
        Func f("buffer_bounded");
        RDom r(sizes(Expr(0)), sizes(Expr(1)) - sizes(Expr(0)));
        f(x) = 0;
        f(x) += r * (x + 1);
        Buffer<int> out = f.realize({4});
        for (int i = 0; i < 4; i++) CHECK(out(i) == (2 + 3 + 4 + 5 + 6) * (i + 1));
    }
    {
        Func n("func_count");
        n() = 6;
        Func f("func_bounded");
        RDom r(1, n());
        f(x) = 1;
        f(x) *= r + x;
        Buffer<int> out = f.realize({3});
        for (int i = 0; i < 3; i++) {
            int v = 1;
            for (int k = 1; k <= 6; k++) v *= k + i;
            CHECK(out(i) == v);
        }
    }
}
