// The reference interpreter the simplifier and bounds property tests rely on.

#include <catch2/catch.hpp>

#include "simplify_test_util.h"

using namespace loom;
using namespace loom::Internal;
using namespace loom::Internal::test_ir;

namespace {

ScalarValue eval(const Expr &e) {
    IRInterpreter interp;
    return interp.eval(e);
}

int64_t eval_int(const Expr &e) {
    return eval(e).i;
}

} // namespace

TEST_CASE("interpreter uses Euclidean division and wraparound", "[simplify]") {
    CHECK(eval_int(div(i32(-7), i32(2))) == -4);
    CHECK(eval_int(mod(i32(-7), i32(2))) == 1);
    CHECK(eval_int(div(i32(7), i32(-2))) == -3);
    CHECK(eval_int(mod(i32(7), i32(-2))) == 1);
    CHECK(eval_int(div(i32(7), i32(0))) == 0);
    CHECK(eval_int(mod(i32(7), i32(0))) == 0);
    CHECK(eval(add(make_const(UInt(8), 250), make_const(UInt(8), 10))).u == 4);
    CHECK(eval_int(mul(make_const(Int(8), 100), make_const(Int(8), 2))) == -56);
    CHECK(eval_int(Cast::make(Int(32), make_const(Float(32), -2.75))) == -2);
    CHECK(eval(Cast::make(Bool(), i32(2))).u == 1);
    CHECK(eval(Cast::make(UInt(8), i32(-1))).u == 255);
    // Float(32) arithmetic rounds to float.
    CHECK(eval(add(make_const(Float(32), 16777216.0), make_const(Float(32), 1.0))).f == 16777216.0);
}

TEST_CASE("interpreter reports undefined behaviour", "[simplify]") {
    IRInterpreter interp;
    interp.eval(add(i32(2147483647), i32(1)));
    CHECK(interp.undefined_behavior());
    interp.reset_undefined_behavior();
    // Narrow types wrap without undefined behaviour.
    interp.eval(add(make_const(Int(16), 32767), make_const(Int(16), 1)));
    CHECK(!interp.undefined_behavior());
    interp.eval(Cast::make(Int(8), make_const(Float(32), 1000.0)));
    CHECK(interp.undefined_behavior());
}

TEST_CASE("interpreter evaluates lets, selects, vectors and intrinsics", "[simplify]") {
    IRInterpreter interp;
    interp.set("x", ScalarValue::make_int(Int(32), 5));
    CHECK(interp.eval(Let::make("t", add(var("x"), i32(1)), mul(var("t"), var("t")))).i == 36);
    CHECK(interp.eval(select(lt(var("x"), i32(3)), i32(1), i32(2))).i == 2);
    Expr ramp = Ramp::make(var("x"), i32(3), 4);
    CHECK(interp.eval(ramp, 2).i == 11);
    CHECK(interp.eval(Broadcast::make(var("x"), 4), 3).i == 5);
    Expr absd = Call::make(UInt(32), Intrinsic::absd, {i32(3), i32(-4)});
    CHECK(interp.eval(absd).u == 7);
    Expr abs = Call::make(UInt(8), Intrinsic::abs, {make_const(Int(8), -128)});
    CHECK(interp.eval(abs).u == 128);
    Expr shr = Call::make(Int(32), Intrinsic::shift_right, {i32(-16), i32(2)});
    CHECK(interp.eval(shr).i == -4);
    Expr band = Call::make(UInt(8), Intrinsic::bitwise_and,
                           {make_const(UInt(8), 0xF0), make_const(UInt(8), 0x3C)});
    CHECK(interp.eval(band).u == 0x30);
    CHECK_THROWS(interp.eval(var("unbound")));
}
