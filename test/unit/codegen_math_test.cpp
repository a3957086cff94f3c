// Math functions ("sqrt_f32", ...) and intrinsics compared with <cmath> and
// plain C++.

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "codegen_test_util.h"

using namespace loom;
using namespace loom::Internal;
using namespace loom::test;

namespace {

template <typename T>
std::vector<T> run_unary(const std::string &fn, const std::vector<T> &input, Type out_type) {
    Type t = type_of<T>();
    int n = int(input.size());
    Buffer<T> in(n);
    for (int i = 0; i < n; i++) in(i) = input[size_t(i)];
    Buffer<> out(out_type, {n});
    Expr arg = load(t, "in", var("x"));
    Expr v = Call::make(out_type, fn, {arg}, Call::PureExtern);
    LoweredFunc f = pointwise("cg_math_" + fn, out_type, {buffer_arg("in", t, 1, false)}, v);
    void *argv[] = {nullptr, in.raw_buffer(), out.raw_buffer()};
    REQUIRE(JITModule::compile(f, get_host_target()).argv_function()(argv) == 0);
    std::vector<T> result;
    if (out_type.is_bool()) {
        for (int i = 0; i < n; i++) result.push_back(T(reinterpret_cast<bool *>(out.data())[i]));
    } else {
        for (int i = 0; i < n; i++) result.push_back(reinterpret_cast<T *>(out.data())[i]);
    }
    return result;
}

} // namespace

TEST_CASE("codegen: float math functions match <cmath>", "[codegen][jit]") {
    std::vector<float> in{0.25f, 1.0f, 2.5f, 3.5f, -2.5f, 10.0f};
    auto check = [&](const char *name, float (*ref)(float), bool positive_only) {
        std::vector<float> args;
        for (float v : in)
            if (!positive_only || v > 0) args.push_back(v);
        std::vector<float> got = run_unary<float>(std::string(name) + "_f32", args, Float(32));
        for (size_t i = 0; i < args.size(); i++) {
            INFO(name << "(" << args[i] << ")");
            REQUIRE(got[i] == Approx(ref(args[i])).epsilon(1e-6));
        }
    };
    check(
        "sqrt", [](float v) { return std::sqrt(v); }, true);
    check(
        "exp", [](float v) { return std::exp(v); }, false);
    check(
        "log", [](float v) { return std::log(v); }, true);
    check(
        "sin", [](float v) { return std::sin(v); }, false);
    check(
        "cos", [](float v) { return std::cos(v); }, false);
    check(
        "tan", [](float v) { return std::tan(v); }, false);
    check(
        "atan", [](float v) { return std::atan(v); }, false);
    check(
        "tanh", [](float v) { return std::tanh(v); }, false);
    check(
        "sinh", [](float v) { return std::sinh(v); }, false);
    check(
        "floor", [](float v) { return std::floor(v); }, false);
    check(
        "ceil", [](float v) { return std::ceil(v); }, false);
    check(
        "trunc", [](float v) { return std::trunc(v); }, false);
    // round is half to even: 2.5 -> 2, 3.5 -> 4, -2.5 -> -2.
    check(
        "round", [](float v) { return std::nearbyint(v); }, false);
    REQUIRE(run_unary<float>("round_f32", {2.5f, 3.5f, -2.5f, 0.5f}, Float(32)) ==
            std::vector<float>{2, 4, -2, 0});
}

TEST_CASE("codegen: double math and two-argument functions", "[codegen][jit]") {
    std::vector<double> got = run_unary<double>("sqrt_f64", {2.0, 9.0}, Float(64));
    REQUIRE(got[0] == std::sqrt(2.0));
    REQUIRE(got[1] == 3.0);

    Buffer<float> a(3), b(3), out(3);
    float av[] = {1.0f, -1.0f, 2.0f}, bv[] = {1.0f, 1.0f, 0.5f};
    for (int i = 0; i < 3; i++) a(i) = av[i], b(i) = bv[i];
    for (const char *fn : {"atan2_f32", "pow_f32"}) {
        Expr v = Call::make(Float(32), fn,
                            {load(Float(32), "a", var("x")), load(Float(32), "b", var("x"))},
                            Call::PureExtern);
        LoweredFunc f = pointwise(
            std::string("cg_") + fn, Float(32),
            {buffer_arg("a", Float(32), 1, false), buffer_arg("b", Float(32), 1, false)}, v);
        void *argv[] = {nullptr, a.raw_buffer(), b.raw_buffer(), out.raw_buffer()};
        REQUIRE(JITModule::compile(f, get_host_target()).argv_function()(argv) == 0);
        for (int i = 0; i < 3; i++) {
            float expected =
                std::string(fn) == "atan2_f32" ? std::atan2(av[i], bv[i]) : std::pow(av[i], bv[i]);
            REQUIRE(out(i) == Approx(expected).epsilon(1e-6));
        }
    }
}

TEST_CASE("codegen: nan/inf classification and fast approximations", "[codegen][jit]") {
    std::vector<float> in{1.0f, NAN, INFINITY, -INFINITY, 0.0f};
    REQUIRE(run_unary<float>("is_nan_f32", in, Bool()) == std::vector<float>{0, 1, 0, 0, 0});
    REQUIRE(run_unary<float>("is_inf_f32", in, Bool()) == std::vector<float>{0, 0, 1, 1, 0});
    REQUIRE(run_unary<float>("is_finite_f32", in, Bool()) == std::vector<float>{1, 0, 0, 0, 1});
    std::vector<float> inv = run_unary<float>("fast_inverse_f32", {4.0f, 0.5f}, Float(32));
    REQUIRE(inv[0] == Approx(0.25f).epsilon(1e-3));
    REQUIRE(inv[1] == Approx(2.0f).epsilon(1e-3));
    std::vector<float> rs = run_unary<float>("fast_inverse_sqrt_f32", {4.0f}, Float(32));
    REQUIRE(rs[0] == Approx(0.5f).epsilon(1e-3));
    REQUIRE(run_unary<float>("fast_exp_f32", {1.0f}, Float(32))[0] ==
            Approx(std::exp(1.0f)).epsilon(1e-3));
    REQUIRE(run_unary<float>("fast_log_f32", {4.0f}, Float(32))[0] ==
            Approx(std::log(4.0f)).epsilon(1e-3));
}

TEST_CASE("codegen: vector math calls work lane by lane", "[codegen][jit]") {
    // out[8v..] = sqrt(in[8v..]) and atan(in[8v..]) as 8-lane vectors (atan has no LLVM intrinsic).
    for (const char *fn : {"sqrt_f32", "atan_f32"}) {
        Expr ramp = Ramp::make(Mul::make(var("v"), Expr(8)), Expr(1), 8);
        Expr v = Call::make(Float(32, 8), fn,
                            {Load::make(Float(32, 8), "in", ramp, Buffer<>(), Parameter())},
                            Call::PureExtern);
        Stmt body = For::make("v", Expr(0), Expr(2), ForType::Serial, DeviceAPI::None,
                              Store::make("out", v, ramp, Buffer<>(), Parameter()));
        LoweredFunc f;
        f.name = std::string("cg_vmath_") + fn;
        f.args = {buffer_arg("in", Float(32), 1, false), buffer_arg("out", Float(32), 1, true)};
        f.body = bind_buffer("in", 1, bind_buffer("out", 1, body));
        Buffer<float> in(16), out(16);
        for (int i = 0; i < 16; i++) in(i) = float(i) + 0.5f;
        void *argv[] = {nullptr, in.raw_buffer(), out.raw_buffer()};
        REQUIRE(JITModule::compile(f, get_host_target()).argv_function()(argv) == 0);
        for (int i = 0; i < 16; i++) {
            float expected = std::string(fn) == "sqrt_f32" ? std::sqrt(in(i)) : std::atan(in(i));
            REQUIRE(out(i) == Approx(expected).epsilon(1e-6));
        }
    }
}

TEST_CASE("codegen: intrinsics match plain C++", "[codegen][jit]") {
    Buffer<int8_t> a(6), b(6);
    int8_t av[] = {-128, -5, 0, 7, 127, -1}, bv[] = {3, 2, -1, 1, -128, 9};
    for (int i = 0; i < 6; i++) a(i) = av[i], b(i) = bv[i];
    auto run = [&](const std::string &name, Type out_type, Expr v) {
        LoweredFunc f =
            pointwise(name, out_type,
                      {buffer_arg("a", Int(8), 1, false), buffer_arg("b", Int(8), 1, false)}, v);
        Buffer<> out(out_type, {6});
        void *argv[] = {nullptr, a.raw_buffer(), b.raw_buffer(), out.raw_buffer()};
        REQUIRE(JITModule::compile(f, get_host_target()).argv_function()(argv) == 0);
        return out;
    };
    Expr la = load(Int(8), "a", var("x")), lb = load(Int(8), "b", var("x"));
    auto call = [](Type t, Intrinsic op, std::vector<Expr> args) {
        return Call::make(t, op, args, Call::PureIntrinsic);
    };

    Buffer<uint8_t> abs_out = run("cg_abs", UInt(8), call(UInt(8), Intrinsic::abs, {la}));
    Buffer<uint8_t> absd_out = run("cg_absd", UInt(8), call(UInt(8), Intrinsic::absd, {la, lb}));
    Buffer<int8_t> and_out = run("cg_and", Int(8), call(Int(8), Intrinsic::bitwise_and, {la, lb}));
    Buffer<int8_t> xor_out = run("cg_xor", Int(8), call(Int(8), Intrinsic::bitwise_xor, {la, lb}));
    Buffer<int8_t> not_out = run("cg_not", Int(8), call(Int(8), Intrinsic::bitwise_not, {la}));
    Expr amount = Cast::make(
        Int(8), Sub::make(Cast::make(Int(32), Mod::make(lb, make_const(Int(8), 5))), Expr(2)));
    Buffer<int8_t> shl_out =
        run("cg_shl", Int(8), call(Int(8), Intrinsic::shift_left, {la, amount}));
    Buffer<int8_t> shr_out =
        run("cg_shr", Int(8), call(Int(8), Intrinsic::shift_right, {la, amount}));
    Buffer<int8_t> clz_out =
        run("cg_clz", Int(8), call(Int(8), Intrinsic::count_leading_zeros, {la}));
    Buffer<int8_t> pop_out = run("cg_popcount", Int(8), call(Int(8), Intrinsic::popcount, {la}));
    Buffer<int8_t> div0_out =
        run("cg_div_rtz", Int(8), call(Int(8), Intrinsic::div_round_to_zero, {la, lb}));
    Buffer<int8_t> mod0_out =
        run("cg_mod_rtz", Int(8), call(Int(8), Intrinsic::mod_round_to_zero, {la, lb}));
    for (int i = 0; i < 6; i++) {
        int x = av[i], y = bv[i];
        INFO("a = " << x << ", b = " << y);
        REQUIRE(abs_out(i) == uint8_t(x < 0 ? -x : x));
        REQUIRE(absd_out(i) == uint8_t(x > y ? x - y : y - x));
        REQUIRE(and_out(i) == int8_t(x & y));
        REQUIRE(xor_out(i) == int8_t(x ^ y));
        REQUIRE(not_out(i) == int8_t(~x));
        int m = ((y % 5) + 5) % 5 - 2;
        int8_t shl = m >= 0 ? int8_t(uint8_t(x) << m) : int8_t(x >> -m);
        int8_t shr = m >= 0 ? int8_t(x >> m) : int8_t(uint8_t(x) << -m);
        REQUIRE(shl_out(i) == shl);
        REQUIRE(shr_out(i) == shr);
        int clz = 0;
        for (int bit = 7; bit >= 0 && !((uint8_t(x) >> bit) & 1); bit--) clz++;
        REQUIRE(clz_out(i) == clz);
        REQUIRE(pop_out(i) == __builtin_popcount(uint8_t(x)));
        int8_t q = y == 0 ? 0 : (y == -1 ? int8_t(-x) : int8_t(x / y));
        int8_t r = y == 0 || y == -1 ? 0 : int8_t(x % y);
        REQUIRE(div0_out(i) == q);
        REQUIRE(mod0_out(i) == r);
    }
}
