#include <catch2/catch.hpp>

#include "ir/IREquality.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"
#include "ir/Substitute.h"

using namespace loom;
using namespace loom::Internal;

namespace {
Expr var(const std::string &name) {
    return Variable::make(Int(32), name);
}
} // namespace

TEST_CASE("substitute replaces free occurrences", "[ir]") {
    Expr x = var("x"), y = var("y");
    Expr e = Add::make(Mul::make(x, 2), y);
    CHECK(equal(substitute("x", Expr(5), e), Add::make(Mul::make(Expr(5), 2), y)));
    CHECK(substitute("z", Expr(5), e).same_as(e));
    std::map<std::string, Expr> m = {{"x", y}, {"y", x}};
    CHECK(equal(substitute(m, e), Add::make(Mul::make(y, 2), x)));
}

TEST_CASE("substitute respects shadowing", "[ir]") {
    Expr x = var("x");
    // let x = x + 1 in x * 2: only the x in the value is free.
    Expr e = Let::make("x", Add::make(x, 1), Mul::make(x, 2));
    Expr r = substitute("x", Expr(10), e);
    CHECK(equal(r, Let::make("x", Add::make(Expr(10), 1), Mul::make(x, 2))));

    Stmt body = Store::make("f", x, x, Buffer<>(), Parameter());
    Stmt loop = For::make("x", x, 10, ForType::Serial, DeviceAPI::None, body);
    Stmt rs = substitute("x", Expr(3), loop);
    REQUIRE(rs.as<For>());
    CHECK(equal(rs.as<For>()->min, Expr(3)));
    CHECK(rs.as<For>()->body.same_as(body));

    Stmt let = LetStmt::make("x", x, body);
    Stmt rl = substitute("x", Expr(3), let);
    CHECK(rl.as<LetStmt>()->body.same_as(body));
    CHECK(equal(rl.as<LetStmt>()->value, Expr(3)));
}

TEST_CASE("substitute_expr and substitute_in_all_lets", "[ir]") {
    Expr x = var("x"), y = var("y");
    Expr xy = Add::make(x, y);
    Expr e = Mul::make(Add::make(var("x"), var("y")), Sub::make(xy, 1));
    CHECK(equal(substitute_expr(Add::make(x, y), var("t"), e),
                Mul::make(var("t"), Sub::make(var("t"), 1))));

    Expr lets = Let::make("a", Add::make(x, 1),
                          Let::make("b", Mul::make(var("a"), 2), Add::make(var("a"), var("b"))));
    Expr inlined = substitute_in_all_lets(lets);
    Expr a = Add::make(x, 1);
    CHECK(equal(inlined, Add::make(a, Mul::make(a, 2))));
}

TEST_CASE("free variables and unique names", "[ir]") {
    Expr x = var("x"), y = var("y");
    Expr e = Let::make("x", y, Add::make(x, var("z")));
    CHECK(free_variables(e) == std::set<std::string>{"y", "z"});
    CHECK_FALSE(expr_uses_var(e, "x"));
    CHECK(expr_uses_var(e, "z"));
    CHECK(expr_uses_vars(e, {"q", "y"}));
    Stmt s = For::make("x", y, 10, ForType::Serial, DeviceAPI::None,
                       Store::make("f", x, x, Buffer<>(), Parameter()));
    CHECK_FALSE(stmt_uses_var(s, "x"));
    CHECK(stmt_uses_var(s, "y"));

    int nodes = 0;
    visit_all(e, [&](const IRNode *) { nodes++; });
    CHECK(nodes == 5); // Let, y, Add, x, z

    std::set<std::string> names;
    for (int i = 0; i < 100; i++) names.insert(unique_name("t"));
    CHECK(names.size() == 100);
    for (const std::string &n : names) {
        CHECK(n.rfind("t_", 0) == 0);
        CHECK(n.find_first_not_of("abcdefghijklmnopqrstuvwxyz_0123456789") == std::string::npos);
    }
}
