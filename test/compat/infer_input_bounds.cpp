// infer_input_bounds and infer_arguments as Halide code uses them, the
// input constraints bounds inference must honour (dim(i).set_bounds,
// set_extent, set_min), and ImageParams reached only through their shape.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>

#include "Loom.h"

namespace Halide = loom;
using namespace Halide;

using Catch::Matchers::Contains;

TEST_CASE("Func::infer_input_bounds binds a Buffer of the region read", "[compat][bounds]") {
    ImageParam input(Int(32), 2, "input");
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = input(x + 1, y) + input(x, y + 2) * 3;
    f.infer_input_bounds({10, 8});
    Buffer<int> in = input.get();
    REQUIRE(in.defined());
    CHECK(in.dim(0).min() == 0);
    CHECK(in.dim(0).extent() == 11);
    CHECK(in.dim(1).min() == 0);
    CHECK(in.dim(1).extent() == 10);
    CHECK(in.dim(0).stride() == 1);
    CHECK(in.dim(1).stride() == 11);

    in.fill([](int i, int j) { return i * 7 - j; });
    Buffer<int> out = f.realize({10, 8});
    out.for_each_element(
        [&](int i, int j) { REQUIRE(out(i, j) == (i + 1) * 7 - j + 3 * (i * 7 - (j + 2))); });

    // A bound ImageParam is left alone.
    Buffer<int> mine(30, 30);
    input.set(mine);
    f.infer_input_bounds({10, 8});
    CHECK(input.get().same_as(mine));
}

TEST_CASE("Pipeline::infer_input_bounds over given outputs, with mins", "[compat][bounds]") {
    ImageParam a(UInt(8), 1, "a"), b(Float(32), 1, "b");
    Var x("x");
    Func sum("sum"), diff("diff");
    sum(x) = cast<float>(a(x - 2)) + b(x + 3);
    diff(x) = b(x * 2);
    Pipeline p({sum, diff});
    Buffer<float> s(10), d(10);
    s.set_min(5);
    d.set_min(-4);
    p.infer_input_bounds(Realization({s, d}));
    CHECK(a.get().dim(0).min() == 3);
    CHECK(a.get().dim(0).extent() == 10);
    CHECK(b.get().dim(0).min() == -8); // diff reads b(-8..10)
    CHECK(b.get().dim(0).max() == 17); // sum reads b(8..17)
    CHECK(a.get().data() != nullptr);  // allocated, zeroed
    CHECK(Buffer<uint8_t>(a.get()).all_equal(0));
}

TEST_CASE("bounds honour input constraints set with set_bounds and set_extent",
          "[compat][bounds]") {
    Var x("x");
    SECTION("a clamp to the input's own extent, with the extent constrained") {
        ImageParam input(Float(32), 1, "input");
        input.dim(0).set_bounds(0, 50);
        Func f("f");
        f(x) = input(clamp(x, 0, input.width() - 1)) * 2.0f;
        f.infer_input_bounds({100});
        Buffer<float> in = input.get();
        REQUIRE(in.dim(0).min() == 0);
        REQUIRE(in.dim(0).extent() == 50);
        in.fill([](int i) { return float(i) * 0.25f; });
        Buffer<float> out = f.realize({100});
        for (int i = 0; i < 100; i++) REQUIRE(out(i) == float(std::min(i, 49)) * 0.5f);
    }
    SECTION("an extent larger than the region read is what the query asks for") {
        ImageParam input(Int(16), 1, "input");
        input.dim(0).set_extent(64);
        Func f("f");
        f(x) = input(x + 1);
        f.infer_input_bounds({10});
        CHECK(input.get().dim(0).min() == 1);
        CHECK(input.get().dim(0).extent() == 64);
        CHECK_NOTHROW(f.realize({10}));
    }
    SECTION("a min constraint moves the region") {
        ImageParam input(Int(32), 1, "input");
        input.dim(0).set_min(-3);
        Func f("f");
        f(x) = input(x);
        f.infer_input_bounds({5});
        CHECK(input.get().dim(0).min() == -3);
        CHECK(input.get().dim(0).extent() == 8);
    }
    SECTION("a constraint through a Param the pipeline uses nowhere else") {
        ImageParam input(Int(32), 1, "input");
        Param<int> width("width");
        input.dim(0).set_extent(width);
        Func f("f");
        f(x) = input(x) + 1;
        width.set(16);
        Buffer<int> in(16);
        in.fill([](int i) { return i * 3; });
        input.set(in);
        Buffer<int> out = f.realize({16});
        for (int i = 0; i < 16; i++) REQUIRE(out(i) == i * 3 + 1);
        width.set(12);
        CHECK_THROWS_WITH(f.realize({12}), Contains("input.dim(0).extent()") && Contains("(16)") &&
                                               Contains("(12)"));
    }
}

TEST_CASE("an ImageParam used only through its shape is an argument", "[compat][bounds]") {
    // Halide accepts this; Loom used to fail with an InternalError
    // ("symbol \"input.extent.0\" is not bound").
    ImageParam input(UInt(8), 2, "input");
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x + y * input.width() + input.dim(1).extent();
    Buffer<uint8_t> image(7, 3);
    input.set(image);
    Buffer<int> out = f.realize({4, 4});
    out.for_each_element([&](int i, int j) { REQUIRE(out(i, j) == i + j * 7 + 3); });

    // And in a reduction domain only.
    Func count("count");
    RDom r(0, input.width());
    count() = 0;
    count() += r.x;
    Buffer<int> total = count.realize();
    CHECK(total() == 0 + 1 + 2 + 3 + 4 + 5 + 6);

    std::vector<Argument> args = f.infer_arguments();
    REQUIRE(args.size() == 1);
    CHECK(args[0].name == "input");
    CHECK(args[0].is_buffer());
}

TEST_CASE("an ImageParam or Param used only in a constraint is an argument", "[compat][bounds]") {
    ImageParam shape_of(Int(32), 1, "shape_of");
    Param<int> extra("extra");
    Var x("x");
    Func f("f");
    f(x) = x * 2;
    f.output_buffer().dim(0).set_extent(shape_of.width() + extra);
    Buffer<int> like(5);
    shape_of.set(like);
    extra.set(3);
    Buffer<int> out = f.realize({8});
    for (int i = 0; i < 8; i++) REQUIRE(out(i) == 2 * i);
    CHECK_THROWS_WITH(f.realize({7}), Contains("f.dim(0).extent()") && Contains("(7)"));
    std::vector<Argument> args = f.infer_arguments();
    REQUIRE(args.size() == 2);
    CHECK(args[0].name == "shape_of");
    CHECK(args[1].name == "extra");
}

TEST_CASE("infer_arguments lists buffers, then scalars, each by name", "[compat][bounds]") {
    ImageParam zeta(Float(32), 1, "zeta"), alpha(Float(32), 2, "alpha");
    Param<float> scale("scale");
    Param<int> bias("bias");
    Buffer<float> table(std::vector<int>{4}, "table");
    Var x("x");
    Func f("f");
    f(x) = zeta(x) * scale + alpha(x, 0) + cast<float>(bias) + table(x % 4);
    std::vector<Argument> args = f.infer_arguments();
    REQUIRE(args.size() == 4);
    CHECK(args[0].name == "alpha");
    CHECK(args[0].dimensions == 2);
    CHECK(args[1].name == "zeta");
    CHECK(args[2].name == "bias");
    CHECK(args[2].type == Int(32));
    CHECK(args[3].name == "scale");
    CHECK(args[3].is_scalar());
}

TEST_CASE("infer_input_bounds errors", "[compat][bounds][error]") {
    ImageParam input(Int(32), 1, "input");
    Var x("x");
    Func f("f");
    f(x) = input(x);
    CHECK_THROWS_WITH(f.infer_input_bounds({4}, get_jit_target_from_environment().with_feature(
                                                    Target::NoBoundsQuery)),
                      Contains("infer_input_bounds of f needs bounds queries"));
    CHECK_THROWS_WITH(f.infer_input_bounds({4, 4}),
                      Contains("Func f has 1 dimension but realize was given 2 sizes"));
}
