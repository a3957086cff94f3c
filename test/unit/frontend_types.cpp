// Type coercion of the user-facing operators (Halide's rules), and the
// errors for constants that do not fit and for incompatible types.

#include <catch2/catch.hpp>

#include <functional>

#include "Loom.h"
#include "ir/IR.h"

using namespace loom;

namespace {

/** An Expr of type t that is not a constant (so no literal adoption applies). */
Expr value_of(Type t) {
    return Internal::Variable::make(t, "v_" + type_to_string(t));
}

std::string error_of(const std::function<void()> &f) {
    try {
        f();
    } catch (const CompileError &e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST_CASE("matching types of two Exprs", "[frontend][types]") {
    SECTION("same types are unchanged") {
        CHECK((value_of(UInt(8)) + value_of(UInt(8))).type() == UInt(8));
        CHECK((value_of(Float(64)) * value_of(Float(64))).type() == Float(64));
    }
    SECTION("a float and a non-float make the float type") {
        CHECK((value_of(Int(32)) + value_of(Float(32))).type() == Float(32));
        CHECK((value_of(Float(64)) - value_of(UInt(8))).type() == Float(64));
        CHECK((value_of(Int(64)) * value_of(Float(32))).type() == Float(32));
    }
    SECTION("two floats widen") {
        CHECK((value_of(Float(32)) + value_of(Float(64))).type() == Float(64));
        CHECK((value_of(Float(64)) / value_of(Float(32))).type() == Float(64));
    }
    SECTION("ints of one signedness widen") {
        CHECK((value_of(Int(8)) + value_of(Int(32))).type() == Int(32));
        CHECK((value_of(UInt(16)) + value_of(UInt(8))).type() == UInt(16));
        CHECK((value_of(UInt(64)) % value_of(UInt(32))).type() == UInt(64));
    }
    SECTION("signed with unsigned becomes signed of the larger width") {
        CHECK((value_of(Int(8)) + value_of(UInt(16))).type() == Int(16));
        CHECK((value_of(UInt(32)) - value_of(Int(16))).type() == Int(32));
        CHECK((value_of(UInt(8)) * value_of(Int(8))).type() == Int(8));
    }
    SECTION("comparisons match then give bool") {
        Expr c = value_of(UInt(8)) < value_of(Int(32));
        CHECK(c.type() == Bool());
        const auto *lt = c.as<Internal::LT>();
        REQUIRE(lt);
        CHECK(lt->a.type() == Int(32));
        CHECK(lt->b.type() == Int(32));
    }
    SECTION("min and max match") {
        CHECK(min(value_of(Int(16)), value_of(Float(32))).type() == Float(32));
        CHECK(max(value_of(UInt(8)), value_of(UInt(16))).type() == UInt(16));
    }
}

TEST_CASE("C++ numbers adopt the Expr's type", "[frontend][types]") {
    Expr u8 = value_of(UInt(8)), i16 = value_of(Int(16)), f32 = value_of(Float(32)),
         f64 = value_of(Float(64));
    CHECK((u8 + 3).type() == UInt(8));
    CHECK((3 + u8).type() == UInt(8));
    CHECK((i16 * -2).type() == Int(16));
    CHECK((f32 * 0.5).type() == Float(32));
    CHECK((f32 * 2).type() == Float(32));
    CHECK((f64 + 1.5f).type() == Float(64));
    CHECK((u8 < 200).type() == Bool());
    CHECK(min(u8, 10).type() == UInt(8));
    CHECK(max(i16, 7).type() == Int(16));

    SECTION("an int Expr with a floating number becomes float32") {
        Expr i32 = value_of(Int(32));
        CHECK((i32 * 0.5f).type() == Float(32));
        CHECK((i32 * 0.5).type() == Float(32));
        CHECK((0.25 + u8).type() == Float(32));
    }
    SECTION("Var converts to an Int(32) Variable named after it") {
        Var x("x");
        Expr e = x;
        const auto *v = e.as<Internal::Variable>();
        REQUIRE(v);
        CHECK(v->name == "x");
        CHECK(e.type() == Int(32));
        CHECK((x + 1).type() == Int(32));
        CHECK((x * 0.5f).type() == Float(32));
        Var a, b;
        CHECK(a.name() != b.name());
    }
    SECTION("constants that do not fit are errors") {
        std::string msg = error_of([&] { (void)(u8 + 256); });
        CHECK(msg.find("256") != std::string::npos);
        CHECK(msg.find("uint8") != std::string::npos);
        CHECK(msg.find("+") != std::string::npos);
        CHECK_THROWS_AS(u8 - (-1), CompileError);
        CHECK_THROWS_AS(i16 * 40000, CompileError);
        CHECK_NOTHROW(i16 * -32768);
        CHECK_NOTHROW(u8 + 255);
    }
}

TEST_CASE("literal arms of select adopt the other arm's type", "[frontend][types]") {
    Expr u8 = value_of(UInt(8));
    Expr c = value_of(Int(32)) > 0;
    CHECK(select(c, u8, 0).type() == UInt(8));
    CHECK(select(c, 1.5, value_of(Float(32))).type() == Float(32));
    CHECK(select(c, u8, c, 3, 4).type() == UInt(8));
    CHECK(clamp(u8, 10, 20).type() == UInt(8));
    CHECK_THROWS_AS(select(c, u8, 300), CompileError);
}

TEST_CASE("result types of intrinsics and math", "[frontend][types]") {
    CHECK(abs(value_of(Int(16))).type() == UInt(16));
    CHECK(abs(value_of(Float(64))).type() == Float(64));
    CHECK(absd(value_of(Int(8)), value_of(Int(8))).type() == UInt(8));
    CHECK(sqrt(value_of(Int(32))).type() == Float(32));
    CHECK(sqrt(value_of(Float(64))).type() == Float(64));
    CHECK(pow(value_of(Float(32)), 2).type() == Float(32));
    CHECK(floor(value_of(UInt(8))).type() == Float(32));
    CHECK(is_nan(value_of(Float(32))).type() == Bool());
    CHECK(cast<uint8_t>(value_of(Float(32))).type() == UInt(8));
    CHECK(cast(Bool(), value_of(Int(32))).type() == Bool());
    CHECK((value_of(UInt(8)) << 3).type() == UInt(8));
    CHECK((value_of(Int(16)) & value_of(Int(16))).type() == Int(16));
    CHECK(lerp(value_of(UInt(8)), value_of(UInt(8)), value_of(Float(32))).type() == UInt(8));
    CHECK(lerp(value_of(Float(32)), value_of(Float(32)), 0.25f).type() == Float(32));
    CHECK(mux(value_of(Int(32)), {value_of(Int(16)), value_of(Int(16))}).type() == Int(16));
    CHECK(count_leading_zeros(value_of(UInt(32))).type() == UInt(32));
    CHECK(reinterpret<uint32_t>(value_of(Float(32))).type() == UInt(32));

    // Keep the Exprs alive: as<>() returns a pointer into the node.
    Expr root32 = sqrt(value_of(Float(32)));
    const auto *call = root32.as<Internal::Call>();
    REQUIRE(call);
    CHECK(call->name == "sqrt_f32");
    CHECK(call->call_type == Internal::Call::PureExtern);
    Expr exp64 = exp(value_of(Float(64)));
    const auto *call64 = exp64.as<Internal::Call>();
    REQUIRE(call64);
    CHECK(call64->name == "exp_f64");
}

TEST_CASE("incompatible types are errors naming operator and types", "[frontend][types][error]") {
    Expr h = value_of(Handle()), i32 = value_of(Int(32)), b = value_of(Bool());
    std::string msg = error_of([&] { (void)(h + i32); });
    CHECK(msg.find("+") != std::string::npos);
    CHECK(msg.find("handle") != std::string::npos);
    CHECK(msg.find("int32") != std::string::npos);

    // A bool meeting a number converts to its type (as in Halide); two bools
    // take no arithmetic.
    CHECK((b * i32).type() == Int(32));
    msg = error_of([&] { (void)(b * b); });
    CHECK(msg.find("*") != std::string::npos);
    CHECK(msg.find("bool") != std::string::npos);

    CHECK_THROWS_AS(i32 && b, CompileError);
    CHECK_THROWS_AS(!i32, CompileError);
    CHECK_THROWS_AS(value_of(Float(32)) & i32, CompileError);
    CHECK_THROWS_AS(h < i32, CompileError);
    CHECK_THROWS_AS(select(i32, i32, i32), CompileError);
    CHECK_THROWS_AS(reinterpret<uint8_t>(i32), CompileError);
    CHECK_THROWS_AS(fast_exp(value_of(Float(64))), CompileError);
    CHECK_NOTHROW(b && (i32 > 0));
    CHECK_NOTHROW(b == b);
}
