// A Func computed per tile of its consumer into a small buffer (Halide's
// matrix multiply schedule: a 24x4 block of accumulators per 4 rows of a
// 24x32 tile) must match plain C++ at sizes the tiles do not divide, and its
// buffer must end up in registers: the simplifier sees that the lets of the
// block's bounds agree (constant loop extents and indices) and the LLVM
// pipeline unrolls the short loops over it, so no stack buffer is left.

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

#include "Loom.h"

using namespace loom;

namespace {

struct MatMul {
    ImageParam A{Float(32), 2, "rb_a"}, B{Float(32), 2, "rb_b"};
    Func prod{"rb_prod"}, out{"rb_out"};

    MatMul() {
        Var x("x"), y("y"), xi("xi"), yi("yi"), yii("yii"), xy("xy");
        RDom k(0, A.width());
        prod(x, y) += A(k, y) * B(x, k);
        out(x, y) = prod(x, y);
        out.tile(x, y, xi, yi, 24, 32)
            .fuse(x, y, xy)
            .parallel(xy)
            .split(yi, yi, yii, 4)
            .vectorize(xi, 8)
            .unroll(xi)
            .unroll(yii);
        prod.compute_at(out, yi).vectorize(x, 8).unroll(y);
        prod.update(0).reorder(x, y, k).vectorize(x, 8).unroll(x).unroll(y).unroll(k, 2);
    }
};

Buffer<float> make_matrix(int w, int h, uint32_t seed) {
    Buffer<float> b(w, h);
    uint32_t s = seed * 2654435761u + 11u;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            s = s * 1664525u + 1013904223u;
            b(x, y) = float(int(s >> 24) - 128) / 32.0f;
        }
    return b;
}

} // namespace

TEST_CASE("a per-tile accumulator block matches plain C++", "[correctness][matmul]") {
    // 53 columns, 70 rows (neither a multiple of the 24x32 tile), K = 19 (odd:
    // the k loop unrolled by 2 has a tail).
    const int w = 53, h = 70, K = 19;
    Buffer<float> a = make_matrix(K, h, 1), b = make_matrix(w, K, 2);
    MatMul m;
    m.A.set(a);
    m.B.set(b);
    Buffer<float> out = m.out.realize({w, h});
    int wrong = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            // Products of multiples of 1/32 with at most 19 terms: exact in float.
            float ref = 0;
            for (int k = 0; k < K; k++) ref += a(k, y) * b(x, k);
            if (out(x, y) != ref && wrong++ < 5)
                FAIL_CHECK("out(" << x << ", " << y << ") = " << out(x, y) << ", expected " << ref);
        }
    CHECK(wrong == 0);
}

TEST_CASE("a per-tile accumulator block lives in registers", "[correctness][matmul]") {
    MatMul m;
    std::string path = (std::filesystem::temp_directory_path() /
                        ("loom_register_block_" + std::to_string(getpid()) + ".ll"))
                           .string();
    m.out.compile_to_llvm_assembly(path, {m.A, m.B}, "register_block", Target("x86-64-linux-avx2"));
    std::ifstream file(path);
    std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    std::remove(path.c_str());
    size_t task = text.find("define internal i32 @par_for");
    REQUIRE(task != std::string::npos);
    size_t task_end = text.find("\n}\n", task);
    std::string body = text.substr(task, task_end - task);
    // The only stack allocation left would be the 96-float block of prod.
    CHECK(body.find("alloca [") == std::string::npos);
    CHECK(body.find("alloca float") == std::string::npos);
}
