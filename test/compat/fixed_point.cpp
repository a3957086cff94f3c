// Halide's fixed-point operators (saturating, widening, halving, rounding
// shifts, multiply-shifts, saturating_cast, absd) on every integer type:
// all pairs of 8-bit values, random values of the wider types; scalar and
// vectorized, through the LLVM and the C backends.

#include "CompatCommon.h"

#include <functional>

using namespace Halide;
using compat::Wide;

namespace {

/** One operator: how to write it, and its value in exact arithmetic on
 * the inputs a, b and a shift amount s (all of the tested type). */
struct Case {
    std::string name;
    std::function<Expr(Expr, Expr, Expr)> make;
    std::function<Wide(Wide, Wide, Wide)> reference;
};

/** The integer type of twice T's bits and T's signedness. */
template <typename T>
using widened_t = std::conditional_t<
    sizeof(T) == 1, std::conditional_t<std::is_signed_v<T>, int16_t, uint16_t>,
    std::conditional_t<sizeof(T) == 2, std::conditional_t<std::is_signed_v<T>, int32_t, uint32_t>,
                       std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>>>;

template <typename T> constexpr int bits_of() {
    return int(sizeof(T) * 8);
}

/** rounding_shift_right(a, s) on the values of T: a / 2^s rounded to
 * nearest (halves up); a negative s shifts left, wrapping. */
template <typename T> Wide rounding_shift_right_ref(Wide a, Wide s) {
    if (s > 0)
        return compat::wrap<T>(compat::shift_down(a, int(s)) +
                               (compat::shift_down(a, int(s) - 1) & 1));
    return compat::wrap<T>(a * (Wide(1) << int(-s)));
}

template <typename T> Wide rounding_shift_left_ref(Wide a, Wide s) {
    return rounding_shift_right_ref<T>(a, -s);
}

template <typename T> std::vector<Case> cases() {
    constexpr int bits = bits_of<T>();
    using U = std::make_unsigned_t<T>;
    using namespace compat;
    std::vector<Case> c = {
        {"saturating_add", [](Expr a, Expr b, Expr) { return saturating_add(a, b); },
         [](Wide a, Wide b, Wide) { return saturate<T>(a + b); }},
        {"saturating_sub", [](Expr a, Expr b, Expr) { return saturating_sub(a, b); },
         [](Wide a, Wide b, Wide) { return saturate<T>(a - b); }},
        {"halving_add", [](Expr a, Expr b, Expr) { return halving_add(a, b); },
         [](Wide a, Wide b, Wide) { return shift_down(a + b, 1); }},
        {"rounding_halving_add", [](Expr a, Expr b, Expr) { return rounding_halving_add(a, b); },
         [](Wide a, Wide b, Wide) { return shift_down(a + b + 1, 1); }},
        {"halving_sub", [](Expr a, Expr b, Expr) { return halving_sub(a, b); },
         [](Wide a, Wide b, Wide) { return wrap<T>(shift_down(a - b, 1)); }},
        {"absd", [](Expr a, Expr b, Expr) { return absd(a, b); },
         [](Wide a, Wide b, Wide) { return a > b ? a - b : b - a; }},
        {"rounding_shift_right", [](Expr a, Expr, Expr s) { return rounding_shift_right(a, s); },
         [](Wide a, Wide, Wide s) { return rounding_shift_right_ref<T>(a, s); }},
        {"rounding_shift_left", [](Expr a, Expr, Expr s) { return rounding_shift_left(a, s); },
         [](Wide a, Wide, Wide s) { return rounding_shift_left_ref<T>(a, s); }},
        {"rounding_shift_right(a, 3)",
         [](Expr a, Expr, Expr) { return rounding_shift_right(a, 3); },
         [](Wide a, Wide, Wide) { return rounding_shift_right_ref<T>(a, 3); }},
        {"rounding_shift_left(a, -2)",
         [](Expr a, Expr, Expr) { return rounding_shift_left(a, -2); },
         [](Wide a, Wide, Wide) { return rounding_shift_right_ref<T>(a, 2); }},
        {"saturating_cast<uint8_t>", [](Expr a, Expr, Expr) { return saturating_cast<uint8_t>(a); },
         [](Wide a, Wide, Wide) { return saturate<uint8_t>(a); }},
        {"saturating_cast<int8_t>", [](Expr a, Expr, Expr) { return saturating_cast<int8_t>(a); },
         [](Wide a, Wide, Wide) { return saturate<int8_t>(a); }},
        {"saturating_cast<uint16_t>",
         [](Expr a, Expr, Expr) { return saturating_cast<uint16_t>(a); },
         [](Wide a, Wide, Wide) { return saturate<uint16_t>(a); }},
        {"saturating_cast<int16_t>", [](Expr a, Expr, Expr) { return saturating_cast<int16_t>(a); },
         [](Wide a, Wide, Wide) { return saturate<int16_t>(a); }},
        {"saturating_cast<int32_t>", [](Expr a, Expr, Expr) { return saturating_cast<int32_t>(a); },
         [](Wide a, Wide, Wide) { return saturate<int32_t>(a); }},
        {"saturating_cast<uint32_t>",
         [](Expr a, Expr, Expr) { return saturating_cast<uint32_t>(a); },
         [](Wide a, Wide, Wide) { return saturate<uint32_t>(a); }},
        {"saturating_cast<uint64_t>",
         [](Expr a, Expr, Expr) { return saturating_cast<uint64_t>(a); },
         [](Wide a, Wide, Wide) { return saturate<uint64_t>(a); }},
        {"bitwise", [](Expr a, Expr b, Expr) { return (a & b) ^ (~a | (b >> 1)); },
         [](Wide a, Wide b, Wide) {
             return wrap<T>(Wide(T((U(a) & U(b)) ^ (U(~U(a)) | U(T(b) >> 1)))));
         }},
    };
    if constexpr (bits <= 32) {
        using W = widened_t<T>;
        std::vector<Case> wide = {
            {"widening_add", [](Expr a, Expr b, Expr) { return widening_add(a, b); },
             [](Wide a, Wide b, Wide) { return a + b; }},
            {"widening_sub", [](Expr a, Expr b, Expr) { return widening_sub(a, b); },
             [](Wide a, Wide b, Wide) { return a - b; }},
            {"widening_mul", [](Expr a, Expr b, Expr) { return widening_mul(a, b); },
             [](Wide a, Wide b, Wide) { return a * b; }},
            {"widening_shift_left", [](Expr a, Expr, Expr s) { return widening_shift_left(a, s); },
             [](Wide a, Wide, Wide s) {
                 return s >= 0 ? a * (Wide(1) << int(s)) : shift_down(a, int(-s));
             }},
            {"widening_shift_right",
             [](Expr a, Expr, Expr s) { return widening_shift_right(a, s); },
             [](Wide a, Wide, Wide s) {
                 return s >= 0 ? shift_down(a, int(s)) : a * (Wide(1) << int(-s));
             }},
            {"widen_right_add",
             [](Expr a, Expr b, Expr) { return widen_right_add(widening_mul(a, b), a); },
             [](Wide a, Wide b, Wide) { return wrap<W>(a * b + a); }},
            {"widen_right_sub",
             [](Expr a, Expr b, Expr) { return widen_right_sub(widening_mul(a, b), b); },
             [](Wide a, Wide b, Wide) { return wrap<W>(a * b - b); }},
            {"widen_right_mul",
             [](Expr a, Expr b, Expr) { return widen_right_mul(widening_add(a, a), b); },
             [](Wide a, Wide b, Wide) { return wrap<W>((a + a) * b); }},
            {"mul_shift_right(a, b, bits / 2)",
             [](Expr a, Expr b, Expr) { return mul_shift_right(a, b, bits / 2); },
             [](Wide a, Wide b, Wide) { return saturate<T>(shift_down(a * b, bits / 2)); }},
            {"mul_shift_right(a, b, bits)",
             [](Expr a, Expr b, Expr) { return mul_shift_right(a, b, bits); },
             [](Wide a, Wide b, Wide) { return saturate<T>(shift_down(a * b, bits)); }},
            {"rounding_mul_shift_right(a, b, bits - 1)",
             [](Expr a, Expr b, Expr) { return rounding_mul_shift_right(a, b, bits - 1); },
             [](Wide a, Wide b, Wide) {
                 Wide p = a * b;
                 return saturate<T>(shift_down(p, bits - 1) + (shift_down(p, bits - 2) & 1));
             }},
            {"rounding_mul_shift_right(a, b, 0)",
             [](Expr a, Expr b, Expr) { return rounding_mul_shift_right(a, b, 0); },
             [](Wide a, Wide b, Wide) { return saturate<T>(a * b); }},
        };
        c.insert(c.end(), wide.begin(), wide.end());
    }
    return c;
}

/** The shift amounts: within (-bits, bits) for signed types, [0, bits) otherwise. */
template <typename T> T shift_amount(uint64_t r) {
    constexpr int bits = bits_of<T>();
    if constexpr (std::is_signed_v<T>) return T(int(r % (2 * bits - 1)) - (bits - 1));
    return T(r % bits);
}

template <typename T> void check_type(const char *type_name, bool exhaustive) {
    const int w = exhaustive ? 256 : 64, h = exhaustive ? 256 : 48;
    Buffer<T> in_a(w, h), in_b(w, h), in_s(w, h);
    if (exhaustive) {
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) in_a(x, y) = T(x), in_b(x, y) = T(y);
    } else {
        in_a = compat::random_buffer<T>(w, h, 17);
        in_b = compat::random_buffer<T>(w, h, 23);
    }
    std::mt19937_64 rng(5);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) in_s(x, y) = shift_amount<T>(rng());

    std::vector<Case> all = cases<T>();
    auto run = [&](bool vectorize) {
        // One Func computing every operator (a Tuple): one loop nest to compile.
        Var x("x"), y("y");
        std::vector<Expr> values;
        for (const Case &c : all) values.push_back(c.make(in_a(x, y), in_b(x, y), in_s(x, y)));
        Func f("fixed_point");
        f(x, y) = Tuple(values);
        if (vectorize) f.vectorize(x, 16);
        Realization r = f.realize({w, h});
        for (size_t i = 0; i < all.size(); i++) {
            INFO(type_name << " " << all[i].name << (vectorize ? ", vectorized" : ", scalar"));
            int failures = 0;
            for (int y = 0; y < h && failures < 3; y++) {
                for (int x = 0; x < w && failures < 3; x++) {
                    Wide got = compat::read_int(r[i], x, y);
                    Wide want =
                        all[i].reference(Wide(in_a(x, y)), Wide(in_b(x, y)), Wide(in_s(x, y)));
                    if (got != want) {
                        failures++;
                        FAIL_CHECK("a = " << compat::to_string(Wide(in_a(x, y)))
                                          << ", b = " << compat::to_string(Wide(in_b(x, y)))
                                          << ", s = " << compat::to_string(Wide(in_s(x, y)))
                                          << ": got " << compat::to_string(got) << ", want "
                                          << compat::to_string(want));
                    }
                }
            }
            CHECK(failures == 0);
        }
    };
    // Scalar code once (all 8-bit pairs), vector code in both backends.
    if (exhaustive) run(false);
    compat::for_each_backend([&](bool) { run(true); });
}

} // namespace

TEST_CASE("fixed-point operators on all pairs of uint8", "[compat][fixed_point]") {
    check_type<uint8_t>("uint8", true);
}
TEST_CASE("fixed-point operators on all pairs of int8", "[compat][fixed_point]") {
    check_type<int8_t>("int8", true);
}
TEST_CASE("fixed-point operators on random uint16 and int16", "[compat][fixed_point]") {
    check_type<uint16_t>("uint16", false);
    check_type<int16_t>("int16", false);
}
TEST_CASE("fixed-point operators on random uint32 and int32", "[compat][fixed_point]") {
    check_type<uint32_t>("uint32", false);
    check_type<int32_t>("int32", false);
}
TEST_CASE("fixed-point operators on random uint64 and int64", "[compat][fixed_point]") {
    check_type<uint64_t>("uint64", false);
    check_type<int64_t>("int64", false);
}

TEST_CASE("widening_mul of mixed signedness and saturating_cast of floats",
          "[compat][fixed_point]") {
    Buffer<uint8_t> u(256);
    Buffer<int8_t> s(256);
    Buffer<float> f(256);
    Buffer<double> d(256);
    for (int i = 0; i < 256; i++) {
        u(i) = uint8_t(i), s(i) = int8_t(255 - i);
        f(i) = float(i - 128) * 3.3e7f + (i % 2 ? 0.5f : -0.75f);
        d(i) = double(i - 128) * 1.7e17 + 0.25;
    }
    f(0) = std::numeric_limits<float>::infinity();
    f(1) = -std::numeric_limits<float>::infinity();
    f(2) = 255.9f, f(3) = -0.9f, f(4) = 2147483520.0f, f(5) = 4294967040.0f;
    compat::for_each_backend([&](bool) {
        Var x("x");
        Func mixed("mixed"), to_i32("to_i32"), to_u8("to_u8"), to_u32("to_u32"), to_i16("to_i16"),
            d_to_i32("d_to_i32"), d_to_u64("d_to_u64"), d_to_f32("d_to_f32");
        mixed(x) = widening_mul(u(x), s(x));
        to_i32(x) = saturating_cast<int32_t>(f(x));
        to_u8(x) = saturating_cast<uint8_t>(f(x));
        to_u32(x) = saturating_cast<uint32_t>(f(x));
        to_i16(x) = saturating_cast<int16_t>(f(x));
        d_to_i32(x) = saturating_cast<int32_t>(d(x));
        d_to_u64(x) = saturating_cast<uint64_t>(d(x));
        d_to_f32(x) = saturating_cast<float>(d(x));
        for (Func g : {mixed, to_i32, to_u8, to_u32, to_i16, d_to_i32, d_to_u64, d_to_f32})
            g.vectorize(x, 8);
        Realization r =
            Pipeline({mixed, to_i32, to_u8, to_u32, to_i16, d_to_i32, d_to_u64, d_to_f32})
                .realize({256});
        REQUIRE(r[0].type() == Int(16));
        auto sat = [](double v, double lo, double hi) {
            return v <= lo ? lo : v >= hi ? hi : std::trunc(v);
        };
        for (int i = 0; i < 256; i++) {
            INFO("i = " << i << ", f = " << f(i) << ", d = " << d(i));
            CHECK(Buffer<int16_t>(r[0])(i) == int(u(i)) * int(s(i)));
            CHECK(double(Buffer<int32_t>(r[1])(i)) == sat(f(i), -2147483648.0, 2147483647.0));
            CHECK(double(Buffer<uint8_t>(r[2])(i)) == sat(f(i), 0, 255));
            CHECK(double(Buffer<uint32_t>(r[3])(i)) == sat(f(i), 0, 4294967295.0));
            CHECK(double(Buffer<int16_t>(r[4])(i)) == sat(f(i), -32768, 32767));
            CHECK(double(Buffer<int32_t>(r[5])(i)) == sat(d(i), -2147483648.0, 2147483647.0));
            double u64 = d(i) <= 0 ? 0.0 : d(i) >= 18446744073709551615.0 ? -1.0 : d(i);
            uint64_t want_u64 = u64 < 0 ? UINT64_MAX : uint64_t(u64);
            CHECK(Buffer<uint64_t>(r[6])(i) == want_u64);
            CHECK(Buffer<float>(r[7])(i) == float(d(i)));
        }
    });
}
