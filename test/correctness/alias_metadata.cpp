// Alias metadata: the LLVM backend tells LLVM that distinct buffers and
// allocations never overlap, so it may keep values in registers and reorder
// loads past stores of other Funcs. These pipelines read and write the same
// Func at different indices (where reordering would be wrong), and read
// inputs while writing outputs, and must still match plain C++.

#include <catch2/catch.hpp>

#include <algorithm>
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

Buffer<int> make_ints(int w, int h, uint32_t seed) {
    Buffer<int> b(w, h);
    uint32_t s = seed * 2654435761u + 7u;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            s = s * 1664525u + 1013904223u;
            b(x, y) = int(s >> 20) - 2048;
        }
    return b;
}

} // namespace

TEST_CASE("a 1-D recurrence f(r) = f(r-1) + f(r) under unrolling", "[correctness][alias]") {
    const int n = 45;
    Buffer<int> in = make_ints(n, 1, 1);
    Func f("rec1");
    Var x("x");
    RDom r(1, n - 1);
    // Unsigned: the values grow past 2^32, and only unsigned arithmetic wraps
    // (signed overflow is undefined, in Loom as in C++).
    f(x) = cast<uint32_t>(in(x, 0));
    f(r) = f(r - 1) * 3 + f(r);
    f.vectorize(x, 8);
    RVar ro("ro"), ri("ri");
    f.update(0).split(r, ro, ri, 4).unroll(ri);
    Buffer<uint32_t> out = f.realize({n});

    std::vector<uint32_t> ref(n);
    for (int i = 0; i < n; i++) ref[size_t(i)] = uint32_t(in(i, 0));
    for (int i = 1; i < n; i++) ref[size_t(i)] = ref[size_t(i - 1)] * 3 + ref[size_t(i)];
    for (int i = 0; i < n; i++) CHECK(out(i) == ref[size_t(i)]);
}

TEST_CASE("a row recurrence vectorized across rows and unrolled along them",
          "[correctness][alias]") {
    const int w = 29, h = 23;
    Buffer<int> in = make_ints(w, h, 2);
    Func f("rec2"), g("rec2_out");
    Var x("x"), y("y"), xo("xo"), xi("xi");
    RDom r(1, h - 1);
    f(x, y) = cast<uint32_t>(in(x, y)); // unsigned: the rows grow past 2^32
    // Reads row r-1 and writes row r: a later row's load must not move above
    // the earlier row's store.
    f(x, r) = f(x, r - 1) + f(x, r) * 2 - f(clamp(x + 1, 0, w - 1), r - 1);
    g(x, y) = f(x, y) + 1;
    f.compute_root().vectorize(x, 8);
    RVar ro("ro"), ri("ri");
    f.update(0).reorder(x, r).vectorize(x, 8).split(r, ro, ri, 3).unroll(ri);
    g.split(x, xo, xi, 8).vectorize(xi).parallel(y);
    Buffer<uint32_t> out = g.realize({w, h});

    std::vector<uint32_t> ref(size_t(w * h));
    auto at = [&](int xx, int yy) -> uint32_t & { return ref[size_t(xx + yy * w)]; };
    for (int yy = 0; yy < h; yy++)
        for (int xx = 0; xx < w; xx++) at(xx, yy) = uint32_t(in(xx, yy));
    for (int yy = 1; yy < h; yy++)
        for (int xx = 0; xx < w; xx++)
            at(xx, yy) = at(xx, yy - 1) + at(xx, yy) * 2 - at(std::min(xx + 1, w - 1), yy - 1);
    for (int yy = 0; yy < h; yy++)
        for (int xx = 0; xx < w; xx++) CHECK(out(xx, yy) == at(xx, yy) + 1);
}

TEST_CASE("an update reading the element it is about to overwrite next", "[correctness][alias]") {
    // Scans right to left: f(n-2-k) depends on f(n-1-k), stored one iteration
    // earlier. Computed per row inside a parallel consumer, so the loads and
    // stores sit in the parallel task's body.
    const int w = 21, h = 9;
    Buffer<int> in = make_ints(w, h, 3);
    Func f("scan"), g("scan_out");
    Var x("x"), y("y");
    RDom k(0, w - 1);
    f(x, y) = in(x, y);
    f(w - 2 - k, y) = f(w - 1 - k, y) - f(w - 2 - k, y);
    g(x, y) = f(x, y) * 2;
    f.compute_at(g, y);
    RVar ko("ko"), ki("ki");
    f.update(0).split(k, ko, ki, 2).unroll(ki);
    g.parallel(y).vectorize(x, 4);
    Buffer<int> out = g.realize({w, h});

    for (int yy = 0; yy < h; yy++) {
        std::vector<int> row(static_cast<size_t>(w));
        for (int xx = 0; xx < w; xx++) row[size_t(xx)] = in(xx, yy);
        for (int kk = 0; kk < w - 1; kk++)
            row[size_t(w - 2 - kk)] = row[size_t(w - 1 - kk)] - row[size_t(w - 2 - kk)];
        for (int xx = 0; xx < w; xx++) CHECK(out(xx, yy) == row[size_t(xx)] * 2);
    }
}

TEST_CASE("an update reading an element an earlier iteration of its loop wrote",
          "[correctness][alias]") {
    // f(0) is read at a loop-invariant address and written at r == 0: the
    // read must not be hoisted out of the loop.
    const int n = 37;
    Buffer<int> in = make_ints(n, 1, 5);
    Func f("invariant_read");
    Var x("x");
    RDom r(0, n);
    f(x) = in(x, 0);
    f(r) = f(r) + f(0) * 2;
    Buffer<int> out = f.realize({n});
    std::vector<int> ref(n);
    for (int i = 0; i < n; i++) ref[size_t(i)] = in(i, 0);
    for (int i = 0; i < n; i++) ref[size_t(i)] = ref[size_t(i)] + ref[0] * 2;
    for (int i = 0; i < n; i++) CHECK(out(i) == ref[size_t(i)]);

    // The same with vectors: row 0 is read in every iteration of the inner
    // loop over rows and overwritten in the first one.
    const int w = 19, h = 11;
    Buffer<int> in2 = make_ints(w, h, 6);
    Func g("invariant_row");
    Var y("y");
    RDom ry(0, h);
    g(x, y) = in2(x, y);
    g(x, ry) = g(x, ry) * 3 + g(x, 0);
    g.update(0).reorder(ry, x).vectorize(x, 8);
    Buffer<int> out2 = g.realize({w, h});
    for (int xx = 0; xx < w; xx++) {
        int row0 = in2(xx, 0) * 3 + in2(xx, 0);
        CHECK(out2(xx, 0) == row0);
        for (int yy = 1; yy < h; yy++) CHECK(out2(xx, yy) == in2(xx, yy) * 3 + row0);
    }
}

TEST_CASE("a stencil from an input Buffer into a different output Buffer", "[correctness][alias]") {
    const int w = 53, h = 19;
    Buffer<int> in = make_ints(w + 2, h + 2, 4);
    ImageParam input(Int(32), 2, "alias_in");
    input.set(in);
    Func tmp("alias_tmp"), out_f("alias_out");
    Var x("x"), y("y"), xo("xo"), xi("xi");
    // tmp is an intermediate on the heap (compute_root), read beside the input.
    tmp(x, y) = input(x, y) + input(x + 1, y) + input(x + 2, y);
    out_f(x, y) = tmp(x, y) + tmp(x, y + 1) * 2 + tmp(x, y + 2) - input(x + 1, y + 1);
    tmp.compute_root().vectorize(x, 8);
    out_f.split(x, xo, xi, 8).vectorize(xi).unroll(xo, 2).parallel(y);

    Buffer<int> out(w, h);
    out_f.realize(out);
    for (int yy = 0; yy < h; yy++)
        for (int xx = 0; xx < w; xx++) {
            auto t = [&](int a, int b) { return in(a, b) + in(a + 1, b) + in(a + 2, b); };
            int expected = t(xx, yy) + t(xx, yy + 1) * 2 + t(xx, yy + 2) - in(xx + 1, yy + 1);
            CHECK(out(xx, yy) == expected);
        }
    // The input is unchanged.
    Buffer<int> again = make_ints(w + 2, h + 2, 4);
    for (int yy = 0; yy < h + 2; yy++)
        for (int xx = 0; xx < w + 2; xx++) CHECK(in(xx, yy) == again(xx, yy));
}

TEST_CASE("loads and stores carry alias metadata named after their buffer",
          "[correctness][alias]") {
    ImageParam input(Float(32), 2, "tagged_in");
    Func f("tagged_f"), g("tagged_g");
    Var x("x"), y("y");
    f(x, y) = input(x, y) * 2.0f;
    g(x, y) = f(x, y) + f(x + 1, y);
    f.compute_root();
    g.vectorize(x, 4).parallel(y);
    std::string path = (std::filesystem::temp_directory_path() /
                        ("loom_alias_metadata_" + std::to_string(getpid()) + ".ll"))
                           .string();
    g.compile_to_llvm_assembly(path, {input}, "tagged", Target("x86-64-linux-avx2"));
    std::ifstream file(path);
    std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    std::remove(path.c_str());
    CHECK(text.find("!tbaa") != std::string::npos);
    // The parallel loop's task function reads f through the closure under
    // the same tag as f's producer writes it.
    size_t task = text.find("define internal i32 @par_for");
    REQUIRE(task != std::string::npos);
    CHECK(text.find("!tbaa", task) != std::string::npos);
    CHECK(text.find("!\"tagged_f\"") != std::string::npos);
    CHECK(text.find("!\"tagged_in.buffer\"") != std::string::npos);
}
