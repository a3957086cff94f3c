// Compiler hints, promises and requirements as a Halide user writes them:
// likely_if_innermost, strict_float, unsafe_promise_clamped,
// promise_clamped, require and unreachable.

#include "CompatCommon.h"

#include <cmath>

#include "common/ScratchFile.h"

using namespace Halide;
using Catch::Matchers::Contains;

namespace {

std::string lowered(Func f) {
    loom_test::ScratchFile file("hints", f.name() + ".stmt");
    f.compile_to_lowered_stmt(file.path, {});
    return loom_test::read_text(file.path);
}

} // namespace

TEST_CASE("likely_if_innermost partitions only the innermost loop", "[compat][hints]") {
    Buffer<int> in(100, 100);
    for (int y = 0; y < 100; y++)
        for (int x = 0; x < 100; x++) in(x, y) = x * 7 + y;
    Var x("x"), y("y");
    // The boundary of the inner loop (x): partitioned, as with likely().
    Func inner("inner");
    inner(x, y) = select(likely_if_innermost(x > 0 && x < 99), in(clamp(x - 1, 0, 99), y), 0);
    // The boundary of the outer loop (y), whose body holds a loop: not partitioned.
    Func outer("outer");
    outer(x, y) = select(likely_if_innermost(y > 0 && y < 99), in(x, clamp(y - 1, 0, 99)), 0);
    CHECK_THAT(lowered(inner), Contains("steady"));
    CHECK_THAT(lowered(outer), !Contains("steady"));
    compat::for_each_backend([&](bool) {
        Realization r = Pipeline({inner, outer}).realize({100, 100});
        Buffer<int> a(r[0]), b(r[1]);
        for (int j = 0; j < 100; j++)
            for (int i = 0; i < 100; i++) {
                CHECK(a(i, j) == (i > 0 && i < 99 ? in(i - 1, j) : 0));
                CHECK(b(i, j) == (j > 0 && j < 99 ? in(i, j - 1) : 0));
            }
    });
}

TEST_CASE("strict_float rounds every operation, fma rounds once", "[compat][hints]") {
    Buffer<float> a(256), b(256), c(256);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> d(-4.0f, 4.0f);
    for (int i = 0; i < 256; i++) a(i) = d(rng), b(i) = d(rng), c(i) = d(rng);
    compat::for_each_backend([&](bool c_backend) {
        Var x("x");
        Func strict("strict"), fused("fused");
        strict(x) = strict_float(a(x) * b(x) + c(x));
        fused(x) = fma(a(x), b(x), c(x));
        strict.vectorize(x, 8);
        fused.vectorize(x, 8);
        Realization r = Pipeline({strict, fused}).realize({256});
        for (int i = 0; i < 256; i++) {
            volatile float product = a(i) * b(i); // rounded on its own
            float separate = product + c(i);
            // The C backend honours strict_float through the target feature only.
            if (!c_backend) CHECK(Buffer<float>(r[0])(i) == separate);
            CHECK(Buffer<float>(r[1])(i) == std::fma(a(i), b(i), c(i)));
        }
    });
}

TEST_CASE("promises narrow the bounds that inference needs", "[compat][hints]") {
    Buffer<uint8_t> table(10), index(64);
    for (int i = 0; i < 10; i++) table(i) = uint8_t(100 + i);
    for (int i = 0; i < 64; i++) index(i) = uint8_t(i % 10);
    Var x("x");
    // Without the promise, the index could be anything in 0..255 and the
    // 10-element table would be too small.
    Func unsafe("unsafe"), safe("safe");
    unsafe(x) = table(unsafe_promise_clamped(cast<int>(index(x)), 0, 9));
    safe(x) = table(promise_clamped(cast<int>(index(x)) % 10, 0, 9));
    unsafe.vectorize(x, 8);
    compat::for_each_backend([&](bool) {
        Realization r = Pipeline({unsafe, safe}).realize({64});
        for (int i = 0; i < 64; i++) {
            CHECK(Buffer<uint8_t>(r[0])(i) == 100 + i % 10);
            CHECK(Buffer<uint8_t>(r[1])(i) == 100 + i % 10);
        }
    });
    Func unpromised("unpromised");
    unpromised(x) = table(cast<int>(index(x)));
    CHECK_THROWS_AS(unpromised.realize({64}), RuntimeError);
}

TEST_CASE("require passes values through and fails with its message", "[compat][hints]") {
    Buffer<int> in(32);
    for (int i = 0; i < 32; i++) in(i) = i + 1;
    auto make = [&](bool vectorize) {
        Var x("x");
        Func f("checked");
        f(x) = require(in(x) > 0, in(x)*2, "input must be positive, got", in(x));
        if (vectorize) f.vectorize(x, 8);
        return f;
    };
    compat::for_each_backend([&](bool) {
        for (bool vectorize : {false, true}) {
            INFO((vectorize ? "vectorized" : "scalar"));
            in(5) = 6;
            Buffer<int> out = make(vectorize).realize({32});
            for (int i = 0; i < 32; i++) CHECK(out(i) == 2 * in(i));
            in(5) = -41;
            CHECK_THROWS_WITH(make(vectorize).realize({32}),
                              Contains("Requirement failed") &&
                                  Contains("input must be positive, got") && Contains("-41"));
        }
    });
}

TEST_CASE("require under a vector tail guard checks only the lanes computed", "[compat][hints]") {
    Buffer<int> in(32);
    for (int i = 0; i < 32; i++) in(i) = i < 30 ? i + 1 : -1;
    Var x("x");
    Func f("guarded");
    f(x) = require(in(x) > 0, in(x), "bad input", in(x));
    f.vectorize(x, 8, TailStrategy::GuardWithIf);
    compat::for_each_backend([&](bool) {
        Buffer<int> out = f.realize({30});
        for (int i = 0; i < 30; i++) CHECK(out(i) == i + 1);
    });
}

TEST_CASE("unreachable arms of a select are dropped", "[compat][hints]") {
    Buffer<int> in(64);
    for (int i = 0; i < 64; i++) in(i) = i * 3;
    Var x("x");
    Func f("f");
    // x < 64 always holds over the realized domain: the other arm is never used.
    f(x) = select(x < 64, in(x), unreachable<int>()) + select(x >= 0, 1, unreachable());
    f.vectorize(x, 8);
    CHECK_THAT(lowered(f), !Contains("unreachable"));
    compat::for_each_backend([&](bool) {
        Buffer<int> out = f.realize({64});
        for (int i = 0; i < 64; i++) CHECK(out(i) == i * 3 + 1);
    });
}
