// rfactor: a reduction split into parallel partial results and a merge,
// against plain C++.

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "Loom.h"

using namespace loom;

namespace {

Buffer<uint8_t> noise(int w, int h) {
    Buffer<uint8_t> im(w, h);
    uint32_t s = 12345;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            s = s * 1103515245u + 12345u;
            im(x, y) = uint8_t(s >> 23);
        }
    return im;
}

} // namespace

TEST_CASE("rfactor parallelizes a histogram", "[correctness][reductions][rfactor]") {
    Buffer<uint8_t> im = noise(203, 67);
    Func hist("rf_hist");
    Var i("i"), u("u");
    RDom r(0, 203, 0, 67);
    hist(i) = 0;
    hist(cast<int>(im(r.x, r.y))) += 1;
    Func intm = hist.update(0).rfactor(r.y, u);
    intm.compute_root().update(0).parallel(u);
    hist.update(0).vectorize(i, 8);
    Buffer<int> out = hist.realize({256});
    std::vector<int> ref(256, 0);
    for (int y = 0; y < 67; y++)
        for (int x = 0; x < 203; x++) ref[im(x, y)]++;
    for (int b = 0; b < 256; b++) CHECK(out(b) == ref[size_t(b)]);
}

TEST_CASE("rfactor of a sum over a split RVar", "[correctness][reductions][rfactor]") {
    const int n = 1001;
    Buffer<int> in(n);
    for (int k = 0; k < n; k++) in(k) = (k * 37) % 101 - 50;
    Func total("rf_total");
    RDom r(0, n);
    total() = 0;
    total() += in(r);
    // Split first as a two-level RDom by hand: r = 64 * ro + ri.
    RDom s(0, 64, 0, (n + 63) / 64);
    Func total2("rf_total2");
    Var v("v");
    total2() = 0;
    total2() += select(s.x + 64 * s.y < n, in(min(s.x + 64 * s.y, n - 1)), 0);
    Func partial = total2.update(0).rfactor(s.y, v);
    partial.compute_root().update(0).parallel(v);
    int ref = 0;
    for (int k = 0; k < n; k++) ref += in(k);
    CHECK(Buffer<int>(total.realize())() == ref);
    CHECK(Buffer<int>(total2.realize())() == ref);
}

TEST_CASE("rfactor of max, product-free tuple argmax and a where() RDom",
          "[correctness][reductions][rfactor]") {
    Buffer<uint8_t> im = noise(50, 40);
    Var u("u"), w("w");
    RDom r(0, 50, 0, 40);
    Func mx("rf_max");
    mx() = cast<uint8_t>(0);
    mx() = max(mx(), im(r.x, r.y));
    mx.update(0).rfactor(r.y, u).compute_root().update(0).parallel(u);
    int ref = 0;
    for (int y = 0; y < 40; y++)
        for (int x = 0; x < 50; x++) ref = std::max<int>(ref, im(x, y));
    CHECK(int(Buffer<uint8_t>(mx.realize())()) == ref);

    Func am("rf_argmax");
    Tuple t = argmax(r, im(r.x, r.y));
    am() = t;
    Realization out = am.realize();
    int ex = 0, ey = 0;
    for (int y = 0; y < 40; y++)
        for (int x = 0; x < 50; x++)
            if (im(x, y) > im(ex, ey)) ex = x, ey = y;
    CHECK(Buffer<int>(out[0])() == ex);
    CHECK(Buffer<int>(out[1])() == ey);
    CHECK(Buffer<uint8_t>(out[2])() == im(ex, ey));

    // The same argmax written out as a Tuple update, factored over rows.
    Func am2("rf_argmax2");
    am2() = Tuple(0, 0, cast<uint8_t>(0));
    Expr value = im(r.x, r.y);
    Expr better = value > am2()[2];
    am2() = Tuple(select(better, r.x, am2()[0]), select(better, r.y, am2()[1]),
                  select(better, value, am2()[2]));
    am2.update(0).rfactor(r.y, w).compute_root().update(0).parallel(w);
    Realization out2 = am2.realize();
    CHECK(Buffer<int>(out2[0])() == ex);
    CHECK(Buffer<int>(out2[1])() == ey);
    CHECK(Buffer<uint8_t>(out2[2])() == im(ex, ey));

    RDom q(0, 30, 0, 30);
    q.where((q.x + q.y) % 3 == 0);
    Func cnt("rf_where");
    cnt() = 0;
    cnt() += q.x;
    cnt.update(0).rfactor(q.y, u).compute_root().update(0).parallel(u);
    int e = 0;
    for (int y = 0; y < 30; y++)
        for (int x = 0; x < 30; x++)
            if ((x + y) % 3 == 0) e += x;
    CHECK(Buffer<int>(cnt.realize())() == e);
}

namespace {

std::vector<int> histogram_of(const Buffer<uint8_t> &im, int x0, int y0, int w, int h) {
    std::vector<int> ref(256, 0);
    for (int y = y0; y < y0 + h; y++)
        for (int x = x0; x < x0 + w; x++) ref[im(x, y)]++;
    return ref;
}

} // namespace

TEST_CASE("rfactor over blocks of rows of a split RVar", "[correctness][reductions][rfactor]") {
    // Halide's parallel histogram: split the rows into blocks, one partial
    // histogram per block (computed in parallel), a vectorized merge. The
    // block size divides neither the height nor, with an offset RDom, the range.
    Buffer<uint8_t> im = noise(203, 67);
    for (int block : {1, 8, 16, 67, 100}) {
        for (int y0 : {0, 5}) {
            int rows = 67 - y0;
            Func hist("rf_block_hist");
            Var i("i"), u("u");
            RVar ro("ro"), ri("ri");
            RDom r(0, 203, y0, rows);
            hist(i) = 0;
            hist(cast<int>(im(r.x, r.y))) += 1;
            hist.update(0).split(r.y, ro, ri, block);
            Func intm = hist.update(0).rfactor(ro, u);
            intm.compute_root().vectorize(i, 8).update(0).parallel(u);
            hist.update(0).vectorize(i, 8);
            Buffer<int> out = hist.realize({256});
            std::vector<int> ref = histogram_of(im, 0, y0, 203, rows);
            int wrong = 0;
            for (int b = 0; b < 256; b++) wrong += out(b) != ref[size_t(b)];
            INFO("block " << block << " first row " << y0);
            CHECK(wrong == 0);
        }
    }
}

TEST_CASE("rfactor over blocks of a histogram of an ImageParam",
          "[correctness][reductions][rfactor]") {
    // The image size is known only at run time, so the tail test stays.
    ImageParam input(UInt(8), 2, "rf_param_in");
    Func hist("rf_param_hist");
    Var i("i"), u("u");
    RVar ro("ro"), ri("ri");
    RDom r(0, input.width(), 0, input.height());
    hist(i) = 0;
    hist(cast<int>(input(r.x, r.y))) += 1;
    hist.update(0).split(r.y, ro, ri, 32);
    Func intm = hist.update(0).rfactor(ro, u);
    intm.compute_root().vectorize(i, 8).update(0).parallel(u);
    hist.update(0).vectorize(i, 8);
    for (auto [w, h] : {std::pair{77, 130}, std::pair{64, 64}, std::pair{5, 31}, std::pair{1, 1}}) {
        Buffer<uint8_t> im = noise(w, h);
        input.set(im);
        Buffer<int> out = hist.realize({256});
        std::vector<int> ref = histogram_of(im, 0, 0, w, h);
        int wrong = 0;
        for (int b = 0; b < 256; b++) wrong += out(b) != ref[size_t(b)];
        INFO(w << "x" << h);
        CHECK(wrong == 0);
    }
}

TEST_CASE("rfactor after splitting, fusing and renaming RVars",
          "[correctness][reductions][rfactor]") {
    const int n = 1001;
    Buffer<int> in(n);
    for (int k = 0; k < n; k++) in(k) = (k * 37) % 101 - 50;
    int ref = 0;
    for (int k = 0; k < n; k++) ref += in(k);
    Var u("u");
    RVar ro("ro"), ri("ri");

    SECTION("preserving the inner RVar: partial sums across lanes") {
        Func total("rf_inner");
        RDom r(0, n);
        total() = 0;
        total() += in(r);
        total.update(0).split(r, ro, ri, 8);
        Func intm = total.update(0).rfactor(ri, u);
        intm.compute_root().vectorize(u, 8).update(0).vectorize(u, 8);
        CHECK(Buffer<int>(total.realize())() == ref);
    }
    SECTION("a split of a split") {
        Func total("rf_split_split");
        RDom r(3, n - 3);
        RVar rio("rio"), rii("rii");
        total() = 0;
        total() += in(r);
        total.update(0).split(r, ro, ri, 100).split(ri, rio, rii, 7);
        Func intm = total.update(0).rfactor({{ro, u}});
        intm.compute_root().update(0).parallel(u);
        int e = 0;
        for (int k = 3; k < n; k++) e += in(k);
        CHECK(Buffer<int>(total.realize())() == e);
    }
    SECTION("fused then split rows of an image") {
        Buffer<uint8_t> im = noise(31, 29);
        Func hist("rf_fused");
        Var i("i");
        RDom r(0, 31, 0, 29);
        RVar f("f");
        hist(i) = 0;
        hist(cast<int>(im(r.x, r.y))) += 1;
        hist.update(0).fuse(r.x, r.y, f).split(f, ro, ri, 100);
        Func intm = hist.update(0).rfactor(ro, u);
        intm.compute_root().update(0).parallel(u);
        Buffer<int> out = hist.realize({256});
        std::vector<int> e = histogram_of(im, 0, 0, 31, 29);
        int wrong = 0;
        for (int b = 0; b < 256; b++) wrong += out(b) != e[size_t(b)];
        CHECK(wrong == 0);
    }
    SECTION("renamed") {
        Func total("rf_renamed");
        RDom r(0, n);
        RVar k("k");
        total() = 0;
        total() += in(r);
        total.update(0).rename(r, k);
        total.update(0).rfactor(k, u).compute_root().update(0).parallel(u);
        CHECK(Buffer<int>(total.realize())() == ref);
    }
}
