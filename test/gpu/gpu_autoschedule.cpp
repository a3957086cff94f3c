// The auto-scheduler and the autotuner for a GPU target (PoCL's OpenCL in
// CI, CUDA with LOOM_GPU_TEST_API=cuda): GPU tiles whose block size shows in
// the kernel source, stencil producers computed per block, updates tiled or
// run in one thread, and every result equal to plain C++.

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "Loom.h"
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
