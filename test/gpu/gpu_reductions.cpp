// Update definitions, RDoms and atomic() reductions on the GPU, compared
// with plain C++.

#include <catch2/catch.hpp>

#include <vector>

#include "Loom.h"
#include "gpu/gpu_test_util.h"

using namespace loom;
using gpu_test::check_1d;
using gpu_test::check_2d;
using gpu_test::gpu_target;

TEST_CASE("update definitions with an RDom on the GPU", "[gpu]") {
    Buffer<int> in(16, 12);
    for (int y = 0; y < 12; y++)
        for (int x = 0; x < 16; x++) in(x, y) = x * y % 7;
    Var x("x"), xo("xo"), xi("xi");
    RDom r(0, 12);
    Func colsum("colsum");
    colsum(x) = 0;
    colsum(x) += in(x, r);
    colsum.gpu_tile(x, xo, xi, 8);
    colsum.update().gpu_tile(x, xo, xi, 8);
    Buffer<int> out = colsum.realize({16}, gpu_target());
    check_1d(out, [&](int i) {
        int s = 0;
        for (int j = 0; j < 12; j++) s += in(i, j);
        return s;
    });
}

TEST_CASE("atomic() integer histogram on the GPU", "[gpu]") {
    Buffer<uint8_t> in(300);
    for (int i = 0; i < 300; i++) in(i) = uint8_t((i * 37 + 11) % 16);
    Var x("x");
    RDom r(0, 300);
    RVar ro("ro"), ri("ri");
    Func hist("hist_i");
    hist(x) = 0;
    hist(clamp(cast<int>(in(r)), 0, 15)) += 1;
    hist.compute_root();
    hist.update().atomic().split(r.x, ro, ri, 32).gpu_blocks(ro).gpu_threads(ri);
    Buffer<int> out = hist.realize({16}, gpu_target());
    std::vector<int> ref(16, 0);
    for (int i = 0; i < 300; i++) ref[in(i)]++;
    check_1d(out, [&](int i) { return ref[size_t(i)]; });
}

TEST_CASE("atomic() float histogram on the GPU", "[gpu]") {
    Buffer<uint8_t> in(256);
    for (int i = 0; i < 256; i++) in(i) = uint8_t((i * 13) % 8);
    Var x("x");
    RDom r(0, 256);
    RVar ro("ro"), ri("ri");
    Func hist("hist_f");
    hist(x) = 0.0f;
    hist(clamp(cast<int>(in(r)), 0, 7)) += 0.5f;
    hist.compute_root();
    hist.update().atomic().split(r.x, ro, ri, 64).gpu_blocks(ro).gpu_threads(ri);
    Buffer<float> out = hist.realize({8}, gpu_target());
    std::vector<float> ref(8, 0.0f);
    for (int i = 0; i < 256; i++) ref[in(i)] += 0.5f;
    check_1d(out, [&](int i) { return ref[size_t(i)]; });
}

// Each thread takes 16 neighbouring samples per step as one vector load (the
// CUDA C checks the input's alignment once per kernel) and updates the per-block
// bins in shared memory one sample at a time. The input is a crop one byte
// into its parent, so the loads are misaligned there and aligned in the
// whole buffer: both paths must count the same.
TEST_CASE("atomic() updates vectorized on the GPU: shared-memory histogram", "[gpu]") {
    const int n = 1 << 14;
    Buffer<uint8_t> parent(n + 1);
    for (int i = 0; i <= n; i++) parent(i) = uint8_t((i * 73 + i / 7) % 251);
    Buffer<uint8_t> cropped = parent.cropped(0, 1, n);
    for (bool aligned : {true, false}) {
        Buffer<uint8_t> in = aligned ? parent : cropped;
        const int first = aligned ? 0 : 1;
        Var x("x"), xo("xo"), xi("xi");
        RDom r(first, n);
        Func hist("hist_vec");
        hist(x) = 0;
        hist(cast<int>(in(r))) += 1;
        hist.gpu_tile(x, xo, xi, 64);
        gpu_test::schedule_shared_bins_histogram(hist, r, 2048, 64, 16);
        Buffer<int> out = hist.realize({256}, gpu_target());
        std::vector<int> ref(256, 0);
        for (int i = first; i < first + n; i++) ref[in(i)]++;
        INFO("aligned " << aligned);
        check_1d(out, [&](int i) { return ref[size_t(i)]; });
    }
}
