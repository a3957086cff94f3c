#include <catch2/catch.hpp>

#include <cstdlib>
#include <iostream>
#include <sstream>

#include "ir/IROperator.h"
#include "lower/FindEnvironment.h"
#include "lower/InlineFunctions.h"
#include "lower/Lower.h"
#include "lower/ScheduleFunctions.h"
#include "lower/StorageFlattening.h"
#include "lower_test_util.h"

using namespace lower_test;

namespace {

Target host() {
    return Target(Target::Linux, Target::X86, 64);
}

LoweredFunc lower_one(const Function &f, const Target &t = host()) {
    return lower({f}, "pipeline", t);
}

bool has_string(const std::vector<std::vector<std::string>> &calls, const std::string &a,
                const std::string &b) {
    for (const auto &strings : calls) {
        bool has_a = false, has_b = false;
        for (const std::string &s : strings) {
            has_a |= s == a;
            has_b |= s == b;
        }
        if (has_a && has_b) return true;
    }
    return false;
}

} // namespace

TEST_CASE("lowering a pure output leaves only flat loops, stores and checks", "[lower]") {
    Function f = make_func("f", {"x", "y"}, {Add::make(ivar("x"), ivar("y"))});
    LoweredFunc lf = lower_one(f);
    CHECK(lf.name == "pipeline");
    REQUIRE(lf.args.size() == 1);
    CHECK(lf.args[0].name == "f");
    CHECK(lf.args[0].kind == LoweredArgument::OutputBuffer);
    CHECK(lf.args[0].type == Int(32));
    CHECK(lf.args[0].dimensions == 2);

    CHECK(find_nodes<Provide>(lf.body).empty());
    CHECK(find_nodes<Realize>(lf.body).empty());
    CHECK(count_loom_calls(lf.body) == 0);
    CHECK(find_nodes<For>(lf.body).size() == 2);
    auto stores = find_nodes<Store>(lf.body);
    REQUIRE(stores.size() == 1);
    CHECK(stores[0]->name == "f");

    std::vector<std::string> checks = assert_messages(lf.body);
    REQUIRE(checks.size() >= 3);
    CHECK(checks[0] == "loom_error_buffer_argument_is_null");
    CHECK(checks[1] == "loom_error_bad_dimensions");
    CHECK(checks[2] == "loom_error_bad_type");
    // Every runtime call passes the user context first.
    for (const AssertStmt *a : find_nodes<AssertStmt>(lf.body)) {
        const Call *c = a->message.as<Call>();
        REQUIRE(c);
        CHECK(c->call_type == Call::Extern);
        CHECK(c->type == Int(32));
        const Variable *uc = c->args[0].as<Variable>();
        REQUIRE(uc);
        CHECK(uc->name == "__user_context");
    }
}

TEST_CASE("inputs are checked to cover the region the pipeline reads", "[lower]") {
    Parameter in(Int(32), true, 2, "in");
    // g reads the input; f reads g, which is inlined.
    Function g = make_func("g", {"x", "y"}, {Call::make(in, {Add::make(ivar("x"), 1), ivar("y")})});
    Function f = make_func("f", {"x", "y"},
                           {Add::make(Call::make(g, {ivar("x"), ivar("y")}),
                                      Call::make(g, {Sub::make(ivar("x"), 1), ivar("y")}))});
    LoweredFunc lf = lower_one(f);
    REQUIRE(lf.args.size() == 2);
    CHECK(lf.args[0].name == "in");
    CHECK(lf.args[0].kind == LoweredArgument::InputBuffer);
    CHECK(lf.args[0].param.same_as(in));
    CHECK(lf.args[1].name == "f");
    CHECK(count_loom_calls(lf.body) == 0);
    CHECK(find_nodes<Allocate>(lf.body).empty());

    auto too_small = assert_strings(lf.body, "loom_error_buffer_too_small");
    CHECK(too_small.size() == 2); // one per dimension
    CHECK(has_string(too_small, "g", "in"));
    auto loads = find_nodes<Load>(lf.body, [](const Load *l) { return l->name == "in"; });
    REQUIRE(!loads.empty());
    CHECK(loads[0]->param.same_as(in));
}

TEST_CASE("compute_root Funcs are allocated and loaded from", "[lower]") {
    Function g = make_func("g", {"x"}, {Mul::make(ivar("x"), 2)});
    g.schedule().compute_level = LoopLevel::root();
    Function f = make_func(
        "f", {"x"},
        {Add::make(Call::make(g, {ivar("x")}), Call::make(g, {Add::make(ivar("x"), 1)}))});
    LoweredFunc lf = lower_one(f);
    auto allocs = find_nodes<Allocate>(lf.body);
    REQUIRE(allocs.size() == 1);
    CHECK(allocs[0]->name == "g");
    CHECK(allocs[0]->type == Int(32));
    CHECK(!find_nodes<Store>(lf.body, [](const Store *s) { return s->name == "g"; }).empty());
    CHECK(!find_nodes<Load>(lf.body, [](const Load *l) { return l->name == "g"; }).empty());
    CHECK(count_loom_calls(lf.body) == 0);
    CHECK(find_nodes<Realize>(lf.body).empty());
}

TEST_CASE("scalar Params become arguments with range checks", "[lower]") {
    Parameter k(Int(32), false, 0, "k");
    k.set_min_value(Expr(0));
    k.set_max_value(Expr(10));
    Function f = make_func("f", {"x"}, {Add::make(ivar("x"), Variable::make(Int(32), "k", k))});
    LoweredFunc lf = lower_one(f);
    REQUIRE(lf.args.size() == 2);
    CHECK(lf.args[0].name == "k");
    CHECK(lf.args[0].kind == LoweredArgument::InputScalar);
    CHECK(lf.args[0].type == Int(32));
    auto checks = assert_messages(lf.body);
    CHECK(std::count(checks.begin(), checks.end(), "loom_error_param_too_small_i64") == 1);
    CHECK(std::count(checks.begin(), checks.end(), "loom_error_param_too_large_i64") == 1);
}

TEST_CASE("ImageParam constraints become constraint checks", "[lower]") {
    Parameter in(UInt(8), true, 1, "in");
    in.constraint(0).min = Expr(0);
    in.constraint(0).stride = Expr(1);
    Function f = make_func("f", {"x"}, {Call::make(in, {ivar("x")})});
    LoweredFunc lf = lower_one(f);
    auto violated = assert_strings(lf.body, "loom_error_constraint_violated");
    // in's min and stride, and the output's default stride-1 check.
    CHECK(violated.size() == 3);
    CHECK(lf.args[0].type == UInt(8));
}

TEST_CASE("targets without asserts get no checks", "[lower]") {
    Parameter in(Int(32), true, 1, "in");
    Function f = make_func("f", {"x"}, {Call::make(in, {ivar("x")})});
    LoweredFunc lf = lower_one(f, host().with_feature(Target::NoAsserts));
    CHECK(find_nodes<AssertStmt>(lf.body).empty());
    CHECK(find_nodes<For>(lf.body).size() == 1);
}

TEST_CASE("arguments follow the given order", "[lower]") {
    Parameter a(Int(32), true, 1, "a"), b(Int(32), true, 1, "b");
    Function f =
        make_func("f", {"x"}, {Add::make(Call::make(a, {ivar("x")}), Call::make(b, {ivar("x")}))});
    LoweredFunc natural = lower({f}, "p", host());
    REQUIRE(natural.args.size() == 3);
    CHECK(natural.args[0].name == "a");
    CHECK(natural.args[1].name == "b");
    LoweredFunc ordered = lower({f}, "p", host(), {"b", "a"});
    REQUIRE(ordered.args.size() == 3);
    CHECK(ordered.args[0].name == "b");
    CHECK(ordered.args[1].name == "a");
    CHECK(ordered.args[2].name == "f");
}

TEST_CASE("tuple outputs get one output buffer per element", "[lower]") {
    Function f = make_func("f", {"x"}, {ivar("x"), Cast::make(Float(32), ivar("x"))});
    LoweredFunc lf = lower_one(f);
    REQUIRE(lf.args.size() == 2);
    CHECK(lf.args[0].name == "f.0");
    CHECK(lf.args[0].type == Int(32));
    CHECK(lf.args[1].name == "f.1");
    CHECK(lf.args[1].type == Float(32));
    CHECK(find_nodes<Store>(lf.body).size() == 2);
    // The second buffer must cover the region of the first.
    CHECK(has_string(assert_strings(lf.body, "loom_error_buffer_too_small"), "f", "f.1"));
}

TEST_CASE("several outputs are computed one after another", "[lower]") {
    Function f = make_func("f", {"x"}, {ivar("x")});
    Function g = make_func("g", {"x"}, {Add::make(Call::make(f, {ivar("x")}), 1)});
    LoweredFunc lf = lower({f, g}, "p", host());
    REQUIRE(lf.args.size() == 2);
    CHECK(lf.args[0].name == "f");
    CHECK(lf.args[1].name == "g");
    auto stores = find_nodes<Store>(lf.body);
    REQUIRE(stores.size() == 2);
    CHECK(stores[0]->name == "f");
    CHECK(stores[1]->name == "g");
    // g reads f from f's output buffer.
    CHECK(!find_nodes<Load>(lf.body, [](const Load *l) { return l->name == "f"; }).empty());
}

TEST_CASE("reorder_storage makes the listed dimension innermost in memory", "[lower]") {
    Function g = make_func("g", {"x", "y"}, {Add::make(ivar("x"), ivar("y"))});
    g.schedule().compute_level = LoopLevel::root();
    g.schedule().storage_dims = {"y", "x"};
    Function f = make_func("f", {"x", "y"}, {Call::make(g, {ivar("x"), ivar("y")})});
    Environment env = find_environment({f});
    Stmt s = inline_functions(schedule_functions({f}, realization_order({f}, env), env), {f});
    s = storage_flattening(s, {f}, env, Target());
    auto stride = [&](const std::string &name) {
        auto lets = find_nodes<LetStmt>(s, [&](const LetStmt *l) { return l->name == name; });
        REQUIRE(lets.size() == 1);
        return to_string(lets[0]->value);
    };
    CHECK(stride("g.stride.1") == "1");
    CHECK(stride("g.stride.0") == to_string(Mul::make(1, ivar("g.extent.1"))));
    CHECK(find_nodes<Allocate>(s).size() == 1);
    CHECK(find_nodes<Realize>(s).empty());
}

TEST_CASE("LOOM_DEBUG=2 prints the statement after every pass", "[lower]") {
    Function f = make_func("f", {"x"}, {ivar("x")});
    std::ostringstream captured;
    std::streambuf *old = std::cerr.rdbuf(captured.rdbuf());
    setenv("LOOM_DEBUG", "2", 1);
    lower_one(f);
    unsetenv("LOOM_DEBUG");
    std::cerr.rdbuf(old);
    std::string text = captured.str();
    for (const char *pass :
         {"schedule_functions", "inline_functions", "bounds_inference", "storage_flattening",
          "unpack_buffers", "add_image_checks", "simplify", "remove_dead_lets"}) {
        CHECK(text.find(std::string("after ") + pass) != std::string::npos);
    }
    CHECK(text.find("produce f") != std::string::npos);
}

TEST_CASE("float Params are range checked in double precision", "[lower]") {
    Parameter k(Float(32), false, 0, "k");
    k.set_max_value(Expr(1.5f));
    Function f =
        make_func("f", {"x"},
                  {Mul::make(Cast::make(Float(32), ivar("x")), Variable::make(Float(32), "k", k))});
    LoweredFunc lf = lower_one(f);
    auto checks = assert_messages(lf.body);
    CHECK(std::count(checks.begin(), checks.end(), "loom_error_param_too_large_f64") == 1);
    CHECK(std::count(checks.begin(), checks.end(), "loom_error_param_too_small_f64") == 0);
}

TEST_CASE("unrolled and vectorized loops are expanded by lowering", "[lower]") {
    Function f = make_func("f", {"x"}, {Mul::make(ivar("x"), 2)});
    Split split;
    split.old_var = "x";
    split.outer = "x.xo";
    split.inner = "x.xi";
    split.factor = 4;
    f.definition().schedule.splits = {split};
    SECTION("unrolled") {
        f.definition().schedule.dims = {Dim{"x.xi", ForType::Unrolled, DeviceAPI::None, false},
                                        Dim{"x.xo", ForType::Serial, DeviceAPI::None, false}};
        LoweredFunc lf = lower_one(f);
        // Two serial loops: the ShiftInwards clamp of the last vector is
        // partitioned out of the steady state (x.xo is innermost).
        CHECK(find_nodes<For>(lf.body).size() == 2);
        CHECK(find_nodes<Store>(lf.body).size() == 8);
    }
    SECTION("vectorized") {
        f.definition().schedule.dims = {Dim{"x.xi", ForType::Vectorized, DeviceAPI::None, false},
                                        Dim{"x.xo", ForType::Serial, DeviceAPI::None, false}};
        // (Without the streaming twin of each store: see lower/StreamingStores.)
        LoweredFunc lf = lower_one(f, host().with_feature(Target::NoStreamingStores));
        CHECK(find_nodes<For>(lf.body).size() == 2); // steady state and last vector
        auto stores = find_nodes<Store>(lf.body);
        REQUIRE(stores.size() == 2);
        CHECK(stores[0]->value.type() == Int(32, 4));
        CHECK(stores[1]->value.type() == Int(32, 4));
    }
}
