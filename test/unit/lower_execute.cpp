#include <catch2/catch.hpp>

#include "lower/Lower.h"
#include "lower_interpreter.h"
#include "lower_test_util.h"

using namespace lower_test;

namespace {

Target host() {
    return Target(Target::Linux, Target::X86, 64);
}

Expr call(const Function &f, const std::vector<Expr> &args) {
    return Call::make(f, args);
}

} // namespace

TEST_CASE("lowered pipelines compute the output over the buffer's region", "[lower]") {
    Function f = make_func("f", {"x", "y"}, {Add::make(ivar("x"), Mul::make(ivar("y"), 10))});
    LoweredFunc lf = lower({f}, "p", host());
    TestBuffer out({2, 3}, {5, 4});
    LoweredInterpreter run;
    run.bind_buffer("f", &out.raw);
    REQUIRE(run.run(lf) == 0);
    for (int y = 3; y < 7; y++) {
        for (int x = 2; x < 7; x++) CHECK(out.at({x, y}) == x + 10 * y);
    }
    CHECK(run.stores == 20);
}

TEST_CASE("inlined and compute_root producers give the same values", "[lower]") {
    Parameter in(Int(32), true, 1, "in");
    for (bool root : {false, true}) {
        Function g =
            make_func("g", {"x"}, {Mul::make(Call::make(in, {Add::make(ivar("x"), 1)}), 2)});
        if (root) g.schedule().compute_level = LoopLevel::root();
        Function f = make_func(
            "f", {"x"}, {Sub::make(call(g, {ivar("x")}), call(g, {Sub::make(ivar("x"), 2)}))});
        LoweredFunc lf = lower({f}, "p", host());

        TestBuffer image({-1}, {10}); // f over [0, 7] reads in over [-1, 8]
        for (int i = -1; i < 9; i++) image.at({i}) = i * i;
        TestBuffer out({0}, {8});
        LoweredInterpreter run;
        run.bind_buffer("in", &image.raw);
        run.bind_buffer("f", &out.raw);
        REQUIRE(run.run(lf) == 0);
        for (int x = 0; x < 8; x++) {
            INFO("compute_root: " << root << ", x = " << x);
            CHECK(out.at({x}) == 2 * (x + 1) * (x + 1) - 2 * (x - 1) * (x - 1));
        }
    }
}

TEST_CASE("a too small input fails naming the buffer, dimension, ranges and Func", "[lower]") {
    Parameter in(Int(32), true, 1, "in");
    Function g = make_func("g", {"x"}, {Call::make(in, {Add::make(ivar("x"), 1)})});
    Function f = make_func("f", {"x"}, {call(g, {ivar("x")})});
    LoweredFunc lf = lower({f}, "p", host());
    TestBuffer image({0}, {5}); // f over [0, 4] needs in over [1, 5]
    TestBuffer out({0}, {5});
    LoweredInterpreter run;
    run.bind_buffer("in", &image.raw);
    run.bind_buffer("f", &out.raw);
    CHECK(run.run(lf) != 0);
    CHECK(run.last_error == "loom_error_buffer_too_small");
    CHECK(run.error_strings == std::vector<std::string>{"g", "in"});
    CHECK(run.error_values == std::vector<int64_t>{0, 1, 5, 0, 4});
    CHECK(run.stores == 0);
}

TEST_CASE("buffers of the wrong shape or type are rejected before they are read", "[lower]") {
    Function f = make_func("f", {"x", "y"}, {ivar("x")});
    LoweredFunc lf = lower({f}, "p", host());
    {
        LoweredInterpreter run;
        run.bind_buffer("f", nullptr);
        CHECK(run.run(lf) != 0);
        CHECK(run.last_error == "loom_error_buffer_argument_is_null");
    }
    {
        TestBuffer out({0}, {4});
        LoweredInterpreter run;
        run.bind_buffer("f", &out.raw);
        CHECK(run.run(lf) != 0);
        CHECK(run.last_error == "loom_error_bad_dimensions");
        CHECK(run.error_values == std::vector<int64_t>{1, 2});
    }
    {
        TestBuffer out({0, 0}, {4, 4});
        out.raw.type = loom_type_t{loom_type_float, 32, 1};
        LoweredInterpreter run;
        run.bind_buffer("f", &out.raw);
        CHECK(run.run(lf) != 0);
        CHECK(run.last_error == "loom_error_bad_type");
    }
}

TEST_CASE("split tails compute every point exactly once", "[lower]") {
    for (TailStrategy tail :
         {TailStrategy::GuardWithIf, TailStrategy::ShiftInwards, TailStrategy::Auto}) {
        Function g = make_func("g", {"x"}, {Mul::make(ivar("x"), 3)});
        g.schedule().compute_level = LoopLevel::root();
        g.definition().schedule.splits = {split_of("x", 4, tail)};
        g.definition().schedule.dims = {Dim{"x.i", ForType::Serial, DeviceAPI::None, false},
                                        Dim{"x.o", ForType::Serial, DeviceAPI::None, false}};
        Function f = make_func("f", {"x", "y"}, {Add::make(call(g, {ivar("x")}), ivar("y"))});
        f.definition().schedule.splits = {split_of("x", 3, tail)};
        f.definition().schedule.dims = {Dim{"x.i", ForType::Serial, DeviceAPI::None, false},
                                        Dim{"x.o", ForType::Serial, DeviceAPI::None, false},
                                        Dim{"y", ForType::Serial, DeviceAPI::None, false}};
        LoweredFunc lf = lower({f}, "p", host());
        TestBuffer out({1, 0}, {10, 2});
        LoweredInterpreter run;
        run.bind_buffer("f", &out.raw);
        REQUIRE(run.run(lf) == 0);
        for (int y = 0; y < 2; y++) {
            for (int x = 1; x < 11; x++) {
                INFO("tail " << int(tail) << " at " << x << ", " << y);
                CHECK(out.at({x, y}) == 3 * x + y);
            }
        }
    }
}

TEST_CASE("scalar Params are read and range checked", "[lower]") {
    Parameter k(Int(32), false, 0, "k");
    k.set_min_value(Expr(0));
    Function f = make_func("f", {"x"}, {Mul::make(ivar("x"), Variable::make(Int(32), "k", k))});
    LoweredFunc lf = lower({f}, "p", host());
    TestBuffer out({0}, {4});
    {
        LoweredInterpreter run;
        run.bind_buffer("f", &out.raw);
        run.bind_scalar("k", 7);
        REQUIRE(run.run(lf) == 0);
        CHECK(out.at({3}) == 21);
    }
    {
        LoweredInterpreter run;
        run.bind_buffer("f", &out.raw);
        run.bind_scalar("k", -1);
        CHECK(run.run(lf) != 0);
        CHECK(run.last_error == "loom_error_param_too_small_i64");
        CHECK(run.error_values == std::vector<int64_t>{-1, 0});
    }
}

TEST_CASE("tuple outputs store every element", "[lower]") {
    Function f = make_func("f", {"x"}, {ivar("x"), Mul::make(ivar("x"), 2)});
    LoweredFunc lf = lower({f}, "p", host());
    TestBuffer a({0}, {4}), b({0}, {4}), small({1}, {3});
    {
        LoweredInterpreter run;
        run.bind_buffer("f.0", &a.raw);
        run.bind_buffer("f.1", &b.raw);
        REQUIRE(run.run(lf) == 0);
        CHECK(a.at({3}) == 3);
        CHECK(b.at({3}) == 6);
    }
    {
        LoweredInterpreter run;
        run.bind_buffer("f.0", &a.raw);
        run.bind_buffer("f.1", &small.raw);
        CHECK(run.run(lf) != 0);
        CHECK(run.last_error == "loom_error_buffer_too_small");
    }
}

TEST_CASE("split tails that would write outside the output fail instead", "[lower]") {
    for (TailStrategy tail : {TailStrategy::ShiftInwards, TailStrategy::RoundUp}) {
        Function f = make_func("f", {"x"}, {ivar("x")});
        f.definition().schedule.splits = {split_of("x", 8, tail)};
        f.definition().schedule.dims = {Dim{"x.i", ForType::Serial, DeviceAPI::None, false},
                                        Dim{"x.o", ForType::Serial, DeviceAPI::None, false}};
        LoweredFunc lf = lower({f}, "p", host());
        INFO("tail " << int(tail));
        TestBuffer small({0}, {5});
        LoweredInterpreter run;
        run.bind_buffer("f", &small.raw);
        CHECK(run.run(lf) != 0);
        if (tail == TailStrategy::ShiftInwards) {
            // The extent (5) is below the factor: the split's own check says so.
            CHECK(run.last_error == "loom_error_split_too_small");
            CHECK(run.error_strings ==
                  std::vector<std::string>{"f", "x", "TailStrategy::ShiftInwards"});
        } else {
            CHECK(run.last_error == "loom_error_buffer_too_small");
            CHECK(run.error_strings == std::vector<std::string>{"f", "f"});
        }
        CHECK(run.stores == 0);

        TestBuffer exact({0}, {16});
        LoweredInterpreter ok;
        ok.bind_buffer("f", &exact.raw);
        CHECK(ok.run(lf) == 0);
        CHECK(exact.at({15}) == 15);
    }
}

namespace {

// The value calls f through f.weak(), as define_update() makes it do: a
// strong handle inside f's own definition would keep f alive forever (a leak).
void add_update(Function &f, const std::vector<Expr> &args, const Expr &value) {
    Definition u;
    u.args = args;
    u.values = {value};
    f.updates().push_back(u);
}

} // namespace

TEST_CASE("update definitions run after the pure definition, in order", "[lower]") {
    Function f = make_func("f", {"x"}, {ivar("x")});
    add_update(f, {ivar("x")}, Add::make(Mul::make(call(f.weak(), {ivar("x")}), 2), 1));
    LoweredFunc lf = lower({f}, "p", host());
    TestBuffer out({0}, {6});
    LoweredInterpreter run;
    run.bind_buffer("f", &out.raw);
    REQUIRE(run.run(lf) == 0);
    for (int x = 0; x < 6; x++) CHECK(out.at({x}) == 2 * x + 1);
}

TEST_CASE("a Func computed at root covers the reads of its own updates", "[lower]") {
    // g(x) = x; g(x) = g(x - 1) + g(x): a running sum from one before the region.
    Function g = make_func("g", {"x"}, {ivar("x")});
    add_update(g, {ivar("x")},
               Add::make(call(g.weak(), {Sub::make(ivar("x"), 1)}), call(g.weak(), {ivar("x")})));
    Function f = make_func("f", {"x"}, {call(g, {ivar("x")})});
    // Left inline, g would be computed per point of f (as in Halide).
    g.schedule().compute_level = LoopLevel::root();
    LoweredFunc lf = lower({f}, "p", host());
    CHECK(find_nodes<Allocate>(lf.body).size() == 1);
    TestBuffer out({0}, {5});
    LoweredInterpreter run;
    run.bind_buffer("f", &out.raw);
    REQUIRE(run.run(lf) == 0);
    const int expected[] = {-1, 0, 2, 5, 9};
    for (int x = 0; x < 5; x++) CHECK(out.at({x}) == expected[x]);
}

TEST_CASE("an output whose update reads beyond its buffer fails instead", "[lower]") {
    Function f = make_func("f", {"x"}, {ivar("x")});
    add_update(f, {ivar("x")}, call(f.weak(), {Add::make(ivar("x"), 1)}));
    LoweredFunc lf = lower({f}, "p", host());
    TestBuffer out({0}, {4});
    LoweredInterpreter run;
    run.bind_buffer("f", &out.raw);
    CHECK(run.run(lf) != 0);
    CHECK(run.last_error == "loom_error_buffer_too_small");
    CHECK(run.error_values == std::vector<int64_t>{0, 0, 4, 0, 3});
}

TEST_CASE("GuardWithIf tails read only the inputs the guarded points need", "[lower]") {
    Parameter in(Int(32), true, 1, "in");
    Function g = make_func("g", {"x"}, {Mul::make(Call::make(in, {ivar("x")}), 2)});
    g.schedule().compute_level = LoopLevel::root();
    g.definition().schedule.splits = {split_of("x", 8, TailStrategy::GuardWithIf)};
    g.definition().schedule.dims = {Dim{"x.i", ForType::Serial, DeviceAPI::None, false},
                                    Dim{"x.o", ForType::Serial, DeviceAPI::None, false}};
    Function f =
        make_func("f", {"x"}, {Add::make(call(g, {ivar("x")}), Call::make(in, {ivar("x")}))});
    f.definition().schedule.splits = {split_of("x", 8, TailStrategy::GuardWithIf)};
    f.definition().schedule.dims = g.definition().schedule.dims;
    LoweredFunc lf = lower({f}, "p", host());
    TestBuffer image({0}, {10}), out({0}, {10});
    for (int i = 0; i < 10; i++) image.at({i}) = i + 100;
    LoweredInterpreter run;
    run.bind_buffer("in", &image.raw);
    run.bind_buffer("f", &out.raw);
    REQUIRE(run.run(lf) == 0);
    for (int x = 0; x < 10; x++) CHECK(out.at({x}) == 3 * (x + 100));
}

TEST_CASE("zero-dimensional Funcs store one value", "[lower]") {
    Function g = make_func("g", {}, {Expr(20)});
    g.schedule().compute_level = LoopLevel::root();
    Function f = make_func("f", {}, {Add::make(call(g, {}), 1)});
    LoweredFunc lf = lower({f}, "p", host());
    TestBuffer out({}, {});
    LoweredInterpreter run;
    run.bind_buffer("f", &out.raw);
    REQUIRE(run.run(lf) == 0);
    CHECK(out.data[0] == 21);
}

TEST_CASE("output buffer constraints are checked", "[lower]") {
    Function f = make_func("f", {"x"}, {ivar("x")});
    REQUIRE(f.output_buffers().size() == 1);
    f.get()->output_buffers[0].constraint(0).min = Expr(0);
    LoweredFunc lf = lower({f}, "p", host());
    TestBuffer shifted({3}, {4});
    LoweredInterpreter run;
    run.bind_buffer("f", &shifted.raw);
    CHECK(run.run(lf) != 0);
    CHECK(run.last_error == "loom_error_constraint_violated");
    CHECK(run.error_values == std::vector<int64_t>{3, 0});
    CHECK(run.stores == 0);
}
