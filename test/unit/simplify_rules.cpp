// Targeted simplifier rewrites and constant folding of every type.

#include <catch2/catch.hpp>

#include "analysis/Simplify.h"
#include "ir/IRPrinter.h"
#include "simplify_test_util.h"

using namespace loom;
using namespace loom::Internal;
using namespace loom::Internal::test_ir;

namespace {

std::string simp(const Expr &e, const Scope<Interval> &s = Scope<Interval>()) {
    return to_string(simplify(e, s));
}

const Expr x = var("x"), y = var("y"), z = var("z");

} // namespace

TEST_CASE("simplify folds constants of every type with wraparound", "[simplify]") {
    CHECK(simp(add(i32(2), i32(3))) == "5");
    CHECK(simp(add(make_const(UInt(8), 250), make_const(UInt(8), 10))) == "(uint8)4");
    CHECK(simp(sub(make_const(UInt(8), 3), make_const(UInt(8), 5))) == "(uint8)254");
    CHECK(simp(mul(make_const(Int(8), 100), make_const(Int(8), 2))) == "(int8)-56");
    CHECK(simp(add(make_const(Int(16), 32767), make_const(Int(16), 1))) == "(int16)-32768");
    CHECK(simp(add(i32(2147483647), i32(1))) == "-2147483648");
    CHECK(simp(mul(make_const(UInt(16), 300), make_const(UInt(16), 300))) == "(uint16)24464");
    CHECK(simp(add(make_const(Int(64), INT64_MAX), make_const(Int(64), 1))) ==
          "(int64)-9223372036854775808");
    CHECK(simp(mul(make_const(UInt(64), UINT64_MAX), make_const(UInt(64), 2))) ==
          "(uint64)18446744073709551614");
    CHECK(simp(sub(make_const(UInt(32), 0), make_const(UInt(32), 1))) == "(uint32)4294967295");
    // Float(32) arithmetic happens in float: 16777216 + 1 rounds back.
    Expr big = make_const(Float(32), 16777216.0), one = make_const(Float(32), 1.0);
    CHECK(*as_const_float(simplify(add(big, one))) == 16777216.0);
    CHECK(*as_const_float(simplify(
              add(make_const(Float(64), 16777216.0), make_const(Float(64), 1.0)))) == 16777217.0);
    CHECK(is_const_true(simplify(lt(make_const(Float(32), 1.5), make_const(Float(32), 2.0)))));
    CHECK(is_const_false(simplify(and_(make_bool(true), make_bool(false)))));
    CHECK(is_const_true(simplify(or_(make_bool(true), make_bool(false)))));
    CHECK(is_const_true(simplify(not_(make_bool(false)))));
}

TEST_CASE("simplify folds Euclidean division and modulus", "[simplify]") {
    CHECK(simp(div(i32(-7), i32(2))) == "-4");
    CHECK(simp(mod(i32(-7), i32(2))) == "1");
    CHECK(simp(div(i32(7), i32(-2))) == "-3");
    CHECK(simp(mod(i32(7), i32(-2))) == "1");
    CHECK(simp(div(i32(-7), i32(-2))) == "4");
    CHECK(simp(mod(i32(-7), i32(-2))) == "1");
    CHECK(simp(div(i32(7), i32(0))) == "0");
    CHECK(simp(mod(i32(7), i32(0))) == "0");
    CHECK(simp(div(make_const(UInt(8), 200), make_const(UInt(8), 0))) == "(uint8)0");
    CHECK(simp(div(make_const(Int(8), -128), make_const(Int(8), -1))) == "(int8)-128");
    CHECK(simp(mod(make_const(Int(8), -128), make_const(Int(8), -1))) == "(int8)0");
    // Float modulus is a - b * floor(a / b).
    CHECK(*as_const_float(simplify(mod(make_const(Float(32), -7.0), make_const(Float(32), 2.0)))) ==
          1.0);
}

TEST_CASE("simplify folds casts", "[simplify]") {
    CHECK(simp(Cast::make(UInt(8), i32(300))) == "(uint8)44");
    CHECK(simp(Cast::make(Int(8), make_const(UInt(8), 200))) == "(int8)-56");
    CHECK(simp(Cast::make(Int(32), make_const(Float(32), -2.75))) == "-2");
    CHECK(simp(Cast::make(Bool(), i32(2))) == "true");
    CHECK(*as_const_float(simplify(Cast::make(Float(32), make_const(Int(32), 16777217)))) ==
          16777216.0);
    // Out-of-range float -> int is undefined: left alone rather than folded.
    CHECK(!is_const(simplify(Cast::make(Int(8), make_const(Float(32), 1000.0)))));
    // Round trip through a wider type.
    Expr u = var("u", UInt(8));
    CHECK(simp(Cast::make(UInt(8), Cast::make(Int(32), u))) == "u");
    CHECK(simp(Cast::make(Int(32), x)) == "x");
}

TEST_CASE("simplify applies additive rules and canonical order", "[simplify]") {
    CHECK(simp(add(add(x, i32(1)), i32(2))) == "(x + 3)");
    CHECK(simp(add(i32(3), x)) == "(x + 3)");
    CHECK(simp(add(x, i32(0))) == "x");
    CHECK(simp(mul(x, i32(1))) == "x");
    CHECK(simp(mul(x, i32(0))) == "0");
    CHECK(simp(sub(x, x)) == "0");
    CHECK(simp(sub(add(x, y), x)) == "y");
    CHECK(simp(add(y, x)) == "(x + y)");
    CHECK(simp(sub(add(x, i32(5)), add(x, i32(2)))) == "3");
    CHECK(simp(sub(x, i32(4))) == "(x + -4)");
    CHECK(simp(add(add(x, i32(4)), add(y, i32(-4)))) == "(x + y)");
    CHECK(simp(mul(add(x, i32(2)), i32(3))) == "((x * 3) + 6)");
    // Floats are not reassociated.
    Expr f = var("f", Float(32));
    Expr f_sum = add(add(f, make_const(Float(32), 1.0)), make_const(Float(32), 2.0));
    CHECK(simplify(f_sum).as<Add>()->a.as<Add>() != nullptr);
    CHECK(simplify(sub(f, f)).as<Sub>() != nullptr);
    CHECK(simplify(mul(f, make_const(Float(32), 0.0))).as<Mul>() != nullptr);
}

TEST_CASE("simplify applies division rules only where exact", "[simplify]") {
    CHECK(simp(div(mul(x, i32(4)), i32(4))) == "x");
    CHECK(simp(div(mul(x, i32(8)), i32(4))) == simp(mul(x, i32(2))));
    CHECK(simp(div(add(x, i32(8)), i32(4))) == "((x / 4) + 2)");
    CHECK(simp(mod(mul(x, i32(6)), i32(3))) == "0");
    CHECK(simp(mod(add(x, i32(7)), i32(3))) == "((x + 1) % 3)");
    // Not exact: (x * 3) / 2 stays.
    CHECK(simplify(div(mul(x, i32(3)), i32(2))).as<Div>() != nullptr);
    // Narrow types wrap, so (x * 4) / 4 is not x for int8.
    Expr b = var("b", Int(8));
    CHECK(simplify(div(mul(b, make_const(Int(8), 4)), make_const(Int(8), 4))).as<Div>() != nullptr);
}

TEST_CASE("simplify applies min and max rules", "[simplify]") {
    CHECK(simp(min(i32(3), i32(9))) == "3");
    CHECK(simp(max(x, x)) == "x");
    CHECK(simp(min(add(x, i32(3)), x)) == "x");
    CHECK(simp(min(add(x, i32(-3)), x)) == "(x + -3)");
    CHECK(simp(max(add(x, i32(3)), add(x, i32(5)))) == "(x + 5)");
    CHECK(simp(min(min(x, i32(4)), i32(2))) == "min(x, 2)");
    CHECK(simp(max(max(x, i32(4)), i32(2))) == "max(x, 4)");
    CHECK(simp(min(i32(7), x)) == "min(x, 7)");
    CHECK(simp(min(max(x, y), x)) == "x");
    CHECK(simp(min(max(x, i32(10)), i32(5))) == "5");
    // uint8 wraps: min(u + 10, u) is not u.
    Expr u = var("u", UInt(8));
    CHECK(simplify(min(add(u, make_const(UInt(8), 10)), u)).as<Min>() != nullptr);
}

TEST_CASE("simplify uses variable bounds", "[simplify]") {
    Scope<Interval> s;
    s.push("x", Interval(i32(0), i32(50)));
    CHECK(simp(min(x, i32(100)), s) == "x");
    CHECK(simp(max(x, i32(100)), s) == "100");
    CHECK(simp(max(x, i32(-1)), s) == "x");
    CHECK(simp(lt(x, i32(51)), s) == "true");
    CHECK(simp(gt(x, i32(50)), s) == "false");
    CHECK(simp(mod(x, i32(64)), s) == "x");
    CHECK(simp(div(x, i32(64)), s) == "0");
    CHECK(simp(lt(x, i32(20)), s) == "(x < 20)");
    CHECK(can_prove(ge(add(x, i32(1)), i32(1)), s));
    CHECK(!can_prove(ge(x, i32(1)), s));
    // uint8 values are below 256 without any scope.
    Expr u = var("u", UInt(8));
    CHECK(is_const_true(simplify(lt(Cast::make(Int(32), u), i32(256)))));
}

TEST_CASE("simplify bounds shifts by constants and masks", "[simplify]") {
    // A fixed-point weighted sum of three uint8 values >> 8 is in [0, 255]
    // (a luma used as a table index): the clamp around it goes.
    auto channel = [](const char *name) { return Cast::make(Int(32), var(name, UInt(8))); };
    Expr sum = add(add(add(mul(channel("r"), i32(77)), mul(channel("g"), i32(150))),
                       mul(channel("b"), i32(29))),
                   i32(128));
    Expr luma = Call::make(Int(32), Intrinsic::shift_right, {sum, i32(8)});
    Expr clamped = max(min(luma, i32(255)), i32(0));
    CHECK(simplify(clamped).as<Call>() != nullptr);
    // One more than the largest value stays clamped.
    CHECK(simplify(min(luma, i32(254))).as<Min>() != nullptr);
    Scope<Interval> s;
    s.push("x", Interval(i32(-100), i32(100)));
    Expr down = Call::make(Int(32), Intrinsic::shift_right, {x, i32(3)});
    CHECK(simp(max(down, i32(-13)), s) == to_string(down)); // -100 >> 3 == -13
    CHECK(simplify(max(down, i32(-12)), s).as<Max>() != nullptr);
    Expr up = Call::make(Int(32), Intrinsic::shift_left, {x, i32(2)});
    CHECK(simp(min(up, i32(400)), s) == to_string(up));
    CHECK(simplify(min(up, i32(399)), s).as<Min>() != nullptr);
    Expr masked = Call::make(Int(32), Intrinsic::bitwise_and, {y, i32(15)});
    CHECK(simp(lt(masked, i32(16))) == "true");
    CHECK(simp(ge(masked, i32(0))) == "true");
    CHECK(simplify(lt(masked, i32(15))).as<LT>() != nullptr);
    // A shift by a variable amount says nothing.
    Expr by_var = Call::make(Int(32), Intrinsic::shift_right, {x, y});
    CHECK(simplify(min(by_var, i32(100)), s).as<Min>() != nullptr);
}

TEST_CASE("simplify applies comparison and logic rules", "[simplify]") {
    CHECK(simp(lt(add(x, i32(1)), add(x, i32(3)))) == "true");
    CHECK(simp(lt(add(x, i32(1)), x)) == "false");
    CHECK(simp(gt(x, y)) == "(y < x)");
    CHECK(simp(not_(lt(x, y))) == "(y <= x)");
    CHECK(simp(eq(add(x, i32(3)), i32(5))) == "(x == 2)");
    CHECK(simp(ne(x, x)) == "false");
    CHECK(simp(and_(lt(x, i32(3)), lt(x, i32(5)))) == "(x < 3)");
    CHECK(simp(or_(lt(x, i32(3)), lt(x, i32(5)))) == "(x < 5)");
    CHECK(simp(and_(lt(x, y), make_bool(true))) == "(x < y)");
    CHECK(simp(not_(not_(lt(x, y)))) == "(x < y)");
    // uint8: u + 1 > u is false at 255, so it must stay.
    Expr u = var("u", UInt(8));
    CHECK(!is_const(simplify(gt(add(u, make_const(UInt(8), 1)), u))));
    // Floats: !(a < b) is not b <= a (NaN).
    Expr f = var("f", Float(32)), g = var("g", Float(32));
    CHECK(simplify(not_(lt(f, g))).as<Not>() != nullptr);
    CHECK(simplify(eq(f, f)).as<EQ>() != nullptr);
}

TEST_CASE("simplify applies select rules", "[simplify]") {
    CHECK(simp(select(make_bool(true), x, y)) == "x");
    CHECK(simp(select(make_bool(false), x, y)) == "y");
    CHECK(simp(select(lt(x, y), z, z)) == "z");
    CHECK(simp(select(not_(lt(x, y)), x, y)) == "select((y <= x), x, y)");
    Expr c = var("c", Bool());
    CHECK(simp(select(not_(c), x, y)) == "select(c, y, x)");
    CHECK(simp(select(c, make_bool(true), make_bool(false))) == "c");
    CHECK(simp(select(lt(x, y), select(lt(x, y), x, z), y)) == "select((x < y), x, y)");
}

TEST_CASE("simplify folds ramps and broadcasts", "[simplify]") {
    Expr r = Ramp::make(x, i32(2), 4);
    Expr sum = simplify(add(r, Broadcast::make(i32(3), 4)));
    auto *ramp = sum.as<Ramp>();
    REQUIRE(ramp);
    CHECK(to_string(ramp->base) == "(x + 3)");
    CHECK(is_const(ramp->stride, 2));
    Expr b = simplify(add(Broadcast::make(x, 4), Broadcast::make(i32(1), 4)));
    REQUIRE(b.as<Broadcast>());
    CHECK(to_string(b.as<Broadcast>()->value) == "(x + 1)");
    CHECK(simplify(Ramp::make(x, i32(0), 4)).as<Broadcast>());
}

TEST_CASE("simplify handles lets", "[simplify]") {
    CHECK(simp(Let::make("t", i32(3), add(var("t"), i32(1)))) == "4");
    CHECK(simp(Let::make("t", y, add(var("t"), x))) == "(x + y)");
    CHECK(simp(Let::make("t", mul(x, y), x)) == "x");
    Expr kept = simplify(Let::make("t", mul(x, y), add(var("t"), var("t"))));
    CHECK(kept.as<Let>());
}

TEST_CASE("simplify simplifies statements", "[simplify]") {
    Stmt body = Evaluate::make(Call::make(Int(32), "f", {var("i")}, Call::Extern));
    // Extent 0: gone; extent 1: the loop variable becomes its min.
    Stmt none = simplify(For::make("i", i32(0), i32(0), ForType::Serial, DeviceAPI::None, body));
    auto *ev = none.as<Evaluate>();
    CHECK((ev && is_const(ev->value)));
    Stmt once = simplify(For::make("i", i32(5), i32(1), ForType::Serial, DeviceAPI::None, body));
    CHECK(to_string(once).find("f(5)") != std::string::npos);
    CHECK(!once.as<For>());
    // A condition the loop bounds decide.
    Stmt guarded = IfThenElse::make(lt(var("i"), i32(10)), body);
    Stmt loop =
        simplify(For::make("i", i32(0), i32(10), ForType::Serial, DeviceAPI::None, guarded));
    REQUIRE(loop.as<For>());
    CHECK(!loop.as<For>()->body.as<IfThenElse>());
    // Symbolic loop bounds prove i < n for i in [0, n - 1].
    Expr n = var("n");
    Stmt sym_guard = IfThenElse::make(lt(var("i"), n), body);
    Stmt sym = simplify(For::make("i", i32(0), n, ForType::Serial, DeviceAPI::None, sym_guard));
    REQUIRE(sym.as<For>());
    CHECK(!sym.as<For>()->body.as<IfThenElse>());
    // Asserts that are true vanish; others stay.
    Expr msg = Call::make(Int(32), "error", {}, Call::Extern);
    Stmt asserts =
        Block::make(AssertStmt::make(make_bool(true), msg), AssertStmt::make(lt(x, y), msg));
    CHECK(simplify(asserts).as<AssertStmt>());
    // Dead and trivial lets.
    Stmt dead = simplify(LetStmt::make("t", mul(x, y), body));
    CHECK(!dead.as<LetStmt>());
    Stmt const_let = simplify(LetStmt::make(
        "t", i32(4), Evaluate::make(Call::make(Int(32), "g", {var("t")}, Call::Extern))));
    CHECK(to_string(const_let).find("g(4)") != std::string::npos);
}

TEST_CASE("simplify drops a let's multiple of the divisor from a modulus", "[simplify]") {
    // let base = i * 16 + m in f(ramp(base, 1, 16) % 2 == 0): the lane
    // parity is (m + lane) % 2, the same in every iteration of i.
    auto lanes_mod = [&](const Expr &base, int k) {
        return Mod::make(Ramp::make(base, i32(1), 16), Broadcast::make(i32(k), 16));
    };
    auto in_let = [&](const Expr &value, const Expr &use) {
        Stmt body = Evaluate::make(Call::make(use.type(), "f", {use}, Call::Extern));
        return to_string(simplify(LetStmt::make("base", value, body)));
    };
    Expr m = var("m"), i = var("i");
    Expr base = var("base");
    std::string even = in_let(add(mul(i, i32(16)), m), lanes_mod(base, 2));
    INFO(even);
    CHECK(even.find("ramp(m, 1, 16) % x16(2)") != std::string::npos);
    // Also with the multiple second, and for a scalar base.
    CHECK(in_let(add(m, mul(i, i32(8))), Mod::make(base, i32(4))).find("m % 4") !=
          std::string::npos);
    // 3 does not divide 16: the multiple stays.
    std::string odd = in_let(add(mul(i, i32(16)), m), lanes_mod(base, 3));
    INFO(odd);
    CHECK(odd.find("ramp(base, 1, 16) % x16(3)") != std::string::npos);
}
