// The helpers that keep compile time linear in the length of a pipeline
// (docs/architecture.md, "Long pipelines"): substitution through chains of
// lets, shallow structural comparison, the touch index, and the simplifier's
// lazy let substitution and use counts.

#include <catch2/catch.hpp>

#include "analysis/Simplify.h"
#include "ir/IREquality.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"
#include "ir/Substitute.h"
#include "lower/TouchIndex.h"
#include "simplify_test_util.h"

using namespace loom;
using namespace loom::Internal;
using namespace loom::Internal::test_ir;

TEST_CASE("substitute_through follows lets of lets", "[unit][long_pipelines]") {
    std::map<std::string, Expr> values{{"a", add(var("b"), i32(1))}, {"b", mul(var("c"), i32(2))}};
    Expr r = substitute_through(values, add(var("a"), var("c")));
    CHECK(equal(r, add(add(mul(var("c"), i32(2)), i32(1)), var("c"))));
    // Names it does not know stay.
    CHECK(equal(substitute_through(values, var("d")), var("d")));
    CHECK(equal(substitute_through({}, var("a")), var("a")));
}

TEST_CASE("compare_shallow compares children by identity", "[unit][long_pipelines]") {
    Expr x = var("x"), x_again = var("x");
    Expr a = add(x, i32(1)), same_children = add(x, i32(1));
    // Structurally equal with different child nodes: equal for compare, not
    // for compare_shallow.
    CHECK(compare(add(x, i32(1)), add(x_again, i32(1))) == 0);
    Expr one = i32(1);
    CHECK(compare_shallow(add(x, one), add(x, one)) == 0);
    CHECK(compare_shallow(add(x, one), add(x_again, one)) != 0);
    // Antisymmetric, and the node's own fields still count.
    int c = compare_shallow(add(x, one), add(x_again, one));
    CHECK(compare_shallow(add(x_again, one), add(x, one)) == -c);
    CHECK(compare_shallow(add(x, one), sub(x, one)) != 0);
    CHECK(compare_shallow(a, a) == 0);
    (void)same_children;
}

TEST_CASE("the touch index counts accesses per production", "[unit][long_pipelines]") {
    // produce g { produce f { f(x) = in(x) } ; g(x) = f(x) + f(x + 1) } ; h(x) = g(x)
    Expr x = var("x");
    auto call = [&](const std::string &name, const Expr &at, Call::CallType type) {
        return Call::make(Int(32), name, {at}, type);
    };
    Stmt produce_f = ProducerConsumer::make_produce(
        "f", Provide::make("f", {call("in", x, Call::Image)}, {x}, Expr()));
    Stmt g_body = Provide::make(
        "g", {add(call("f", x, Call::Loom), call("f", add(x, i32(1)), Call::Loom))}, {x}, Expr());
    Stmt produce_g = ProducerConsumer::make_produce("g", Block::make(produce_f, g_body));
    Stmt h_body = ProducerConsumer::make_produce(
        "h", Provide::make("h", {call("g", x, Call::Loom)}, {x}, Expr()));
    Stmt s = Block::make(produce_g, h_body);

    TouchIndex index(s);
    CHECK(index.reads("f") == 2);
    CHECK(index.reads("in") == 1);
    CHECK(index.writes("f") == 1);
    CHECK(index.reads_in("g", "f") == 2);
    CHECK(index.reads_in("g", "in") == 1); // f's production is inside g's
    CHECK(index.reads_in("h", "f") == 0);
    CHECK(index.writes_in("g", "f") == 1);
    CHECK(index.productions("f") == 1);
    CHECK(index.productions_in("g", "f") == 1);
    CHECK(index.productions_in("h", "f") == 0);
    CHECK(index.realizes("f") == 0);
}

TEST_CASE("the simplifier substitutes simple lets and drops unused ones in long chains",
          "[unit][long_pipelines]") {
    // let v0 = x; let v1 = v0 + 1; ...; let vN = v(N-1) + 1 (substituted),
    // with unused lets d_i = y * i between them (dropped), and the last
    // used in a call. (Long enough that a search per let would show; short
    // enough for simplify() on the test's own 8 MiB stack under ASan.)
    const int n = 300;
    Stmt body =
        Evaluate::make(Call::make(Int(32), "g", {var("v" + std::to_string(n))}, Call::Extern));
    for (int i = n; i >= 1; i--) {
        body = LetStmt::make("d" + std::to_string(i), mul(var("y"), i32(i)), body);
        body = LetStmt::make("v" + std::to_string(i), add(var("v" + std::to_string(i - 1)), i32(1)),
                             body);
    }
    body = LetStmt::make("v0", var("x"), body);
    Stmt r = simplify(body);
    std::string text = to_string(r);
    CHECK(text.find("g((x + 300))") != std::string::npos);
    CHECK(text.find("let") == std::string::npos);
}

TEST_CASE("the simplifier keeps a let used only through a value it put in",
          "[unit][long_pipelines]") {
    // let a = y * 3 in let b = a in let c = z * 5 in g(b, c): b's value (a) is
    // put in where b is used, so a stays and c too.
    Stmt body = Evaluate::make(Call::make(Int(32), "g", {var("b"), var("c")}, Call::Extern));
    Stmt s = LetStmt::make(
        "a", mul(var("y"), i32(3)),
        LetStmt::make("b", var("a"), LetStmt::make("c", mul(var("z"), i32(5)), body)));
    std::string text = to_string(simplify(s));
    INFO(text);
    CHECK(text.find("let a = (y * 3)") != std::string::npos);
    CHECK(text.find("let c = (z * 5)") != std::string::npos);
    CHECK(text.find("g(a, c)") != std::string::npos);
    CHECK(text.find("let b") == std::string::npos);
}
