// Every operator on every type, run through the whole stack and compared with
// plain C++ that computes Loom's semantics (wraparound, Euclidean / and %).

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>

#include "Loom.h"

using namespace loom;

namespace {

constexpr int N = 300;

/** Random values with the interesting ones mixed in: 0, +-1, the extremes. */
template <typename T> Buffer<T> random_input(uint32_t seed, const std::string &name) {
    Buffer<T> b(N);
    b.set_name(name);
    std::mt19937_64 rng(seed);
    using L = std::numeric_limits<T>;
    std::vector<T> special;
    if constexpr (std::is_floating_point_v<T>) {
        special = {T(0), T(1), T(-1), T(0.5), T(-2.5), T(1e6), T(-1e6), T(3.75)};
    } else {
        special = {T(0), T(1), L::max(), L::min(), T(L::max() - 1), T(L::min() + 1), T(2), T(7)};
        if constexpr (std::is_signed_v<T>) special.push_back(T(-1));
    }
    for (int i = 0; i < N; i++) {
        if (i < int(special.size()) * 3 && i % 3 == 0) {
            b(i) = special[size_t(i / 3)];
        } else if constexpr (std::is_floating_point_v<T>) {
            std::uniform_real_distribution<double> d(-1000.0, 1000.0);
            b(i) = T(d(rng));
        } else if (i % 4 == 1) {
            // Small values, so division and remainder see small divisors often.
            std::uniform_int_distribution<int> d(std::is_signed_v<T> ? -9 : 0, 9);
            b(i) = T(d(rng));
        } else {
            b(i) = T(rng());
        }
    }
    return b;
}

/** Wrapping arithmetic in T through the unsigned type of the same width. */
template <typename T> using Unsigned = std::make_unsigned_t<T>;
template <typename T> T wrap_add(T a, T b) {
    return T(Unsigned<T>(Unsigned<T>(a) + Unsigned<T>(b)));
}
template <typename T> T wrap_sub(T a, T b) {
    return T(Unsigned<T>(Unsigned<T>(a) - Unsigned<T>(b)));
}
template <typename T> T wrap_mul(T a, T b) {
    // uint16 * uint16 promotes to int and may overflow; widen to uint64 first.
    return T(Unsigned<T>(uint64_t(Unsigned<T>(a)) * uint64_t(Unsigned<T>(b))));
}
template <typename T> T wrap_neg(T a) {
    return wrap_sub(T(0), a);
}

template <typename T> T euclid_div(T a, T b) {
    if (b == 0) return 0;
    if constexpr (std::is_signed_v<T>) {
        if (a == std::numeric_limits<T>::min() && b == -1) return a; // wraps
        T q = T(a / b), r = T(a % b);
        if (r < 0) q = b > 0 ? T(q - 1) : T(q + 1);
        return q;
    } else {
        return T(a / b);
    }
}
template <typename T> T euclid_mod(T a, T b) {
    if (b == 0) return 0;
    if constexpr (std::is_signed_v<T>) {
        if (b == -1) return 0;
        T r = T(a % b);
        if (r < 0) r = b > 0 ? T(r + b) : T(r - b);
        return r;
    } else {
        return T(a % b);
    }
}
template <typename T> T float_mod(T a, T b) {
    return a - b * std::floor(a / b);
}

template <typename T> bool same_value(T expected, T actual) {
    if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(expected)) return std::isnan(actual);
        if (std::isinf(expected)) return expected == actual;
        T tol = T(1e-5) * std::max(T(1), std::abs(expected));
        return std::abs(expected - actual) <= tol;
    } else {
        return expected == actual;
    }
}

/** Realize f over [0, N) and compare with ref(i) for every i. */
template <typename R, typename Ref> void check_func(Func f, Ref ref, const std::string &what) {
    INFO(what);
    REQUIRE(f.type() == type_of<R>());
    Buffer<R> out = f.realize({N});
    int failures = 0;
    for (int i = 0; i < N && failures < 5; i++) {
        R expected = ref(i);
        if (!same_value(expected, out(i))) {
            failures++;
            FAIL_CHECK(what << " at " << i << ": expected " << +expected << ", got " << +out(i));
        }
    }
}

template <typename T, typename R, typename MakeExpr, typename Ref>
void check_binary(const std::string &what, const Buffer<T> &a, const Buffer<T> &b, MakeExpr make,
                  Ref ref) {
    Var x("x");
    Func f("op");
    f(x) = make(a(x), b(x));
    check_func<R>(
        f, [&](int i) { return R(ref(a(i), b(i))); }, what + " on " + type_to_string(type_of<T>()));
}

template <typename T, typename R, typename MakeExpr, typename Ref>
void check_unary(const std::string &what, const Buffer<T> &a, MakeExpr make, Ref ref) {
    Var x("x");
    Func f("op");
    f(x) = make(a(x));
    check_func<R>(
        f, [&](int i) { return R(ref(a(i))); }, what + " on " + type_to_string(type_of<T>()));
}

template <typename T> void check_comparisons(const Buffer<T> &a, const Buffer<T> &b) {
    check_binary<T, bool>(
        "<", a, b, [](Expr p, Expr q) { return p < q; }, [](T p, T q) { return p < q; });
    check_binary<T, bool>(
        "<=", a, b, [](Expr p, Expr q) { return p <= q; }, [](T p, T q) { return p <= q; });
    check_binary<T, bool>(
        ">", a, b, [](Expr p, Expr q) { return p > q; }, [](T p, T q) { return p > q; });
    check_binary<T, bool>(
        ">=", a, b, [](Expr p, Expr q) { return p >= q; }, [](T p, T q) { return p >= q; });
    check_binary<T, bool>(
        "==", a, b, [](Expr p, Expr q) { return p == q; }, [](T p, T q) { return p == q; });
    check_binary<T, bool>(
        "!=", a, b, [](Expr p, Expr q) { return p != q; }, [](T p, T q) { return p != q; });
    // A comparison with itself, so == sees equal values too.
    check_binary<T, bool>(
        "== self", a, a, [](Expr p, Expr q) { return p == q; }, [](T p, T q) { return p == q; });
}

template <typename T> void check_min_max_select(const Buffer<T> &a, const Buffer<T> &b) {
    check_binary<T, T>(
        "min", a, b, [](Expr p, Expr q) { return min(p, q); },
        [](T p, T q) { return std::min(p, q); });
    check_binary<T, T>(
        "max", a, b, [](Expr p, Expr q) { return max(p, q); },
        [](T p, T q) { return std::max(p, q); });
    check_binary<T, T>(
        "select", a, b, [](Expr p, Expr q) { return select(p < q, q, p); },
        [](T p, T q) { return p < q ? q : p; });
    check_binary<T, T>(
        "clamp", a, b,
        [](Expr p, Expr q) { return clamp(p, min(q, cast<T>(T(5))), max(q, cast<T>(T(5)))); },
        [](T p, T q) { return std::max(std::min(p, std::max(q, T(5))), std::min(q, T(5))); });
}

template <typename T> void check_integer_type() {
    Buffer<T> a = random_input<T>(1, "a"), b = random_input<T>(2, "b");
    check_binary<T, T>(
        "+", a, b, [](Expr p, Expr q) { return p + q; }, wrap_add<T>);
    check_binary<T, T>(
        "-", a, b, [](Expr p, Expr q) { return p - q; }, wrap_sub<T>);
    check_binary<T, T>(
        "*", a, b, [](Expr p, Expr q) { return p * q; }, wrap_mul<T>);
    check_binary<T, T>(
        "/", a, b, [](Expr p, Expr q) { return p / q; }, euclid_div<T>);
    check_binary<T, T>(
        "%", a, b, [](Expr p, Expr q) { return p % q; }, euclid_mod<T>);
    check_binary<T, T>(
        "&", a, b, [](Expr p, Expr q) { return p & q; }, [](T p, T q) { return T(p & q); });
    check_binary<T, T>(
        "|", a, b, [](Expr p, Expr q) { return p | q; }, [](T p, T q) { return T(p | q); });
    check_binary<T, T>(
        "^", a, b, [](Expr p, Expr q) { return p ^ q; }, [](T p, T q) { return T(p ^ q); });
    check_comparisons(a, b);
    check_min_max_select(a, b);
    check_unary<T, T>(
        "unary -", a, [](Expr p) { return -p; }, wrap_neg<T>);
    check_unary<T, T>(
        "~", a, [](Expr p) { return ~p; }, [](T p) { return T(~p); });
    check_unary<T, Unsigned<T>>(
        "abs", a, [](Expr p) { return abs(p); },
        [](T p) {
            if constexpr (std::is_signed_v<T>)
                if (p < 0) return Unsigned<T>(Unsigned<T>(0) - Unsigned<T>(p));
            return Unsigned<T>(p);
        });
    check_binary<T, Unsigned<T>>(
        "absd", a, b, [](Expr p, Expr q) { return absd(p, q); },
        [](T p, T q) {
            return p < q ? Unsigned<T>(Unsigned<T>(q) - Unsigned<T>(p))
                         : Unsigned<T>(Unsigned<T>(p) - Unsigned<T>(q));
        });

    // Shift amounts in [0, bits).
    constexpr int bits = int(sizeof(T) * 8);
    Buffer<T> s(N);
    for (int i = 0; i < N; i++) s(i) = T(Unsigned<T>(b(i)) % Unsigned<T>(bits));
    check_binary<T, T>(
        "<<", a, s, [](Expr p, Expr q) { return p << q; },
        [](T p, T q) { return T(Unsigned<T>(Unsigned<T>(p) << q)); });
    check_binary<T, T>(
        ">>", a, s, [](Expr p, Expr q) { return p >> q; }, [](T p, T q) { return T(p >> q); });

    // Constants adopt the type: small constants, wrapping arithmetic.
    check_unary<T, T>(
        "+ 3", a, [](Expr p) { return p + 3; }, [](T p) { return wrap_add<T>(p, T(3)); });
    check_unary<T, T>(
        "* 7", a, [](Expr p) { return p * 7; }, [](T p) { return wrap_mul<T>(p, T(7)); });
    check_unary<T, T>(
        "/ 4", a, [](Expr p) { return p / 4; }, [](T p) { return euclid_div<T>(p, T(4)); });
    check_unary<T, T>(
        "% 3", a, [](Expr p) { return p % 3; }, [](T p) { return euclid_mod<T>(p, T(3)); });

    check_binary<T, T>(
        "div_round_to_zero", a, b, [](Expr p, Expr q) { return div_round_to_zero(p, q); },
        [](T p, T q) {
            if (q == 0) return T(0);
            if constexpr (std::is_signed_v<T>)
                if (p == std::numeric_limits<T>::min() && q == -1) return p;
            return T(p / q);
        });
    check_binary<T, T>(
        "mod_round_to_zero", a, b, [](Expr p, Expr q) { return mod_round_to_zero(p, q); },
        [](T p, T q) {
            if (q == 0) return T(0);
            if constexpr (std::is_signed_v<T>)
                if (q == -1) return T(0);
            return T(p % q);
        });
    check_unary<T, T>(
        "popcount", a, [](Expr p) { return popcount(p); },
        [](T p) { return T(__builtin_popcountll(uint64_t(Unsigned<T>(p)))); });
    check_unary<T, T>(
        "count_leading_zeros", a, [](Expr p) { return count_leading_zeros(p); },
        [](T p) {
            uint64_t u = uint64_t(Unsigned<T>(p));
            return T(u == 0 ? bits : __builtin_clzll(u) - (64 - bits));
        });

    // Casts to every other integer type wrap; to floats convert.
    auto check_cast = [&](auto dummy) {
        using U = decltype(dummy);
        check_unary<T, U>(
            "cast to " + type_to_string(type_of<U>()), a, [](Expr p) { return cast<U>(p); },
            [](T p) { return static_cast<U>(p); });
    };
    check_cast(int8_t());
    check_cast(int16_t());
    check_cast(int32_t());
    check_cast(int64_t());
    check_cast(uint8_t());
    check_cast(uint16_t());
    check_cast(uint32_t());
    check_cast(uint64_t());
    check_cast(float());
    check_cast(double());
    check_unary<T, bool>(
        "cast to bool", a, [](Expr p) { return cast<bool>(p); }, [](T p) { return p != 0; });
}

template <typename T> void check_float_type() {
    Buffer<T> a = random_input<T>(3, "a"), b = random_input<T>(4, "b");
    check_binary<T, T>(
        "+", a, b, [](Expr p, Expr q) { return p + q; }, [](T p, T q) { return p + q; });
    check_binary<T, T>(
        "-", a, b, [](Expr p, Expr q) { return p - q; }, [](T p, T q) { return p - q; });
    check_binary<T, T>(
        "*", a, b, [](Expr p, Expr q) { return p * q; }, [](T p, T q) { return p * q; });
    check_binary<T, T>(
        "/", a, b, [](Expr p, Expr q) { return p / q; }, [](T p, T q) { return p / q; });
    check_binary<T, T>(
        "%", a, b, [](Expr p, Expr q) { return p % q; }, float_mod<T>);
    check_comparisons(a, b);
    check_min_max_select(a, b);
    check_unary<T, T>(
        "unary -", a, [](Expr p) { return -p; }, [](T p) { return -p; });
    check_unary<T, T>(
        "abs", a, [](Expr p) { return abs(p); }, [](T p) { return std::abs(p); });
    check_binary<T, T>(
        "absd", a, b, [](Expr p, Expr q) { return absd(p, q); },
        [](T p, T q) { return std::abs(p - q); });
    check_unary<T, T>(
        "* 0.5", a, [](Expr p) { return p * 0.5; }, [](T p) { return p * T(0.5); });

    // Math functions over suitable domains.
    Buffer<T> unit(N), positive(N);
    for (int i = 0; i < N; i++) {
        unit(i) = T(std::fmod(double(a(i)), 1.0));
        positive(i) = std::abs(a(i)) + T(0.001);
    }
    check_unary<T, T>(
        "sqrt", positive, [](Expr p) { return sqrt(p); }, [](T p) { return std::sqrt(p); });
    check_unary<T, T>(
        "log", positive, [](Expr p) { return log(p); }, [](T p) { return std::log(p); });
    check_unary<T, T>(
        "exp", unit, [](Expr p) { return exp(p * 10); }, [](T p) { return std::exp(p * T(10)); });
    check_binary<T, T>(
        "pow", positive, unit, [](Expr p, Expr q) { return pow(p, q); },
        [](T p, T q) { return std::pow(p, q); });
    check_unary<T, T>(
        "sin", unit, [](Expr p) { return sin(p * 4); }, [](T p) { return std::sin(p * T(4)); });
    check_unary<T, T>(
        "cos", unit, [](Expr p) { return cos(p * 4); }, [](T p) { return std::cos(p * T(4)); });
    check_unary<T, T>(
        "tan", unit, [](Expr p) { return tan(p); }, [](T p) { return std::tan(p); });
    check_unary<T, T>(
        "asin", unit, [](Expr p) { return asin(p); }, [](T p) { return std::asin(p); });
    check_unary<T, T>(
        "acos", unit, [](Expr p) { return acos(p); }, [](T p) { return std::acos(p); });
    check_unary<T, T>(
        "atan", a, [](Expr p) { return atan(p); }, [](T p) { return std::atan(p); });
    check_binary<T, T>(
        "atan2", a, b, [](Expr p, Expr q) { return atan2(p, q); },
        [](T p, T q) { return std::atan2(p, q); });
    check_unary<T, T>(
        "sinh", unit, [](Expr p) { return sinh(p); }, [](T p) { return std::sinh(p); });
    check_unary<T, T>(
        "cosh", unit, [](Expr p) { return cosh(p); }, [](T p) { return std::cosh(p); });
    check_unary<T, T>(
        "tanh", unit, [](Expr p) { return tanh(p * 3); }, [](T p) { return std::tanh(p * T(3)); });
    check_unary<T, T>(
        "floor", a, [](Expr p) { return floor(p); }, [](T p) { return std::floor(p); });
    check_unary<T, T>(
        "ceil", a, [](Expr p) { return ceil(p); }, [](T p) { return std::ceil(p); });
    check_unary<T, T>(
        "round", a, [](Expr p) { return round(p); }, [](T p) { return std::nearbyint(p); });
    check_unary<T, T>(
        "trunc", a, [](Expr p) { return trunc(p); }, [](T p) { return std::trunc(p); });
    check_unary<T, bool>(
        "is_nan", a, [](Expr p) { return is_nan(sqrt(p)); },
        [](T p) { return std::isnan(std::sqrt(p)); });
    check_unary<T, bool>(
        "is_inf", a, [](Expr p) { return is_inf(p / 0.0f); }, [](T p) { return p != 0; });
    check_unary<T, bool>(
        "is_finite", a, [](Expr p) { return is_finite(p / 0.0f); }, [](T p) { return false && p; });

    // Float -> int truncates; inputs are in range for every target type.
    Buffer<T> small(N);
    for (int i = 0; i < N; i++) small(i) = T(std::fmod(double(a(i)), 100.0));
    check_unary<T, int32_t>(
        "cast to int32", small, [](Expr p) { return cast<int32_t>(p); },
        [](T p) { return int32_t(p); });
    check_unary<T, int8_t>(
        "cast to int8", small, [](Expr p) { return cast<int8_t>(p); },
        [](T p) { return int8_t(p); });
    Buffer<T> small_positive(N);
    for (int i = 0; i < N; i++) small_positive(i) = std::abs(small(i));
    check_unary<T, uint16_t>(
        "cast to uint16", small_positive, [](Expr p) { return cast<uint16_t>(p); },
        [](T p) { return uint16_t(p); });
    check_unary<T, int64_t>(
        "cast to int64", a, [](Expr p) { return cast<int64_t>(p); },
        [](T p) { return int64_t(p); });
    using Other = std::conditional_t<std::is_same_v<T, float>, double, float>;
    check_unary<T, Other>(
        "cast to other float", a, [](Expr p) { return cast<Other>(p); },
        [](T p) { return Other(p); });
}

} // namespace

TEMPLATE_TEST_CASE("integer operators match C++ with Loom semantics", "[correctness][operators]",
                   int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t) {
    check_integer_type<TestType>();
}

TEMPLATE_TEST_CASE("float operators match C++", "[correctness][operators]", float, double) {
    check_float_type<TestType>();
}

TEST_CASE("float32-only fast math approximates", "[correctness][operators]") {
    Buffer<float> a = random_input<float>(5, "a");
    Buffer<float> positive(N);
    for (int i = 0; i < N; i++) positive(i) = std::fmod(std::abs(a(i)), 10.0f) + 0.01f;
    Var x("x");
    auto check_close = [&](const char *what, Expr e, auto ref, float tolerance) {
        INFO(what);
        Func f("fast");
        f(x) = e;
        Buffer<float> out = f.realize({N});
        for (int i = 0; i < N; i++) {
            float expected = ref(positive(i));
            CHECK(std::abs(out(i) - expected) <= tolerance * std::max(1.0f, std::abs(expected)));
        }
    };
    check_close(
        "fast_inverse", fast_inverse(positive(x)), [](float p) { return 1.0f / p; }, 1e-2f);
    check_close(
        "fast_inverse_sqrt", fast_inverse_sqrt(positive(x)),
        [](float p) { return 1.0f / std::sqrt(p); }, 1e-2f);
    check_close(
        "fast_exp", fast_exp(positive(x)), [](float p) { return std::exp(p); }, 1e-3f);
    check_close(
        "fast_log", fast_log(positive(x)), [](float p) { return std::log(p); }, 1e-3f);
    check_close(
        "fast_pow", fast_pow(positive(x), 1.5f), [](float p) { return std::pow(p, 1.5f); }, 1e-3f);
}

TEST_CASE("bool operators", "[correctness][operators]") {
    Buffer<uint8_t> a = random_input<uint8_t>(6, "a"), b = random_input<uint8_t>(7, "b");
    auto check_bool = [&](const std::string &what, auto make, auto ref) {
        check_binary<uint8_t, bool>(
            what, a, b, [&](Expr p, Expr q) { return make(p > 100, q > 100); },
            [&](uint8_t p, uint8_t q) { return ref(p > 100, q > 100); });
    };
    check_bool(
        "&&", [](Expr p, Expr q) { return p && q; }, [](bool p, bool q) { return p && q; });
    check_bool(
        "||", [](Expr p, Expr q) { return p || q; }, [](bool p, bool q) { return p || q; });
    check_bool(
        "!", [](Expr p, Expr) { return !p; }, [](bool p, bool) { return !p; });
    check_bool(
        "==", [](Expr p, Expr q) { return p == q; }, [](bool p, bool q) { return p == q; });
    check_bool(
        "!=", [](Expr p, Expr q) { return p != q; }, [](bool p, bool q) { return p != q; });
    check_bool(
        "select", [](Expr p, Expr q) { return select(p, q, !q); },
        [](bool p, bool q) { return p ? q : !q; });
    check_bool(
        "&", [](Expr p, Expr q) { return p & q; }, [](bool p, bool q) { return p && q; });
    check_bool(
        "|", [](Expr p, Expr q) { return p | q; }, [](bool p, bool q) { return p || q; });
    check_bool(
        "^", [](Expr p, Expr q) { return p ^ q; }, [](bool p, bool q) { return p != q; });
}

TEST_CASE("mixed-type arithmetic follows the coercion rules", "[correctness][operators]") {
    Buffer<uint8_t> a = random_input<uint8_t>(8, "a");
    Buffer<int16_t> b = random_input<int16_t>(9, "b");
    Buffer<float> c = random_input<float>(10, "c");
    Var x("x");
    {
        Func f("mixed_int");
        f(x) = a(x) + b(x); // int16
        check_func<int16_t>(
            f, [&](int i) { return wrap_add<int16_t>(int16_t(a(i)), b(i)); }, "uint8 + int16");
    }
    {
        Func f("mixed_float");
        f(x) = b(x) * c(x); // float32
        check_func<float>(
            f, [&](int i) { return float(b(i)) * c(i); }, "int16 * float");
    }
    {
        Func f("int_times_half");
        f(x) = b(x) * 0.5f;
        check_func<float>(
            f, [&](int i) { return float(b(i)) * 0.5f; }, "int16 * 0.5f");
    }
}

TEST_CASE("lerp, mux and multi-arm select", "[correctness][operators]") {
    Buffer<uint8_t> a = random_input<uint8_t>(11, "a"), b = random_input<uint8_t>(12, "b");
    Buffer<float> w(N);
    Buffer<uint8_t> wu = random_input<uint8_t>(13, "wu");
    for (int i = 0; i < N; i++) w(i) = float(i % 11) / 10.0f;
    Var x("x");
    {
        Func f("lerp_u8_float");
        f(x) = lerp(a(x), b(x), w(x));
        check_func<uint8_t>(
            f,
            [&](int i) {
                uint32_t q = uint32_t(std::floor(double(w(i)) * 255.0 + 0.5));
                uint32_t s = uint32_t(a(i)) * (255 - q) + uint32_t(b(i)) * q;
                return uint8_t((s + 127) / 255);
            },
            "lerp(uint8, uint8, float)");
    }
    {
        Func f("lerp_u8_u8");
        f(x) = lerp(a(x), b(x), wu(x));
        check_func<uint8_t>(
            f,
            [&](int i) {
                uint32_t q = wu(i);
                uint32_t s = uint32_t(a(i)) * (255 - q) + uint32_t(b(i)) * q;
                return uint8_t((s + 127) / 255);
            },
            "lerp(uint8, uint8, uint8)");
    }
    {
        Func f("lerp_f32");
        f(x) = lerp(cast<float>(a(x)), cast<float>(b(x)), w(x));
        check_func<float>(
            f, [&](int i) { return float(a(i)) * (1.0f - w(i)) + float(b(i)) * w(i); },
            "lerp(float, float, float)");
    }
    {
        Func f("mux");
        f(x) = mux(x % 5 - 1, {Expr(uint8_t(10)), a(x), b(x), Expr(uint8_t(20))});
        check_func<uint8_t>(
            f,
            [&](int i) {
                int k = i % 5 - 1;
                uint8_t v[4] = {10, a(i), b(i), 20};
                return v[k < 0 || k > 3 ? 3 : k]; // out of range: the last, as in Halide
            },
            "mux");
    }
    {
        Func f("select_chain");
        f(x) = select(x < 10, a(x), x < 20, b(x), 7);
        check_func<uint8_t>(
            f, [&](int i) { return i < 10   ? a(i)
                                   : i < 20 ? b(i)
                                            : uint8_t(7); }, "select chain");
    }
}
