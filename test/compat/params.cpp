// Param in Halide's shapes (Param<void>, Param(Type), unnamed Params with a
// range) and estimates on Params, buffer dimensions and Funcs.

#include "Loom.h"
namespace Halide = loom;

#include <catch2/catch.hpp>

#include <string>

using namespace Halide;
using Catch::Matchers::Contains;

TEST_CASE("compat params: Param<void> takes its type at run time", "[compat][params]") {
    Param<void> p(Int(16), "p");
    CHECK(p.type() == Int(16));
    CHECK(p.name() == "p");
    p.set(300);
    CHECK(p.get<int16_t>() == 300);
    Param<> q(Float(32));
    CHECK(q.type() == Float(32));
    CHECK_FALSE(q.name().empty());
    q.set(0.25);
    Var x("x");
    Func f("f");
    f(x) = Tuple(x + p, cast<float>(x) * q);
    Realization r = f.realize({10});
    Buffer<int> a = r[0];
    Buffer<float> b = r[1];
    for (int i = 0; i < 10; i++) {
        CHECK(a(i) == i + 300);
        CHECK(b(i) == float(i) * 0.25f);
    }
}

TEST_CASE("compat params: values must convert without loss", "[compat][params]") {
    Param<void> p(Int(16), "narrow");
    CHECK_THROWS_WITH(p.set(70000),
                      Contains("70000") && Contains("int16") && Contains("Param narrow"));
    CHECK_THROWS_WITH(p.get<int>(), Contains("Param narrow has type int16") &&
                                        Contains("cannot be read as int32"));
    Param<float> f("f");
    f.set(0.5);
    CHECK(f.get() == 0.5f);
    CHECK_THROWS_WITH(f.set(0.1), Contains("float32") && Contains("without loss"));
    Param<uint8_t> u("u");
    CHECK_THROWS_WITH(u.set(-1), Contains("uint8"));
    u.set(255.0);
    CHECK(u.get() == 255);
    Param<int> i("i");
    CHECK_THROWS_WITH(i.set(2.5), Contains("int32"));
}

TEST_CASE("compat params: unnamed Params with a value and a range", "[compat][params]") {
    Param<int> k(5, 0, 10);
    CHECK_FALSE(k.name().empty());
    CHECK(k.get() == 5);
    Param<float> s(1.5f);
    CHECK(s.get() == 1.5f);
    Param<int> named("named", 3, 1, 4);
    CHECK(named.get() == 3);
    Var x;
    Func f;
    f(x) = x * k + named;
    Buffer<int> out = f.realize({4});
    for (int i = 0; i < 4; i++) CHECK(out(i) == i * 5 + 3);
    k.set(20); // outside [0, 10]: refused when the pipeline runs
    CHECK_THROWS_AS(f.realize({4}), RuntimeError);
}

TEST_CASE("compat params: estimates are stored for auto-schedulers", "[compat][params]") {
    Param<int> width("width");
    width.set_estimate(1920);
    REQUIRE(width.estimate().defined());
    CHECK(width.parameter().estimate().type() == Int(32));

    ImageParam in(UInt(8), 2, "in");
    in.dim(0).set_estimate(0, 1920);
    CHECK(in.dim(0).min_estimate().defined());
    CHECK(in.dim(0).extent_estimate().defined());
    CHECK_FALSE(in.dim(1).min_estimate().defined());
    in.set_estimates({{0, 1920}, {0, 1080}});
    CHECK(in.dim(1).extent_estimate().defined());

    Var x("x"), y("y");
    Func f("f");
    f(x, y) = in(x, y) + 1;
    f.set_estimate(x, 0, 1920).set_estimate(y, 0, 1080);
    REQUIRE(f.function().schedule().estimates.size() == 2);
    CHECK(f.function().schedule().estimates[0].var == "x");
    f.set_estimates({{0, 640}, {0, 480}}); // replaces them
    CHECK(f.function().schedule().estimates.size() == 2);
    f.output_buffer().set_estimates({{0, 640}, {0, 480}});
    CHECK(f.output_buffer().dim(0).extent_estimate().defined());

    // Estimates change nothing about what is computed.
    Buffer<uint8_t> input(8, 6);
    input.fill(41);
    in.set(input);
    Buffer<uint8_t> out = f.realize({8, 6});
    CHECK(out(7, 5) == 42);
}

TEST_CASE("compat params: estimates are checked", "[compat][params]") {
    Var x("x"), y("y"), z("z");
    Func f("est");
    f(x, y) = x + y;
    CHECK_THROWS_WITH(f.set_estimate(z, 0, 10),
                      Contains("Func est") && Contains("z is not one of its pure Vars (x, y)"));
    CHECK_THROWS_WITH(f.set_estimates({{0, 10}}),
                      Contains("est") && Contains("1 ranges for its 2 dimensions"));
    ImageParam in(Float(32), 3, "img");
    CHECK_THROWS_WITH(in.set_estimates({{0, 1}}), Contains("img") && Contains("3 dimensions"));
    CHECK_THROWS_WITH(in.dim(0).set_estimate(0, 1.5f), Contains("img") && Contains("integer"));
}
