// The LLVM backend turns Halide's fixed-point and approximate-math operators
// into the machine's vector instructions: saturating adds to paddusb, rounding
// averages to pavgb, saturating casts to packs, fast_sin and erf to plain
// vector arithmetic with no libm calls; strict_float keeps multiplies and
// adds apart where the default fuses them.

#include <catch2/catch.hpp>

#include "Loom.h"
#include "common/ScratchFile.h"

using namespace loom;
using Catch::Matchers::Contains;

namespace {

/** The assembly of out(x) = e(a(x), b(x)) vectorized by `lanes`, for target. */
std::string assembly(Type in, const std::function<Expr(Expr, Expr)> &e, int lanes,
                     const std::string &target, const std::string &name) {
    ImageParam a(in, 1, "a"), b(in, 1, "b");
    Var x("x");
    Func out("out_" + name);
    out(x) = e(a(x), b(x));
    out.vectorize(x, lanes);
    loom_test::ScratchFile file("fixed_point", name + ".s");
    out.compile_to_assembly(file.path, {a, b}, "", Target(target));
    return loom_test::read_text(file.path);
}

} // namespace

TEST_CASE("fixed-point operators select x86 vector instructions", "[codegen][fixed_point]") {
    const std::string sse = "x86-64-linux-sse41", avx2 = "x86-64-linux-avx-avx2-fma";
    CHECK_THAT(
        assembly(
            UInt(8), [](Expr a, Expr b) { return saturating_add(a, b); }, 16, sse, "sat_add_u8"),
        Contains("paddusb"));
    CHECK_THAT(assembly(
                   UInt(8), [](Expr a, Expr b) { return saturating_add(a, b); }, 32, avx2,
                   "sat_add_u8_avx2"),
               Contains("vpaddusb"));
    CHECK_THAT(
        assembly(
            Int(16), [](Expr a, Expr b) { return saturating_sub(a, b); }, 8, sse, "sat_sub_i16"),
        Contains("psubsw"));
    CHECK_THAT(
        assembly(
            UInt(8), [](Expr a, Expr b) { return rounding_halving_add(a, b); }, 16, sse, "avg_u8"),
        Contains("pavgb"));
    CHECK_THAT(
        assembly(
            Int(16), [](Expr a, Expr) { return saturating_cast<uint8_t>(a); }, 16, sse, "sat_cast"),
        Contains("packuswb"));
    CHECK_THAT(assembly(
                   UInt(16), [](Expr a, Expr b) { return mul_shift_right(a, b, 16); }, 8, sse,
                   "mulhi_u16"),
               Contains("pmulhuw"));
}

TEST_CASE("fast math and erf vectorize without libm calls", "[codegen][math]") {
    const std::string sse = "x86-64-linux-sse41";
    struct Op {
        const char *name;
        std::function<Expr(Expr, Expr)> e;
    };
    std::vector<Op> ops = {
        {"fast_sin", [](Expr a, Expr) { return fast_sin(a); }},
        {"fast_cos", [](Expr a, Expr) { return fast_cos(a); }},
        {"fast_exp", [](Expr a, Expr) { return fast_exp(a); }},
        {"fast_log", [](Expr a, Expr) { return fast_log(a); }},
        {"fast_pow", [](Expr a, Expr b) { return fast_pow(a, b); }},
        {"erf", [](Expr a, Expr) { return erf(a); }},
    };
    for (const Op &op : ops) {
        INFO(op.name);
        std::string s = assembly(Float(32), op.e, 8, sse, op.name);
        CHECK_THAT(s, Contains("mulps"));
        for (const char *libm : {"sinf", "cosf", "expf", "logf", "powf", "erff"})
            CHECK_THAT(s, !Contains(libm));
    }
}

TEST_CASE("strict_float keeps a multiply and an add apart", "[codegen][strict_float]") {
    const std::string fma_target = "x86-64-linux-avx-avx2-fma";
    ImageParam a(Float(32), 1, "a"), b(Float(32), 1, "b"), c(Float(32), 1, "c");
    Var x("x");
    auto text = [&](const std::function<Expr(Expr, Expr, Expr)> &e, const std::string &name) {
        Func out("out_" + name);
        out(x) = e(a(x), b(x), c(x));
        out.vectorize(x, 8);
        loom_test::ScratchFile file("strict", name + ".s");
        out.compile_to_assembly(file.path, {a, b, c}, "", Target(fma_target));
        return loom_test::read_text(file.path);
    };
    CHECK_THAT(text([](Expr p, Expr q, Expr r) { return p * q + r; }, "fused"), Contains("vfmadd"));
    CHECK_THAT(text([](Expr p, Expr q, Expr r) { return strict_float(p * q + r); }, "strict"),
               !Contains("vfmadd"));
    CHECK_THAT(text([](Expr p, Expr q, Expr r) { return fma(p, q, r); }, "explicit"),
               Contains("vfmadd"));
}
