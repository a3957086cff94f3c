// A reduction over a few constant taps inside a block of accumulators kept
// in vector registers (conv_layer's schedule: the 3 taps along x innermost,
// under the input channels) must match plain C++, and the short tap loop
// must be unrolled by the LLVM pipeline (Halide's O3 unrolls it; a loop of 3
// trips around 16 multiply-adds cost conv_layer 15-20%), while the loop
// around it, whose unrolled body would be long, stays a loop.

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "../common/LLVMAssembly.h"
#include "Loom.h"

using namespace loom;

namespace {

struct SmallConv {
    ImageParam input{Float(32), 3, "sru_in"}, filter{Float(32), 4, "sru_filter"};
    Func conv{"sru_conv"}, out{"sru_out"};

    SmallConv() {
        Var x("x"), y("y"), c("c"), xo("xo"), xi("xi"), co("co"), ci("ci");
        RDom r({{0, 3}, {0, 3}, {0, input.dim(2).extent()}}, "r");
        conv(x, y, c) = 0.0f;
        conv(x, y, c) += filter(r.x, r.y, r.z, c) * input(x + r.x, y + r.y, r.z);
        out(x, y, c) = max(conv(x, y, c), 0.0f);
        out.split(x, xo, xi, 16)
            .split(c, co, ci, 4)
            .reorder(xi, ci, xo, y, co)
            .vectorize(xi, 8)
            .unroll(xi)
            .unroll(ci);
        conv.compute_at(out, xo).vectorize(x, 8).unroll(x, 2).unroll(c, 4);
        conv.update().reorder(x, c, r.x, r.y, r.z).vectorize(x, 8).unroll(x, 2).unroll(c, 4);
    }
};

Buffer<float> make_values(int w, int h, int c, int k, uint32_t seed) {
    Buffer<float> b(w, h, c, k);
    uint32_t s = seed * 2654435761u + 7u;
    b.for_each_value([&](float &v) {
        s = s * 1664525u + 1013904223u;
        v = float(int(s >> 27) - 16) / 4.0f;
    });
    return b;
}

} // namespace

TEST_CASE("a short tap loop inside register accumulators matches plain C++",
          "[correctness][unroll]") {
    // 37 x 11 outputs (37 is not a multiple of the 16-pixel block), 6 output
    // and 5 input channels; small multiples of 1/4, so float sums are exact.
    const int W = 37, H = 11, C = 8, K = 5;
    Buffer<float> in = make_values(W + 2, H + 2, K, 1, 1), f = make_values(3, 3, K, C, 2);
    Buffer<float> in3(in.data(), W + 2, H + 2, K);
    SmallConv p;
    p.input.set(in3);
    p.filter.set(f);
    Buffer<float> out = p.out.realize({W, H, C});
    int wrong = 0;
    for (int c = 0; c < C; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                float sum = 0;
                for (int k = 0; k < K; k++)
                    for (int ky = 0; ky < 3; ky++)
                        for (int kx = 0; kx < 3; kx++)
                            sum += f(kx, ky, k, c) * in3(x + kx, y + ky, k);
                float ref = sum > 0 ? sum : 0.0f;
                if (out(x, y, c) != ref && wrong++ < 5)
                    FAIL_CHECK("out(" << x << ", " << y << ", " << c << ") = " << out(x, y, c)
                                      << ", expected " << ref);
            }
    CHECK(wrong == 0);
}

TEST_CASE("a short tap loop inside register accumulators is unrolled", "[correctness][unroll]") {
    SmallConv p;
    std::string text = loom_test::llvm_assembly_for(p.out, {p.input, p.filter}, "short_reduction",
                                                    "x86-64-linux-avx2-fma");
    // The loops keep their Loom names: r$y's loop is still there, r$x's is not.
    CHECK(text.find("r$y.loop") != std::string::npos);
    CHECK(text.find("r$x.loop") == std::string::npos);
}
