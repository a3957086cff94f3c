// The built-in "Loom" auto-scheduler: every pipeline it schedules gives the
// reference result, its schedule prints and reads back, Funcs the user
// scheduled are left alone, and bad names and options are clear errors.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "Loom.h"
#include "common/MatrixProduct.h"
#include "common/RandomPipelines.h"
#include "common/ScheduleRoundTrip.h"

using namespace loom;

namespace {

Buffer<int> input_image(int w, int h) {
    Buffer<int> in(w, h);
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) in(i, j) = (i * 37 + j * 11) % 256;
    return in;
}

void check_shape(const loom_test::PipelineShape &shape, int w, int h) {
    INFO(shape.name << " " << w << "x" << h);
    Buffer<int> in = input_image(w, h);
    std::vector<Func> funcs = shape.build(in);
    Pipeline p(funcs.back());
    AutoSchedulerResults r = p.apply_autoscheduler({w, h}, get_jit_target_from_environment());
    INFO(r.schedule_source);
    CHECK(r.scheduler_name == "Loom");
    CHECK(r.schedule == PipelineSchedule::of(p));
    CHECK(loom_test::schedule_round_trip_problem(p) == "");
    Buffer<int> out = p.realize({w, h});
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) REQUIRE(out(i, j) == shape.reference(in, i, j));
}

} // namespace

TEST_CASE("autoschedule: the test pipelines give the reference result", "[autoschedule]") {
    for (auto shape :
         {loom_test::stencil_chain(), loom_test::pointwise_chain(), loom_test::down_up(),
          loom_test::separable_blur(), loom_test::multi_consumer_dag()}) {
        check_shape(shape, 301, 203); // strips and vectors with tails
        check_shape(shape, 7, 5);     // smaller than a vector or a strip
    }
}

TEST_CASE("autoschedule: stencils go per strip, cheap Funcs inline", "[autoschedule]") {
    Buffer<int> in = input_image(640, 480);
    std::vector<Func> funcs = loom_test::stencil_chain().build(in);
    Pipeline p(funcs.back());
    AutoSchedulerResults r =
        p.apply_autoscheduler({640, 480}, get_jit_target_from_environment(),
                              AutoschedulerParams("Loom", {{"parallelism", "8"}}));
    INFO(r.schedule_source);
    const std::string &s = r.schedule_source;
    CHECK(s.find("s1.compute_at(out, yo)") != std::string::npos);
    CHECK(s.find("s2.compute_at(out, yo)") != std::string::npos);
    CHECK(s.find(".parallel(yo)") != std::string::npos);
    CHECK(s.find("vectorize") != std::string::npos);
    CHECK(s.find("repeat_edge") == std::string::npos); // the boundary condition is inlined
    CHECK(r.seconds < 10);                             // (a sanity bound, not a timing test)
}

TEST_CASE("autoschedule: a costly table read by value is computed once, at root",
          "[autoschedule]") {
    // A tone curve: pow() over 1024 entries inside strict_float, looked up
    // by each pixel's value. The cost of a call's arguments counted only
    // for loads; a strict_float around the whole formula then made the
    // table look as cheap as one load, and it was inlined (pow per pixel).
    Buffer<int> in = input_image(300, 200);
    Var x("x"), y("y"), i("i");
    Func curve("tone_curve"), out("toned");
    Expr g = pow(cast<float>(i) * (1.0f / 1023.0f), 1.0f / 2.2f);
    curve(i) = cast<uint8_t>(clamp(strict_float(g * 255.0f + 0.5f), 0.0f, 255.0f));
    out(x, y) = curve(clamp(in(x, y) * 4, 0, 1023));
    curve.bound(i, 0, 1024);
    Pipeline p(out);
    AutoSchedulerResults r = p.apply_autoscheduler({300, 200}, get_jit_target_from_environment());
    INFO(r.schedule_source);
    CHECK(r.schedule_source.find("tone_curve.compute_root()") != std::string::npos);
    Buffer<uint8_t> result = p.realize({300, 200});
    for (int j = 0; j < 200; j++)
        for (int k = 0; k < 300; k++) {
            int v = std::min(std::max(in(k, j) * 4, 0), 1023);
            float t = std::pow(float(v) * (1.0f / 1023.0f), 1.0f / 2.2f) * 255.0f + 0.5f;
            uint8_t expected = uint8_t(std::min(std::max(t, 0.0f), 255.0f));
            INFO("x " << k << " y " << j);
            REQUIRE(int(result(k, j)) == int(expected));
        }
}

TEST_CASE("autoschedule: float planar RGB unsharp mask", "[autoschedule]") {
    const int W = 203, H = 97;
    Buffer<float> in(W, H, 3);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                in(x, y, c) = 0.5f + 0.4f * std::sin(x * 0.1f + c) * std::cos(y * 0.07f);
    Var x("x"), y("y"), c("c");
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func gray("gray"), blur_y("blur_y"), blur_x("blur_x"), out("out");
    gray(x, y) = 0.3f * clamped(x, y, 0) + 0.6f * clamped(x, y, 1) + 0.1f * clamped(x, y, 2);
    blur_y(x, y) = (gray(x, y - 1) + 2 * gray(x, y) + gray(x, y + 1)) / 4;
    blur_x(x, y) = (blur_y(x - 1, y) + 2 * blur_y(x, y) + blur_y(x + 1, y)) / 4;
    out(x, y, c) = clamped(x, y, c) * (2 * gray(x, y) - blur_x(x, y)) / max(gray(x, y), 1e-3f);
    Pipeline p(out);
    AutoSchedulerResults r = p.apply_autoscheduler({W, H, 3}, get_jit_target_from_environment());
    INFO(r.schedule_source);
    // Channels inside rows, each vector of x computing all three (unrolled).
    CHECK(r.schedule_source.find("reorder(x_vi, ci, x, co, yi, yo)") != std::string::npos);
    Buffer<float> got = p.realize({W, H, 3});
    auto g = [&](int i, int j) {
        i = std::min(std::max(i, 0), W - 1);
        j = std::min(std::max(j, 0), H - 1);
        return 0.3f * in(i, j, 0) + 0.6f * in(i, j, 1) + 0.1f * in(i, j, 2);
    };
    auto by = [&](int i, int j) { return (g(i, j - 1) + 2 * g(i, j) + g(i, j + 1)) / 4; };
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < H; j++)
            for (int i = 0; i < W; i++) {
                float bx = (by(i - 1, j) + 2 * by(i, j) + by(i + 1, j)) / 4;
                float want = in(i, j, k) * (2 * g(i, j) - bx) / std::max(g(i, j), 1e-3f);
                REQUIRE(std::fabs(got(i, j, k) - want) <= 1e-4f * std::max(1.0f, std::fabs(want)));
            }
}

TEST_CASE("autoschedule: matrix products are register-blocked", "[autoschedule]") {
    const int M = 131, N = 77, K = 45;
    loom_test::MatrixProduct mp(M, N, K);
    Pipeline p = mp.pipeline();
    AutoSchedulerResults res = p.apply_autoscheduler({M, N}, get_jit_target_from_environment());
    INFO(res.schedule_source);
    CHECK(res.schedule_source.find("prod.compute_at(out, yi)") != std::string::npos);
    CHECK(res.schedule_source.find("unroll") != std::string::npos);
    CHECK(loom_test::schedule_round_trip_problem(p) == "");
    Buffer<float> got = p.realize({M, N});
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++) REQUIRE(got(i, j) == mp.reference(i, j));
}

TEST_CASE("autoschedule: reductions, histograms and several outputs", "[autoschedule]") {
    const int W = 150, H = 60;
    Buffer<int> in = input_image(W, H);
    Var x("x"), y("y"), i("i");
    RDom r(0, W, 0, H, "r");
    Func hist("hist"), cdf("cdf"), eq("eq"), dbl("dbl");
    hist(i) = 0;
    hist(clamp(in(r.x, r.y), 0, 255)) += 1;
    RDom b(1, 255, "b");
    cdf(i) = hist(i);
    cdf(b) = cdf(b - 1) + hist(b);
    eq(x, y) = cdf(clamp(in(x, y), 0, 255)) * 255 / (W * H);
    dbl(x, y) = in(x, y) * 2;
    Pipeline p({eq, dbl});
    AutoSchedulerResults res = p.apply_autoscheduler({W, H}, get_jit_target_from_environment());
    INFO(res.schedule_source);
    CHECK(loom_test::schedule_round_trip_problem(p) == "");
    Buffer<int> e(W, H), d(W, H);
    p.realize({e, d});
    std::vector<int> h(256, 0), c(256, 0);
    for (int j = 0; j < H; j++)
        for (int k = 0; k < W; k++) h[size_t(in(k, j))]++;
    c[0] = h[0];
    for (int k = 1; k < 256; k++) c[size_t(k)] = c[size_t(k - 1)] + h[size_t(k)];
    for (int j = 0; j < H; j++)
        for (int k = 0; k < W; k++) {
            REQUIRE(e(k, j) == c[size_t(in(k, j))] * 255 / (W * H));
            REQUIRE(d(k, j) == in(k, j) * 2);
        }
}

TEST_CASE("autoschedule: Funcs the user scheduled are left alone", "[autoschedule]") {
    Buffer<int> in = input_image(64, 48);
    std::vector<Func> funcs = loom_test::stencil_chain().build(in);
    Func &s1 = funcs[1];
    s1.compute_root().vectorize(Var("x"), 4);
    PipelineSchedule::FuncEntry before =
        *PipelineSchedule::of(Pipeline(funcs.back())).find(s1.name());
    Pipeline p(funcs.back());
    AutoSchedulerResults r = p.apply_autoscheduler({64, 48}, get_jit_target_from_environment());
    REQUIRE(r.user_scheduled.size() == 1);
    CHECK(r.user_scheduled[0] == s1.name());
    PipelineSchedule after = PipelineSchedule::of(p);
    PipelineSchedule one, two;
    one.funcs().push_back(before);
    two.funcs().push_back(*after.find(s1.name()));
    CHECK(one == two);
    Buffer<int> out = p.realize({64, 48});
    for (int j = 0; j < 48; j++)
        for (int k = 0; k < 64; k++)
            REQUIRE(out(k, j) == loom_test::stencil_chain().reference(in, k, j));
}

TEST_CASE("autoschedule: without sizes the choice waits for the first realize", "[autoschedule]") {
    Buffer<int> in = input_image(90, 70);
    std::vector<Func> funcs = loom_test::separable_blur().build(in);
    Pipeline p(funcs.back());
    AutoSchedulerResults r = p.apply_autoscheduler(get_jit_target_from_environment());
    CHECK(r.output_sizes.empty());
    CHECK(r.schedule_source.find("first realize") != std::string::npos);
    Buffer<int> out = p.realize({90, 70});
    REQUIRE(p.autoscheduler_results().output_sizes.size() == 1);
    CHECK(p.autoscheduler_results().output_sizes[0] == std::vector<int>{90, 70});
    CHECK(p.autoscheduler_results().schedule_source.find("compute") != std::string::npos);
    for (int j = 0; j < 70; j++)
        for (int k = 0; k < 90; k++)
            REQUIRE(out(k, j) == loom_test::separable_blur().reference(in, k, j));

    // With estimates on the output it chooses at once (AOT's way).
    std::vector<Func> again = loom_test::separable_blur().build(in);
    again.back().set_estimate(Var("x"), 0, 90).set_estimate(Var("y"), 0, 70);
    AutoSchedulerResults now =
        Pipeline(again.back()).apply_autoscheduler(get_jit_target_from_environment());
    CHECK(now.output_sizes == std::vector<std::vector<int>>{{90, 70}});
}

TEST_CASE("autoschedule: Halide 14's auto_schedule and added auto-schedulers", "[autoschedule]") {
    Buffer<int> in = input_image(40, 30);
    std::vector<Func> funcs = loom_test::pointwise_chain().build(in);
    Pipeline p(funcs.back());
    funcs.back().set_estimates({{0, 40}, {0, 30}});
    AutoSchedulerResults r =
        p.auto_schedule(get_jit_target_from_environment(), MachineParams(4, 1 << 20, 40));
    CHECK(r.scheduler_name == "Loom");
    CHECK(r.autoscheduler_params.extra.at("parallelism") == "4");

    int calls = 0;
    Pipeline::add_autoscheduler("test_counting", [&](const Pipeline &, const Target &,
                                                     const AutoschedulerParams &params,
                                                     AutoSchedulerResults *results) {
        calls++;
        results->schedule_source = "// nothing " + params.to_string();
    });
    AutoSchedulerResults mine = p.apply_autoscheduler(
        get_jit_target_from_environment(), AutoschedulerParams("test_counting", {{"a", "1"}}));
    CHECK(calls == 1);
    CHECK(mine.schedule_source == "// nothing test_counting a=1");
    Buffer<int> out = p.realize({40, 30});
    for (int j = 0; j < 30; j++)
        for (int k = 0; k < 40; k++)
            REQUIRE(out(k, j) == loom_test::pointwise_chain().reference(in, k, j));
}

TEST_CASE("autoschedule: unknown auto-schedulers and options are errors", "[autoschedule]") {
    Buffer<int> in = input_image(8, 8);
    std::vector<Func> funcs = loom_test::pointwise_chain().build(in);
    Pipeline p(funcs.back());
    Target t = get_jit_target_from_environment();
    CHECK_THROWS_WITH(p.apply_autoscheduler({8, 8}, t, AutoschedulerParams("Adams2019")),
                      Catch::Contains("no auto-scheduler named Adams2019") &&
                          Catch::Contains("the known ones are Loom"));
    CHECK_THROWS_WITH(
        p.apply_autoscheduler({8, 8}, t, AutoschedulerParams("Loom", {{"parallelism", "zero"}})),
        Catch::Contains("option parallelism is zero") && Catch::Contains("positive integer"));
    CHECK_THROWS_WITH(
        p.apply_autoscheduler({8, 8}, t, AutoschedulerParams("Loom", {{"beam", "3"}})),
        Catch::Contains("no option beam") && Catch::Contains("parallelism"));
    CHECK_THROWS_WITH(p.apply_autoscheduler({8}, t),
                      Catch::Contains("given 1 size") && Catch::Contains("2 dimensions"));
    CHECK_THROWS_WITH(Pipeline::add_autoscheduler("Loom", nullptr), Catch::Contains("is taken"));
}

// ---- Reductions without pure parallelism are factored (rfactor).

namespace {

Buffer<uint8_t> random_bytes(int w, int h) {
    Buffer<uint8_t> im(w, h);
    uint32_t s = 2463534242u;
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            im(i, j) = uint8_t(s >> 24);
        }
    return im;
}

const AutoschedulerParams four_threads("Loom", {{"parallelism", "4"}});

/** The schedule was factored: an rfactor() in the printed C++ and a
 * parallel loop in the loop nest; and the printed C++, applied to a fresh
 * copy of the algorithm, gives the same loop nest. */
template <typename Build>
void check_factored(const Pipeline &p, const AutoSchedulerResults &r, Build fresh) {
    INFO(r.schedule_source);
    CHECK(r.schedule_source.find(".rfactor(") != std::string::npos);
    CHECK(r.schedule_source.find(".parallel(") != std::string::npos);
    std::string nest = p.loop_nest();
    INFO(nest);
    CHECK(nest.find("parallel") != std::string::npos);
    CHECK(loom_test::schedule_round_trip_problem(p) == "");
    Pipeline copy = fresh();
    PipelineSchedule::apply_source(copy, r.schedule_source);
    CHECK(copy.loop_nest() == nest);
    CHECK(PipelineSchedule::of(copy) == r.schedule);
    Pipeline again = fresh();
    r.schedule.apply(again);
    CHECK(again.loop_nest() == nest);
}

} // namespace

TEST_CASE("autoschedule: a histogram is factored into parallel partial histograms",
          "[autoschedule][rfactor]") {
    const int W = 301, H = 203;
    Buffer<uint8_t> im = random_bytes(W, H);
    auto build = [&] {
        Func hist("as_hist");
        Var i("i");
        RDom r(0, W, 0, H, "r");
        hist(i) = 0;
        hist(clamp(cast<int>(im(r.x, r.y)), 0, 255)) += 1;
        return Pipeline(hist);
    };
    Pipeline p = build();
    AutoSchedulerResults res =
        p.apply_autoscheduler({256}, get_jit_target_from_environment(), four_threads);
    check_factored(p, res, build);
    // The scatter's pixels unrolled by a few (W is not a multiple).
    CHECK(res.schedule_source.find(", 4, TailStrategy::GuardWithIf).unroll(") != std::string::npos);
    Buffer<int> out = p.realize({256});
    std::vector<int> ref(256, 0);
    for (int j = 0; j < H; j++)
        for (int k = 0; k < W; k++) ref[im(k, j)]++;
    for (int b = 0; b < 256; b++) REQUIRE(out(b) == ref[size_t(b)]);

    // Ahead of time: the output's estimates, and the same choice.
    Pipeline est = build();
    est.outputs()[0].set_estimate(Var("i"), 0, 256);
    AutoSchedulerResults aot =
        est.apply_autoscheduler(get_jit_target_from_environment(), four_threads);
    CHECK(aot.output_sizes == std::vector<std::vector<int>>{{256}});
    CHECK(aot.schedule_source.find(".rfactor(") != std::string::npos);
    CHECK(aot.schedule_source.find(".parallel(") != std::string::npos);
}

TEST_CASE("autoschedule: sums to one value are factored and vectorized",
          "[autoschedule][rfactor]") {
    const int W = 256, H = 190;
    Buffer<uint8_t> bytes = random_bytes(W, H);
    Buffer<float> fin(W, H);
    Buffer<int> iin(W, H);
    for (int j = 0; j < H; j++)
        for (int k = 0; k < W; k++) {
            fin(k, j) = bytes(k, j) / 255.0f + 0.001f * float(k % 7);
            iin(k, j) = int(bytes(k, j)) * 1000 - 120000;
        }
    double fref = 0;
    int64_t iref = 0;
    for (int j = 0; j < H; j++)
        for (int k = 0; k < W; k++) {
            fref += fin(k, j);
            iref += iin(k, j);
        }

    // A float sum to a scalar (0-dimensional Func).
    auto float_sum = [&] {
        Func s("as_fsum");
        RDom r(0, W, 0, H, "r");
        s() = 0.0f;
        s() += fin(r.x, r.y);
        return Pipeline(s);
    };
    Pipeline fp = float_sum();
    AutoSchedulerResults fr =
        fp.apply_autoscheduler(std::vector<int>{}, get_jit_target_from_environment(), four_threads);
    check_factored(fp, fr, float_sum);
    CHECK(fr.schedule_source.find(".vectorize(") != std::string::npos);
    Buffer<float> fs = fp.realize(std::vector<int>{});
    CHECK(std::abs(double(fs()) - fref) <= 1e-4 * std::abs(fref));

    // An integer sum into a 1-element Func: exact.
    auto int_sum = [&] {
        Func t("as_isum");
        Var x("x");
        RDom r(0, W, 0, H, "r");
        t(x) = 0;
        t(0) += iin(r.x, r.y);
        return Pipeline(t);
    };
    Pipeline ip = int_sum();
    AutoSchedulerResults ir =
        ip.apply_autoscheduler({1}, get_jit_target_from_environment(), four_threads);
    check_factored(ip, ir, int_sum);
    Buffer<int> is = ip.realize({1});
    CHECK(int64_t(is(0)) == int64_t(int32_t(uint32_t(uint64_t(iref)))));
}

TEST_CASE("autoschedule: min and max reductions are factored, column-wise too",
          "[autoschedule][rfactor]") {
    const int W = 16, H = 2000;
    Buffer<uint8_t> im = random_bytes(W, H);
    // The largest value of the image.
    auto biggest = [&] {
        Func m("as_max");
        RDom r(0, W, 0, H, "r");
        m() = cast<uint8_t>(0);
        m() = max(m(), im(r.x, r.y));
        return Pipeline(m);
    };
    Pipeline mp = biggest();
    AutoSchedulerResults mr =
        mp.apply_autoscheduler(std::vector<int>{}, get_jit_target_from_environment(), four_threads);
    check_factored(mp, mr, biggest);
    int ref = 0;
    for (int j = 0; j < H; j++)
        for (int k = 0; k < W; k++) ref = std::max<int>(ref, im(k, j));
    CHECK(int(Buffer<uint8_t>(mp.realize(std::vector<int>{}))()) == ref);

    // The minimum of each of 16 columns of 2000 rows: too few columns to
    // share among threads, so the rows are split.
    auto column_min = [&] {
        Func c("as_colmin");
        Var x("x");
        RDom r(0, H, "r");
        c(x) = cast<uint8_t>(255);
        c(x) = min(c(x), im(x, r));
        return Pipeline(c);
    };
    Pipeline cp = column_min();
    AutoSchedulerResults cr =
        cp.apply_autoscheduler({W}, get_jit_target_from_environment(), four_threads);
    check_factored(cp, cr, column_min);
    Buffer<uint8_t> cols = cp.realize({W});
    for (int k = 0; k < W; k++) {
        int m = 255;
        for (int j = 0; j < H; j++) m = std::min<int>(m, im(k, j));
        REQUIRE(int(cols(k)) == m);
    }
}

TEST_CASE("autoschedule: sums of a few long rows are factored along the rows",
          "[autoschedule][rfactor]") {
    const int W = 3000, H = 6;
    Buffer<uint8_t> im = random_bytes(W, H);
    auto row_sums = [&] {
        Func s("as_rowsum");
        Var y("y");
        RDom r(0, W, "r");
        s(y) = 0;
        s(y) += cast<int>(im(r, y));
        return Pipeline(s);
    };
    Pipeline p = row_sums();
    AutoSchedulerResults res =
        p.apply_autoscheduler({H}, get_jit_target_from_environment(), four_threads);
    check_factored(p, res, row_sums);
    Buffer<int> out = p.realize({H});
    for (int j = 0; j < H; j++) {
        int ref = 0;
        for (int k = 0; k < W; k++) ref += im(k, j);
        REQUIRE(out(j) == ref);
    }
}

TEST_CASE("autoschedule: updates that are not associative stay serial", "[autoschedule][rfactor]") {
    const int W = 120, H = 90;
    Buffer<uint8_t> im = random_bytes(W, H);
    Func h("as_poly");
    RDom r(0, W, 0, H, "r");
    h() = cast<uint32_t>(0);
    h() = h() * 31 + cast<uint32_t>(im(r.x, r.y)); // a polynomial hash: order matters
    Pipeline p(h);
    AutoSchedulerResults res =
        p.apply_autoscheduler(std::vector<int>{}, get_jit_target_from_environment(), four_threads);
    INFO(res.schedule_source);
    CHECK(res.schedule_source.find("rfactor") == std::string::npos);
    CHECK(p.loop_nest().find("parallel") == std::string::npos);
    uint32_t ref = 0;
    for (int j = 0; j < H; j++)
        for (int k = 0; k < W; k++) ref = ref * 31u + im(k, j);
    CHECK(Buffer<uint32_t>(p.realize(std::vector<int>{}))() == ref);
}
