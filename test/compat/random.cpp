// random_float, random_uint and random_int as a Halide user writes them:
// uniform, independent per call site, shared by one call used twice,
// deterministic per seed, and the same in every schedule and backend.

#include "CompatCommon.h"

#include <cmath>

using namespace Halide;

namespace {

/** f(x, y) = random_float(seed) and g(x, y) = random_uint(seed), with
 * Internal::reset_random_counters() first so each build draws the same. */
Realization draw(int seed, bool vectorize, int w = 64, int h = 64) {
    Internal::reset_random_counters();
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = random_float(seed);
    g(x, y) = random_uint(seed);
    if (vectorize) {
        f.vectorize(x, 8);
        g.vectorize(x, 8);
    }
    return Pipeline({f, g}).realize({w, h});
}

} // namespace

TEST_CASE("random_float and random_uint are uniform and deterministic per seed",
          "[compat][random]") {
    Realization a = draw(1, false);
    Buffer<float> fa(a[0]);
    Buffer<uint32_t> ua(a[1]);
    // Uniform in [0, 1): the mean, and each bit of the integers half the time.
    double sum = 0;
    int bit_counts[32] = {};
    int n = 64 * 64;
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            REQUIRE(fa(x, y) >= 0.0f);
            REQUIRE(fa(x, y) < 1.0f);
            sum += fa(x, y);
            for (int b = 0; b < 32; b++) bit_counts[b] += (ua(x, y) >> b) & 1;
        }
    CHECK(std::abs(sum / n - 0.5) < 0.02);
    for (int b = 0; b < 32; b++) {
        INFO("bit " << b);
        CHECK(std::abs(bit_counts[b] - n / 2) < n / 20);
    }
    // The same seed gives the same numbers, in every schedule and backend.
    compat::for_each_backend([&](bool) {
        for (bool vectorize : {false, true}) {
            Realization b = draw(1, vectorize);
            Buffer<float> fb(b[0]);
            Buffer<uint32_t> ub(b[1]);
            int differ = 0;
            for (int y = 0; y < 64; y++)
                for (int x = 0; x < 64; x++) differ += fa(x, y) != fb(x, y) || ua(x, y) != ub(x, y);
            CHECK(differ == 0);
        }
    });
    // Another seed, other numbers.
    Realization c = draw(2, true);
    int same = 0;
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) same += Buffer<uint32_t>(c[1])(x, y) == ua(x, y);
    CHECK(same < 5);
}

TEST_CASE("each random call is independent, one call used twice is one value", "[compat][random]") {
    Var x("x");
    Expr r = random_float();
    Func twice("twice"), two("two"), ints("ints");
    twice(x) = r + r;
    two(x) = random_float() - random_float();
    ints(x) = random_int();
    Realization out = Pipeline({twice, two, ints}).realize({1000});
    Buffer<float> t(out[0]), d(out[1]);
    Buffer<int> i(out[2]);
    int nonzero = 0, negative = 0;
    double mean_twice = 0;
    for (int k = 0; k < 1000; k++) {
        mean_twice += t(k);
        nonzero += d(k) != 0.0f;
        negative += i(k) < 0;
    }
    // r + r doubles one variable (mean 1); two calls differ almost always.
    CHECK(std::abs(mean_twice / 1000 - 1.0) < 0.1);
    CHECK(nonzero > 990);
    CHECK(negative > 400);
    CHECK(negative < 600);
}

TEST_CASE("random numbers in update definitions vary over the RDom", "[compat][random]") {
    Var x("x");
    RDom r(0, 50);
    Func hist("hist");
    hist(x) = 0;
    // Fifty draws per x, each in [0, 10): their sum is near 50 * 4.5.
    hist(x) += cast<int>(random_float() * 10.0f) + 0 * r;
    Buffer<int> out = hist.realize({200});
    double mean = 0;
    for (int k = 0; k < 200; k++) mean += out(k);
    mean /= 200;
    CHECK(mean > 200);
    CHECK(mean < 250);
    int distinct = 0;
    for (int k = 1; k < 200; k++) distinct += out(k) != out(0);
    CHECK(distinct > 150);
}
