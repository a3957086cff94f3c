// Reductions: RDom, update definitions, recurrences, scatters, where()
// predicates, Tuples and inline reductions, each against plain C++.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "Loom.h"
#include "common/LLVMAssembly.h"

using namespace loom;

namespace {

Buffer<uint8_t> make_image(int w, int h, int seed) {
    Buffer<uint8_t> im(w, h);
    uint32_t s = uint32_t(seed) * 2654435761u + 1;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            s = s * 1664525u + 1013904223u;
            im(x, y) = uint8_t(s >> 24);
        }
    return im;
}

} // namespace

TEST_CASE("histogram via a scatter update", "[correctness][reductions]") {
    Buffer<uint8_t> im = make_image(37, 23, 1);
    Func hist("hist");
    Var i("i");
    RDom r(0, im.width(), 0, im.height());
    hist(i) = 0;
    hist(cast<int>(im(r.x, r.y))) += 1;
    Buffer<int> out = hist.realize({256});
    std::vector<int> ref(256, 0);
    for (int y = 0; y < im.height(); y++)
        for (int x = 0; x < im.width(); x++) ref[im(x, y)]++;
    for (int b = 0; b < 256; b++) CHECK(out(b) == ref[size_t(b)]);
}

TEST_CASE("RDom over a Buffer and an implicit pure definition from +=",
          "[correctness][reductions]") {
    Buffer<uint8_t> im = make_image(19, 11, 2);
    RDom r(im);
    CHECK(r.dimensions() == 2);
    Func total("total");
    total() += cast<int>(im(r.x, r.y));
    Buffer<int> out = total.realize();
    int ref = 0;
    for (int y = 0; y < 11; y++)
        for (int x = 0; x < 19; x++) ref += im(x, y);
    CHECK(out() == ref);

    Func prod("prod");
    Var x("x");
    RDom k(1, 5);
    prod(x) *= x + k;
    Buffer<int> p = prod.realize({4});
    for (int xx = 0; xx < 4; xx++) {
        int e = 1;
        for (int kk = 1; kk < 6; kk++) e *= xx + kk;
        CHECK(p(xx) == e);
    }
}

TEST_CASE("prefix sum as a recurrence", "[correctness][reductions]") {
    const int n = 53;
    Buffer<int> in(n);
    for (int i = 0; i < n; i++) in(i) = (i * 7) % 13 - 5;
    Func f("prefix");
    Var x("x");
    f(x) = in(x);
    RDom r(1, n - 1);
    f(r) = f(r) + f(r - 1);
    Buffer<int> out = f.realize({n});
    int acc = 0;
    for (int i = 0; i < n; i++) {
        acc += in(i);
        CHECK(out(i) == acc);
    }
}

TEST_CASE("2-D box filter through an RDom, pure Vars parallel and vectorized",
          "[correctness][reductions]") {
    Buffer<uint8_t> im = make_image(45, 31, 3);
    Func in("in"), blur("blur");
    Var x("x"), y("y");
    in(x, y) = cast<uint16_t>(im(clamp(x, 0, 44), clamp(y, 0, 30)));
    RDom r(-2, 5, -1, 3);
    blur(x, y) = cast<uint16_t>(0);
    blur(x, y) += in(x + r.x, y + r.y);
    blur.update(0).vectorize(x, 8).parallel(y);
    in.compute_root();
    Buffer<uint16_t> out = blur.realize({45, 31});
    for (int yy = 0; yy < 31; yy++)
        for (int xx = 0; xx < 45; xx++) {
            int s = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -2; dx <= 2; dx++)
                    s += im(std::clamp(xx + dx, 0, 44), std::clamp(yy + dy, 0, 30));
            CHECK(out(xx, yy) == s);
        }
}

TEST_CASE("matrix multiply with a tiled, vectorized update", "[correctness][reductions]") {
    const int n = 29, m = 23, kk = 17;
    Buffer<float> a(kk, m), b(n, kk);
    for (int y = 0; y < m; y++)
        for (int x = 0; x < kk; x++) a(x, y) = float((x * 3 + y) % 7) - 3.0f;
    for (int y = 0; y < kk; y++)
        for (int x = 0; x < n; x++) b(x, y) = float((x + y * 5) % 11) * 0.5f;
    Func c("matmul");
    Var x("x"), y("y"), xi("xi"), yi("yi");
    RDom k(0, kk);
    c(x, y) = 0.0f;
    c(x, y) += a(k, y) * b(x, k);
    c.update(0).reorder(x, y, k);
    c.update(0).tile(x, y, xi, yi, 8, 4).vectorize(xi).unroll(yi).parallel(y);
    Buffer<float> out = c.realize({n, m});
    for (int yy = 0; yy < m; yy++)
        for (int xx = 0; xx < n; xx++) {
            float s = 0;
            for (int q = 0; q < kk; q++) s += a(q, yy) * b(xx, q);
            CHECK(out(xx, yy) == Approx(s));
        }
}

TEST_CASE("matmul product computed at a tile of its consumer", "[correctness][reductions]") {
    const int n = 37, kk = 13;
    Buffer<float> a(kk, n), b(n, kk);
    for (int y = 0; y < n; y++)
        for (int x = 0; x < kk; x++) a(x, y) = float((x * 5 + y) % 9) - 4.0f;
    for (int y = 0; y < kk; y++)
        for (int x = 0; x < n; x++) b(x, y) = float((x * 2 + y) % 5);
    Func prod("prod"), out("out");
    Var x("x"), y("y"), xi("xi"), yi("yi"), yii("yii"), xy("xy");
    RDom k(0, kk);
    prod(x, y) = 0.0f;
    prod(x, y) += a(k, y) * b(x, k);
    out(x, y) = prod(x, y);
    out.tile(x, y, xi, yi, 8, 8).fuse(x, y, xy).parallel(xy).split(yi, yi, yii, 4).vectorize(xi, 4);
    prod.compute_at(out, yi).vectorize(x, 4);
    // unroll(x) needs the region of prod per tile (inside the fused loop)
    // to have a constant width.
    prod.update(0).reorder(x, y, k).vectorize(x, 4).unroll(x).unroll(y);
    Buffer<float> o = out.realize({n, n});
    for (int yy = 0; yy < n; yy++)
        for (int xx = 0; xx < n; xx++) {
            float s = 0;
            for (int q = 0; q < kk; q++) s += a(q, yy) * b(xx, q);
            CHECK(o(xx, yy) == Approx(s));
        }
}

TEST_CASE("where() predicates restrict an RDom", "[correctness][reductions]") {
    Func f("tri");
    Var x("x");
    RDom r(0, 10, 0, 10);
    r.where(r.x <= r.y);
    r.where(r.x + r.y < 15);
    f(x) = 0;
    f(r.x) += r.y;
    f.update(0).split(r.y, r.y, RVar("ryi"), 3);
    Buffer<int> out = f.realize({10});
    for (int xx = 0; xx < 10; xx++) {
        int s = 0;
        for (int yy = 0; yy < 10; yy++)
            if (xx <= yy && xx + yy < 15) s += yy;
        CHECK(out(xx) == s);
    }
}

TEST_CASE("several updates, -=, /= and a shifted output", "[correctness][reductions]") {
    Func f("multi");
    Var x("x");
    f(x) = x * 10;
    f(x) -= 3;
    f(x) /= 2;
    RDom r(0, 3);
    f(x) += r;
    Buffer<int> out(9);
    out.set_min(-4);
    f.realize(out);
    for (int xx = -4; xx < 5; xx++) {
        int v = xx * 10 - 3;
        v = v >= 0 ? v / 2 : -((-v + 1) / 2); // Euclidean division by 2
        CHECK(out(xx) == v + 3);
    }
}

TEST_CASE("a reduction Func consumed by another Func", "[correctness][reductions]") {
    Buffer<uint8_t> im = make_image(16, 16, 4);
    Func colsum("colsum"), g("g");
    Var x("x");
    RDom r(0, 16);
    colsum(x) = 0;
    colsum(x) += cast<int>(im(x, r));
    g(x) = colsum(x) * 2 + colsum(clamp(x + 1, 0, 15));
    Buffer<int> out = g.realize({16});
    auto ref = [&](int c) {
        int s = 0;
        for (int y = 0; y < 16; y++) s += im(c, y);
        return s;
    };
    for (int xx = 0; xx < 16; xx++) CHECK(out(xx) == ref(xx) * 2 + ref(std::min(xx + 1, 15)));
}

TEST_CASE("Tuple-valued pure and update definitions", "[correctness][reductions][tuple]") {
    Func f("pair");
    Var x("x");
    f(x) = Tuple(x, cast<float>(x) * 0.5f);
    RDom r(0, 4);
    f(x) = Tuple(f(x)[0] + r, f(x)[1] * 2.0f);
    f(x) = Tuple(undef<int>(), f(x)[1] + 1.0f);
    Realization out = f.realize({7});
    REQUIRE(out.size() == 2);
    Buffer<int> a = out[0];
    Buffer<float> b = out[1];
    for (int xx = 0; xx < 7; xx++) {
        CHECK(a(xx) == xx + 6);
        CHECK(b(xx) == Approx(xx * 0.5f * 16 + 1));
    }
    Func g("pair_reader");
    g(x) = f(x)[0] + cast<int>(f(x)[1]);
    Buffer<int> gb = g.realize({7});
    for (int xx = 0; xx < 7; xx++) CHECK(gb(xx) == xx + 6 + int(xx * 8 + 1));
}

TEST_CASE("inline reductions", "[correctness][reductions][inline]") {
    Buffer<uint8_t> im = make_image(21, 9, 5);
    Var x("x"), y("y");
    RDom r(0, 9);
    Func s("s"), p("p"), mx("mx"), mn("mn");
    s(x) = sum(cast<int>(im(x, r)));
    p(x) = product(cast<int>(im(x, r) % 3) + 1);
    mx(x) = maximum(im(x, r));
    mn(x) = minimum(im(x, r));
    Buffer<int> sb = s.realize({21}), pb = p.realize({21});
    Buffer<uint8_t> mxb = mx.realize({21}), mnb = mn.realize({21});
    for (int xx = 0; xx < 21; xx++) {
        int es = 0, ep = 1, emx = 0, emn = 255;
        for (int yy = 0; yy < 9; yy++) {
            es += im(xx, yy);
            ep *= im(xx, yy) % 3 + 1;
            emx = std::max<int>(emx, im(xx, yy));
            emn = std::min<int>(emn, im(xx, yy));
        }
        CHECK(sb(xx) == es);
        CHECK(pb(xx) == ep);
        CHECK(mxb(xx) == emx);
        CHECK(mnb(xx) == emn);
    }
    // An inline reduction inside an expression, over a 2-D RDom, explicitly named.
    Func box("box");
    RDom b(-1, 3, -1, 3);
    box(x, y) = sum(cast<int>(im(clamp(x + b.x, 0, 20), clamp(y + b.y, 0, 8))), "box_sum") / 9;
    Buffer<int> bb = box.realize({21, 9});
    for (int yy = 0; yy < 9; yy++)
        for (int xx = 0; xx < 21; xx++) {
            int e = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    e += im(std::clamp(xx + dx, 0, 20), std::clamp(yy + dy, 0, 8));
            CHECK(bb(xx, yy) == e / 9);
        }
}

TEST_CASE("argmax and argmin return Tuples", "[correctness][reductions][tuple]") {
    Buffer<int> in(13, 5);
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 13; x++)
            in(x, y) = ((x * 7 + y * 3) % 11) - (x == 4 && y == 2 ? 50 : 0);
    RDom r(0, 13, 0, 5);
    Func am("am");
    Tuple t = argmax(in(r.x, r.y));
    Tuple u = argmin(in(r.x, r.y));
    am() = Tuple(t[0], t[1], t[2], u[0], u[1], u[2]);
    Realization out = am.realize();
    int bx = 0, by = 0, sx = 0, sy = 0;
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 13; x++) {
            if (in(x, y) > in(bx, by)) bx = x, by = y;
            if (in(x, y) < in(sx, sy)) sx = x, sy = y;
        }
    CHECK(Buffer<int>(out[0])() == bx);
    CHECK(Buffer<int>(out[1])() == by);
    CHECK(Buffer<int>(out[2])() == in(bx, by));
    CHECK(Buffer<int>(out[3])() == 4);
    CHECK(Buffer<int>(out[4])() == 2);
    CHECK(Buffer<int>(out[5])() == in(sx, sy));
}

TEST_CASE("parallel over an RVar that indexes the left-hand side is legal",
          "[correctness][reductions]") {
    Func f("indep");
    Var x("x");
    f(x) = x;
    RDom r(0, 50);
    f(r) = f(r) * 3 + 1;
    f.update(0).parallel(r).vectorize(r, 4);
    Buffer<int> out = f.realize({50});
    for (int i = 0; i < 50; i++) CHECK(out(i) == i * 3 + 1);
}

TEST_CASE("atomic() updates may be vectorized: every lane updates its element atomically",
          "[correctness][reductions][atomic]") {
    // As in Halide: the vector of bins is computed at once (a vector load of
    // the samples), then each lane does its own atomic update, so lanes that
    // hit the same bin both count.
    Buffer<uint8_t> im = make_image(296, 53, 6);
    RDom r(0, 296, 0, 53);
    Var i("i");
    Func hist("vhist");
    hist(i) = 0;
    hist(cast<int>(im(r.x, r.y) % 16)) += 1;
    hist.update(0).atomic().parallel(r.y).vectorize(r.x, 8);
    Buffer<int> out = hist.realize({16});
    std::vector<int> ref(16, 0);
    for (int y = 0; y < 53; y++)
        for (int x = 0; x < 296; x++) ref[im(x, y) % 16]++;
    for (int b = 0; b < 16; b++) CHECK(out(b) == ref[size_t(b)]);
    std::string ll = loom_test::avx2_llvm_assembly(hist, {}, "vhist");
    CHECK(ll.find("load <8 x i8>") != std::string::npos);

    // A compare-and-swap update (max of floats) and every lane updating
    // one element; a split that leaves a tail (GuardWithIf).
    Func fmax_all("vfmax"), sum("vsum");
    fmax_all() = -1.0f;
    fmax_all() = max(fmax_all(), cast<float>(im(r.x, r.y)) * 0.5f);
    fmax_all.update(0).atomic().parallel(r.y).vectorize(r.x, 16);
    float ref_max = -1.0f;
    for (int y = 0; y < 53; y++)
        for (int x = 0; x < 296; x++) ref_max = std::max(ref_max, float(im(x, y)) * 0.5f);
    CHECK(Buffer<float>(fmax_all.realize())() == ref_max);
    RDom q(0, 301);
    sum() = 0;
    sum() += cast<int>(q % 5);
    sum.update(0).atomic().vectorize(q, 8);
    int ref_sum = 0;
    for (int k = 0; k < 301; k++) ref_sum += k % 5;
    CHECK(Buffer<int>(sum.realize())() == ref_sum);
}

TEST_CASE("atomic() makes a parallel histogram correct", "[correctness][reductions][atomic]") {
    Buffer<uint8_t> im = make_image(301, 97, 6);
    Func hist("ahist");
    Var i("i");
    RDom r(0, 301, 0, 97);
    hist(i) = 0;
    hist(cast<int>(im(r.x, r.y))) += 1;
    hist.update(0).atomic().parallel(r.y);
    Buffer<int> out = hist.realize({256});
    std::vector<int> ref(256, 0);
    for (int y = 0; y < 97; y++)
        for (int x = 0; x < 301; x++) ref[im(x, y)]++;
    for (int b = 0; b < 256; b++) CHECK(out(b) == ref[size_t(b)]);

    // Floats (atomic fadd) and a CAS loop (multiply).
    Func fs("afsum"), pm("aprod");
    fs() = 0.0f;
    fs() += cast<float>(im(r.x, r.y) % 4);
    fs.update(0).atomic().parallel(r.y);
    float ref_fs = 0;
    for (int y = 0; y < 97; y++)
        for (int x = 0; x < 301; x++) ref_fs += float(im(x, y) % 4);
    CHECK(Buffer<float>(fs.realize())() == ref_fs);
    RDom q(0, 40);
    pm() = cast<uint32_t>(1);
    pm() = pm() * cast<uint32_t>(q % 3 + 1);
    pm.update(0).atomic().parallel(q);
    uint32_t ref_pm = 1;
    for (int k = 0; k < 40; k++) ref_pm = ref_pm * uint32_t(k % 3 + 1);
    CHECK(Buffer<uint32_t>(pm.realize())() == ref_pm);
}
