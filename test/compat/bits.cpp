// Bit operators as a Halide user writes them: count_leading_zeros,
// count_trailing_zeros, popcount, bitwise operators and shifts on every
// integer type, reinterpret, extract_bits/concat_bits; and bounds inference
// through bit counts (an input read at popcount(x) needs only 0..bits).

#include "CompatCommon.h"

#include <cstring>

using namespace Halide;
using compat::Wide;

namespace {

template <typename T> void check_bit_counts(const char *type_name) {
    using U = std::make_unsigned_t<T>;
    constexpr int bits = int(sizeof(T) * 8);
    const int w = 256, h = sizeof(T) == 1 ? 1 : 16;
    Buffer<T> in(w, h);
    if (sizeof(T) == 1) {
        for (int x = 0; x < w; x++) in(x, 0) = T(x);
    } else {
        in = compat::random_buffer<T>(w, h, 3);
        // Values with few bits set, at every position.
        for (int x = 0; x < bits; x++) in(x, 1) = T(U(1) << x), in(x, 2) = T(U(3) << x);
    }
    auto reference = [&](U v, int which) {
        int n = 0;
        if (which == 0) {
            for (int b = bits - 1; b >= 0 && !((v >> b) & 1); b--) n++;
        } else if (which == 1) {
            for (int b = 0; b < bits && !((v >> b) & 1); b++) n++;
        } else {
            for (; v; v = U(v & (v - 1))) n++;
        }
        return n;
    };
    compat::for_each_backend([&](bool c_backend) {
        // Scalar code in the LLVM backend; vector code in both.
        for (bool vectorize : {false, true}) {
            if (c_backend && !vectorize) continue;
            Var x("x"), y("y");
            Func clz("clz"), ctz("ctz"), pop("pop");
            clz(x, y) = count_leading_zeros(in(x, y));
            ctz(x, y) = count_trailing_zeros(in(x, y));
            pop(x, y) = popcount(in(x, y));
            if (vectorize)
                for (Func f : {clz, ctz, pop}) f.vectorize(x, 16);
            Realization r = Pipeline({clz, ctz, pop}).realize({w, h});
            for (int i = 0; i < 3; i++) {
                INFO(type_name << (i == 0   ? " count_leading_zeros"
                                   : i == 1 ? " count_trailing_zeros"
                                            : " popcount")
                               << (vectorize ? " vectorized" : ""));
                REQUIRE(r[i].type() == type_of<T>());
                int failures = 0;
                for (int y = 0; y < h && failures < 3; y++)
                    for (int x = 0; x < w && failures < 3; x++) {
                        Wide got = compat::read_int(r[i], x, y);
                        int want = reference(U(in(x, y)), i);
                        if (got != want) {
                            failures++;
                            FAIL_CHECK("value " << compat::to_string(Wide(in(x, y))) << ": got "
                                                << compat::to_string(got) << ", want " << want);
                        }
                    }
            }
        }
    });
}

} // namespace

TEST_CASE("count_leading_zeros, count_trailing_zeros and popcount on every integer type",
          "[compat][bits]") {
    check_bit_counts<uint8_t>("uint8");
    check_bit_counts<int8_t>("int8");
    check_bit_counts<uint16_t>("uint16");
    check_bit_counts<int16_t>("int16");
    check_bit_counts<uint32_t>("uint32");
    check_bit_counts<int32_t>("int32");
    check_bit_counts<uint64_t>("uint64");
    check_bit_counts<int64_t>("int64");
}

TEST_CASE("bitwise operators and shifts on every integer type", "[compat][bits]") {
    auto check = [](auto tag, const char *name) {
        using T = decltype(tag);
        using U = std::make_unsigned_t<T>;
        constexpr int bits = int(sizeof(T) * 8);
        Buffer<T> a = compat::random_buffer<T>(64, 4, 11), b = compat::random_buffer<T>(64, 4, 12);
        Var x("x"), y("y");
        Func f("bitwise");
        // Shift amounts below the width; literals adopt the type of the other side.
        Expr s = cast(UInt(bits), b(x, y)) % bits;
        f(x, y) = ((a(x, y) & b(x, y)) | (a(x, y) ^ ~b(x, y))) ^ (a(x, y) << s) ^ (a(x, y) >> 1) ^
                  (a(x, y) & 0x5);
        f.vectorize(x, 8);
        Buffer<T> out = f.realize({64, 4});
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 64; x++) {
                U ua = U(a(x, y)), ub = U(b(x, y));
                int sh = int(ub % bits);
                U v = U(U(ua & ub) | U(ua ^ U(~ub)));
                v = U(v ^ U(ua << sh));
                v = U(v ^ U(T(a(x, y) >> 1)));
                v = U(v ^ U(ua & 5));
                INFO(name << " a = " << compat::to_string(Wide(a(x, y)))
                          << " b = " << compat::to_string(Wide(b(x, y))));
                CHECK(out(x, y) == T(v));
            }
    };
    check(uint8_t(), "uint8");
    check(int8_t(), "int8");
    check(uint16_t(), "uint16");
    check(int16_t(), "int16");
    check(uint32_t(), "uint32");
    check(int32_t(), "int32");
    check(uint64_t(), "uint64");
    check(int64_t(), "int64");
}

TEST_CASE("reinterpret between types of one width", "[compat][bits]") {
    Buffer<float> f(64);
    Buffer<uint8_t> u(64);
    for (int i = 0; i < 64; i++) f(i) = float(i) * -1.25f + 0.1f, u(i) = uint8_t(i * 7);
    Var x("x");
    Func bits_of("bits_of"), back("back"), sign("sign");
    bits_of(x) = reinterpret<uint32_t>(f(x));
    back(x) = reinterpret<float>(bits_of(x) ^ cast<uint32_t>(0x80000000u));
    sign(x) = reinterpret(Int(8), u(x));
    bits_of.vectorize(x, 8);
    back.vectorize(x, 8);
    compat::for_each_backend([&](bool) {
        Realization r = Pipeline({bits_of, back, sign}).realize({64});
        for (int i = 0; i < 64; i++) {
            uint32_t want;
            std::memcpy(&want, &f(i), 4);
            CHECK(Buffer<uint32_t>(r[0])(i) == want);
            CHECK(Buffer<float>(r[1])(i) == -f(i));
            CHECK(Buffer<int8_t>(r[2])(i) == int8_t(u(i)));
        }
    });
}

TEST_CASE("extract_bits and concat_bits", "[compat][bits]") {
    Buffer<uint8_t> bytes = compat::random_buffer<uint8_t>(64, 1, 9);
    Buffer<uint32_t> words = compat::random_buffer<uint32_t>(16, 1, 10);
    Buffer<int> lsb(64);
    for (int i = 0; i < 64; i++) lsb(i) = i % 40 - 12; // below, inside and beyond the word
    Var x("x");
    // Halide's documented use: bytes as words and words as bytes.
    Func f8("f8"), f32("f32"), as_words("as_words"), as_bytes("as_bytes"), any_bits("any_bits"),
        wide("wide"), halves("halves");
    f8(x) = bytes(x, 0);
    f32(x) = words(x, 0);
    as_words(x) = concat_bits({f8(4 * x), f8(4 * x + 1), f8(4 * x + 2), f8(4 * x + 3)});
    as_bytes(x) = extract_bits<uint8_t>(f32(x / 4), 8 * (x % 4));
    any_bits(x) = extract_bits<uint16_t>(f32(x % 16), lsb(x));
    wide(x) = extract_bits<int64_t>(f8(x), 4);
    halves(x) = concat_bits({cast<int16_t>(f8(x)), cast<int16_t>(-f8(x))});
    as_words.vectorize(x, 4);
    as_bytes.vectorize(x, 16);
    any_bits.vectorize(x, 8);
    compat::for_each_backend([&](bool) {
        Realization r = Pipeline({as_words, as_bytes, any_bits, wide, halves}).realize({16});
        Realization r64 = Pipeline({as_bytes, any_bits, wide}).realize({64});
        REQUIRE(r[0].type() == UInt(32));
        REQUIRE(r[4].type() == Int(32));
        for (int i = 0; i < 16; i++) {
            uint32_t want = 0;
            for (int k = 0; k < 4; k++) want |= uint32_t(bytes(4 * i + k, 0)) << (8 * k);
            CHECK(Buffer<uint32_t>(r[0])(i) == want);
            // -f8(x) wraps in uint8 before the cast.
            int16_t lo = int16_t(bytes(i, 0)), hi = int16_t(uint8_t(-int(bytes(i, 0))));
            CHECK(Buffer<int32_t>(r[4])(i) ==
                  int32_t(uint32_t(uint16_t(lo)) | (uint32_t(uint16_t(hi)) << 16)));
        }
        for (int i = 0; i < 64; i++) {
            INFO("i = " << i << ", lsb = " << lsb(i));
            CHECK(Buffer<uint8_t>(r64[0])(i) == uint8_t(words(i / 4, 0) >> (8 * (i % 4))));
            uint64_t word = words(i % 16, 0);
            int l = lsb(i);
            uint64_t shifted = l >= 0 ? (l >= 64 ? 0 : word >> l) : (-l >= 64 ? 0 : word << -l);
            CHECK(Buffer<uint16_t>(r64[1])(i) == uint16_t(shifted));
            CHECK(Buffer<int64_t>(r64[2])(i) == int64_t(bytes(i, 0) >> 4));
        }
    });
}

TEST_CASE("bounds of bit counts and strict_float cover only what is read", "[compat][bits]") {
    // Halide infers that popcount(x) of an int32 is in [0, 32]: an input of
    // 33 elements is enough, whatever the output's size.
    Buffer<int> table(33);
    for (int i = 0; i <= 32; i++) table(i) = i * i;
    Buffer<float> samples(17);
    for (int i = 0; i <= 16; i++) samples(i) = float(i) / 2;
    Var x("x");
    Func pop("pop"), clz("clz"), ctz("ctz"), strict("strict");
    pop(x) = table(popcount(x));
    clz(x) = table(count_leading_zeros(x));
    ctz(x) = table(count_trailing_zeros(x * 3));
    strict(x) = samples(cast<int>(strict_float(cast<float>(x) * 0.5f)));
    Buffer<float> halves = strict.realize({33});
    for (int i = 0; i < 33; i++) CHECK(halves(i) == float(i / 2) / 2);
    Realization r = Pipeline({pop, clz, ctz}).realize({1000});
    for (int i = 0; i < 1000; i++) {
        int p = __builtin_popcount(unsigned(i));
        int l = i == 0 ? 32 : __builtin_clz(unsigned(i));
        int t = i == 0 ? 32 : __builtin_ctz(unsigned(i * 3));
        CHECK(Buffer<int>(r[0])(i) == p * p);
        CHECK(Buffer<int>(r[1])(i) == l * l);
        CHECK(Buffer<int>(r[2])(i) == t * t);
    }
}
