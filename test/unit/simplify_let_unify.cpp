// The simplifier writes a let whose value another enclosing let already
// computes (bounds inference often computes one bound in several lets) in
// terms of that let, so that loop extents and buffer offsets built from both
// fold to constants.

#include <catch2/catch.hpp>

#include "analysis/Simplify.h"
#include "ir/IREquality.h"
#include "ir/IRPrinter.h"
#include "simplify_test_util.h"

using namespace loom;
using namespace loom::Internal;
using namespace loom::Internal::test_ir;

namespace {

Stmt use(const Expr &e) {
    return Evaluate::make(Call::make(Int(32), "g", {e}, Call::Extern));
}

// A bound like a tile's realized min: not worth substituting by itself.
Expr tile_min() {
    return add(min(mul(var("t"), i32(24)), sub(var("w"), i32(24))), var("m"));
}

} // namespace

TEST_CASE("a let equal to an enclosing let becomes that let", "[simplify]") {
    // let a = B in let b = B in let c = B + 23 in g(a, (c - b) + (b - a))
    //   -> let a = B in g(a, 23)
    Stmt body = Evaluate::make(
        Call::make(Int(32), "g", {var("a"), add(sub(var("c"), var("b")), sub(var("b"), var("a")))},
                   Call::Extern));
    Stmt s = LetStmt::make(
        "a", tile_min(),
        LetStmt::make("b", tile_min(), LetStmt::make("c", add(tile_min(), i32(23)), body)));
    Stmt r = simplify(s);
    CHECK(to_string(r).find("g(a, 23)") != std::string::npos);
    // Only the outer let is left.
    auto *outer = r.as<LetStmt>();
    REQUIRE(outer);
    CHECK(outer->name == "a");
    CHECK(!outer->body.as<LetStmt>());
}

TEST_CASE("a bound through lets of equal values gives a constant loop extent", "[simplify]") {
    // The pure step of a Func computed per tile: its min is the union of the
    // tile's min and its update's min, which are the same expression.
    Expr lo = min(tile_min(), min(var("u.max"), var("u.min")));
    Expr hi = max(add(tile_min(), i32(23)), var("u.max"));
    Stmt loop = For::make("x", i32(0), add(sub(var("hi"), var("lo")), i32(1)), ForType::Serial,
                          DeviceAPI::None, use(var("x")));
    Stmt s = LetStmt::make(
        "realized", tile_min(),
        LetStmt::make("u.min", tile_min(),
                      LetStmt::make("u.max", add(tile_min(), i32(23)),
                                    LetStmt::make("lo", lo, LetStmt::make("hi", hi, loop)))));
    Stmt r = simplify(s);
    CHECK(to_string(r).find("for (x, 0, 24)") != std::string::npos);
}

TEST_CASE("a coordinate built from other lets matches the let of the same bound", "[simplify]") {
    // A consumer's row: its loop split's lets rebuild the producer's min.
    // let m = min((f / q) * 32, w) + v * 4 in
    //   let yy = f / q in let y = (min(yy * 32, w) + (v * 4 + 1)) in g(y - m)  -> g(1)
    Expr m = add(min(mul(div(var("f"), var("q")), i32(32)), var("w")), mul(var("v"), i32(4)));
    Expr y = add(min(mul(var("yy"), i32(32)), var("w")), add(mul(var("v"), i32(4)), i32(1)));
    Stmt s = LetStmt::make(
        "m", m,
        LetStmt::make(
            "yy", div(var("f"), var("q")),
            LetStmt::make("y", y,
                          Evaluate::make(Call::make(
                              Int(32), "g", {var("m"), sub(var("y"), var("m"))}, Call::Extern)))));
    CHECK(to_string(simplify(s)).find("g(m, 1)") != std::string::npos);
}

TEST_CASE("lets are not unified across a binding of a variable they use", "[simplify]") {
    // Inside the loop over t, b's t is the loop's: b's value is not a's.
    Stmt inner = LetStmt::make("b", tile_min(), use(sub(var("b"), var("a"))));
    Stmt s = LetStmt::make(
        "a", tile_min(), For::make("t", i32(0), var("n"), ForType::Serial, DeviceAPI::None, inner));
    CHECK(to_string(simplify(s)).find("(b - a)") != std::string::npos);
    // Nor inside a let that rebinds t.
    s = LetStmt::make("a", tile_min(), LetStmt::make("t", add(var("t"), var("k")), inner));
    CHECK(to_string(simplify(s)).find("(b - a)") != std::string::npos);
}
