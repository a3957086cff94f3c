// PipelineSchedule: a schedule taken from one copy of an algorithm, printed
// as C++, saved as JSON, and applied to a fresh copy gives the same loop
// nest and the same results; bad schedule text gives clear errors.

#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>

#include "Loom.h"
#include "common/ScheduleRoundTrip.h"
#include "common/ScratchFile.h"

using namespace loom;

namespace {

/** A small stencil pipeline with an update and fixed names, built fresh
 * each call (so schedules move between copies). */
struct Blur {
    Var x{"x"}, y{"y"}, xo{"xo"}, xi{"xi"}, yo{"yo"}, yi{"yi"};
    Param<int> factor{"factor", 4};
    Buffer<int> in;
    Func bx{"bx"}, out{"out"}, hist{"hist"};

    explicit Blur(const Buffer<int> &input) : in(input) {
        Func clamped = BoundaryConditions::repeat_edge(in);
        bx(x, y) = clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y);
        out(x, y) = bx(x, y - 1) + bx(x, y) + bx(x, y + 1);
        RDom r(0, 4, "r");
        out(x, y) += r * 0 * factor; // an update with an RVar
    }
    void schedule() {
        out.split(y, yo, yi, 8).parallel(yo).vectorize(x, 8);
        out.update(0).split(x, xo, xi, factor).reorder(xi, RVar("r$x"), xo, y).parallel(y);
        bx.store_at(out, yo).compute_at(out, yi).vectorize(x, 4).store_in(MemoryType::Heap);
    }
};

Buffer<int> ramp(int w, int h) {
    Buffer<int> b(w, h);
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) b(i, j) = (i * 7 + j * 13) % 31;
    return b;
}

int reference(const Buffer<int> &in, int i, int j) {
    auto at = [&](int a, int b) {
        a = std::min(std::max(a, 0), in.width() - 1);
        b = std::min(std::max(b, 0), in.height() - 1);
        return in(a, b);
    };
    int s = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) s += at(i + dx, j + dy);
    return s;
}

} // namespace

TEST_CASE("schedule values: a schedule moves to a fresh copy of the algorithm",
          "[schedule_value]") {
    Buffer<int> in = ramp(37, 29);
    Blur a(in);
    a.schedule();
    PipelineSchedule s = PipelineSchedule::of(Pipeline(a.out));
    REQUIRE(s.find("bx") != nullptr);
    REQUIRE(s.find("out") != nullptr);

    Blur b(in);
    s.apply(Pipeline(b.out));
    // The boundary condition's Func has another name in each copy; the named
    // Funcs have exactly the recorded schedules.
    PipelineSchedule applied = PipelineSchedule::of(Pipeline(b.out));
    for (const char *name : {"bx", "out"}) {
        PipelineSchedule want_one, got_one;
        want_one.funcs().push_back(*s.find(name));
        got_one.funcs().push_back(*applied.find(name));
        CHECK(want_one == got_one);
        CHECK(want_one.hash() == got_one.hash());
    }

    Buffer<int> got = b.out.realize({37, 29});
    for (int j = 0; j < 29; j++)
        for (int i = 0; i < 37; i++) REQUIRE(got(i, j) == reference(in, i, j));

    // A schedule differs from the default one, and its hash too.
    Blur c(in);
    PipelineSchedule d = PipelineSchedule::of(Pipeline(c.out));
    CHECK(d != s);
    CHECK(d.hash() != s.hash());
}

TEST_CASE("schedule values: printed C++ names the user's Funcs and Vars", "[schedule_value]") {
    Buffer<int> in = ramp(20, 20);
    Blur a(in);
    a.schedule();
    std::string src = PipelineSchedule::of(Pipeline(a.out)).to_cpp();
    INFO(src);
    CHECK(src.find("Var ") != std::string::npos);
    CHECK(src.find("xo(\"xo\")") != std::string::npos);
    CHECK(src.find("RVar r_x(\"r$x\")") != std::string::npos);
    CHECK(src.find("out.split(y, yo, yi, 8).split(x, x, x_vi, 8).vectorize(x_vi).parallel(yo);") !=
          std::string::npos);
    CHECK(src.find("out.update(0).split(x, xo, xi, factor).reorder(xi, r_x, xo, y).parallel(y);") !=
          std::string::npos);
    CHECK(src.find("bx.compute_at(out, yi).store_at(out, yo).store_in(MemoryType::Heap)") !=
          std::string::npos);
    CHECK(src.find("get_func") == std::string::npos);
    // And it reads back to the same schedule.
    CHECK(loom_test::schedule_round_trip_problem(Pipeline(a.out)) == "");
}

TEST_CASE("schedule values: JSON files save and load", "[schedule_value]") {
    Buffer<int> in = ramp(25, 19);
    Blur a(in);
    a.schedule();
    PipelineSchedule s = PipelineSchedule::of(Pipeline(a.out));
    loom_test::ScratchFile file("schedule_values", "s.json");
    s.save(file.path);
    PipelineSchedule loaded = PipelineSchedule::load(file.path);
    CHECK(loaded == s);
    CHECK(loaded.hash() == s.hash());
    Blur b(in);
    loaded.apply(Pipeline(b.out));
    b.factor.set(3); // the Param factor is the copy's own Param
    Buffer<int> got = b.out.realize({25, 19});
    for (int j = 0; j < 19; j++)
        for (int i = 0; i < 25; i++) REQUIRE(got(i, j) == reference(in, i, j));
}

TEST_CASE("schedule values: schedules that do not fit are refused whole", "[schedule_value]") {
    Buffer<int> in = ramp(10, 10);
    Blur a(in);
    a.schedule();
    PipelineSchedule s = PipelineSchedule::of(Pipeline(a.out));

    Var x("x"), y("y");
    Func other("other");
    other(x, y) = x + y;
    CHECK_THROWS_WITH(s.apply(Pipeline(other)),
                      Catch::Contains("names Func") && Catch::Contains("other"));
    PipelineSchedule::FuncEntry *out = nullptr;
    for (auto &e : s.funcs())
        if (e.func == "out") out = &e;
    REQUIRE(out);
    out->args = {"i", "j"};
    Blur b(in);
    PipelineSchedule before = PipelineSchedule::of(Pipeline(b.out));
    CHECK_THROWS_WITH(s.apply(Pipeline(b.out)), Catch::Contains("Func out does not fit") &&
                                                    Catch::Contains("pure Vars (x, y)"));
    CHECK(PipelineSchedule::of(Pipeline(b.out)) == before); // nothing changed
}

TEST_CASE("schedule values: bad schedule source and JSON name the line", "[schedule_value]") {
    Buffer<int> in = ramp(10, 10);
    Blur a(in);
    Pipeline p(a.out);
    PipelineSchedule before = PipelineSchedule::of(p);
    CHECK_THROWS_WITH(PipelineSchedule::apply_source(p, "{\n  out.split(y, yo, yi, 8);\n  "
                                                        "nosuch.compute_root();\n}"),
                      Catch::Contains("line 3") && Catch::Contains("no Func nosuch"));
    CHECK(PipelineSchedule::of(p) == before); // all or nothing
    CHECK_THROWS_WITH(PipelineSchedule::apply_source(p, "out.frobnicate(x);"),
                      Catch::Contains("unknown schedule call frobnicate"));
    CHECK_THROWS_WITH(PipelineSchedule::apply_source(p, "out.split(y, yo, yi);"),
                      Catch::Contains("split takes 4 to 5 arguments"));
    CHECK_THROWS_WITH(PipelineSchedule::apply_source(p, "out.split(q, yo, yi, 4);"),
                      Catch::Contains("no loop variable q"));
    CHECK_THROWS_WITH(PipelineSchedule::from_json("{\"loom_schedule\": 1,\n \"funcs\": [ }"),
                      Catch::Contains("Schedule JSON, line 2"));
    CHECK_THROWS_WITH(PipelineSchedule::from_json("{\"funcs\": []}"),
                      Catch::Contains("not a Loom schedule"));
    CHECK_THROWS_WITH(PipelineSchedule::from_json("{\"loom_schedule\": 7, \"funcs\": []}"),
                      Catch::Contains("version 7"));
    CHECK_THROWS_WITH(PipelineSchedule::load("/nonexistent/dir/s.json"),
                      Catch::Contains("Could not read the schedule file"));
}

TEST_CASE("schedule values: specializations and non-constant factors are not saved",
          "[schedule_value]") {
    Var x("x");
    Param<int> n("n");
    Func f("f");
    f(x) = x * 2;
    f.vectorize(x, 4);
    f.specialize(n > 3).vectorize(x, 8);
    CHECK_THROWS_WITH(PipelineSchedule::of(Pipeline(f)).to_json(),
                      Catch::Contains("Func f has specialize() branches"));
    Func g("g");
    g(x) = x;
    g.split(x, Var("xo"), Var("xi"), n * 2);
    CHECK_THROWS_WITH(PipelineSchedule::of(Pipeline(g)).to_json(),
                      Catch::Contains("schedule of Func g uses") &&
                          Catch::Contains("integer constants or Params"));
    // The C++ form marks what it leaves out.
    CHECK(
        PipelineSchedule::of(Pipeline(f)).to_cpp().find("specialize() branches are not printed") !=
        std::string::npos);
}

TEST_CASE("schedule values: GPU loops, fuse, rename and storage print and read back",
          "[schedule_value]") {
    Var x("x"), y("y"), c("c"), xo("xo"), xi("xi"), yo("yo"), yi("yi"), t("t");
    Func f("f"), g("g");
    f(x, y, c) = x + y * c;
    g(x, y, c) = f(x, y, c) * 2;
    g.tile(x, y, xo, yo, xi, yi, 16, 8).gpu_blocks(xo, yo).gpu_threads(xi, yi);
    f.compute_at(g, xo).gpu_threads(x, y).reorder_storage(y, x, c).bound(c, 0, 3);
    f.fold_storage(y, 16);
    Func h("h");
    h(x, y) = g(x, y, 0) + g(x, y, 1);
    h.fuse(x, y, t).rename(t, Var("tt")).parallel(Var("tt"));
    g.compute_root();
    h.set_estimate(x, 0, 640).set_estimate(y, 0, 480);
    CHECK(loom_test::schedule_round_trip_problem(Pipeline(h)) == "");
}

namespace {

/** A histogram and a sum, both factored by hand, built fresh each call. */
struct Factored {
    Buffer<uint8_t> im;
    Var i{"i"}, u{"u"}, v{"v"};
    RVar ryo{"ryo"}, ryi{"ryi"}, rxo{"rxo"}, rxi{"rxi"};
    Func hist{"sv_hist"}, total{"sv_total"}, out{"sv_out"};

    explicit Factored(const Buffer<uint8_t> &input) : im(input) {
        RDom r(0, im.width(), 0, im.height(), "r");
        hist(i) = 0;
        hist(cast<int>(im(r.x, r.y))) += 1;
        total() = 0;
        total() += cast<int>(im(r.x, r.y));
        out(i) = hist(i) * 1000 + total();
    }
    void schedule() {
        Func hi = hist.update(0).split(RVar("r$y"), ryo, ryi, 16).rfactor(ryo, u);
        hi.compute_root().update(0).parallel(u);
        hist.compute_root().update(0).reorder(i, ryo).vectorize(i, 8);
        Func ti = total.update(0)
                      .split(RVar("r$x"), rxo, rxi, 8)
                      .split(RVar("r$y"), ryo, ryi, 8)
                      .rfactor({{rxi, v}, {ryo, u}});
        ti.compute_root().bound(v, 0, 8).vectorize(v);
        ti.update(0).reorder(v, rxo, ryi, u).vectorize(v).parallel(u);
        total.compute_root();
    }
};

} // namespace

TEST_CASE("schedule values: rfactor() prints, saves and moves to a fresh algorithm",
          "[schedule_value][rfactor]") {
    Buffer<uint8_t> im(67, 45);
    for (int j = 0; j < 45; j++)
        for (int k = 0; k < 67; k++) im(k, j) = uint8_t((k * 29 + j * 101) % 256);
    std::vector<int> h(256, 0);
    int total = 0;
    for (int j = 0; j < 45; j++)
        for (int k = 0; k < 67; k++) {
            h[im(k, j)]++;
            total += im(k, j);
        }
    auto check = [&](Func out) {
        Buffer<int> got = out.realize({256});
        for (int b = 0; b < 256; b++) REQUIRE(got(b) == h[size_t(b)] * 1000 + total);
    };

    Factored a(im);
    a.schedule();
    Pipeline pa(a.out);
    PipelineSchedule s = PipelineSchedule::of(pa);
    std::string src = s.to_cpp();
    INFO(src);
    // The intermediates are made by rfactor() statements in the user's names.
    CHECK(src.find("= sv_hist.update(0).split(r_y, ryo, ryi, 16).rfactor(ryo, u);") !=
          std::string::npos);
    CHECK(src.find(".split(r_x, rxo, rxi, 8).split(r_y, ryo, ryi, 8).rfactor({{rxi, v}, {ryo, "
                   "u}});") != std::string::npos);
    CHECK(src.find("RVar ") != std::string::npos);
    const PipelineSchedule::FuncEntry *he = s.find("sv_hist");
    REQUIRE(he);
    REQUIRE(he->rfactors.size() == 1);
    REQUIRE(s.find(he->rfactors[0].intermediate) != nullptr);
    CHECK(s.find(he->rfactors[0].intermediate)->rfactor_of == "sv_hist");
    CHECK(loom_test::schedule_round_trip_problem(pa) == "");
    check(a.out);
    std::string nest = pa.loop_nest();

    // To a fresh copy: as a value, as C++ and through a JSON file.
    Factored b(im);
    s.apply(Pipeline(b.out));
    CHECK(Pipeline(b.out).loop_nest() == nest);
    CHECK(PipelineSchedule::of(Pipeline(b.out)) == s);
    check(b.out);
    Factored c(im);
    PipelineSchedule::apply_source(Pipeline(c.out), src);
    CHECK(Pipeline(c.out).loop_nest() == nest);
    CHECK(PipelineSchedule::of(Pipeline(c.out)) == s);
    check(c.out);
    loom_test::ScratchFile file("schedule_values", "rfactor.json");
    s.save(file.path);
    PipelineSchedule loaded = PipelineSchedule::load(file.path);
    CHECK(loaded == s);
    Factored d(im);
    loaded.apply(Pipeline(d.out));
    CHECK(Pipeline(d.out).loop_nest() == nest);
    check(d.out);

    // Applying the default schedule puts the updates back as defined.
    Factored e(im);
    PipelineSchedule plain = PipelineSchedule::of(Pipeline(e.out));
    plain.apply(pa);
    CHECK(PipelineSchedule::of(pa) == plain);
    CHECK(pa.loop_nest().find("intm") == std::string::npos);
    check(a.out);
    // And applying the factored one again makes the same intermediates.
    s.apply(pa);
    CHECK(pa.loop_nest() == nest);
    check(a.out);
}

TEST_CASE("schedule values: bad rfactor() source names the problem", "[schedule_value][rfactor]") {
    Buffer<uint8_t> im(20, 10);
    for (int j = 0; j < 10; j++)
        for (int k = 0; k < 20; k++) im(k, j) = uint8_t(k + j);
    Factored a(im);
    Pipeline p(a.out);
    PipelineSchedule before = PipelineSchedule::of(p);
    CHECK_THROWS_WITH(PipelineSchedule::apply_source(
                          p, "RVar r_y(\"r$y\");\nFunc hi = sv_hist.update(0).rfactor(r_y);"),
                      Catch::Contains("line 2") && Catch::Contains("expected ','"));
    CHECK_THROWS_WITH(
        PipelineSchedule::apply_source(p, "Func hi = sv_out.update(0).rfactor(r, u);"),
        Catch::Contains("update() takes the index") || Catch::Contains("0 update definitions"));
    CHECK_THROWS_WITH(
        PipelineSchedule::apply_source(p, "Func hi = sv_hist.update(0).rfactor(q, u);"),
        Catch::Contains("RVar q") && Catch::Contains("not a dimension of its RDom"));
    CHECK_THROWS_WITH(PipelineSchedule::apply_source(p, "Func hi = sv_hist.update(0);"),
                      Catch::Contains("expected '.'"));
    CHECK_THROWS_WITH(
        PipelineSchedule::apply_source(p, "Func sv_out = sv_hist.update(0).rfactor(r, u);"),
        Catch::Contains("already has a Func sv_out"));
    CHECK_THROWS_WITH(
        PipelineSchedule::apply_source(p, "Func hi = sv_hist.update(-1).rfactor(r, u);"),
        Catch::Contains("has 1 update definitions"));
    CHECK(PipelineSchedule::of(p) == before); // all or nothing
    // A recorded rfactor() of an update that is not there.
    Factored b(im);
    b.schedule();
    PipelineSchedule s = PipelineSchedule::of(Pipeline(b.out));
    for (auto &e : s.funcs())
        for (auto &r : e.rfactors) r.stage = 3;
    Factored c(im);
    CHECK_THROWS_WITH(s.apply(Pipeline(c.out)), Catch::Contains("rfactor() of update 2") &&
                                                    Catch::Contains("1 update definitions"));
    CHECK(PipelineSchedule::of(Pipeline(c.out)) == before);
    CHECK_THROWS_WITH(
        PipelineSchedule::from_json(
            "{\"loom_schedule\": 1, \"funcs\": [{\"func\": \"f\", \"args\": [], "
            "\"compute\": \"inlined\", \"store\": \"inlined\", \"memory_type\": \"Auto\", "
            "\"bounds\": [], \"estimates\": [], \"storage_dims\": [], \"stages\": [], "
            "\"rfactors\": [{\"stage\": 1, \"intermediate\": \"g\", \"preserved\": [[\"r\"]]}]}]}"),
        Catch::Contains("preserved loops must be pairs"));
}

TEST_CASE("schedule values: compile_to writes the schedule output", "[schedule_value]") {
    Buffer<int> in = ramp(16, 16);
    Blur a(in);
    a.schedule();
    loom_test::ScratchFile file("schedule_values", "s.schedule.h");
    Pipeline(a.out).compile_to({{OutputFileType::schedule, file.path}}, {a.factor}, "blur",
                               get_host_target());
    std::string text = loom_test::read_text(file.path);
    CHECK(text == PipelineSchedule::of(Pipeline(a.out)).to_cpp());
    CHECK(text.find("bx.compute_at(out, yi)") != std::string::npos);
}
