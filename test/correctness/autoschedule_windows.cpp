// The "Loom" auto-scheduler on sums over a window (nl_means, lens_blur):
// Funcs read per offset of the window are computed per offset, channels
// with their own formulas are unrolled, and Funcs read at x plus a
// window's RVar are stencils. Each result is checked against plain C++,
// and the placement the rule is for is checked in the printed schedule.

#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <string>
#include <vector>

#include "Loom.h"
#include "common/ScheduleRoundTrip.h"

using namespace loom;

namespace {

bool has(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

int clamp_to(int v, int n) {
    return std::min(std::max(v, 0), n - 1);
}

} // namespace

TEST_CASE("autoschedule: Funcs read per offset of a window are computed per offset",
          "[autoschedule]") {
    // Non-local means in small: per offset (dx, dy) of a 3x3 window, the
    // squared differences of the image and its shifted copy, summed over a
    // 3x3 patch (rows, then columns), weight each neighbour. At root those
    // Funcs held a copy of the image per offset (9 here, 49 in the app),
    // and the weight was recomputed per channel.
    const int W = 67, H = 45, C = 3;
    Buffer<float> in(W, H, C);
    for (int c = 0; c < C; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) in(x, y, c) = float((x * 7 + y * 3 + c * 5) % 16) / 16.0f;
    Var x("x"), y("y"), c("c"), dx("dx"), dy("dy");
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func diff("diff"), patch_rows("patch_rows"), patch("patch"), weight("weight"), sums("sums"),
        out("out");
    Expr d = 0.0f;
    for (int k = 0; k < C; k++) {
        Expr e = clamped(x, y, k) - clamped(x + dx, y + dy, k);
        d = d + e * e;
    }
    diff(x, y, dx, dy) = d;
    RDom py(-1, 3, "py"), px(-1, 3, "px");
    patch_rows(x, y, dx, dy) = 0.0f;
    patch_rows(x, y, dx, dy) += diff(x, y + py.x, dx, dy);
    patch(x, y, dx, dy) = 0.0f;
    patch(x, y, dx, dy) += patch_rows(x + px.x, y, dx, dy);
    weight(x, y, dx, dy) = exp(-patch(x, y, dx, dy));
    RDom window(-1, 3, -1, 3, "window");
    Expr w = weight(x, y, window.x, window.y);
    sums(x, y, c) = 0.0f;
    sums(x, y, c) += select(c < 3, w * clamped(x + window.x, y + window.y, c), w);
    out(x, y, c) = sums(x, y, c) / sums(x, y, 3);
    Pipeline p(out);
    AutoSchedulerResults r = p.apply_autoscheduler({W, H, C}, get_jit_target_from_environment());
    INFO(r.schedule_source);
    for (const char *f : {"diff", "patch_rows", "patch"})
        CHECK(has(r.schedule_source, std::string(f) + ".compute_at(sums, window_x)"));
    // The window's loops outside the sum's rows, the channels unrolled.
    CHECK(has(r.schedule_source, "x, y, window_x, window_y)"));
    CHECK(has(r.schedule_source, "sums.compute_at(out, yo).bound(c, 0, 4)"));
    CHECK(has(r.schedule_source, "unroll(c)"));
    CHECK(loom_test::schedule_round_trip_problem(p) == "");

    auto at = [&](int i, int j, int k) { return in(clamp_to(i, W), clamp_to(j, H), k); };
    auto distance = [&](int i, int j, int ox, int oy) {
        float s = 0;
        for (int k = 0; k < C; k++) {
            float e = at(i, j, k) - at(i + ox, j + oy, k);
            s += e * e;
        }
        return s;
    };
    Buffer<float> got = p.realize({W, H, C});
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            float s[3] = {0, 0, 0}, total = 0;
            for (int oy = -1; oy <= 1; oy++)
                for (int ox = -1; ox <= 1; ox++) {
                    float patch_sum = 0;
                    for (int v = -1; v <= 1; v++)
                        for (int u = -1; u <= 1; u++) patch_sum += distance(i + u, j + v, ox, oy);
                    float wt = std::exp(-patch_sum);
                    for (int k = 0; k < C; k++) s[k] += wt * at(i + ox, j + oy, k);
                    total += wt;
                }
            for (int k = 0; k < C; k++) {
                INFO("x " << i << " y " << j << " c " << k);
                REQUIRE(std::fabs(got(i, j, k) - s[k] / total) <= 1e-4f);
            }
        }
}

TEST_CASE("autoschedule: a search over a stack of costs computes each cost per strip",
          "[autoschedule]") {
    // As apps/lens_blur's disparity: the best of D shifts per pixel, each
    // shift's cost a vertical box sum of absolute differences. The costs
    // were computed at root for every shift (D copies of the image); per
    // shift, for the rows of a strip of the search, they stay in cache.
    const int W = 90, H = 70, D = 6;
    Buffer<int> left(W, H), right(W, H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            left(x, y) = (x * 13 + y * 7) % 50;
            right(x, y) = (x * 11 + y * 5 + 3) % 50;
        }
    Var x("x"), y("y"), z("z");
    Func l = BoundaryConditions::repeat_edge(left), rt = BoundaryConditions::repeat_edge(right);
    Func cost("cost"), cost_rows("cost_rows"), best("best"), out("out");
    cost(x, y, z) = abs(l(x, y) - rt(x - z, y));
    cost_rows(x, y, z) = cost(x, y - 1, z) + cost(x, y, z) + cost(x, y + 1, z);
    RDom shifts(0, D, "shifts");
    best(x, y) = Tuple(0, INT_MAX);
    Expr candidate = cost_rows(x, y, shifts.x);
    Expr better = candidate < best(x, y)[1];
    best(x, y) =
        Tuple(select(better, shifts.x, best(x, y)[0]), select(better, candidate, best(x, y)[1]));
    // Read again at a shift it found itself: data-dependent, so at root.
    Expr found = best(x, y)[0];
    out(x, y) = found + best(clamp(x + found, 0, W - 1), y)[0];
    Pipeline p(out);
    AutoSchedulerResults r = p.apply_autoscheduler({W, H}, get_jit_target_from_environment());
    INFO(r.schedule_source);
    // (cost_rows, three additions, is inlined into the search.)
    CHECK(has(r.schedule_source, "cost.compute_at(best, shifts_x)"));
    CHECK(has(r.schedule_source, "reorder(x_vi, x, yi_, shifts_x, yo_)"));
    CHECK(has(r.schedule_source, "best.compute_root()"));
    CHECK(loom_test::schedule_round_trip_problem(p) == "");

    auto cost_at = [&](int i, int j, int s) {
        return std::abs(left(clamp_to(i, W), clamp_to(j, H)) -
                        right(clamp_to(i - s, W), clamp_to(j, H)));
    };
    std::vector<int> ref(size_t(W * H));
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            int best_shift = 0, best_cost = INT_MAX;
            for (int s = 0; s < D; s++) {
                int cr = cost_at(i, j - 1, s) + cost_at(i, j, s) + cost_at(i, j + 1, s);
                if (cr < best_cost) {
                    best_cost = cr;
                    best_shift = s;
                }
            }
            ref[size_t(j * W + i)] = best_shift;
        }
    Buffer<int> got = p.realize({W, H});
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            INFO("x " << i << " y " << j);
            int found = ref[size_t(j * W + i)];
            REQUIRE(got(i, j) == found + ref[size_t(j * W + clamp_to(i + found, W))]);
        }
}

TEST_CASE("autoschedule: Funcs read at x plus a window's RVar are stencils", "[autoschedule]") {
    // A costly Func read over a 5x5 window by a sum computed per strip
    // (lens_blur's depth and radii, read by the blur): it was taken for a
    // data-dependent read and computed at root; as a stencil it goes per
    // strip of the output, in cache when the sum reads it.
    const int W = 100, H = 60, C = 2;
    Buffer<float> in(W, H, C);
    for (int c = 0; c < C; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) in(x, y, c) = float((x * 5 + y * 9 + c) % 23) / 23.0f;
    Var x("x"), y("y"), c("c");
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func soft("soft"), sums("sums"), out("out");
    soft(x, y) = sqrt(clamped(x, y, 0) * clamped(x, y, 1) + 1.0f) / (2.0f + clamped(x, y, 0));
    RDom box(-2, 5, -2, 5, "box");
    sums(x, y, c) = 0.0f;
    sums(x, y, c) += soft(x + box.x, y + box.y) * clamped(x + box.x, y + box.y, c);
    out(x, y, c) = sums(x, y, c) + 1.0f;
    Pipeline p(out);
    AutoSchedulerResults r = p.apply_autoscheduler({W, H, C}, get_jit_target_from_environment());
    INFO(r.schedule_source);
    CHECK(has(r.schedule_source, "soft.compute_at(out, yo)"));
    CHECK(has(r.schedule_source, "sums.compute_at(out, yo)"));
    // Its two channels are unrolled inside x, sharing the reads of soft.
    CHECK(has(r.schedule_source, "sums.compute_at(out, yo).bound(c, 0, 2)"));
    CHECK(loom_test::schedule_round_trip_problem(p) == "");

    auto at = [&](int i, int j, int k) { return in(clamp_to(i, W), clamp_to(j, H), k); };
    auto soft_at = [&](int i, int j) {
        return std::sqrt(at(i, j, 0) * at(i, j, 1) + 1.0f) / (2.0f + at(i, j, 0));
    };
    Buffer<float> got = p.realize({W, H, C});
    for (int k = 0; k < C; k++)
        for (int j = 0; j < H; j++)
            for (int i = 0; i < W; i++) {
                float s = 0;
                for (int v = -2; v <= 2; v++)
                    for (int u = -2; u <= 2; u++) s += soft_at(i + u, j + v) * at(i + u, j + v, k);
                INFO("x " << i << " y " << j << " c " << k);
                REQUIRE(std::fabs(got(i, j, k) - (s + 1.0f)) <= 1e-4f);
            }
}

TEST_CASE("autoschedule: a stencil read by a register-blocked sum is computed at root",
          "[autoschedule]") {
    // The sum over a window of one Func, the same for every channel up to
    // a factor, is blocked like a matrix product (its output tiled for it);
    // the Func it reads, a stencil, would go per strip of that output,
    // whose loops the product has already split (the scheduler threw).
    const int W = 80, H = 50, C = 4;
    Buffer<float> in(W, H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) in(x, y) = float((x * 3 + y * 7) % 19) / 19.0f;
    Var x("x"), y("y"), c("c");
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func soft("soft"), sums("sums"), out("out");
    soft(x, y) = sqrt(clamped(x, y) * clamped(x, y) + 1.0f) / (2.0f + clamped(x, y));
    RDom box(-1, 3, -1, 3, "box");
    sums(x, y, c) = 0.0f;
    sums(x, y, c) += soft(x + box.x, y + box.y) * cast<float>(c + 1);
    out(x, y, c) = sums(x, y, c) * 0.5f;
    Pipeline p(out);
    AutoSchedulerResults r = p.apply_autoscheduler({W, H, C}, get_jit_target_from_environment());
    INFO(r.schedule_source);
    CHECK(has(r.schedule_source, "soft.compute_root()"));
    CHECK(loom_test::schedule_round_trip_problem(p) == "");

    auto soft_at = [&](int i, int j) {
        float v = in(clamp_to(i, W), clamp_to(j, H));
        return std::sqrt(v * v + 1.0f) / (2.0f + v);
    };
    Buffer<float> got = p.realize({W, H, C});
    for (int k = 0; k < C; k++)
        for (int j = 0; j < H; j++)
            for (int i = 0; i < W; i++) {
                float s = 0;
                for (int v = -1; v <= 1; v++)
                    for (int u = -1; u <= 1; u++) s += soft_at(i + u, j + v) * float(k + 1);
                INFO("x " << i << " y " << j << " c " << k);
                REQUIRE(std::fabs(got(i, j, k) - s * 0.5f) <= 1e-4f);
            }
}

TEST_CASE("autoschedule: a sum read at coordinates that follow the reader's rows goes per strip",
          "[autoschedule]") {
    // As apps/resize: the horizontal pass, a sum over taps, is read by the
    // vertical one at taps around floor((y + 0.5) / scale): not Vars plus
    // constants, yet a strip of output rows reads a strip of its rows. It
    // was computed at root, a whole image written and read back.
    const int W = 53, H = 41, C = 2, OW = 85, OH = 66, T = 4;
    const float scale = 1.6f;
    Buffer<float> in(W, H, C);
    for (int c = 0; c < C; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) in(x, y, c) = float((x * 5 + y * 3 + c * 7) % 17);
    Var x("x"), y("y"), c("c");
    Param<float> s("s");
    s.set(scale);
    Func clamped = BoundaryConditions::repeat_edge(in);
    auto first = [&](Expr v) { return cast<int>(floor((cast<float>(v) + 0.5f) / s)) - 1; };
    RDom tap(0, T, "tap");
    // A table of weights per output column and tap (normalized over the
    // taps), the same for every strip of rows: never recomputed per strip.
    // With the channels of its reader unrolled inside x it is inlined there,
    // computed once per row for all channels (apps/resize's heuristic
    // schedule, which does the same, went from 12.3 to 10.2 ms on AMD EPYC).
    Var k("k");
    Func weight("weight"), across("across"), down("down"), out("out");
    auto distance = [&](Expr v, Expr t) {
        return abs(cast<float>(first(v) + t) - (cast<float>(v) + 0.5f) / s);
    };
    Func raw("raw"), total("total");
    raw(x, k) =
        select(distance(x, k) < 1.0f, 2.0f - distance(x, k), 0.5f / (1.0f + distance(x, k)));
    total(x) = 0.0f;
    total(x) += raw(x, tap);
    weight(x, k) = raw(x, k) / total(x);
    across(x, y, c) = 0.0f;
    across(x, y, c) += clamped(first(x) + tap, y, c) * weight(x, tap);
    down(x, y, c) = 0.0f;
    down(x, y, c) += across(x, first(y) + tap, c) * (2.0f - cast<float>(tap) * 0.25f);
    out(x, y, c) = down(x, y, c) * 0.5f;
    Pipeline p(out);
    AutoSchedulerResults r = p.apply_autoscheduler({OW, OH, C}, get_jit_target_from_environment());
    INFO(r.schedule_source);
    CHECK(has(r.schedule_source, "across.compute_at(out, yo)"));
    CHECK(!has(r.schedule_source, "weight.compute_at("));
    CHECK(has(r.schedule_source, "across.compute_at(out, yo).bound(c, 0, 2)"));
    CHECK(has(r.schedule_source, "down.compute_at(out, yo)"));
    CHECK(loom_test::schedule_round_trip_problem(p) == "");

    auto first_of = [&](int v) { return int(std::floor((float(v) + 0.5f) / scale)) - 1; };
    auto raw_at = [&](int i, int t) {
        float d = std::fabs(float(first_of(i) + t) - (float(i) + 0.5f) / scale);
        return d < 1.0f ? 2.0f - d : 0.5f / (1.0f + d);
    };
    auto weight_at = [&](int i, int t) {
        float sum = 0;
        for (int u = 0; u < T; u++) sum += raw_at(i, u);
        return raw_at(i, t) / sum;
    };
    auto across_at = [&](int i, int j, int ch) {
        float a = 0;
        for (int t = 0; t < T; t++)
            a += in(clamp_to(first_of(i) + t, W), clamp_to(j, H), ch) * weight_at(i, t);
        return a;
    };
    Buffer<float> got = p.realize({OW, OH, C});
    for (int ch = 0; ch < C; ch++)
        for (int j = 0; j < OH; j++)
            for (int i = 0; i < OW; i++) {
                float d = 0;
                for (int t = 0; t < T; t++)
                    d += across_at(i, first_of(j) + t, ch) * (2.0f - float(t) * 0.25f);
                INFO("x " << i << " y " << j << " c " << ch);
                REQUIRE(std::fabs(got(i, j, ch) - d * 0.5f) <= 1e-3f);
            }
}
