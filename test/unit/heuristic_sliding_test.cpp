// The Loom auto-scheduler's "sliding" placement (stored per strip, computed
// per row), which the autotuner asks for: a Func slides only where every
// Func that reads it is computed per row too (or inlined into such a Func);
// one read by a Func computed per strip goes per strip instead, since its
// rows would be needed before they exist. The autotuner's compound move
// asks for a whole chain at once (harris: the luminance and both gradients
// slide, the gradients' products are inlined into the box sums).

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "Loom.h"
#include "autoschedule/HeuristicScheduler.h"

using namespace loom;
using namespace loom::Internal;

namespace {

constexpr int W = 97, H = 61;

Buffer<float> input_image() {
    Buffer<float> in(W, H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) in(x, y) = float((x * 7 + y * 13) % 31) / 31.0f;
    return in;
}

float at(const Buffer<float> &in, int x, int y) {
    return in(std::min(std::max(x, 0), W - 1), std::min(std::max(y, 0), H - 1));
}

std::string schedule_with(const Pipeline &p, const std::map<std::string, std::string> &placement) {
    HeuristicOptions o = heuristic_options(get_host_target(), {});
    o.placement = placement;
    heuristic_schedule(p, o, {{W, H}});
    return PipelineSchedule::of(p).to_cpp();
}

} // namespace

TEST_CASE("heuristic: a sliding Func read by a per-strip Func goes per strip",
          "[autoschedule][sliding]") {
    Buffer<float> in = input_image();
    Func clamped = BoundaryConditions::repeat_edge(in);
    Var x("x"), y("y");
    Func s1("s1"), s2("s2"), out("out");
    s1(x, y) = clamped(x, y - 1) + 2 * clamped(x, y) + clamped(x, y + 1);
    s2(x, y) = s1(x, y - 1) * s1(x, y + 1) + s1(x - 1, y) - s1(x + 1, y);
    out(x, y) = s2(x, y - 1) + s2(x, y + 1);
    Pipeline p(out);
    std::string source = schedule_with(p, {{"s1", "sliding"}, {"s2", "strip"}});
    INFO(source);
    // s2 is per strip: s1 cannot be computed per row of the output.
    CHECK(source.find("s1.compute_at(out, yi)") == std::string::npos);
    CHECK(source.find("s1.compute_at(out, yo)") != std::string::npos);
    Buffer<float> result = p.realize({W, H});
    auto s1_ref = [&](int i, int j) {
        return at(in, i, j - 1) + 2 * at(in, i, j) + at(in, i, j + 1);
    };
    auto s2_ref = [&](int i, int j) {
        return s1_ref(i, j - 1) * s1_ref(i, j + 1) + s1_ref(i - 1, j) - s1_ref(i + 1, j);
    };
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++)
            REQUIRE(result(i, j) == Approx(s2_ref(i, j - 1) + s2_ref(i, j + 1)).epsilon(1e-5));
}

TEST_CASE("heuristic: a chain of stencils slides down the strip through inlined products",
          "[autoschedule][sliding]") {
    Buffer<float> in = input_image();
    Func clamped = BoundaryConditions::repeat_edge(in);
    Var x("x"), y("y");
    Func gray("gray"), gx("grad_x"), gy("grad_y"), xx("xx"), yy("yy"), xy("xy"), out("out");
    gray(x, y) = 0.5f * clamped(x, y) + 0.25f;
    gx(x, y) = gray(x + 1, y - 1) + 2 * gray(x + 1, y) + gray(x + 1, y + 1) - gray(x - 1, y - 1) -
               2 * gray(x - 1, y) - gray(x - 1, y + 1);
    gy(x, y) = gray(x - 1, y + 1) + 2 * gray(x, y + 1) + gray(x + 1, y + 1) - gray(x - 1, y - 1) -
               2 * gray(x, y - 1) - gray(x + 1, y - 1);
    xx(x, y) = gx(x, y) * gx(x, y);
    yy(x, y) = gy(x, y) * gy(x, y);
    xy(x, y) = gx(x, y) * gy(x, y);
    auto box = [&](Func f) {
        Expr s = 0.0f;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) s = s + f(x + dx, y + dy);
        return s;
    };
    out(x, y) = box(xx) * box(yy) - box(xy) * box(xy);
    Pipeline p(out);
    // The placement of the autotuner's compound move for this chain.
    std::string source = schedule_with(p, {{"gray", "sliding"},
                                           {"grad_x", "sliding"},
                                           {"grad_y", "sliding"},
                                           {"xx", "inline"},
                                           {"yy", "inline"},
                                           {"xy", "inline"}});
    INFO(source);
    for (const char *f : {"gray", "grad_x", "grad_y"})
        CHECK(source.find(std::string(f) + ".compute_at(out, yi).store_at(out, yo)") !=
              std::string::npos);
    Buffer<float> result = p.realize({W, H});
    auto g = [&](int i, int j) { return 0.5f * at(in, i, j) + 0.25f; };
    auto gxr = [&](int i, int j) {
        return g(i + 1, j - 1) + 2 * g(i + 1, j) + g(i + 1, j + 1) - g(i - 1, j - 1) -
               2 * g(i - 1, j) - g(i - 1, j + 1);
    };
    auto gyr = [&](int i, int j) {
        return g(i - 1, j + 1) + 2 * g(i, j + 1) + g(i + 1, j + 1) - g(i - 1, j - 1) -
               2 * g(i, j - 1) - g(i + 1, j - 1);
    };
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            float sxx = 0, syy = 0, sxy = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    float a = gxr(i + dx, j + dy), b = gyr(i + dx, j + dy);
                    sxx += a * a;
                    syy += b * b;
                    sxy += a * b;
                }
            REQUIRE(result(i, j) == Approx(sxx * syy - sxy * sxy).epsilon(1e-4).margin(1e-4));
        }
}
