// Func::in, Func::clone_in and ImageParam::in: the wrapper replaces the calls
// of the callers it was made for, whatever the order of definitions and
// schedules, and the results equal plain C++.

#include <catch2/catch.hpp>

#include "Loom.h"
#include "common/ScheduleRoundTrip.h"

using namespace loom;
using Catch::Contains;

namespace {

bool mentions(const std::string &nest, const std::string &what) {
    return nest.find(what) != std::string::npos;
}

int ref_f(int x, int y) {
    return x + 3 * y;
}

} // namespace

TEST_CASE("f.in(g) puts a Func of its own between f and g", "[correctness][wrappers]") {
    Var x("x"), y("y");
    Func f("wf"), g("wg");
    f(x, y) = x + 3 * y;
    g(x, y) = 2 * f(x, y) + 3;
    f.compute_root();
    Func w = f.in(g);
    CHECK(w.name() == "wf_in_wg");
    CHECK(w.function().same_as(f.in(g).function())); // the same wrapper again
    w.compute_root().vectorize(x, 4);
    Buffer<int> out = g.realize({13, 5});
    for (int yy = 0; yy < 5; yy++)
        for (int xx = 0; xx < 13; xx++) CHECK(out(xx, yy) == 2 * ref_f(xx, yy) + 3);
    std::string nest = Pipeline(g).loop_nest();
    CHECK(mentions(nest, "produce wf_in_wg"));
    CHECK(mentions(nest, "produce wf:"));
}

TEST_CASE("a wrapper for one caller leaves the others reading the Func",
          "[correctness][wrappers]") {
    Var x("x"), y("y");
    Func f("sf"), g("sg"), h("sh"), out("sout");
    f(x, y) = x + 3 * y;
    g(x, y) = f(x, y) + 1;
    h(x, y) = f(x + 1, y) * 2;
    out(x, y) = g(x, y) + h(x, y);
    f.compute_root();
    f.in(h).compute_at(out, y).vectorize(x, 4);
    Buffer<int> r = out.realize({10, 6});
    for (int yy = 0; yy < 6; yy++)
        for (int xx = 0; xx < 10; xx++)
            CHECK(r(xx, yy) == ref_f(xx, yy) + 1 + ref_f(xx + 1, yy) * 2);
    std::string nest = Pipeline(out).loop_nest();
    CHECK(mentions(nest, "produce sf_in_sh"));
    CHECK(loom_test::schedule_round_trip_problem(Pipeline(out)) == "");
}

TEST_CASE("the global wrapper serves every caller without a wrapper of its own",
          "[correctness][wrappers]") {
    Var x("x"), y("y");
    Func f("gf"), g("gg"), h("gh"), out("gout");
    f(x, y) = x + 3 * y;
    g(x, y) = f(x, y) + 1;
    h(x, y) = f(x, y + 1) * 2;
    out(x, y) = g(x, y) - h(x, y);
    Func global = f.in();
    CHECK(global.name() == "gf_global_wrapper");
    CHECK(global.function().same_as(f.in().function()));
    global.compute_root();
    f.in(h).compute_root(); // h has its own
    Buffer<int> r = out.realize({9, 4});
    for (int yy = 0; yy < 4; yy++)
        for (int xx = 0; xx < 9; xx++)
            CHECK(r(xx, yy) == ref_f(xx, yy) + 1 - ref_f(xx, yy + 1) * 2);
    std::string nest = Pipeline(out).loop_nest();
    CHECK(mentions(nest, "produce gf_global_wrapper"));
    CHECK(mentions(nest, "produce gf_in_gh"));
    CHECK(loom_test::schedule_round_trip_problem(Pipeline(out)) == "");
}

TEST_CASE("a caller defined after in() and a wrapper made after a realize use the wrapper",
          "[correctness][wrappers]") {
    Var x("x");
    Func f("lf"), g("lg");
    f(x) = x * x;
    Func w = f.in(g);
    w.compute_root();
    g(x) = f(x) + f(x + 2); // defined after in()
    Buffer<int> a = g.realize({8});
    for (int i = 0; i < 8; i++) CHECK(a(i) == i * i + (i + 2) * (i + 2));
    CHECK(mentions(Pipeline(g).loop_nest(), "produce lf_in_lg"));

    // Realized first, wrapped afterwards: the next realize compiles again.
    Func p("late_f"), q("late_g");
    p(x) = x + 1;
    q(x) = p(x) * 3;
    Buffer<int> b = q.realize({5});
    p.in().compute_root();
    Buffer<int> c = q.realize({5});
    for (int i = 0; i < 5; i++) CHECK(c(i) == b(i));
    CHECK(mentions(Pipeline(q).loop_nest(), "produce late_f_global_wrapper"));
    // A wrapper of its own for q replaces the global one q was redirected to.
    p.in(q).compute_root();
    Buffer<int> d = q.realize({5});
    for (int i = 0; i < 5; i++) CHECK(d(i) == b(i));
    std::string nest = Pipeline(q).loop_nest();
    CHECK(mentions(nest, "produce late_f_in_late_g"));
    CHECK(!mentions(nest, "late_f_global_wrapper"));
}

TEST_CASE("wrappers of wrappers, shared wrappers and update definitions",
          "[correctness][wrappers]") {
    Var x("x"), y("y");
    Func f("cf"), g("cg"), h("ch"), out("cout");
    f(x, y) = x + 3 * y;
    g(x, y) = f(x, y) + 1;
    h(x, y) = f(x, y) * 2;
    RDom r(0, 3);
    out(x, y) = g(x, y);
    out(x, y) += h(x + r, y) + f(x, y + r); // the update reads f too
    Func shared = f.in({g, h});
    CHECK(shared.name() == "cf_in_cg_ch");
    CHECK(f.in(g).function().same_as(shared.function()));
    Func outer = shared.in(g);
    CHECK(outer.name() == "cf_in_cg_ch_in_cg");
    shared.compute_root();
    outer.compute_at(out, y);
    f.in(out).compute_at(out, y);
    Buffer<int> res = out.realize({7, 5});
    for (int yy = 0; yy < 5; yy++)
        for (int xx = 0; xx < 7; xx++) {
            int e = ref_f(xx, yy) + 1;
            for (int k = 0; k < 3; k++) e += ref_f(xx + k, yy) * 2 + ref_f(xx, yy + k);
            CHECK(res(xx, yy) == e);
        }
    std::string nest = Pipeline(out).loop_nest();
    CHECK(mentions(nest, "produce cf_in_cg_ch_in_cg"));
    CHECK(mentions(nest, "produce cf_in_cg_ch:"));
    CHECK(mentions(nest, "produce cf_in_cout"));
    CHECK(loom_test::schedule_round_trip_problem(Pipeline(out)) == "");
}

TEST_CASE("a wrapper of a Tuple Func carries every element", "[correctness][wrappers]") {
    Var x("x");
    Func f("tf"), g("tg");
    f(x) = Tuple(x * 2, cast<float>(x) + 0.5f);
    g(x) = cast<float>(f(x)[0]) + f(x)[1];
    f.in(g).compute_root();
    Buffer<float> out = g.realize({6});
    for (int i = 0; i < 6; i++) CHECK(out(i) == float(i * 2) + float(i) + 0.5f);
}

TEST_CASE("wrappers outlive the handles of the Funcs they wrap", "[correctness][wrappers]") {
    Var x("x"), y("y");
    auto make = [&] {
        Func f("kf"), g("kg"), h("kh");
        f(x, y) = x * y;
        g(x, y) = f(x, y) + f(x + 1, y);
        h(x, y) = g(x, y) - f(x, y);
        f.in(g).compute_root();
        f.in().compute_at(h, y);
        return h; // f and the wrappers' handles go
    };
    Func h = make();
    Buffer<int> out = h.realize({6, 4});
    for (int yy = 0; yy < 4; yy++)
        for (int xx = 0; xx < 6; xx++) CHECK(out(xx, yy) == (xx + 1) * yy);
    std::string nest = Pipeline(h).loop_nest();
    CHECK(mentions(nest, "produce kf_in_kg"));
    CHECK(mentions(nest, "produce kf_global_wrapper"));
}

TEST_CASE("ImageParam::in stages an image's reads in a Func of their own",
          "[correctness][wrappers]") {
    ImageParam img(Int(32), 2, "wimg");
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func t("transposed"), other("other"), out("wimg_out");
    t(x, y) = img(y, x) * 2;
    other(x, y) = img(x, y) + 1;
    out(x, y) = t(x, y) + other(x, y);
    t.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8);
    Func tile = img.in(t);
    CHECK(tile.name() == "wimg_im_in_transposed");
    tile.compute_at(t, xo).vectorize(_0, 4).unroll(_1, 2);
    img.in().compute_root(); // everyone else
    Buffer<int> in(24, 24);
    for (int yy = 0; yy < 24; yy++)
        for (int xx = 0; xx < 24; xx++) in(xx, yy) = xx * 100 + yy;
    img.set(in);
    Buffer<int> res = out.realize({24, 24});
    for (int yy = 0; yy < 24; yy++)
        for (int xx = 0; xx < 24; xx++) CHECK(res(xx, yy) == in(yy, xx) * 2 + in(xx, yy) + 1);
    std::string nest = Pipeline(out).loop_nest();
    CHECK(mentions(nest, "produce wimg_im_in_transposed"));
    CHECK(mentions(nest, "produce wimg_im_global_wrapper"));
    // The wrappers read the image; the pipeline's argument is still the image.
    std::vector<Argument> args = out.infer_arguments();
    REQUIRE(args.size() == 1);
    CHECK(args[0].name == "wimg");
    CHECK(loom_test::schedule_round_trip_problem(Pipeline(out)) == "");
}

TEST_CASE("clone_in computes a copy of the Func, updates and all, scheduled apart",
          "[correctness][wrappers]") {
    Var x("x"), y("y");
    Func f("kl_f"), g("kl_g"), h("kl_h"), out("kl_out");
    RDom r(0, 4);
    f(x, y) = x + y;
    f(x, y) += f(x, y) * r; // reads itself: the clone reads the clone
    g(x, y) = f(x, y) + 1;
    h(x, y) = f(x, y) * 2;
    out(x, y) = g(x, y) + h(x, y);
    f.compute_at(out, y);
    Func c = f.clone_in(g);
    CHECK(c.name() == "kl_f_clone_in_kl_g");
    CHECK(c.function().updates().size() == 1);
    c.compute_root().vectorize(x, 4);
    Buffer<int> res = out.realize({10, 3});
    auto ref = [](int xx, int yy) {
        int v = xx + yy;
        for (int k = 0; k < 4; k++) v += v * k;
        return v;
    };
    for (int yy = 0; yy < 3; yy++)
        for (int xx = 0; xx < 10; xx++) CHECK(res(xx, yy) == ref(xx, yy) + 1 + ref(xx, yy) * 2);
    std::string nest = Pipeline(out).loop_nest();
    CHECK(mentions(nest, "produce kl_f_clone_in_kl_g"));
    CHECK(mentions(nest, "produce kl_f:"));
    CHECK(loom_test::schedule_round_trip_problem(Pipeline(out)) == "");
}

namespace {

/** An algorithm with an image, a shared stage and a reduction, made afresh
 * for each copy (no wrappers until a schedule makes them). */
struct Staged {
    ImageParam img{Int(32), 2, "st_img"};
    Var x{"x"}, y{"y"};
    Func f{"st_f"}, g{"st_g"}, h{"st_h"}, out{"st_out"};
    Staged() {
        f(x, y) = img(x, y) * 3;
        g(x, y) = f(x, y) + img(y, x);
        h(x, y) = f(x + 1, y) - 1;
        out(x, y) = g(x, y) + h(x, y);
    }
    void schedule() {
        f.compute_root();
        Func w = f.in(g);
        w.compute_at(out, y).vectorize(x, 4);
        w.in(g).compute_at(out, x);
        img.in(g).compute_at(out, y);
        img.in().compute_root();
        f.clone_in(h).compute_at(out, y);
        out.parallel(y);
    }
};

int staged_reference(const Buffer<int> &in, int xx, int yy) {
    return in(xx, yy) * 3 + in(yy, xx) + in(xx + 1, yy) * 3 - 1;
}

} // namespace

TEST_CASE("a schedule with wrappers moves to a fresh copy of the algorithm",
          "[correctness][wrappers][schedule_value]") {
    Buffer<int> in(20, 20);
    for (int yy = 0; yy < 20; yy++)
        for (int xx = 0; xx < 20; xx++) in(xx, yy) = xx * 7 - yy * yy;
    Staged a;
    a.schedule();
    PipelineSchedule s = PipelineSchedule::of(Pipeline(a.out));
    const PipelineSchedule::FuncEntry *outer = s.find("st_f_in_st_g_in_st_g");
    REQUIRE(outer != nullptr);
    CHECK(outer->wrapper.of == "st_f_in_st_g");
    const PipelineSchedule::FuncEntry *image = s.find("st_img_im_global_wrapper");
    REQUIRE(image != nullptr);
    CHECK(image->wrapper.image == "st_img");
    CHECK(image->wrapper.callers == std::vector<std::string>{""});
    std::string source = s.to_cpp();
    CHECK(mentions(source, "Func st_f_in_st_g = st_f.in(st_g);"));
    CHECK(mentions(source, "Func st_f_in_st_g_in_st_g = st_f_in_st_g.in(st_g);"));
    CHECK(mentions(source, "Func st_img_im_global_wrapper = st_img.in();"));
    CHECK(mentions(source, "Func st_f_clone_in_st_h = st_f.clone_in(st_h);"));
    CHECK(loom_test::schedule_round_trip_problem(Pipeline(a.out)) == "");

    auto check = [&](Staged &b) {
        CHECK(PipelineSchedule::of(Pipeline(b.out)) == s);
        CHECK(Pipeline(b.out).loop_nest() == Pipeline(a.out).loop_nest());
        b.img.set(in);
        Buffer<int> got = b.out.realize({14, 14});
        for (int yy = 0; yy < 14; yy++)
            for (int xx = 0; xx < 14; xx++) REQUIRE(got(xx, yy) == staged_reference(in, xx, yy));
    };
    Staged by_value;
    s.apply(Pipeline(by_value.out));
    check(by_value);
    Staged by_source;
    PipelineSchedule::apply_source(Pipeline(by_source.out), source);
    check(by_source);
    Staged by_json;
    PipelineSchedule::from_json(s.to_json()).apply(Pipeline(by_json.out));
    check(by_json);
}

TEST_CASE("Buffer::in stages a concrete Buffer's reads for the Funcs named",
          "[correctness][wrappers][schedule_value]") {
    Buffer<float> A(24, 16, "bw_a"), B(16, 24, "bw_b");
    for (int yy = 0; yy < 16; yy++)
        for (int xx = 0; xx < 24; xx++) A(xx, yy) = float((xx * 3 + yy) % 7);
    for (int yy = 0; yy < 24; yy++)
        for (int xx = 0; xx < 16; xx++) B(xx, yy) = float((xx + yy * 5) % 9) - 4.0f;
    auto build = [&](Func &prod, Func &out, Func &other) {
        Var x("x"), y("y");
        RDom k(0, 24, "bw_k");
        prod(x, y) = 0.0f;
        prod(x, y) += A(k, y) * B(x, k);
        other(x, y) = A(x, y) + 1.0f; // reads A directly
        out(x, y) = prod(x, y) + other(x, y);
    };
    Func prod("bw_prod"), out("bw_out"), other("bw_other");
    build(prod, out, other);
    Var x("x"), y("y"), yo("yo"), yi("yi");
    RVar ko("ko"), ki("ki");
    out.split(y, yo, yi, 4);
    prod.compute_at(out, yo);
    prod.update().split(RVar("bw_k$x"), ko, ki, 8);
    Func a_tile = A.in(prod);
    CHECK(a_tile.name() == "bw_a_im_in_bw_prod");
    CHECK(a_tile.function().same_as(A.in(prod).function()));
    a_tile.compute_at(prod, ko).vectorize(_0, 4);
    B.in(prod).compute_at(prod, ko).vectorize(_0, 8, TailStrategy::GuardWithIf);
    Buffer<float> res = out.realize({16, 16});
    for (int yy = 0; yy < 16; yy++)
        for (int xx = 0; xx < 16; xx++) {
            float s = 0;
            for (int kk = 0; kk < 24; kk++) s += A(kk, yy) * B(xx, kk);
            REQUIRE(res(xx, yy) == s + A(xx, yy) + 1.0f);
        }
    std::string nest = Pipeline(out).loop_nest();
    CHECK(mentions(nest, "produce bw_a_im_in_bw_prod"));
    CHECK(mentions(nest, "produce bw_b_im_in_bw_prod"));
    CHECK(loom_test::schedule_round_trip_problem(Pipeline(out)) == "");

    PipelineSchedule s = PipelineSchedule::of(Pipeline(out));
    const PipelineSchedule::FuncEntry *e = s.find("bw_a_im_in_bw_prod");
    REQUIRE(e != nullptr);
    CHECK(e->wrapper.buffer);
    CHECK(e->wrapper.callers == std::vector<std::string>{"bw_prod"});
    CHECK(mentions(s.to_cpp(), "Func bw_a_im_in_bw_prod = bw_a.in(bw_prod);"));
    // ko, named first by the wrappers' compute_at, is the split of an RVar.
    CHECK(mentions(s.to_cpp(), "RVar bw_k_x(\"bw_k$x\"), ki(\"ki\"), ko(\"ko\");"));
    Func prod2("bw_prod"), out2("bw_out"), other2("bw_other");
    build(prod2, out2, other2);
    PipelineSchedule::apply_source(Pipeline(out2), s.to_cpp());
    CHECK(PipelineSchedule::of(Pipeline(out2)) == s);
    CHECK(Pipeline(out2).loop_nest() == nest);
    Buffer<float> res2 = out2.realize({16, 16});
    for (int yy = 0; yy < 16; yy++)
        for (int xx = 0; xx < 16; xx++) REQUIRE(res2(xx, yy) == res(xx, yy));
}

TEST_CASE(
    "the auto-scheduler schedules the wrappers a user left unscheduled, and leaves the others",
    "[correctness][wrappers][autoschedule]") {
    Var x("x"), y("y");
    Func f("af"), g("ag"), h("ah"), out("aout");
    f(x, y) = x * 3 + y;
    g(x, y) = f(x - 1, y) + f(x + 1, y);
    h(x, y) = g(x, y - 1) + g(x, y + 1) + f(x, y);
    out(x, y) = h(x, y) * 2;
    f.in(g); // unscheduled: the auto-scheduler's
    Func mine = f.in(h);
    mine.compute_root(); // the user's
    Pipeline p(out);
    AutoSchedulerResults r = p.apply_autoscheduler({64, 48}, get_host_target());
    INFO(r.schedule_source);
    CHECK(mentions(r.schedule_source, "Func af_in_ag = af.in(ag);"));
    CHECK(mine.function().schedule().compute_level.is_root());
    Buffer<int> res = p.realize({64, 48});
    for (int yy = 0; yy < 48; yy++)
        for (int xx = 0; xx < 64; xx++) {
            auto fv = [](int a, int b) { return a * 3 + b; };
            auto gv = [&](int a, int b) { return fv(a - 1, b) + fv(a + 1, b); };
            REQUIRE(res(xx, yy) == (gv(xx, yy - 1) + gv(xx, yy + 1) + fv(xx, yy)) * 2);
        }
    CHECK(loom_test::schedule_round_trip_problem(p) == "");
}
