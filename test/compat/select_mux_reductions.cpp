// select and mux over Tuples and Func calls, inline reductions (including
// saturating_sum, reductions over Func calls and nested RDoms) and
// evaluate<T>, as a Halide user writes them.

#include "CompatCommon.h"

#include <algorithm>

using namespace Halide;
using Catch::Matchers::Contains;

TEST_CASE("select and mux over Tuples and Func calls", "[compat][select]") {
    Var x("x");
    Func f("f"), g("g");
    f(x) = x * 2;
    g(x) = x * 3;
    Func sel("sel"), sel_multi("sel_multi"), sel_tuple_cond("sel_tuple_cond"),
        sel_funcs("sel_funcs"), mux_tuples("mux_tuples"), mux_of_tuple("mux_of_tuple"),
        mux_funcs("mux_funcs"), mux_literals("mux_literals");
    sel(x) = select(x < 5, Tuple(x, 1.5f), Tuple(-x, 2.5f));
    sel_multi(x) = select(x < 3, Tuple(x, x), x < 6, Tuple(10 * x, x), Tuple(100 * x, -x));
    sel_tuple_cond(x) = select(Tuple(x<4, x> 6), Tuple(1, 2), Tuple(3, 4));
    sel_funcs(x) = select(x % 2 == 0, f(x), g(x));
    mux_tuples(x) = mux(x % 4 - 1, {Tuple(x, 0), Tuple(2 * x, 1), Tuple(3 * x, 2)});
    mux_of_tuple(x) = mux(x % 3, Tuple(x, x + 100, x + 200));
    mux_funcs(x) = mux(x % 2, {f(x), g(x)});
    mux_literals(x) = mux(x % 5 - 1, {10, 20, 30});
    compat::for_each_backend([&](bool) {
        Realization a = sel.realize({10}), b = sel_multi.realize({10}),
                    c = sel_tuple_cond.realize({10}), m = mux_tuples.realize({10});
        Buffer<int> sf = sel_funcs.realize({10}), mt = mux_of_tuple.realize({10}),
                    mf = mux_funcs.realize({10}), ml = mux_literals.realize({10});
        for (int i = 0; i < 10; i++) {
            INFO("x = " << i);
            CHECK(Buffer<int>(a[0])(i) == (i < 5 ? i : -i));
            CHECK(Buffer<float>(a[1])(i) == (i < 5 ? 1.5f : 2.5f));
            CHECK(Buffer<int>(b[0])(i) == (i < 3 ? i : i < 6 ? 10 * i : 100 * i));
            CHECK(Buffer<int>(b[1])(i) == (i < 3 ? i : i < 6 ? i : -i));
            CHECK(Buffer<int>(c[0])(i) == (i < 4 ? 1 : 3));
            CHECK(Buffer<int>(c[1])(i) == (i > 6 ? 2 : 4));
            CHECK(sf(i) == (i % 2 == 0 ? 2 * i : 3 * i));
            // An index out of range (negative too) picks the last value, as in Halide.
            int k = i % 4 - 1;
            int pick = k < 0 || k > 2 ? 2 : k;
            CHECK(Buffer<int>(m[0])(i) == (pick + 1) * i);
            CHECK(Buffer<int>(m[1])(i) == pick);
            CHECK(mt(i) == i + 100 * (i % 3));
            CHECK(mf(i) == (i % 2 ? 3 * i : 2 * i));
            int j = i % 5 - 1;
            CHECK(ml(i) == (j == 0 ? 10 : j == 1 ? 20 : 30));
        }
    });
}

TEST_CASE("inline reductions: saturating_sum, over Func calls, and nested RDoms",
          "[compat][reductions]") {
    Buffer<uint8_t> in(64);
    for (int i = 0; i < 64; i++) in(i) = uint8_t(i * 37 % 256);
    Var x("x");
    RDom r(0, 8);
    Func sat("sat"), plain("plain"), f("f"), over_func("over_func"), nested("nested");
    sat(x) = saturating_sum(in(x + r));
    plain(x) = sum(in(x + r)); // wraps in uint8
    f(x) = cast<int>(in(x)) - 100;
    over_func(x) = maximum(f(x + r)) + minimum(r, f(x + r));
    // Only the explicit RDom is reduced; the other RDom's RVar stays free.
    RDom r1(0, 4), r2(0, 3);
    nested(x) = minimum(r1, sum(r2, f(x + r1 + 2 * r2)));
    Func sat_explicit("sat_explicit");
    sat_explicit(x) = saturating_sum(r, cast<int8_t>(in(x + r)) / 2);
    compat::for_each_backend([&](bool) {
        Realization out = Pipeline({sat, plain, over_func, nested, sat_explicit}).realize({40});
        for (int i = 0; i < 40; i++) {
            int s = 0, s8 = 0, mx = -1000, mn = 1000;
            int sat8 = 0;
            for (int k = 0; k < 8; k++) {
                s = std::min(255, s + in(i + k));
                s8 += in(i + k);
                int v = int(in(i + k)) - 100;
                mx = std::max(mx, v), mn = std::min(mn, v);
                int t = int8_t(in(i + k)) / 2;
                if (int8_t(in(i + k)) < 0 && int8_t(in(i + k)) % 2) t -= 1; // floor division
                sat8 = std::max(-128, std::min(127, sat8 + t));
            }
            int best = 1 << 30;
            for (int a = 0; a < 4; a++) {
                int total = 0;
                for (int b = 0; b < 3; b++) total += int(in(i + a + 2 * b)) - 100;
                best = std::min(best, total);
            }
            INFO("x = " << i);
            CHECK(Buffer<uint8_t>(out[0])(i) == s);
            CHECK(Buffer<uint8_t>(out[1])(i) == uint8_t(s8));
            CHECK(Buffer<int>(out[2])(i) == mx + mn);
            CHECK(Buffer<int>(out[3])(i) == best);
            CHECK(Buffer<int8_t>(out[4])(i) == sat8);
        }
    });
}

TEST_CASE("evaluate compiles and runs a scalar expression", "[compat][evaluate]") {
    CHECK(evaluate<int>(Expr(6) * 7) == 42);
    CHECK(evaluate<uint8_t>(saturating_add(cast<uint8_t>(200), cast<uint8_t>(100))) == 255);
    CHECK(evaluate<float>(fast_sin(Expr(0.5f))) == Approx(std::sin(0.5f)).margin(1e-5));
    Param<int> p("p");
    p.set(5);
    CHECK(evaluate<int>(p * p) == 25);
    int a = 0;
    float b = 0;
    evaluate(Tuple(Expr(3), Expr(0.25f)), &a, &b);
    CHECK(a == 3);
    CHECK(b == 0.25f);
    CHECK_THROWS_WITH(evaluate<float>(Expr(1) + 2), Contains("type int32") && Contains("float"));
}
