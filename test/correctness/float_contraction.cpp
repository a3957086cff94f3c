// Floating-point contraction: as in Halide, a float multiply feeding an add
// may become one fused multiply-add (rounded once) by default; the
// strict_float target feature turns that off, and then results are bit-exact
// against C++ that rounds every operation.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "Loom.h"
#include "common/ScratchFile.h"

using namespace loom;
using Catch::Contains;

namespace {

using loom_test::read_text;
using loom_test::ScratchFile;

// Rounds a * b to float on its own, whatever the compiler's contraction
// setting: the volatile store forces the product to memory.
float product_rounded(float a, float b) {
    volatile float p = a * b;
    return p;
}

// a*b + c rounded twice (what strict_float promises).
float multiply_add_unfused(float a, float b, float c) {
    volatile float sum = product_rounded(a, b) + c;
    return sum;
}

uint32_t bits_of(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

// Values whose products are not exact floats, so fused and unfused results
// differ in many lanes.
Buffer<float> make_floats(int n, uint32_t seed) {
    Buffer<float> b(n);
    uint32_t s = seed * 2654435761u + 12345u;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        b(i) = float(s >> 8) / float(1 << 24) * 2.0f - 1.0f + 1.0f / 3.0f;
    }
    return b;
}

struct MultiplyAdd {
    ImageParam a{Float(32), 1, "ma_a"}, b{Float(32), 1, "ma_b"}, c{Float(32), 1, "ma_c"};
    Func f{"ma_f"};
    MultiplyAdd() {
        Var x("x");
        f(x) = a(x) * b(x) + c(x);
        f.vectorize(x, 8);
    }
    std::string assembly(const Target &t, const std::string &name) {
        ScratchFile file("float_contraction", name + ".s");
        f.compile_to_assembly(file.path, {a, b, c}, "multiply_add", t);
        return read_text(file.path);
    }
};

} // namespace

TEST_CASE("a float multiply-add becomes an FMA instruction unless strict_float",
          "[correctness][float]") {
    MultiplyAdd p;
    // Cross-compiled for an FMA-capable x86, so this holds on any host.
    Target fma_target("x86-64-linux-avx-avx2-fma");
    std::string fused = p.assembly(fma_target, "fused");
    CHECK_THAT(fused, Contains("vfmadd"));
    std::string strict = p.assembly(fma_target.with_feature(Target::StrictFloat), "strict");
    CHECK_THAT(strict, Contains("vmulps"));
    CHECK_THAT(strict, !Contains("vfmadd"));

    Target host = get_host_target();
    if (host.arch == Target::X86 && host.has_feature(Target::FMA)) {
        CHECK_THAT(p.assembly(host, "host"), Contains("vfmadd"));
        CHECK_THAT(p.assembly(host.with_feature(Target::StrictFloat), "host_strict"),
                   !Contains("vfmadd"));
    }
}

TEST_CASE("strict_float results are bit-exact against C++ without contraction",
          "[correctness][float]") {
    const int n = 101; // not a multiple of the vector width
    Buffer<float> a = make_floats(n, 1), b = make_floats(n, 2), c = make_floats(n, 3);
    MultiplyAdd p;
    p.a.set(a);
    p.b.set(b);
    p.c.set(c);

    Target strict = get_jit_target_from_environment().with_feature(Target::StrictFloat);
    Buffer<float> out = p.f.realize({n}, strict);
    int differs_from_fused = 0;
    for (int i = 0; i < n; i++) {
        float expected = multiply_add_unfused(a(i), b(i), c(i));
        CHECK(bits_of(out(i)) == bits_of(expected));
        if (bits_of(expected) != bits_of(std::fmaf(a(i), b(i), c(i)))) differs_from_fused++;
    }
    // The inputs really tell fused from unfused results apart.
    CHECK(differs_from_fused > n / 10);

    // By default each element is the fused or the unfused result.
    Buffer<float> relaxed = p.f.realize({n});
    for (int i = 0; i < n; i++) {
        uint32_t got = bits_of(relaxed(i));
        bool fused = got == bits_of(std::fmaf(a(i), b(i), c(i)));
        bool unfused = got == bits_of(multiply_add_unfused(a(i), b(i), c(i)));
        CHECK((fused || unfused));
    }
}

TEST_CASE("strict_float keeps a reduction's rounding order exactly", "[correctness][float]") {
    // A dot product per row: every step rounds the product and then the sum.
    const int w = 13, h = 37;
    Buffer<float> m(w, h), v = make_floats(w, 7);
    Buffer<float> flat = make_floats(w * h, 8);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) m(x, y) = flat(x + y * w);

    Func dot("strict_dot");
    Var y("y");
    RDom k(0, w);
    dot(y) = 0.5f;
    dot(y) += m(k, y) * v(k) - 0.25f * m(k, y);
    dot.vectorize(y, 8).update(0).vectorize(y, 8);

    Buffer<float> out =
        dot.realize({h}, get_jit_target_from_environment().with_feature(Target::StrictFloat));
    for (int yy = 0; yy < h; yy++) {
        float acc = 0.5f;
        for (int kk = 0; kk < w; kk++) {
            volatile float term =
                product_rounded(m(kk, yy), v(kk)) - product_rounded(0.25f, m(kk, yy));
            volatile float next = acc + term;
            acc = next;
        }
        CHECK(bits_of(out(yy)) == bits_of(acc));
    }
}

TEST_CASE("the C backend's source turns contraction off under strict_float",
          "[correctness][float]") {
    MultiplyAdd p;
    ScratchFile relaxed_file("float_contraction", "relaxed.c"),
        strict_file("float_contraction", "strict.c");
    Target t("x86-64-linux-avx-avx2-fma");
    p.f.compile_to_c(relaxed_file.path, {p.a, p.b, p.c}, "multiply_add", t);
    p.f.compile_to_c(strict_file.path, {p.a, p.b, p.c}, "multiply_add",
                     t.with_feature(Target::StrictFloat));
    CHECK_THAT(read_text(relaxed_file.path), !Contains("FP_CONTRACT"));
    std::string strict = read_text(strict_file.path);
    CHECK_THAT(strict, Contains("#pragma STDC FP_CONTRACT OFF"));
    CHECK_THAT(strict, Contains("fp-contract=off"));
}
