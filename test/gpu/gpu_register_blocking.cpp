// Register blocking: a Func computed at a GPU block loop and stored in
// MemoryType::Register keeps each thread's part in registers while its
// inputs are staged in shared memory (the matrix product schedule), compared
// with plain C++; the printed CUDA C; the errors when threads do not own
// their parts; and shared memory of a Func allocated twice in one kernel.

#include <catch2/catch.hpp>

#include <string>

#include "Loom.h"
#include "gpu/codegen_cuda_util.h"
#include "gpu/gpu_test_util.h"
#include "gpu/kernel_text_util.h"

using namespace loom;
using Catch::Contains;
using gpu_test::check_2d;
using gpu_test::gpu_target;

namespace {

/** Integer-valued floats: every partial sum is exact, in any order. */
Buffer<float> small_ints(int w, int h, int seed) {
    Buffer<float> b(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) b(x, y) = float((x * 7 + y * 3 + seed) % 17) - 8;
    return b;
}

/** out = A * B with 64x128 tiles of 16x16 threads, each owning 4x8 sums;
 *  slices of k_slice columns of A and rows of B are staged in shared memory.
 *  prod_memory is where prod (computed at the block) lives. */
struct StagedMatmul {
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, xt{"xt"}, yt{"yt"}, xr{"xr"},
        yr{"yr"}, xa{"xa"}, ya{"ya"};
    RVar ko{"ko"}, ki{"ki"};
    Func prod{"rb_prod"}, a_tile{"rb_a_tile"}, b_tile{"rb_b_tile"}, out{"rb_matmul"};
    StagedMatmul(const Buffer<float> &A, const Buffer<float> &B, MemoryType prod_memory,
                 bool mismatched_consumer = false, bool a_vector_rows = false) {
        RDom k({{0, A.width()}}, "k");
        prod(x, y) = 0.0f;
        a_tile(x, y) = A(x, y);
        b_tile(x, y) = B(x, y);
        prod(x, y) += a_tile(k, y) * b_tile(x, k);
        out(x, y) = prod(x, y);
        // The consumer's threads own 4x8 outputs, or (mismatched) 8x4.
        const int cx = mismatched_consumer ? 8 : 4, cy = mismatched_consumer ? 4 : 8;
        out.tile(x, y, xo, yo, xi, yi, 64, 128)
            .split(xi, xt, xr, cx)
            .split(yi, yt, yr, cy)
            .reorder(xr, yr, xt, yt, xo, yo)
            .gpu_blocks(xo, yo)
            .gpu_threads(xt, yt)
            .vectorize(xr)
            .unroll(yr);
        prod.compute_at(out, xo)
            .store_in(prod_memory)
            .split(x, xt, xr, 4)
            .split(y, yt, yr, 8)
            .reorder(xr, yr, xt, yt)
            .gpu_threads(xt, yt)
            .vectorize(xr)
            .unroll(yr);
        prod.update()
            .split(k, ko, ki, 16)
            .split(x, xt, xr, 4)
            .split(y, yt, yr, 8)
            .reorder(xr, yr, ki, xt, yt, ko)
            .gpu_threads(xt, yt)
            .vectorize(xr)
            .unroll(yr);
        const TailStrategy guard = TailStrategy::GuardWithIf;
        if (a_vector_rows) {
            // Each thread stages 8 consecutive k of one row (one vector);
            // the threads in y take (yb, kg, yh) with yb fastest.
            Var kg("kg"), kv("kv"), yl("yl"), yb("yb"), yh("yh"), t1("t1"), t2("t2");
            a_tile.compute_at(prod, ko)
                .split(x, kg, kv, 8)
                .split(y, yh, yl, 16)
                .split(yh, yh, yb, 2)
                .reorder(kv, yl, yb, kg, yh)
                .fuse(yb, kg, t1)
                .fuse(t1, yh, t2)
                .vectorize(kv)
                .gpu_threads(yl, t2);
        } else {
            a_tile.compute_at(prod, ko).split(y, y, ya, 8, guard).unroll(ya).gpu_threads(x, y);
        }
        b_tile.compute_at(prod, ko).split(x, x, xa, 4, guard).vectorize(xa).gpu_threads(x, y);
    }
};

float product_at(const Buffer<float> &A, const Buffer<float> &B, int x, int y) {
    float s = 0;
    for (int k = 0; k < A.width(); k++) s += A(k, y) * B(x, k);
    return s;
}

} // namespace

TEST_CASE("register blocking: each thread keeps its part of a block-level Func in registers",
          "[gpu]") {
    // K = 37: two full slices of 16 and a tail of 5; outputs not multiples
    // of the 64x128 tiles.
    const int M = 150, N = 100, K = 37;
    Buffer<float> A = small_ints(K, M, 1), B = small_ints(N, K, 2);
    StagedMatmul mm(A, B, MemoryType::Register);
    Buffer<float> out(N, M);
    mm.out.realize(out, gpu_target());
    out.copy_to_host();
    check_2d(out, [&](int x, int y) { return product_at(A, B, x, y); });
}

TEST_CASE("register blocking: slices of A staged as vectors of k by fused thread loops", "[gpu]") {
    // K a multiple of the 16-wide slices: the split of k needs no guard, so
    // each slice of A has the constant extent 16 and the fused thread loop
    // that stages it (two vectors of 8 per row) has a constant extent too.
    // With the guard kept, bounds inference took the slice's extent as
    // symbolic and bounded it over all slices: "Input buffer ... is
    // accessed at -40 to 63" and no result.
    const int M = 150, N = 100, K = 64;
    Buffer<float> A = small_ints(K, M, 5), B = small_ints(N, K, 6);
    StagedMatmul mm(A, B, MemoryType::Register, false, true);
    Buffer<float> out(N, M);
    mm.out.realize(out, gpu_target());
    out.copy_to_host();
    check_2d(out, [&](int x, int y) { return product_at(A, B, x, y); });
}

TEST_CASE("register blocking: the CUDA C keeps 4x8 sums per thread, none in shared memory",
          "[gpu]") {
    const int M = 256, N = 128, K = 64;
    Buffer<float> A = small_ints(K, M, 3), B = small_ints(N, K, 4);
    StagedMatmul mm(A, B, MemoryType::Register);
    std::string src = Pipeline(mm.out).device_source({}, cuda_test::cuda_target(90));
    INFO(src);
    // One thread's 4x8 sums span 3 + 7 * 64 + 1 elements of the 64-wide tile.
    CHECK_THAT(src, Contains("float rb_prod_") && Contains("[452];"));
    // Shared memory holds only the 16x128 slice of A and the 64x16 slice of B.
    CHECK_THAT(src, Contains("__shared__") && Contains("[12288]"));
    // Indexed by constants once unrolled, the sums live in registers: no
    // stack frame (local memory) and no spills.
    std::string log = cuda_test::compile_cubin_with_figures(src, 90);
    CHECK_THAT(log, Contains("0 bytes stack frame"));
    CHECK(cuda_test::spill_bytes(log) == 0);
}

TEST_CASE("staged matrix product: one barrier between the slices of A and B and the sums",
          "[gpu]") {
    // The slices of A and B are staged one after the other; neither reads
    // the other, so they share the barrier before the sums. Each k slice
    // has that one and the one that ends it (the next slice overwrites
    // both): two, where a barrier after each producer made three. (K a
    // multiple of the slice: a tail slice would have barriers of its own.)
    const int M = 150, N = 100, K = 64;
    Buffer<float> A = small_ints(K, M, 7), B = small_ints(N, K, 8);
    StagedMatmul mm(A, B, MemoryType::Register);
    std::string cuda = Pipeline(mm.out).device_source({}, cuda_test::cuda_target(90));
    INFO(cuda);
    CHECK(loom_test::count(cuda, "__syncthreads()") == 2);
    std::string opencl = Pipeline(mm.out).device_source({}, gpu_test::opencl_target());
    INFO(opencl);
    CHECK(loom_test::count(opencl, "barrier(") == 2);
    Buffer<float> out(N, M);
    mm.out.realize(out, gpu_target());
    out.copy_to_host();
    check_2d(out, [&](int x, int y) { return product_at(A, B, x, y); });
}

TEST_CASE("register blocking: the same sums in shared memory give the same result", "[gpu]") {
    const int M = 150, N = 100, K = 37;
    Buffer<float> A = small_ints(K, M, 5), B = small_ints(N, K, 6);
    StagedMatmul mm(A, B, MemoryType::Auto);
    Buffer<float> out(N, M);
    mm.out.realize(out, gpu_target());
    out.copy_to_host();
    check_2d(out, [&](int x, int y) { return product_at(A, B, x, y); });
}

TEST_CASE("a Func allocated twice in one kernel gets shared memory for each allocation", "[gpu]") {
    // The RVar split's peeled tail allocates the staged slices again with
    // other sizes; each allocation needs its own placement (they once
    // shared one, and the second slice overwrote the first).
    const int M = 130, N = 70, K = 21;
    Buffer<float> A = small_ints(K, M, 7), B = small_ints(N, K, 8);
    StagedMatmul mm(A, B, MemoryType::GPUShared);
    Buffer<float> out(N, M);
    mm.out.realize(out, gpu_target());
    out.copy_to_host();
    check_2d(out, [&](int x, int y) { return product_at(A, B, x, y); });
}

TEST_CASE("register blocking: a consumer whose threads own other elements is an error",
          "[gpu][error]") {
    Buffer<float> A = small_ints(32, 128, 1), B = small_ints(64, 32, 2);
    StagedMatmul mm(A, B, MemoryType::Register, /*mismatched_consumer=*/true);
    REQUIRE_THROWS_AS(mm.out.compile_jit(gpu_target()), CompileError);
    REQUIRE_THROWS_WITH(mm.out.compile_jit(gpu_target()),
                        Contains("Func rb_prod") && Contains("MemoryType::Register") &&
                            Contains("start at different elements for the same thread") &&
                            Contains("MemoryType::GPUShared"));
}

TEST_CASE("register blocking: a block-level Func written outside thread loops is an error",
          "[gpu][error]") {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func acc("rb_serial_acc"), out("rb_serial_out");
    acc(x) = x * 2;
    out(x) = acc(x) + 1;
    out.split(x, xo, xi, 32).gpu_blocks(xo).gpu_threads(xi);
    // acc's loop stays serial at the block level: its stores run in thread 0
    // only, so no thread owns the values the others read.
    acc.compute_at(out, xo).store_in(MemoryType::Register);
    REQUIRE_THROWS_WITH(out.compile_jit(gpu_target()),
                        Contains("Func rb_serial_acc") && Contains("MemoryType::Register"));
}
