// Integer division and modulus are Euclidean on every integer type, with
// division by zero giving zero; float modulus floors.

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "codegen_test_util.h"

using namespace loom;
using namespace loom::Internal;
using namespace loom::test;

namespace {

template <typename T> T reference_div(T a, T b) {
    if (b == 0) return 0;
    if constexpr (std::is_unsigned_v<T>) {
        return T(a / b);
    } else {
        __int128 q = __int128(a) / b, r = __int128(a) % b;
        if (r < 0) q += b > 0 ? -1 : 1;
        return T(static_cast<std::make_unsigned_t<T>>(q)); // wraps for min / -1
    }
}

template <typename T> T reference_mod(T a, T b) {
    if (b == 0) return 0;
    if constexpr (std::is_unsigned_v<T>) {
        return T(a % b);
    } else {
        __int128 r = __int128(a) % b;
        if (r < 0) r += b < 0 ? -__int128(b) : __int128(b);
        return T(r);
    }
}

template <typename T> std::vector<T> interesting_values() {
    using L = std::numeric_limits<T>;
    std::vector<T> v{L::min(), T(L::min() + 1), T(L::max() - 1), L::max(), 0, 1, 2, 3, 7, 8, 100};
    if constexpr (std::is_signed_v<T>) {
        for (T x : {-1, -2, -3, -7, -8, -100}) v.push_back(x);
    }
    return v;
}

// out(x) = a(x) op b(x), or a(x) op constant when the constant is given.
template <typename T>
LoweredFunc binary_func(const std::string &name, bool div, const Expr &constant = Expr()) {
    Type t = type_of<T>();
    Expr a = load(t, "a", var("x"));
    Expr b = constant.defined() ? constant : load(t, "b", var("x"));
    Expr v = div ? Div::make(a, b) : Mod::make(a, b);
    return pointwise(name, t, {buffer_arg("a", t, 1, false), buffer_arg("b", t, 1, false)}, v);
}

template <typename T> void check_euclidean() {
    std::vector<T> values = interesting_values<T>();
    int n = int(values.size() * values.size());
    Buffer<T> a(n), b(n), out(n);
    for (size_t i = 0; i < values.size(); i++) {
        for (size_t j = 0; j < values.size(); j++) {
            a(int(i * values.size() + j)) = values[i];
            b(int(i * values.size() + j)) = values[j];
        }
    }
    std::string suffix = type_to_string(type_of<T>());
    for (bool div : {true, false}) {
        JITModule m =
            JITModule::compile(binary_func<T>("cg_euclid_" + suffix, div), get_host_target());
        void *argv[] = {nullptr, a.raw_buffer(), b.raw_buffer(), out.raw_buffer()};
        REQUIRE(m.argv_function()(argv) == 0);
        for (int i = 0; i < n; i++) {
            T expected = div ? reference_div(a(i), b(i)) : reference_mod(a(i), b(i));
            INFO(suffix << ": " << int64_t(a(i)) << (div ? " / " : " % ") << int64_t(b(i)));
            REQUIRE(int64_t(out(i)) == int64_t(expected));
        }
    }
    // Constant divisors take the shift/mask and multiply paths.
    std::vector<int64_t> constants{1, 2, 3, 4, 7, 8, 16, 100};
    if (std::is_signed_v<T>) constants.insert(constants.end(), {-1, -2, -3, -8});
    for (int64_t c : constants) {
        for (bool div : {true, false}) {
            JITModule m = JITModule::compile(
                binary_func<T>("cg_euclid_const_" + suffix, div, make_const(type_of<T>(), c)),
                get_host_target());
            void *argv[] = {nullptr, a.raw_buffer(), b.raw_buffer(), out.raw_buffer()};
            REQUIRE(m.argv_function()(argv) == 0);
            for (int i = 0; i < n; i++) {
                T expected = div ? reference_div(a(i), T(c)) : reference_mod(a(i), T(c));
                INFO(suffix << ": " << int64_t(a(i)) << (div ? " / " : " % ") << c);
                REQUIRE(int64_t(out(i)) == int64_t(expected));
            }
        }
    }
}

} // namespace

TEST_CASE("codegen: Euclidean division and modulus on signed types", "[codegen][jit]") {
    check_euclidean<int8_t>();
    check_euclidean<int16_t>();
    check_euclidean<int32_t>();
    check_euclidean<int64_t>();
}

TEST_CASE("codegen: division and modulus on unsigned types", "[codegen][jit]") {
    check_euclidean<uint8_t>();
    check_euclidean<uint16_t>();
    check_euclidean<uint32_t>();
    check_euclidean<uint64_t>();
}

TEST_CASE("codegen: float modulus floors, float min/max follow a < b ? a : b", "[codegen][jit]") {
    std::vector<float> av{5.5f, -5.5f, 3.0f, -0.25f, NAN, 1.0f};
    std::vector<float> bv{2.0f, 2.0f, -2.0f, 1.0f, 1.0f, NAN};
    int n = int(av.size());
    Buffer<float> a(n), b(n), mod_out(n), min_out(n), max_out(n);
    for (int i = 0; i < n; i++) a(i) = av[size_t(i)], b(i) = bv[size_t(i)];
    auto run = [&](const std::string &name, Expr (*make)(Expr, Expr), Buffer<float> &out) {
        Expr v = make(load(Float(32), "a", var("x")), load(Float(32), "b", var("x")));
        LoweredFunc f = pointwise(
            name, Float(32),
            {buffer_arg("a", Float(32), 1, false), buffer_arg("b", Float(32), 1, false)}, v);
        void *argv[] = {nullptr, a.raw_buffer(), b.raw_buffer(), out.raw_buffer()};
        REQUIRE(JITModule::compile(f, get_host_target()).argv_function()(argv) == 0);
    };
    run("cg_fmod", &Mod::make, mod_out);
    run("cg_fmin", &Min::make, min_out);
    run("cg_fmax", &Max::make, max_out);
    for (int i = 0; i < 4; i++) {
        float x = a(i), y = b(i);
        REQUIRE(mod_out(i) == x - y * std::floor(x / y));
        REQUIRE(min_out(i) == (x < y ? x : y));
        REQUIRE(max_out(i) == (x > y ? x : y));
    }
    REQUIRE(mod_out(0) == 1.5f);
    REQUIRE(mod_out(1) == 0.5f);
    // NaN first: the comparison fails, so b wins; NaN second: NaN wins.
    REQUIRE(min_out(4) == 1.0f);
    REQUIRE(std::isnan(min_out(5)));
    REQUIRE(max_out(4) == 1.0f);
    REQUIRE(std::isnan(max_out(5)));
}

TEST_CASE("codegen: integer arithmetic wraps", "[codegen][jit]") {
    Expr a = load(UInt(8), "a", var("x"));
    LoweredFunc f =
        pointwise("cg_wrap", UInt(8), {buffer_arg("a", UInt(8), 1, false)},
                  Add::make(Mul::make(a, make_const(UInt(8), 3)), make_const(UInt(8), 200)));
    Buffer<uint8_t> in(256), out(256);
    for (int i = 0; i < 256; i++) in(i) = uint8_t(i);
    void *argv[] = {nullptr, in.raw_buffer(), out.raw_buffer()};
    REQUIRE(JITModule::compile(f, get_host_target()).argv_function()(argv) == 0);
    for (int i = 0; i < 256; i++) REQUIRE(out(i) == uint8_t(i * 3 + 200));
}
