// The simplifier substitutes lets of the form `var + constant` (an unrolled
// vector's base, `x.base = x.min + 16`) so that the constant ends up outside
// the index expressions and their loads share one address computation.

#include <catch2/catch.hpp>

#include "analysis/Simplify.h"
#include "ir/IREquality.h"
#include "ir/IRPrinter.h"
#include "simplify_test_util.h"

using namespace loom;
using namespace loom::Internal;
using namespace loom::Internal::test_ir;

TEST_CASE("lets of a variable plus a constant are substituted", "[simplify]") {
    // let b = x + 16 in (b - m) + k * s  ->  ((x - m) + k * s) + 16
    Expr index = add(sub(var("b"), var("m")), mul(var("k"), var("s")));
    Expr e = simplify(Let::make("b", add(var("x"), i32(16)), index));
    CHECK(!e.as<Let>());
    CHECK(equal(e, simplify(add(add(sub(var("x"), var("m")), mul(var("k"), var("s"))), i32(16)))));

    Stmt use = Evaluate::make(Call::make(Int(32), "g", {index}, Call::Extern));
    Stmt s = simplify(LetStmt::make("b", add(var("x"), i32(16)), use));
    CHECK(!s.as<LetStmt>());
    CHECK(to_string(s).find("+ 16)") != std::string::npos);
}

TEST_CASE("lets of other expressions stay lets", "[simplify]") {
    Stmt use = Evaluate::make(Call::make(Int(32), "g", {add(var("b"), var("b"))}, Call::Extern));
    // A product, and a sum of two variables, are computed once.
    CHECK(simplify(LetStmt::make("b", mul(var("x"), i32(3)), use)).as<LetStmt>());
    CHECK(simplify(LetStmt::make("b", add(var("x"), var("y")), use)).as<LetStmt>());
    // A float sum is not an index.
    Expr f = Variable::make(Float(32), "f");
    Stmt fuse =
        Evaluate::make(Call::make(Float(32), "h", {Variable::make(Float(32), "b")}, Call::Extern));
    CHECK(
        simplify(LetStmt::make("b", Add::make(f, make_const(Float(32), 1.0)), fuse)).as<LetStmt>());
}
