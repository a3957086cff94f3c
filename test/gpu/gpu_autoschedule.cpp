// The auto-scheduler and the autotuner for a GPU target (PoCL's OpenCL in
// CI, CUDA with LOOM_GPU_TEST_API=cuda): GPU tiles whose block size shows in
// the kernel source, stencil producers computed per block, updates tiled or
// run in one thread, and every result equal to plain C++.

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "Loom.h"
#include "autoschedule/HeuristicScheduler.h"
#include "common/MatrixProduct.h"
#include "common/RandomPipelines.h"
#include "common/ScheduleRoundTrip.h"
#include "gpu_test_util.h"

using namespace loom;
using gpu_test::gpu_target;

namespace {

Buffer<int> input_image(int w, int h) {
    Buffer<int> in(w, h);
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) in(i, j) = (i * 13 + j * 7) % 251;
    return in;
}

} // namespace

TEST_CASE("GPU autoschedule: the test pipelines give the reference result", "[gpu][autoschedule]") {
    for (auto shape :
         {loom_test::stencil_chain(), loom_test::pointwise_chain(), loom_test::down_up(),
          loom_test::separable_blur(), loom_test::multi_consumer_dag()}) {
        for (auto [w, h] : {std::pair<int, int>{97, 45}, {6, 3}}) {
            INFO(shape.name << " " << w << "x" << h);
            Buffer<int> in = input_image(w, h);
            std::vector<Func> funcs = shape.build(in);
            Pipeline p(funcs.back());
            AutoSchedulerResults r = p.apply_autoscheduler({w, h}, gpu_target());
            INFO(r.schedule_source);
            CHECK(r.schedule_source.find("gpu_blocks") != std::string::npos);
            CHECK(loom_test::schedule_round_trip_problem(p) == "");
            Buffer<int> out(w, h);
            p.realize(out, gpu_target());
            out.copy_to_host();
            gpu_test::check_2d(out, [&](int i, int j) { return shape.reference(in, i, j); });
        }
    }
}

TEST_CASE("GPU autoschedule: tiles of 32x8, stencils per block", "[gpu][autoschedule]") {
    Buffer<int> in = input_image(256, 64);
    std::vector<Func> funcs = loom_test::separable_blur().build(in);
    Pipeline p(funcs.back());
    AutoSchedulerResults r = p.apply_autoscheduler({256, 64}, gpu_target());
    INFO(r.schedule_source);
    CHECK(r.schedule_source.find(".gpu_blocks(xo, yo") != std::string::npos);
    CHECK(r.schedule_source.find(".gpu_threads(xi, yi") != std::string::npos);
    CHECK(r.schedule_source.find("blur_x.compute_at(out, xo).gpu_threads(x, y") !=
          std::string::npos);
    // The block covers blur_x's 32x10 values for a 32x8 tile of out, and the
    // kernel says so.
    std::string src = p.device_source({}, gpu_target());
    if (gpu_test::gpu_device_api() == DeviceAPI::OpenCL)
        CHECK(src.find("reqd_work_group_size(32, 10, 1)") != std::string::npos);
    else
        CHECK(src.find("__launch_bounds__(320)") != std::string::npos);
}

TEST_CASE("GPU autoschedule: reductions with and without pure loops", "[gpu][autoschedule]") {
    const int W = 70, H = 33;
    Buffer<int> in = input_image(W, H);
    Var x("x"), y("y"), i("i");
    RDom r(0, W, 0, H, "r");
    Func hist("hist"), rows("rows");
    hist(i) = 0;
    hist(in(r.x, r.y) % 16) += 1;
    RDom k(0, W, "k");
    rows(y) = 0;
    rows(y) += in(k, y);
    Pipeline p({hist, rows});
    p.apply_autoscheduler({16}, gpu_target());
    Buffer<int> h(16), s(H);
    p.realize({h, s}, gpu_target());
    h.copy_to_host();
    s.copy_to_host();
    std::vector<int> want_h(16, 0), want_s(size_t(H), 0);
    for (int j = 0; j < H; j++)
        for (int q = 0; q < W; q++) {
            want_h[size_t(in(q, j) % 16)]++;
            want_s[size_t(j)] += in(q, j);
        }
    gpu_test::check_1d(h, [&](int b) { return want_h[size_t(b)]; });
    gpu_test::check_1d(s, [&](int j) { return want_s[size_t(j)]; });
}

TEST_CASE("GPU autotune: a short run on the device", "[gpu][autotune]") {
    const int W = 128, H = 64;
    Buffer<int> in = input_image(W, H);
    auto shape = loom_test::stencil_chain();
    std::vector<Func> funcs = shape.build(in);
    AutotuneOptions o;
    o.target = gpu_target();
    o.max_trials = 5;
    o.runs = 3;
    o.use_cache = false;
    AutotuneResult r = autotune(Pipeline(funcs.back()), {W, H}, o);
    INFO(r.schedule_source);
    CHECK(r.trials == 5);
    CHECK(r.best_ms <= r.baseline_ms * 1.031);
    Buffer<int> out(W, H);
    funcs.back().realize(out, gpu_target());
    out.copy_to_host();
    gpu_test::check_2d(out, [&](int i, int j) { return shape.reference(in, i, j); });
}

TEST_CASE("GPU autoschedule: a matrix product keeps each thread's sums in registers",
          "[gpu][autoschedule]") {
    // 160x72 is more than one 128x64 tile and not a multiple of it.
    const int N = 160, M = 72, K = 37;
    loom_test::MatrixProduct mp(N, M, K);
    auto product = [&] { return mp.pipeline(); };
    auto reference = [&](int i, int j) { return mp.reference(i, j); };
    Pipeline p = product();
    AutoSchedulerResults r = p.apply_autoscheduler({N, M}, gpu_target());
    INFO(r.schedule_source);
    // 32x8 threads, each with 4x8 sums: vectors of 4 across x, 8 rows unrolled.
    CHECK(r.schedule_source.find("prod.compute_at(out, xt)") != std::string::npos);
    CHECK(r.schedule_source.find(".split(x, xo, xi, 128).split(y, yo, yi, 64)") !=
          std::string::npos);
    CHECK(loom_test::schedule_round_trip_problem(p) == "");
    Buffer<float> o(N, M);
    p.realize(o, gpu_target());
    o.copy_to_host();
    gpu_test::check_2d(o, reference);
    // An output smaller than one tile gets one sum per thread.
    Pipeline small = product();
    AutoSchedulerResults rs = small.apply_autoscheduler({20, 9}, gpu_target());
    INFO(rs.schedule_source);
    CHECK(rs.schedule_source.find("prod.compute_at(out, xo)") != std::string::npos);
    Buffer<float> so(20, 9);
    small.realize(so, gpu_target());
    so.copy_to_host();
    gpu_test::check_2d(so, reference);
}

TEST_CASE("GPU autoschedule: a matrix product stages slices of its operands in shared memory",
          "[gpu][autoschedule]") {
    // 256x128 is two 128x64 tiles each way, and K = 64 four slices of 16.
    const int N = 256, M = 128, K = 64;
    loom_test::MatrixProduct mp(N, M, K);
    mp.a.set_name("mat_a");
    mp.b.set_name("mat_b");
    Pipeline p = mp.pipeline();
    AutoSchedulerResults r = p.apply_autoscheduler({N, M}, gpu_target());
    INFO(r.schedule_source);
    // The sums per block in registers, the operands' wrappers per slice.
    CHECK(r.schedule_source.find("Func mat_a_im_in_prod = mat_a.in(prod);") != std::string::npos);
    CHECK(r.schedule_source.find("Func mat_b_im_in_prod = mat_b.in(prod);") != std::string::npos);
    CHECK(r.schedule_source.find("prod.compute_at(out, xo).store_in(MemoryType::Register)") !=
          std::string::npos);
    CHECK(r.schedule_source.find("mat_a_im_in_prod.compute_at(prod, ko)") != std::string::npos);
    CHECK(r.schedule_source.find(".split(k_x, ko, ki, 16)") != std::string::npos);
    CHECK(loom_test::schedule_round_trip_problem(p) == "");
    std::string source = p.device_source({}, gpu_target());
    CHECK(source.find("__local") != std::string::npos);
    Buffer<float> o(N, M);
    p.realize(o, gpu_target());
    o.copy_to_host();
    gpu_test::check_2d(o, [&](int i, int j) { return mp.reference(i, j); });

    // Operands that are ImageParams (a generator's Inputs) are wrapped the same way.
    {
        ImageParam A(Float(32), 2, "ip_a"), B(Float(32), 2, "ip_b");
        Var x("x"), y("y");
        RDom k(0, K, "k");
        Func prod("prod"), out("out");
        prod(x, y) = 0.0f;
        prod(x, y) += A(k, y) * B(x, k);
        out(x, y) = prod(x, y);
        Pipeline ip(out);
        AutoSchedulerResults ri = ip.apply_autoscheduler({N, M}, gpu_target());
        INFO(ri.schedule_source);
        CHECK(ri.schedule_source.find("Func ip_a_im_in_prod = ip_a.in(prod);") !=
              std::string::npos);
        CHECK(ri.schedule_source.find("Func ip_b_im_in_prod = ip_b.in(prod);") !=
              std::string::npos);
        A.set(mp.a);
        B.set(mp.b);
        Buffer<float> oi(N, M);
        ip.realize(oi, gpu_target());
        oi.copy_to_host();
        gpu_test::check_2d(oi, [&](int i, int j) { return mp.reference(i, j); });
    }

    // The same schedule on a fresh copy of the algorithm, from its C++.
    Pipeline q = mp.pipeline();
    PipelineSchedule::apply_source(q, r.schedule_source);
    CHECK(PipelineSchedule::of(q) == PipelineSchedule::of(p));
    Buffer<float> o2(N, M);
    q.realize(o2, gpu_target());
    o2.copy_to_host();
    gpu_test::check_2d(o2, [&](int i, int j) { return mp.reference(i, j); });
}

TEST_CASE("GPU autoschedule: a member's update runs on the block's threads",
          "[gpu][autoschedule]") {
    // Column sums of 5 rows, computed per block for a stencil consumer: the
    // update's pure loops are thread loops too (it ran in one thread).
    const int W = 100, H = 40;
    Buffer<int> in = input_image(W + 2, H + 4);
    Var x("x"), y("y");
    RDom r(0, 5, "r");
    Func colsum("colsum"), out("out");
    colsum(x, y) = 0;
    colsum(x, y) += in(x, y + r);
    out(x, y) = colsum(x, y) + colsum(x + 1, y) + colsum(x + 2, y);
    Pipeline p(out);
    AutoSchedulerResults r2 = p.apply_autoscheduler({W, H}, gpu_target());
    INFO(r2.schedule_source);
    REQUIRE(r2.schedule_source.find("colsum.compute_at(out, xo)") != std::string::npos);
    CHECK(r2.schedule_source.find("colsum.update(0).gpu_threads(x, y") != std::string::npos);
    std::string src = p.device_source({}, gpu_target());
    CHECK(src.find("== 0") == std::string::npos); // no "thread 0 only" guard
    Buffer<int> o(W, H);
    p.realize(o, gpu_target());
    o.copy_to_host();
    gpu_test::check_2d(o, [&](int i, int j) {
        int s = 0;
        for (int dx = 0; dx < 3; dx++)
            for (int dy = 0; dy < 5; dy++) s += in(i + dx, j + dy);
        return s;
    });
}

TEST_CASE("GPU autoschedule: several outputs per thread, vectors across x and rows down y",
          "[gpu][autoschedule]") {
    // A uint16 3x3 blur (apps/blur's algorithm): by default each thread
    // computes a 32-bit word's worth (2 lanes), and the staged blur_x is
    // vectorized alike; the autotuner's knobs add lanes and rows.
    const int W = 150, H = 37;
    Buffer<uint16_t> in(W + 2, H + 2);
    for (int j = 0; j < H + 2; j++)
        for (int i = 0; i < W + 2; i++) in(i, j) = uint16_t((i * 131 + j * 977) % 60000);
    auto blur = [&] {
        Var x("x"), y("y");
        Func blur_x("blur_x"), out("out");
        blur_x(x, y) = (in(x, y) + in(x + 1, y) + in(x + 2, y)) / 3;
        out(x, y) = (blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2)) / 3;
        return Pipeline(out);
    };
    auto reference = [&](int i, int j) {
        auto bx = [&](int a, int b) {
            return uint16_t(uint16_t(in(a, b) + in(a + 1, b) + in(a + 2, b)) / 3);
        };
        return uint16_t(uint16_t(bx(i, j) + bx(i, j + 1) + bx(i, j + 2)) / 3);
    };
    struct Case {
        int lanes, rows;
        const char *root, *member;
    };
    for (Case c :
         {Case{0, 1, ".split(xi, xi, xv, 2)",
               "blur_x.compute_at(out, xo).split(x, x, xv, 2, TailStrategy::GuardWithIf)"},
          Case{4, 2, ".split(yi, yi, yr, 2)",
               "blur_x.compute_at(out, xo).split(x, x, xv, 4, TailStrategy::GuardWithIf)"},
          Case{1, 4, ".split(yi, yi, yr, 4)",
               "blur_x.compute_at(out, xo).split(y, y, yr, 4, TailStrategy::GuardWithIf)"}}) {
        Pipeline p = blur();
        Internal::HeuristicOptions o = Internal::heuristic_options(gpu_target(), {});
        o.gpu_vector = c.lanes;
        o.gpu_rows = c.rows;
        Internal::heuristic_schedule(p, o, {{W, H}});
        std::string source = PipelineSchedule::of(p).to_cpp();
        INFO(source);
        CHECK(source.find(c.root) != std::string::npos);
        CHECK(source.find(c.member) != std::string::npos);
        CHECK(loom_test::schedule_round_trip_problem(p) == "");
        // Every block fits a CUDA block (1024 threads); PoCL takes more.
        std::string src = p.device_source({}, gpu_target());
        for (size_t at = src.find("__launch_bounds__("); at != std::string::npos;
             at = src.find("__launch_bounds__(", at + 1))
            CHECK(std::stoi(src.substr(at + 18)) <= 1024);
        for (size_t at = src.find("reqd_work_group_size("); at != std::string::npos;
             at = src.find("reqd_work_group_size(", at + 1)) {
            int a = 0, b = 0, c = 0;
            std::sscanf(src.c_str() + at, "reqd_work_group_size(%d, %d, %d)", &a, &b, &c);
            CHECK(a * b * c <= 1024);
            CHECK(a * b * c > 0);
        }
        Buffer<uint16_t> o16(W, H);
        p.realize(o16, gpu_target());
        o16.copy_to_host();
        gpu_test::check_2d(o16, reference);
    }
}

TEST_CASE("GPU autoschedule: outputs per thread on outputs smaller than a vector",
          "[gpu][autoschedule]") {
    // A member read at half the output's x (its region narrower than the
    // root's tile) and outputs of 1x1 to 5x3, with 4 lanes and 4 rows per
    // thread: every split must stay inside the buffers and give the C++
    // result.
    Buffer<uint16_t> in(8, 8);
    for (int j = 0; j < 8; j++)
        for (int i = 0; i < 8; i++) in(i, j) = uint16_t(i * 37 + j * 101);
    for (auto [w, h] : {std::pair<int, int>{1, 1}, {3, 2}, {5, 3}}) {
        INFO(w << "x" << h);
        Var x("x"), y("y");
        Func half("half"), out("out");
        half(x, y) = in(x, y) / 2 + in(x, y + 1) / 2;
        out(x, y) = half(x / 2, y) + half(x / 2 + 1, y + 1) / 3;
        Pipeline p(out);
        Internal::HeuristicOptions o = Internal::heuristic_options(gpu_target(), {});
        o.gpu_vector = 4;
        o.gpu_rows = 4;
        Internal::heuristic_schedule(p, o, {{w, h}});
        INFO(PipelineSchedule::of(p).to_cpp());
        Buffer<uint16_t> got(w, h);
        p.realize(got, gpu_target());
        got.copy_to_host();
        auto half_at = [&](int i, int j) { return uint16_t(in(i, j) / 2 + in(i, j + 1) / 2); };
        gpu_test::check_2d(got, [&](int i, int j) {
            return uint16_t(half_at(i / 2, j) + half_at(i / 2 + 1, j + 1) / 3);
        });
    }
}
