// Halide's scheduling defaults: what TailStrategy::Auto picks, where a Func
// with update definitions goes when it is not scheduled, and undef() values
// that store nothing. Every result is compared with plain C++ on sizes that
// are not multiples of the split factors.

#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "Loom.h"

using namespace loom;

namespace {

std::string lowered_text(Func f, const std::vector<Argument> &args, const std::string &tag) {
    std::string path = "/tmp/loom_schedule_defaults_" + tag + ".stmt";
    f.compile_to_lowered_stmt(path, args);
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    std::remove(path.c_str());
    return text.str();
}

/** The text of the production of `func` in a lowered statement, with the
 * generated names of Buffers, RDoms and partitioned loops made the same in
 * every pipeline. */
std::string production(const std::string &stmt, const std::string &func) {
    size_t begin = stmt.find("produce " + func);
    size_t end = stmt.find("consume " + func, begin);
    if (begin == std::string::npos) return std::string();
    std::string text =
        stmt.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    text = std::regex_replace(text, std::regex("r_[0-9]+\\$"), "r$$");
    text = std::regex_replace(text, std::regex("_[0-9]+\\."), "_N.");
    return std::regex_replace(text, std::regex("\\bb[0-9]+\\b"), "buf");
}

struct MatMul {
    Buffer<float> a, b;
    Func prod, out;
    Var x{"x"}, y{"y"}, xi{"xi"}, yi{"yi"};
    RDom r;
    MatMul(int n, int k, int m, const std::string &tag) : a(n, k), b(k, m), r(0, k) {
        for (int j = 0; j < k; j++)
            for (int i = 0; i < n; i++) a(i, j) = float((i * 3 + j * 5) % 7) - 3.0f;
        for (int j = 0; j < m; j++)
            for (int i = 0; i < k; i++) b(i, j) = float((i * 2 + j * 11) % 9) - 4.0f;
        prod = Func("prod_" + tag);
        out = Func("out_" + tag);
        prod(x, y) = 0.0f;
        prod(x, y) += a(x, r) * b(r, y);
        out(x, y) = prod(x, y);
    }
    float expected(int i, int j) const {
        float s = 0.0f;
        for (int t = 0; t < b.dim(0).extent(); t++) s += a(i, t) * b(t, j);
        return s;
    }
};

} // namespace

TEST_CASE("Auto rounds up the pure Vars of an update computed at a tile",
          "[correctness][schedule]") {
    // Halide's matmul schedule: prod's update is vectorized without naming a tail.
    MatMul auto_tail(37, 13, 23, "auto");
    auto_tail.out.tile(auto_tail.x, auto_tail.y, auto_tail.xi, auto_tail.yi, 16, 4);
    auto_tail.prod.compute_at(auto_tail.out, auto_tail.x).vectorize(auto_tail.x, 8);
    auto_tail.prod.update(0)
        .reorder(auto_tail.x, auto_tail.y, auto_tail.r.x)
        .vectorize(auto_tail.x, 8);
    Buffer<float> res = auto_tail.out.realize({37, 23});
    for (int j = 0; j < 23; j++)
        for (int i = 0; i < 37; i++) REQUIRE(res(i, j) == auto_tail.expected(i, j));

    // The same code as asking for RoundUp: no guard in the update's loops.
    MatMul round_up(37, 13, 23, "auto");
    round_up.out.tile(round_up.x, round_up.y, round_up.xi, round_up.yi, 16, 4);
    round_up.prod.compute_at(round_up.out, round_up.x).vectorize(round_up.x, 8);
    round_up.prod.update(0)
        .reorder(round_up.x, round_up.y, round_up.r.x)
        .vectorize(round_up.x, 8, TailStrategy::RoundUp);
    std::string auto_stmt = production(lowered_text(auto_tail.out, {}, "auto"), "prod_auto");
    std::string round_stmt = production(lowered_text(round_up.out, {}, "roundup"), "prod_auto");
    REQUIRE(!auto_stmt.empty());
    CHECK(auto_stmt == round_stmt);
    CHECK(auto_stmt.find("likely") == std::string::npos);
}

TEST_CASE("RoundUp in an update grows the Func's region and storage", "[correctness][schedule]") {
    const int n = 13;
    Var x("x");
    RDom r(0, 3);
    Func f("grown"), g("grown_user");
    f(x) = x * 2;
    f(x) += r * x;
    g(x) = f(x) + 1;
    // 16 points: the pure step computes them all, the buffer holds them.
    f.compute_root().update(0).vectorize(x, 8, TailStrategy::RoundUp);
    Buffer<int> out = g.realize({n});
    for (int i = 0; i < n; i++) REQUIRE(out(i) == i * 2 + 3 * i + 1);
    std::string stmt = production(lowered_text(g, {}, "grown"), "grown");
    CHECK(stmt.find("likely") == std::string::npos);
}

TEST_CASE("Auto in an update guards where rounding up would compute extra points",
          "[correctness][schedule]") {
    // The update reads an input of exactly the size needed: rounding 13 up
    // to 16 would read past it (Halide reports that at run time).
    const int n = 13;
    Buffer<int> in(n);
    for (int i = 0; i < n; i++) in(i) = i * i % 7;
    Var x("x");
    RDom r(0, 2);
    Func f("guarded_red"), g("guarded_red_user");
    f(x) = 0;
    f(x) += in(x) + r;
    g(x) = f(x) * 3;
    f.compute_root().update(0).vectorize(x, 8);
    Buffer<int> out = g.realize({n});
    for (int i = 0; i < n; i++) REQUIRE(out(i) == (2 * in(i) + 1) * 3);
}

TEST_CASE("Auto guards the updates of an output and inner splits of updates",
          "[correctness][schedule]") {
    Var x("x"), y("y"), xo("xo"), xi("xi"), xio("xio"), xii("xii");
    RDom r(0, 4);
    Func out("guarded_out");
    out(x, y) = x + y;
    out(x, y) += r * (x - y);
    out.update(0).vectorize(x, 8); // an output: Auto guards, nothing past the buffer
    Buffer<int> res = out.realize({13, 5});
    for (int j = 0; j < 5; j++)
        for (int i = 0; i < 13; i++) REQUIRE(res(i, j) == i + j + 6 * (i - j));

    // An inner split of an update guards, even in a Func that is not an output.
    Func f("inner_split"), g("inner_split_user");
    f(x) = x;
    f(x) += 1;
    g(x) = f(x);
    f.compute_root().update(0).split(x, xo, xi, 8).split(xi, xio, xii, 3);
    Buffer<int> res2 = g.realize({21});
    for (int i = 0; i < 21; i++) REQUIRE(res2(i) == i + 1);
}

TEST_CASE("Auto in a pure definition: ShiftInwards, then RoundUp inside it",
          "[correctness][schedule]") {
    for (int n : {8, 9, 31, 37}) {
        Var x("x");
        Func f("nested_auto");
        f(x) = x * x - 3;
        f.vectorize(x, 8).unroll(x, 4);
        Buffer<int> out = f.realize({n});
        for (int i = 0; i < n; i++) REQUIRE(out(i) == i * i - 3);
    }
}

TEST_CASE("ShiftInwards of a Func that is not an output grows its region below the factor",
          "[correctness][schedule]") {
    Buffer<int> in(5);
    for (int i = 0; i < 5; i++) in(i) = i * 7 % 5;
    Var x("x");
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func p("short_producer"), out("short_out");
    p(x) = clamped(x) * 3;
    out(x) = p(x) + p(x + 1);
    p.compute_root().vectorize(x, 8); // extent 6 < 8: computes 8 points
    Buffer<int> res = out.realize({5});
    auto c = [&](int i) { return in(std::min(std::max(i, 0), 4)); };
    for (int i = 0; i < 5; i++) REQUIRE(res(i) == c(i) * 3 + c(i + 1) * 3);
}

TEST_CASE("an unscheduled Func with updates is computed at the innermost loop of its uses",
          "[correctness][schedule]") {
    Var x("x"), y("y");
    RDom r(0, 5);
    Func f("innermost_red"), g("innermost_user");
    f(x) = x;
    f(x) += r * x;
    g(x, y) = f(x) * 2 + y;
    std::string nest = Pipeline(g).loop_nest();
    // produce innermost_red sits inside both of g's loops.
    size_t gy = nest.find("for y"), gx = nest.find("for x"),
           pf = nest.find("produce innermost_red");
    REQUIRE(pf != std::string::npos);
    CHECK(gy < gx);
    CHECK(gx < pf);
    Buffer<int> res = g.realize({11, 3});
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 11; i++) REQUIRE(res(i, j) == (i + 10 * i) * 2 + j);

    // A vectorized loop cannot hold it: it goes right outside.
    Func f2("outside_lanes"), g2("outside_lanes_user");
    f2(x) = x;
    f2(x) += r;
    g2(x, y) = f2(x) + y;
    g2.vectorize(x, 4);
    std::string nest2 = Pipeline(g2).loop_nest();
    size_t vec = nest2.find("vectorized"), pf2 = nest2.find("produce outside_lanes");
    REQUIRE(pf2 != std::string::npos);
    CHECK(pf2 < vec);
    Buffer<int> res2 = g2.realize({10, 3});
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 10; i++) REQUIRE(res2(i, j) == i + 10 + j);

    // compute_inline() means the same as the default, as in Halide.
    Func f3("inline_red"), g3("inline_red_user");
    f3(x) = 1;
    f3(x) += r + x;
    g3(x) = f3(x) - f3(x + 1);
    f3.compute_inline();
    Buffer<int> res3 = g3.realize({9});
    for (int i = 0; i < 9; i++) REQUIRE(res3(i) == (1 + 10 + 5 * i) - (1 + 10 + 5 * (i + 1)));
}

TEST_CASE("an unscheduled histogram feeding a pointwise consumer", "[correctness][schedule]") {
    Buffer<int> in(37);
    for (int i = 0; i < 37; i++) in(i) = (i * 5 + 3) % 11;
    Var x("x");
    RDom r(0, 37);
    Func hist("default_hist"), out("default_hist_user");
    hist(x) = 0;
    hist(clamp(in(r), 0, 7)) += 1;
    out(x) = hist(x) * 10 + x;
    Buffer<int> res = out.realize({8});
    int expected[8] = {0};
    for (int i = 0; i < 37; i++) expected[std::min(std::max(in(i), 0), 7)]++;
    for (int i = 0; i < 8; i++) REQUIRE(res(i) == expected[i] * 10 + i);
}

TEST_CASE("undef() stores nothing", "[correctness][reductions]") {
    Var x("x");
    // An element of a Tuple update left undef keeps what the pure step wrote.
    Func f("undef_update");
    f(x) = Tuple(x, x * 10);
    f(x) = Tuple(undef<int>(), f(x)[1] + f(x)[0]);
    Realization r = f.realize({7});
    Buffer<int> a = r[0], b = r[1];
    for (int i = 0; i < 7; i++) {
        REQUIRE(a(i) == i);
        REQUIRE(b(i) == i * 11);
    }

    // A pure definition of undef() leaves the output buffer as it was.
    Func g("undef_pure_out");
    g(x) = Tuple(undef<int>(), x + 1);
    Buffer<int> keep(6), written(6);
    for (int i = 0; i < 6; i++) keep(i) = 100 + i;
    g.realize(Realization({keep, written}));
    for (int i = 0; i < 6; i++) {
        REQUIRE(keep(i) == 100 + i);
        REQUIRE(written(i) == i + 1);
    }

    // Only updates fill it in: the rest keeps its values.
    Func h("undef_scatter");
    RDom s(1, 3);
    h(x) = undef<int>();
    h(s * 2) = s * 7;
    Buffer<int> buf(9);
    for (int i = 0; i < 9; i++) buf(i) = -i;
    h.realize(buf);
    for (int i = 0; i < 9; i++) {
        bool hit = i % 2 == 0 && i >= 2 && i <= 6;
        REQUIRE(buf(i) == (hit ? i / 2 * 7 : -i));
    }
    std::string stmt = lowered_text(f, {}, "undef");
    CHECK(stmt.find("undef(") == std::string::npos);
}

namespace {

/** in(x, y) clamped to its edges, as repeat_edge reads it. */
int clamped_at(const Buffer<int> &in, int x, int y) {
    int cx = std::min(std::max(x, 0), in.dim(0).extent() - 1);
    int cy = std::min(std::max(y, 0), in.dim(1).extent() - 1);
    return in(cx, cy);
}

} // namespace

TEST_CASE("storage folds along an inner loop when no values cross the outer loop",
          "[correctness][schedule]") {
    Buffer<int> in(20, 9);
    for (int j = 0; j < 9; j++)
        for (int i = 0; i < 20; i++) in(i, j) = (i * 7 + j * 3) % 11;
    Var x("x"), y("y");
    Func c = BoundaryConditions::repeat_edge(in);
    auto expected = [&](int i, int j) {
        return 2 * (clamped_at(in, i - 1, j) + clamped_at(in, i, j) + clamped_at(in, i + 1, j));
    };

    // Explicit: a 3-wide window sliding along out's x loop, inside its y loop.
    Func p("fold_inner"), out("fold_inner_out");
    p(x, y) = c(x, y) * 2;
    out(x, y) = p(x - 1, y) + p(x, y) + p(x + 1, y);
    p.store_root().compute_at(out, x).fold_storage(x, 4);
    Buffer<int> r = out.realize({17, 7});
    for (int j = 0; j < 7; j++)
        for (int i = 0; i < 17; i++) REQUIRE(r(i, j) == expected(i, j));
    CHECK(lowered_text(out, {}, "fold_inner").find("allocate fold_inner[int32 * 4 * 1]") !=
          std::string::npos);

    // Automatic (x is not the innermost storage dimension here).
    Func q("fold_auto"), out2("fold_auto_out");
    q(x, y) = c(x, y) * 2;
    out2(x, y) = q(x - 1, y) + q(x, y) + q(x + 1, y);
    q.store_root().compute_at(out2, x).reorder_storage(y, x);
    Buffer<int> r2 = out2.realize({17, 7});
    for (int j = 0; j < 7; j++)
        for (int i = 0; i < 17; i++) REQUIRE(r2(i, j) == expected(i, j));
    CHECK(lowered_text(out2, {}, "fold_auto").find("allocate fold_auto[int32 * 4 * ") !=
          std::string::npos);
}

TEST_CASE("no fold along an inner loop when a window slides along the outer one",
          "[correctness][schedule]") {
    Buffer<int> in(20, 9);
    for (int j = 0; j < 9; j++)
        for (int i = 0; i < 20; i++) in(i, j) = (i * 5 + j * 7) % 13;
    Var x("x"), y("y");
    Func c = BoundaryConditions::repeat_edge(in);
    Func p("slide_outer"), out("slide_outer_out");
    p(x, y) = c(x, y) * 2;
    out(x, y) = p(x - 1, y) + p(x, y + 1) + p(x + 1, y - 1);
    // Rows computed for one row of out are read again by the next: a fold
    // along x would lose them.
    p.store_root().compute_at(out, x).reorder_storage(y, x);
    Buffer<int> r = out.realize({17, 7});
    for (int j = 0; j < 7; j++)
        for (int i = 0; i < 17; i++)
            REQUIRE(r(i, j) == 2 * (clamped_at(in, i - 1, j) + clamped_at(in, i, j + 1) +
                                    clamped_at(in, i + 1, j - 1)));
}
