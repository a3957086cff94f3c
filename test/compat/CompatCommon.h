// Shared helpers of the compatibility tests: each test is written as a
// Halide user would write it (namespace Halide = loom), and compared with
// plain C++ on the same inputs.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "Loom.h"
#include "common/ScopedEnv.h"

namespace Halide = loom;

namespace compat {

using Wide = __int128;

/** Runs `body` once with the LLVM backend and once with the C backend
 * (generated C compiled by the system compiler). */
template <typename F> void for_each_backend(F body) {
    {
        INFO("backend: LLVM");
        body(false);
    }
    {
        loom_test::ScopedEnv c_backend("LOOM_JIT_BACKEND", "c");
        INFO("backend: C");
        body(true);
    }
}

/** A w x h buffer of random values of T, with the extremes, 0 and +-1 in
 * its first row. */
template <typename T> Halide::Buffer<T> random_buffer(int w, int h, uint32_t seed) {
    Halide::Buffer<T> b(w, h);
    std::mt19937_64 rng(seed);
    using L = std::numeric_limits<T>;
    std::vector<T> special{T(0), T(1), L::max(), L::min(), T(L::max() - 1), T(L::min() + 1)};
    if constexpr (std::is_signed_v<T>) special.push_back(T(-1));
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            size_t i = size_t(y * w + x);
            if (y == 0 && i < special.size() * 4) {
                b(x, y) = special[(i / 4 + i) % special.size()];
            } else if constexpr (std::is_floating_point_v<T>) {
                std::uniform_real_distribution<double> d(-1000.0, 1000.0);
                b(x, y) = T(d(rng));
            } else {
                b(x, y) = T(rng());
            }
        }
    }
    return b;
}

/** Element (x, y) of an integer buffer of any type, exactly. */
inline Wide read_int(const Halide::Buffer<> &b, int x, int y) {
    Halide::Type t = b.type();
    bool s = t.is_int();
    switch (t.bits) {
    case 1:
        return Halide::Buffer<bool>(b)(x, y);
    case 8:
        return s ? Wide(Halide::Buffer<int8_t>(b)(x, y)) : Wide(Halide::Buffer<uint8_t>(b)(x, y));
    case 16:
        return s ? Wide(Halide::Buffer<int16_t>(b)(x, y)) : Wide(Halide::Buffer<uint16_t>(b)(x, y));
    case 32:
        return s ? Wide(Halide::Buffer<int32_t>(b)(x, y)) : Wide(Halide::Buffer<uint32_t>(b)(x, y));
    default:
        return s ? Wide(Halide::Buffer<int64_t>(b)(x, y)) : Wide(Halide::Buffer<uint64_t>(b)(x, y));
    }
}

inline std::string to_string(Wide v) {
    bool neg = v < 0;
    unsigned __int128 u = neg ? (unsigned __int128)(-(v + 1)) + 1 : (unsigned __int128)v;
    std::string s;
    do {
        s.insert(s.begin(), char('0' + int(u % 10)));
        u /= 10;
    } while (u);
    return neg ? "-" + s : s;
}

/** v wrapped into T (two's complement). */
template <typename T> Wide wrap(Wide v) {
    using U = std::make_unsigned_t<T>;
    return Wide(T(U(uint64_t(v))));
}

/** v clamped to T's range. */
template <typename T> Wide saturate(Wide v) {
    Wide lo = Wide(std::numeric_limits<T>::min()), hi = Wide(std::numeric_limits<T>::max());
    return v < lo ? lo : v > hi ? hi : v;
}

/** floor(v / 2^s), s >= 0. */
inline Wide shift_down(Wide v, int s) {
    Wide d = Wide(1) << s;
    return v >= 0 ? v / d : -((-v + d - 1) / d);
}

} // namespace compat
