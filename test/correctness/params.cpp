// Scalar Params and ImageParams: values and buffers change between runs
// without recompiling, and the results follow them.

#include <catch2/catch.hpp>

#include "Loom.h"
#include "frontend/JITStats.h"
#include "ir/IR.h"

using namespace loom;

TEST_CASE("scalar Params of several types feed the pipeline", "[correctness][params]") {
    Param<int32_t> offset("offset");
    Param<float> scale("scale", 2.5f);
    Param<uint8_t> small("small");
    Param<double> big("big");
    Var x("x");
    Func f("param_user");
    f(x) = cast<float>(x + offset) * scale + cast<float>(small) + cast<float>(big);

    offset.set(10);
    small.set(200);
    big.set(-0.5);
    CHECK(offset.get() == 10);
    CHECK(scale.get() == 2.5f);
    CHECK(small.get() == 200);
    CHECK(big.get() == -0.5);

    Buffer<float> out = f.realize({8});
    for (int i = 0; i < 8; i++) CHECK(out(i) == float(i + 10) * 2.5f + 200.0f - 0.5f);

    uint64_t compiles = Internal::pipeline_jit_compilations();
    offset.set(-3);
    scale.set(0.5f);
    out = f.realize({8});
    for (int i = 0; i < 8; i++) CHECK(out(i) == float(i - 3) * 0.5f + 200.0f - 0.5f);
    CHECK(Internal::pipeline_jit_compilations() == compiles);
}

TEST_CASE("Param expressions are Variables of the Param's type", "[frontend][params]") {
    Param<uint16_t> p("p16");
    Expr e = p;
    CHECK(e.type() == UInt(16));
    CHECK((p + 1).type() == UInt(16));
    CHECK(p.name() == "p16");
    Param<int> unnamed;
    Param<int> other;
    CHECK(unnamed.name() != other.name());
}

TEST_CASE("ImageParams read whichever buffer is bound", "[correctness][params]") {
    ImageParam in(UInt(8), 2, "img");
    Var x("x"), y("y");
    Func f("img_user");
    f(x, y) = cast<int>(in(x, y)) * 2 + in.width();

    Buffer<uint8_t> a(6, 4), b(10, 3);
    a.for_each_element([&](const std::vector<int> &p) { a(p) = uint8_t(p[0] + p[1] * 6); });
    b.for_each_element([&](const std::vector<int> &p) { b(p) = uint8_t(255 - p[0]); });

    in.set(a);
    Buffer<int> out = f.realize({6, 4});
    out.for_each_element([&](const std::vector<int> &p) { CHECK(out(p) == a(p) * 2 + 6); });

    uint64_t compiles = Internal::pipeline_jit_compilations();
    in.set(b);
    Buffer<int> out2 = f.realize({10, 3});
    out2.for_each_element([&](const std::vector<int> &p) { CHECK(out2(p) == b(p) * 2 + 10); });
    CHECK(Internal::pipeline_jit_compilations() == compiles);
}

TEST_CASE("ImageParam dimensions are symbolic", "[frontend][params]") {
    ImageParam in(Float(32), 3, "sym");
    CHECK(in.dimensions() == 3);
    CHECK(in.type() == Float(32));
    CHECK(in.dim(1).min().type() == Int(32));
    // Keep the Exprs alive: as<>() returns a pointer into the node.
    Expr extent = in.dim(2).extent();
    const auto *v = extent.as<Internal::Variable>();
    REQUIRE(v);
    CHECK(v->name == "sym.extent.2");
    Expr stride = in.dim(0).stride();
    const auto *s = stride.as<Internal::Variable>();
    REQUIRE(s);
    CHECK(s->name == "sym.stride.0");
    in.dim(0).set_stride(1);
    CHECK(in.parameter().constraint(0).stride.defined());
    CHECK_THROWS_AS(in.dim(3), CompileError);
}

TEST_CASE("Param ranges are checked when the pipeline runs", "[correctness][params]") {
    Param<int> k("bounded_k");
    k.set_range(0, 10);
    Var x("x");
    Func f("range_user");
    f(x) = x + k;
    k.set(5);
    Buffer<int> out = f.realize({4});
    CHECK(out(3) == 8);
    k.set(11);
    CHECK_THROWS_WITH(f.realize({4}), Catch::Contains("bounded_k"));
    k.set(-1);
    CHECK_THROWS_AS(f.realize({4}), RuntimeError);
}

TEST_CASE("changing a Param's range after compiling recompiles", "[correctness][params]") {
    Param<int> k("late_range_k");
    Var x("x");
    Func f("late_range_user");
    f(x) = x + k;
    k.set(50);
    Buffer<int> out = f.realize({2});
    CHECK(out(1) == 51);
    uint64_t compiles = Internal::pipeline_jit_compilations();
    k.set_range(0, 10);
    CHECK_THROWS_WITH(f.realize({2}), Catch::Contains("late_range_k"));
    CHECK(Internal::pipeline_jit_compilations() == compiles + 1);
}
