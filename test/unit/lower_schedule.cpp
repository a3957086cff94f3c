#include <catch2/catch.hpp>

#include <algorithm>

#include "ir/IROperator.h"
#include "lower/FindEnvironment.h"
#include "lower/InlineFunctions.h"
#include "lower/PrintLoopNest.h"
#include "lower/ScheduleFunctions.h"
#include "lower_test_util.h"

using namespace lower_test;

namespace {

Stmt schedule(const std::vector<Function> &outputs) {
    Environment env = find_environment(outputs);
    return schedule_functions(outputs, realization_order(outputs, env), env);
}

size_t position(const std::vector<std::string> &v, const std::string &s) {
    return size_t(std::find(v.begin(), v.end(), s) - v.begin());
}

} // namespace

TEST_CASE("find_environment collects every Func reachable from the outputs", "[lower]") {
    Function h = make_func("h", {"x"}, {ivar("x")});
    Function g = make_func("g", {"x"}, {Call::make(h, {ivar("x")})});
    Function f =
        make_func("f", {"x"}, {Add::make(Call::make(g, {ivar("x")}), Call::make(h, {ivar("x")}))});
    Environment env = find_environment({f});
    CHECK(env.size() == 3);
    CHECK(env.count("g") == 1);
    CHECK(env.count("h") == 1);

    std::vector<std::string> order = realization_order({f}, env);
    REQUIRE(order.size() == 3);
    CHECK(position(order, "h") < position(order, "g"));
    CHECK(order.back() == "f");
}

TEST_CASE("calling a Func without a definition is a compile error naming both Funcs", "[lower]") {
    Function g("g");
    g.get()->output_types = {Int(32)};
    g.get()->args = {"x"};
    Function f = make_func("f", {"x"}, {Call::make(g, {ivar("x")})});
    try {
        find_environment({f});
        FAIL("expected a CompileError");
    } catch (const CompileError &e) {
        std::string msg = e.what();
        CHECK(msg.find("Func g") != std::string::npos);
        CHECK(msg.find("Func f") != std::string::npos);
        CHECK(msg.find("no definition") != std::string::npos);
    }
    Function undefined_output("out");
    CHECK_THROWS_AS(find_environment({undefined_output}), CompileError);
}

TEST_CASE("the default schedule loops over the output's args, first arg innermost", "[lower]") {
    Function f = make_func("f", {"x", "y"}, {Add::make(ivar("x"), ivar("y"))});
    Stmt s = schedule({f});
    std::vector<std::string> loops = loop_names(s);
    REQUIRE(loops.size() == 2);
    CHECK(loops[0] == "f.s0.y"); // pre-order: outermost first
    CHECK(loops[1] == "f.s0.x");
    const For *outer = find_nodes<For>(s)[0];
    const Variable *min = outer->min.as<Variable>();
    REQUIRE(min);
    CHECK(min->name == "f.s0.y.min");
    CHECK(find_nodes<Realize>(s).empty()); // outputs live in their buffers

    auto provides = find_nodes<Provide>(s);
    REQUIRE(provides.size() == 1);
    CHECK(provides[0]->name == "f");
    CHECK(expr_uses_var(provides[0]->values[0], "f.s0.x"));
    CHECK_FALSE(expr_uses_var(provides[0]->values[0], "x"));
}

TEST_CASE("inlining replaces calls to unscheduled Funcs by their definitions", "[lower]") {
    Function h = make_func("h", {"x"}, {Mul::make(ivar("x"), 3)});
    Function g = make_func("g", {"x", "y"}, {Add::make(Call::make(h, {ivar("y")}), ivar("x"))});
    // f(x, y) = g(y, x + 1): argument order must survive substitution.
    Function f = make_func("f", {"x", "y"}, {Call::make(g, {ivar("y"), Add::make(ivar("x"), 1)})});
    Stmt s = schedule({f});
    CHECK(count_loom_calls(s) == 1);
    s = inline_functions(s, {f});
    CHECK(count_loom_calls(s) == 0);
    CHECK(find_nodes<ProducerConsumer>(s).size() == 1);
    auto provides = find_nodes<Provide>(s);
    REQUIRE(provides.size() == 1);
    // (f.s0.x + 1) * 3 + f.s0.y
    Expr expected = Add::make(Mul::make(Add::make(ivar("f.s0.x"), 1), 3), ivar("f.s0.y"));
    CHECK(to_string(provides[0]->values[0]) == to_string(expected));
}

TEST_CASE("compute_root Funcs get storage and are produced before their consumers", "[lower]") {
    Function g = make_func("g", {"x"}, {Mul::make(ivar("x"), 2)});
    g.schedule().compute_level = LoopLevel::root();
    Function f = make_func("f", {"x"}, {Call::make(g, {Add::make(ivar("x"), 1)})});
    Stmt s = inline_functions(schedule({f}), {f});
    auto realizes = find_nodes<Realize>(s);
    REQUIRE(realizes.size() == 1);
    CHECK(realizes[0]->name == "g");
    auto produces =
        find_nodes<ProducerConsumer>(s, [](const ProducerConsumer *p) { return p->is_producer; });
    REQUIRE(produces.size() == 2);
    CHECK(produces[0]->name == "g");
    CHECK(produces[1]->name == "f");
    CHECK(count_loom_calls(s) == 1); // f still reads g's storage
}

TEST_CASE("several outputs get separate loop nests in order", "[lower]") {
    Function f = make_func("f", {"x"}, {ivar("x")});
    Function g = make_func("g", {"x"}, {Mul::make(ivar("x"), 2)});
    Stmt s = schedule({f, g});
    std::vector<std::string> loops = loop_names(s);
    REQUIRE(loops.size() == 2);
    CHECK(loops[0] == "f.s0.x");
    CHECK(loops[1] == "g.s0.x");
}

TEST_CASE("splits create outer and inner loops and define the old variable", "[lower]") {
    Function f = make_func("f", {"x", "y"}, {Add::make(ivar("x"), ivar("y"))});
    StageSchedule &sched = f.definition().schedule;
    Split split;
    split.old_var = "x";
    split.outer = "x.xo";
    split.inner = "x.xi";
    split.factor = 8;
    split.tail = TailStrategy::GuardWithIf;
    sched.splits.push_back(split);
    sched.dims = {Dim{"x.xi", ForType::Vectorized, DeviceAPI::None, false},
                  Dim{"x.xo", ForType::Serial, DeviceAPI::None, false},
                  Dim{"y", ForType::Parallel, DeviceAPI::None, false}};
    Stmt s = schedule({f});
    std::vector<std::string> loops = loop_names(s);
    REQUIRE(loops.size() == 3);
    CHECK(loops[0] == "f.s0.y");
    CHECK(loops[1] == "f.s0.x.xo");
    CHECK(loops[2] == "f.s0.x.xi");
    const For *inner = find_nodes<For>(s)[2];
    CHECK(inner->for_type == ForType::Vectorized);
    CHECK(is_const(inner->extent, 8));
    CHECK(is_const_zero(inner->min));
    CHECK(find_nodes<For>(s)[0]->for_type == ForType::Parallel);
    // GuardWithIf: the store is guarded by the original variable's bound.
    auto ifs = find_nodes<IfThenElse>(s);
    REQUIRE(ifs.size() == 1);
    CHECK(expr_uses_var(ifs[0]->condition, "f.s0.x"));
    CHECK(expr_uses_var(ifs[0]->condition, "f.s0.x.max"));
    auto lets = find_nodes<LetStmt>(s, [](const LetStmt *l) { return l->name == "f.s0.x"; });
    REQUIRE(lets.size() == 1);
    CHECK(expr_uses_var(lets[0]->value, "f.s0.x.xo"));
    CHECK(expr_uses_var(lets[0]->value, "f.s0.x.xi"));

    std::string nest = print_loop_nest({f});
    CHECK(nest.find("produce f:") != std::string::npos);
    CHECK(nest.find("parallel y:") != std::string::npos);
    CHECK(nest.find("for x.xo:") != std::string::npos);
    CHECK(nest.find("f(...) = ...") != std::string::npos);
}

TEST_CASE("fuse and rename build loops over the new variables", "[lower]") {
    Function f = make_func("f", {"x", "y"}, {Add::make(ivar("x"), ivar("y"))});
    StageSchedule &sched = f.definition().schedule;
    Split fuse;
    fuse.kind = Split::FuseVars;
    fuse.old_var = "xy";
    fuse.inner = "x";
    fuse.outer = "y";
    Split rename;
    rename.kind = Split::RenameVar;
    rename.old_var = "xy";
    rename.outer = "t";
    sched.splits = {fuse, rename};
    sched.dims = {Dim{"t", ForType::Serial, DeviceAPI::None, false}};
    Stmt s = schedule({f});
    std::vector<std::string> loops = loop_names(s);
    REQUIRE(loops.size() == 1);
    CHECK(loops[0] == "f.s0.t");
    CHECK(find_nodes<LetStmt>(s).size() == 3); // xy, x and y are defined from t
}

TEST_CASE("schedules naming unknown loop variables are compile errors", "[lower]") {
    Function f = make_func("f", {"x", "y"}, {Add::make(ivar("x"), ivar("y"))});
    f.definition().schedule.dims = {Dim{"x", ForType::Serial, DeviceAPI::None, false},
                                    Dim{"z", ForType::Serial, DeviceAPI::None, false}};
    try {
        schedule({f});
        FAIL("expected a CompileError");
    } catch (const CompileError &e) {
        std::string msg = e.what();
        CHECK(msg.find("Func f") != std::string::npos);
        CHECK(msg.find("z") != std::string::npos);
    }
}

TEST_CASE("print_loop_nest shows produce blocks and loops", "[lower]") {
    Function g = make_func("g", {"x"}, {Mul::make(ivar("x"), 2)});
    g.schedule().compute_level = LoopLevel::root();
    Function f = make_func("f", {"x", "y"}, {Add::make(Call::make(g, {ivar("x")}), ivar("y"))});
    std::string nest = print_loop_nest({f});
    CHECK(nest == "produce g:\n"
                  "  for x:\n"
                  "    g(...) = ...\n"
                  "produce f:\n"
                  "  for y:\n"
                  "    for x:\n"
                  "      f(...) = ...\n");
}
