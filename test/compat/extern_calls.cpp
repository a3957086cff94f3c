// HalideExtern_N / HalidePureExtern_N: pipelines that call the user's own C
// functions by name, found by the JIT in the process (the test program is
// linked with ENABLE_EXPORTS), compared with calling them from C++.

#include "Loom.h"
namespace Halide = loom;

#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <cstring>

using namespace Halide;
using Catch::Matchers::Contains;

namespace {
std::atomic<int> calls_made{0};
}

extern "C" {
// Exported for the JIT (the names are what the pipelines call).
float compat_extern_scale(float x) {
    return x * 2.5f + 1.0f;
}
int compat_extern_mix(int a, int b) {
    return a * 7 - b;
}
double compat_extern_three(double a, int b, float c) {
    return a / (b + 1) + double(c);
}
int compat_extern_four(int a, int b, int c, int d) {
    return ((a * 10 + b) * 10 + c) * 10 + d;
}
int compat_extern_five(int a, uint8_t b, int16_t c, float d, double e) {
    return a + b + c + int(d * 2) + int(e * 3);
}
int compat_extern_counted(int x) {
    calls_made++;
    return x + 1;
}
int compat_extern_strlen_plus(const char *s, int x) {
    return int(std::strlen(s)) + x;
}
}

HalidePureExtern_1(float, compat_extern_scale, float);
HalideExtern_2(int, compat_extern_mix, int, int);
HalideExtern_3(double, compat_extern_three, double, int, float);
LoomExtern_4(int, compat_extern_four, int, int, int, int);
HalideExtern_5(int, compat_extern_five, int, uint8_t, int16_t, float, double);
HalideExtern_1(int, compat_extern_counted, int);
HalideExtern_2(int, compat_extern_strlen_plus, const char *, int);
// Declared for pipelines only: no C function of this name exists.
HalideExtern_1(int, compat_extern_missing, int);

TEST_CASE("compat extern: HalideExtern_1 ... _5 call the user's C functions", "[compat][extern]") {
    Func f("f"), g("g"), h("h"), k("k"), m("m");
    Var x("x"), y("y");
    f(x) = compat_extern_scale(cast<float>(x));
    g(x, y) = compat_extern_mix(x, y);
    h(x) = compat_extern_three(cast<double>(x), x, cast<float>(x) * 0.5f);
    k(x) = compat_extern_four(x, x + 1, x + 2, x + 3);
    m(x) = compat_extern_five(x, cast<uint8_t>(x + 200), cast<int16_t>(-x), cast<float>(x) + 0.25f,
                              cast<double>(x) / 3);
    f.vectorize(x, 4); // called once per lane
    Buffer<float> fo = f.realize({10});
    Buffer<int> go = g.realize({5, 4});
    Buffer<double> ho = h.realize({7});
    Buffer<int> ko = k.realize({6});
    Buffer<int> mo = m.realize({9});
    for (int i = 0; i < 10; i++) CHECK(fo(i) == compat_extern_scale(float(i)));
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 5; i++) CHECK(go(i, j) == compat_extern_mix(i, j));
    for (int i = 0; i < 7; i++) CHECK(ho(i) == compat_extern_three(double(i), i, float(i) * 0.5f));
    for (int i = 0; i < 6; i++) CHECK(ko(i) == compat_extern_four(i, i + 1, i + 2, i + 3));
    for (int i = 0; i < 9; i++) {
        CHECK(mo(i) == compat_extern_five(i, uint8_t(i + 200), int16_t(-i), float(i) + 0.25f,
                                          double(i) / 3));
    }
}

TEST_CASE("compat extern: an impure extern runs once per point", "[compat][extern]") {
    Func f("f");
    Var x("x");
    f(x) = compat_extern_counted(x) * 3;
    f.vectorize(x, 4);
    calls_made = 0;
    Buffer<int> out = f.realize({8});
    CHECK(calls_made == 8);
    for (int i = 0; i < 8; i++) CHECK(out(i) == 3 * (i + 1));
}

TEST_CASE("compat extern: a Param<const char *> passed to a C function", "[compat][extern]") {
    Param<const char *> word("word");
    Func f("f");
    Var x("x");
    f(x) = compat_extern_strlen_plus(word, x);
    word.set("loom");
    Buffer<int> out = f.realize({4});
    for (int i = 0; i < 4; i++) CHECK(out(i) == 4 + i);
    word.set("halide!");
    out = f.realize({4});
    for (int i = 0; i < 4; i++) CHECK(out(i) == 7 + i);
}

TEST_CASE("compat extern: arguments of the wrong type are errors naming the function",
          "[compat][extern]") {
    Var x("x");
    CHECK_THROWS_WITH(compat_extern_scale(x),
                      Contains("Argument 1 of the extern function compat_extern_scale") &&
                          Contains("takes float32"));
    CHECK_THROWS_WITH(compat_extern_three(cast<double>(x), x, cast<double>(x)),
                      Contains("Argument 3 of the extern function compat_extern_three") &&
                          Contains("float64"));
    CHECK_THROWS_WITH(compat_extern_mix(x, Expr()),
                      Contains("Argument 2 of the extern function compat_extern_mix is undefined"));
}

TEST_CASE("compat extern: a C function the process does not have", "[compat][extern]") {
    Func f("f");
    Var x("x");
    f(x) = compat_extern_missing(x);
    CHECK_THROWS_WITH(f.realize({4}), Contains("calls the C function compat_extern_missing") &&
                                          Contains("-rdynamic"));
}
