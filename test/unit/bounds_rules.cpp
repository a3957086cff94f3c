// Targeted interval arithmetic and required/provided regions.

#include <catch2/catch.hpp>

#include "analysis/Bounds.h"
#include "analysis/Simplify.h"
#include "ir/IRPrinter.h"
#include "ir/Substitute.h"
#include "simplify_test_util.h"

using namespace loom;
using namespace loom::Internal;
using namespace loom::Internal::test_ir;

namespace {

std::string show(const Interval &i) {
    return "[" + (i.min.defined() ? to_string(i.min) : std::string("-inf")) + ", " +
           (i.max.defined() ? to_string(i.max) : std::string("+inf")) + "]";
}

std::string bounds(const Expr &e, const Scope<Interval> &s) {
    return show(bounds_of_expr_in_scope(e, s));
}

const Expr x = var("x"), y = var("y"), n = var("n");

Scope<Interval> x_0_10_y_m5_5() {
    Scope<Interval> s;
    s.push("x", Interval(i32(0), i32(10)));
    s.push("y", Interval(i32(-5), i32(5)));
    return s;
}

} // namespace

TEST_CASE("bounds of arithmetic are tight", "[bounds]") {
    Scope<Interval> s = x_0_10_y_m5_5();
    CHECK(bounds(add(x, y), s) == "[-5, 15]");
    CHECK(bounds(sub(x, y), s) == "[-5, 15]");
    CHECK(bounds(mul(x, i32(3)), s) == "[0, 30]");
    CHECK(bounds(mul(x, i32(-3)), s) == "[-30, 0]");
    CHECK(bounds(mul(x, y), s) == "[-50, 50]");
    CHECK(bounds(div(y, i32(2)), s) == "[-3, 2]");
    CHECK(bounds(div(x, i32(-3)), s) == "[-3, 0]");
    CHECK(bounds(mod(y, i32(4)), s) == "[0, 3]");
    CHECK(bounds(mod(x, i32(16)), s) == "[0, 10]");
    CHECK(bounds(min(x, y), s) == "[-5, 5]");
    CHECK(bounds(max(x, i32(3)), s) == "[3, 10]");
    CHECK(bounds(select(lt(x, y), x, y), s) == "[-5, 10]");
    CHECK(bounds(Let::make("t", add(x, i32(1)), mul(var("t"), i32(2))), s) == "[2, 22]");
    CHECK(bounds(lt(x, i32(11)), s) == "[true, true]");
    CHECK(bounds(lt(x, i32(5)), s) == "[false, true]");
}

TEST_CASE("bounds of shifts by constants and of masks", "[bounds]") {
    Scope<Interval> s = x_0_10_y_m5_5();
    auto shr = [](const Expr &a, const Expr &b) {
        return Call::make(Int(32), Intrinsic::shift_right, {a, b});
    };
    auto band = [](const Expr &a, const Expr &b) {
        return Call::make(Int(32), Intrinsic::bitwise_and, {a, b});
    };
    CHECK(bounds(shr(x, i32(1)), s) == "[0, 5]");
    CHECK(bounds(shr(y, i32(2)), s) == "[-2, 1]"); // floor(-5 / 4) == -2
    CHECK(bounds(shr(add(mul(x, i32(77)), i32(128)), i32(8)), s) == "[0, 3]");
    CHECK(bounds(band(n, i32(15)), s) == "[0, 15]");
    CHECK(bounds(band(i32(7), n), s) == "[0, 7]");
    // A shift by a variable, or a negative mask, says nothing.
    CHECK(bounds(shr(x, y), s) == "[-inf, +inf]");
    CHECK(bounds(band(n, i32(-16)), s) == "[-inf, +inf]");
}

TEST_CASE("bounds respect types", "[bounds]") {
    Scope<Interval> s = x_0_10_y_m5_5();
    // Fits: the cast keeps the range. Does not fit: the whole type.
    CHECK(bounds(Cast::make(UInt(8), x), s) == "[(uint8)0, (uint8)10]");
    CHECK(bounds(Cast::make(UInt(8), y), s) == "[(uint8)0, (uint8)255]");
    Expr u = var("u", UInt(8));
    s.push("u", Interval(make_const(UInt(8), 200), make_const(UInt(8), 250)));
    // uint8 addition may wrap, so its range is the type's.
    CHECK(bounds(add(u, make_const(UInt(8), 100)), s) == "[(uint8)0, (uint8)255]");
    CHECK(bounds(add(u, make_const(UInt(8), 5)), s) == "[(uint8)205, (uint8)255]");
    // Loads of small types have the type's range; wide ones are unbounded.
    Expr load8 = Load::make(UInt(8), "buf", i32(0), Buffer<>(), Parameter());
    Expr load32 = Load::make(Int(32), "buf", i32(0), Buffer<>(), Parameter());
    CHECK(bounds(load8, s) == "[(uint8)0, (uint8)255]");
    CHECK(bounds(load32, s) == "[-inf, +inf]");
}

TEST_CASE("bounds are symbolic for free variables", "[bounds]") {
    Scope<Interval> s;
    s.push("x", Interval(i32(0), sub(n, i32(1))));
    CHECK(bounds(add(x, i32(1)), s) == "[1, n]");
    CHECK(bounds(y, s) == "[y, y]");
    CHECK(bounds(lt(x, n), s) == "[true, true]");
    // Lanes of a ramp.
    CHECK(bounds(Ramp::make(y, i32(2), 4), s) == "[y, (y + 6)]");
}

TEST_CASE("a float quotient of fixed values is one fixed value", "[bounds]") {
    // 1 / r with r a Param: a bilateral grid's bins per unit of intensity.
    Scope<Interval> s;
    Expr r = var("r", Float(32)), one = make_const(Float(32), 1.0);
    CHECK(bounds(div(one, r), s) == "[(1.0f / r), (1.0f / r)]");
    // Through a conversion to int the bin count stays bounded (and symbolic).
    Interval bins = bounds_of_expr_in_scope(Cast::make(Int(32), div(one, r)), s);
    CHECK(bins.is_bounded());
    // A range over a fixed divisor of unknown sign: the ends' quotients,
    // ordered by min and max (a resampler's (x + 0.5f) / scale).
    Scope<Interval> in_row;
    Expr fx = var("fx", Float(32));
    in_row.push("fx", Interval(make_const(Float(32), 0.5), make_const(Float(32), 10.5)));
    CHECK(bounds(div(fx, r), in_row) ==
          "[min((0.5f / r), (10.5f / r)), max((0.5f / r), (10.5f / r))]");
    // ... also when the divisor is a min of fixed values (a kernel's
    // support, 2 / min(scale, 1)).
    Expr support = div(make_const(Float(32), 2.0), min(r, make_const(Float(32), 1.0)));
    CHECK(bounds(sub(fx, support), in_row) == "[(0.5f - (2.0f / min(r, 1.0f))), (10.5f - (2.0f / "
                                              "min(r, 1.0f)))]");
    // Rounding functions keep the order: floor of that range is bounded.
    Expr floor_fx = Call::make(Float(32), "floor_f32", {fx}, Call::PureExtern);
    CHECK(bounds(floor_fx, in_row) == "[floor_f32(0.5f), floor_f32(10.5f)]");
    // A divisor that varies over a range of unknown sign still bounds nothing.
    s.push("f", Interval(make_const(Float(32), -1.0), make_const(Float(32), 1.0)));
    CHECK(bounds(div(one, var("f", Float(32))), s) == "[-inf, +inf]");
}

TEST_CASE("boxes_required unions call sites over loops", "[bounds]") {
    // for i in [0, 10): f(i) + f(i + 2, ...) style accesses, via Image calls on a name.
    Expr i = var("i");
    Expr call_a = Call::make(Int(32), "img", {i, y}, Call::Image);
    Expr call_b = Call::make(Int(32), "img", {add(i, i32(2)), i32(7)}, Call::Image);
    Stmt body = Evaluate::make(add(call_a, call_b));
    Stmt loop = For::make("i", i32(0), i32(10), ForType::Serial, DeviceAPI::None, body);
    Scope<Interval> s;
    s.push("y", Interval(i32(3), i32(5)));
    auto boxes = boxes_required(loop, s);
    REQUIRE(boxes.count("img") == 1);
    const Box &b = boxes["img"];
    REQUIRE(b.size() == 2);
    CHECK(show(b[0]) == "[0, 11]");
    CHECK(show(b[1]) == "[3, 7]");
    // The same through an expression with a Let.
    Expr with_let =
        Let::make("j", add(y, i32(1)), Call::make(Int(32), "img", {var("j"), i32(0)}, Call::Image));
    auto expr_boxes = boxes_required(with_let, s);
    CHECK(show(expr_boxes["img"][0]) == "[4, 6]");
    // Symbolic loop extents.
    Stmt sym = For::make("i", i32(0), n, ForType::Serial, DeviceAPI::None, body);
    auto sym_boxes = boxes_required(sym, Scope<Interval>());
    CHECK(show(sym_boxes["img"][0]) == "[0, (n + 1)]");
}

TEST_CASE("boxes_provided covers Provide sites", "[bounds]") {
    Expr i = var("i");
    Stmt p = Provide::make("f", {i32(1)}, {mul(i, i32(2))});
    Stmt loop = For::make("i", i32(1), i32(4), ForType::Serial, DeviceAPI::None, p);
    auto boxes = boxes_provided(loop, Scope<Interval>());
    REQUIRE(boxes.count("f") == 1);
    CHECK(show(boxes["f"][0]) == "[2, 8]");
}

TEST_CASE("intervals unite and intersect", "[bounds]") {
    Interval a(i32(0), i32(10)), b(i32(5), i32(20));
    CHECK(show(Interval::make_union(a, b)) == "[0, 20]");
    CHECK(show(Interval::make_intersection(a, b)) == "[5, 10]");
    CHECK(show(Interval::make_union(a, Interval(i32(3), Expr()))) == "[0, +inf]");
    CHECK(show(Interval::make_intersection(a, Interval(Expr(), i32(4)))) == "[0, 4]");
    Box b1(1), b2(1);
    b1[0] = a;
    b2[0] = b;
    CHECK(show(box_union(b1, b2)[0]) == "[0, 20]");
}

TEST_CASE("division and remainder by a symbolic divisor stay bounded", "[bounds]") {
    // x in [0, 100], divisor d in [1, n] (provably positive) or [m, n] (sign unknown).
    Scope<Interval> s;
    s.push("x", Interval(i32(0), i32(100)));
    s.push("d", Interval(i32(1), n));
    s.push("e", Interval(var("m"), n));
    auto at = [](const Expr &bound, int n_value, int m_value) {
        Expr e = substitute("n", i32(n_value), substitute("m", i32(m_value), bound));
        return to_string(simplify(e));
    };

    Interval q = bounds_of_expr_in_scope(Div::make(x, var("d")), s);
    REQUIRE(q.is_bounded());
    CHECK(at(q.min, 7, 0) == "0");
    CHECK(at(q.max, 7, 0) == "100");

    Interval r = bounds_of_expr_in_scope(Mod::make(x, var("d")), s);
    REQUIRE(r.is_bounded());
    CHECK(at(r.min, 7, 0) == "0");
    CHECK(at(r.max, 7, 0) == "6");

    // Unknown sign: |x / e| <= |x|, and x % e stays below the divisor's magnitude.
    Interval q2 = bounds_of_expr_in_scope(Div::make(x, var("e")), s);
    REQUIRE(q2.is_bounded());
    CHECK(at(q2.min, 7, -3) == "-100");
    CHECK(at(q2.max, 7, -3) == "100");
    Interval r2 = bounds_of_expr_in_scope(Mod::make(x, var("e")), s);
    REQUIRE(r2.is_bounded());
    CHECK(at(r2.max, 7, -9) == "8");
}
