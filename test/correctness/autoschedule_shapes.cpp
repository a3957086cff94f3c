// The "Loom" auto-scheduler on pipeline shapes whose intermediate Funcs
// differ from the output in size or layout: scans down the columns with
// transposes (an IIR filter), weighted sums over a window with channels,
// and intermediates with small dimensions of their own. Each result is
// checked against plain C++, and the placement the rule is for is checked
// in the printed schedule.

#include <catch2/catch.hpp>

#include <algorithm>
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

} // namespace

TEST_CASE("autoschedule: scans run per strip of the transpose that reads them", "[autoschedule]") {
    // A first-order IIR filter down the columns, then across the rows
    // through a transpose, as apps/iir_blur. The scans were computed at
    // root over the whole image and the transposes were inlined (their
    // consumers' vectors gathered across rows).
    const int W = 173, H = 91;
    Buffer<float> in(W, H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) in(x, y) = float((x * 7 + y * 13) % 64) / 64.0f;
    Var x("x"), y("y");
    const float a = 0.25f;
    auto filter = [&](Func &blur, Func src, int height) {
        blur(x, y) = undef<float>();
        blur(x, 0) = src(x, 0);
        RDom down(1, height - 1, "down");
        blur(x, down) = (1 - a) * blur(x, down - 1) + a * src(x, down);
    };
    Func source("source"), columns("columns"), transposed("transposed"), rows("rows"), out("out");
    source(x, y) = in(x, y);
    filter(columns, source, H);
    transposed(x, y) = columns(y, x);
    filter(rows, transposed, W);
    out(x, y) = rows(y, x);
    Pipeline p(out);
    AutoSchedulerResults r = p.apply_autoscheduler({W, H}, get_jit_target_from_environment());
    INFO(r.schedule_source);
    CHECK(has(r.schedule_source, "columns.compute_at(transposed, yo)"));
    CHECK(has(r.schedule_source, "rows.compute_at(out, yo)"));
    CHECK(has(r.schedule_source, "transposed.compute_root()"));
    CHECK(has(r.schedule_source, "unroll(yt)")); // transposed in square tiles
    CHECK(loom_test::schedule_round_trip_problem(p) == "");

    std::vector<float> col(size_t(W * H)), row(size_t(W * H));
    for (int i = 0; i < W; i++) {
        col[size_t(i)] = in(i, 0);
        for (int j = 1; j < H; j++)
            col[size_t(j * W + i)] = (1 - a) * col[size_t((j - 1) * W + i)] + a * in(i, j);
    }
    // rows(i, j) filters transposed(i, j) = col(j, i) down j, over W rows.
    for (int i = 0; i < H; i++) {
        row[size_t(i)] = col[size_t(i * W)];
        for (int j = 1; j < W; j++)
            row[size_t(j * H + i)] =
                (1 - a) * row[size_t((j - 1) * H + i)] + a * col[size_t(i * W + j)];
    }
    Buffer<float> got = p.realize({W, H});
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            INFO("x " << i << " y " << j);
            REQUIRE(std::fabs(got(i, j) - row[size_t(i * H + j)]) <= 1e-5f);
        }
}

TEST_CASE("autoschedule: a weighted sum over a window with channels goes per strip",
          "[autoschedule]") {
    // As apps/lens_blur and nl_means: sums of w * image over a window, with
    // the weights' total as a fourth channel, divided by the output. Such a
    // sum reads the image at every coordinate of a tile: it was taken for a
    // matrix product, register-blocked per tile, with the channels outside
    // (the sums recomputed per output channel).
    const int W = 120, H = 70, R = 2;
    Buffer<float> in(W, H, 3);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) in(x, y, c) = float((x * 3 + y * 5 + c * 17) % 32);
    Var x("x"), y("y"), c("c");
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func weight("weight"), sums("sums"), out("out");
    weight(x, y) = 1.0f / (1.0f + clamped(x, y, 0) + clamped(x, y, 1));
    RDom box(-R, 2 * R + 1, -R, 2 * R + 1, "box");
    Expr w = weight(x + box.x, y + box.y);
    sums(x, y, c) = 0.0f;
    sums(x, y, c) += w * select(c < 3, clamped(x + box.x, y + box.y, min(c, 2)), 1.0f);
    out(x, y, c) = sums(x, y, c) / sums(x, y, 3);
    Pipeline p(out);
    AutoSchedulerResults r = p.apply_autoscheduler({W, H, 3}, get_jit_target_from_environment());
    INFO(r.schedule_source);
    CHECK(has(r.schedule_source, "sums.compute_at(out, yo)"));
    CHECK(!has(r.schedule_source, "unroll(y_ui)")); // not register-blocked
    CHECK(loom_test::schedule_round_trip_problem(p) == "");

    auto at = [&](int i, int j, int k) {
        return in(std::min(std::max(i, 0), W - 1), std::min(std::max(j, 0), H - 1), k);
    };
    Buffer<float> got = p.realize({W, H, 3});
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < H; j++)
            for (int i = 0; i < W; i++) {
                float s = 0, total = 0;
                for (int dy = -R; dy <= R; dy++)
                    for (int dx = -R; dx <= R; dx++) {
                        float wt = 1.0f / (1.0f + at(i + dx, j + dy, 0) + at(i + dx, j + dy, 1));
                        s += wt * at(i + dx, j + dy, k);
                        total += wt;
                    }
                INFO("x " << i << " y " << j << " c " << k);
                REQUIRE(std::fabs(got(i, j, k) - s / total) <= 1e-4f * std::max(1.0f, s / total));
            }
}

namespace {

/** A two-channel intermediate read by a one-channel output at half its
 * x resolution (an inverse wavelet's rows), through a table of x / 2 when
 * `through_table` (a data-dependent read). */
void check_halves(bool through_table, const std::vector<std::string> &expected) {
    const int W = 160, H = 90;
    Buffer<int> in(W, H, 2);
    for (int c = 0; c < 2; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) in(x, y, c) = (x * 5 + y * 3 + c * 11) % 100;
    Var x("x"), y("y"), c("c");
    Func halves("halves"), out("out");
    halves(x, y, c) = in(x, y / 2, c) * 3 + (y % 2) * in(x, y / 2, 1 - c);
    Buffer<int> table(2 * W);
    for (int i = 0; i < 2 * W; i++) table(i) = i / 2;
    Expr hx = through_table ? clamp(table(x), 0, W - 1) : x / 2;
    out(x, y) = halves(hx, y, 0) - halves(hx, y, 1) * (x % 2);
    Pipeline p(out);
    AutoSchedulerResults r =
        p.apply_autoscheduler({2 * W, 2 * H}, get_jit_target_from_environment());
    INFO(r.schedule_source);
    for (const std::string &e : expected) CHECK(has(r.schedule_source, e));
    CHECK(loom_test::schedule_round_trip_problem(p) == "");
    Buffer<int> got = p.realize({2 * W, 2 * H});
    auto h = [&](int i, int j, int k) {
        return in(i, j / 2, k) * 3 + (j % 2) * in(i, j / 2, 1 - k);
    };
    for (int j = 0; j < 2 * H; j++)
        for (int i = 0; i < 2 * W; i++) {
            INFO("x " << i << " y " << j);
            REQUIRE(got(i, j) == h(i / 2, j, 0) - h(i / 2, j, 1) * (i % 2));
        }
}

} // namespace

TEST_CASE("autoschedule: an intermediate's own sizes choose its strips", "[autoschedule]") {
    // Read through a table, it is computed at root. It had no sizes of its
    // own: its unknown channel dimension was taken for the strips, and it
    // ran as one task.
    check_halves(true,
                 {"halves.compute_root().split(y, yo, yi", "reorder(x_vi, ci, x, co, yi, yo)"});
}

TEST_CASE("autoschedule: a Func read at scaled coordinates goes per strip", "[autoschedule]") {
    // x / 2 (and 2 * x, pyramids' levels) bounds the region a strip reads:
    // it is computed per strip of its one consumer, not at root.
    check_halves(false, {"halves.compute_at(out, yo)"});
}

TEST_CASE("autoschedule: mixed channels and interleaved planes are stored per strip",
          "[autoschedule]") {
    // As apps/camera_pipe: four planes of a mosaic; a mix of the planes per
    // channel (each channel reads all four); the mix interleaved back to
    // full resolution and sharpened by a stencil. The planes were inlined
    // into the mix (computed once per channel read), and the interleave
    // into the stencil (five gathers per pixel).
    const int W = 70, H = 45;
    Buffer<int> in(2 * W, 2 * H);
    for (int y = 0; y < 2 * H; y++)
        for (int x = 0; x < 2 * W; x++) in(x, y) = (x * 7 + y * 3) % 50;
    Var x("x"), y("y"), c("c");
    Func quads("quads"), mixed("mixed"), flat("flat"), out("out");
    quads(x, y, c) = in(2 * x + c % 2, 2 * y + c / 2) * (c + 1) + 7;
    mixed(x, y, c) =
        quads(x, y, 0) * (c + 1) + quads(x, y, 1) * (c + 2) + quads(x, y, 2) - quads(x, y, 3) * c;
    Expr px = clamp(x, 0, 2 * W - 1), py = clamp(y, 0, 2 * H - 1);
    flat(x, y) = mixed(px / 2, py / 2, px % 2 + 2 * (py % 2));
    out(x, y) = flat(x - 1, y) + 2 * flat(x, y) + flat(x + 1, y) + flat(x, y - 1) + flat(x, y + 1);
    Pipeline p(out);
    AutoSchedulerResults r =
        p.apply_autoscheduler({2 * W, 2 * H}, get_jit_target_from_environment());
    INFO(r.schedule_source);
    CHECK(has(r.schedule_source, "quads.compute_at("));
    CHECK(has(r.schedule_source, "flat.compute_at(out, yo)"));
    CHECK(loom_test::schedule_round_trip_problem(p) == "");
    auto q = [&](int i, int j, int k) { return in(2 * i + k % 2, 2 * j + k / 2) * (k + 1) + 7; };
    auto m = [&](int i, int j, int k) {
        return q(i, j, 0) * (k + 1) + q(i, j, 1) * (k + 2) + q(i, j, 2) - q(i, j, 3) * k;
    };
    auto f = [&](int i, int j) {
        i = std::min(std::max(i, 0), 2 * W - 1);
        j = std::min(std::max(j, 0), 2 * H - 1);
        return m(i / 2, j / 2, i % 2 + 2 * (j % 2));
    };
    Buffer<int> got = p.realize({2 * W, 2 * H});
    for (int j = 0; j < 2 * H; j++)
        for (int i = 0; i < 2 * W; i++) {
            INFO("x " << i << " y " << j);
            REQUIRE(got(i, j) ==
                    f(i - 1, j) + 2 * f(i, j) + f(i + 1, j) + f(i, j - 1) + f(i, j + 1));
        }
}

TEST_CASE("autoschedule: stages read only at their own row are computed per row",
          "[autoschedule]") {
    // As apps/max_filter: a vertical stage, then a chain of horizontal
    // maxima. The horizontal stages have no vertical halo: per row of the
    // strip they stay in the first-level cache (they were computed per
    // strip, each a whole strip of rows).
    const int W = 150, H = 80;
    Buffer<int> in(W, H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) in(x, y) = (x * 13 + y * 29) % 97;
    Var x("x"), y("y");
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func vertical("vertical"), h1("h1"), h2("h2"), out("out");
    vertical(x, y) = max(clamped(x, y - 2), clamped(x, y + 2));
    h1(x, y) = max(vertical(x - 1, y), vertical(x + 1, y));
    h2(x, y) = max(h1(x - 2, y), h1(x + 2, y));
    out(x, y) = max(h2(x - 4, y), h2(x + 4, y));
    Pipeline p(out);
    AutoSchedulerResults r = p.apply_autoscheduler({W, H}, get_jit_target_from_environment());
    INFO(r.schedule_source);
    CHECK(has(r.schedule_source, "h1.compute_at(out, yi)"));
    CHECK(has(r.schedule_source, "h2.compute_at(out, yi)"));
    CHECK(loom_test::schedule_round_trip_problem(p) == "");
    auto at = [&](int i, int j) {
        return in(std::min(std::max(i, 0), W - 1), std::min(std::max(j, 0), H - 1));
    };
    auto v = [&](int i, int j) { return std::max(at(i, j - 2), at(i, j + 2)); };
    auto f1 = [&](int i, int j) { return std::max(v(i - 1, j), v(i + 1, j)); };
    auto f2 = [&](int i, int j) { return std::max(f1(i - 2, j), f1(i + 2, j)); };
    Buffer<int> got = p.realize({W, H});
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            INFO("x " << i << " y " << j);
            REQUIRE(got(i, j) == std::max(f2(i - 4, j), f2(i + 4, j)));
        }
}

TEST_CASE("autoschedule: an update runs one parallel loop, outermost", "[autoschedule]") {
    // A sum over a few columns per pixel and channel: its rows in parallel.
    // The parallel loop stayed where it was made, inside the channels: one
    // parallel loop per channel.
    const int W = 90, H = 50;
    Buffer<int> in(W + 2, H, 3);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W + 2; x++) in(x, y, c) = (x * 3 + y * 7 + c) % 31;
    Var x("x"), y("y"), c("c");
    RDom r(0, 3, "r");
    Func out("out");
    out(x, y, c) = 0;
    out(x, y, c) += in(x + r, y, c);
    Pipeline p(out);
    AutoSchedulerResults result =
        p.apply_autoscheduler({W, H, 3}, get_jit_target_from_environment());
    INFO(result.schedule_source);
    CHECK(has(result.schedule_source, "reorder(r_x, x_vi, x, c, y).vectorize(x_vi).parallel(y)"));
    CHECK(loom_test::schedule_round_trip_problem(p) == "");
    Buffer<int> got = p.realize({W, H, 3});
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < H; j++)
            for (int i = 0; i < W; i++) {
                INFO("x " << i << " y " << j << " c " << k);
                REQUIRE(got(i, j, k) == in(i, j, k) + in(i + 1, j, k) + in(i + 2, j, k));
            }
}

TEST_CASE("autoschedule: a channel mix is register-blocked across its output channels",
          "[autoschedule]") {
    // A 1x1 convolution: out(x, y, c) = sum over k of in(x, y, k) * w(k, c).
    // The operand read along x, in(x, y, k), leaves out c, not y: blocks of
    // x by c reuse each vector of it for every channel of the block (blocks
    // of x by y loaded the whole input once per output channel). 42
    // channels: the last block of 4 shifts inwards.
    const int W = 61, H = 37, K = 16, C = 42;
    Buffer<float> in(W, H, K), w(K, C);
    for (int k = 0; k < K; k++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) in(x, y, k) = float((x + 2 * y + 3 * k) % 11) - 5.0f;
    for (int c = 0; c < C; c++)
        for (int k = 0; k < K; k++) w(k, c) = float((k * 7 + c * 5) % 9) * 0.25f - 1.0f;
    Var x("x"), y("y"), c("c");
    RDom r(0, K, "r");
    Func mix("mix"), out("out");
    mix(x, y, c) = 0.0f;
    mix(x, y, c) += in(x, y, r) * w(r, c);
    out(x, y, c) = max(mix(x, y, c), 0.0f);
    Pipeline p(out);
    AutoSchedulerResults result =
        p.apply_autoscheduler({W, H, C}, get_jit_target_from_environment());
    INFO(result.schedule_source);
    CHECK(has(result.schedule_source, "mix.compute_at(out, x)"));
    CHECK(has(result.schedule_source, ".split(c, c, ci, 4)"));
    CHECK(loom_test::schedule_round_trip_problem(p) == "");
    Buffer<float> got = p.realize({W, H, C});
    for (int k = 0; k < C; k++)
        for (int j = 0; j < H; j++)
            for (int i = 0; i < W; i++) {
                float s = 0;
                for (int q = 0; q < K; q++) s += in(i, j, q) * w(q, k);
                INFO("x " << i << " y " << j << " c " << k);
                REQUIRE(std::fabs(got(i, j, k) - std::max(s, 0.0f)) <= 1e-4f);
            }
}

TEST_CASE("autoschedule: 8-bit stages are vectorized by their values' width, not their "
          "coordinates'",
          "[autoschedule]") {
    // A max filter on 8-bit pixels computes its coordinates (y + 1, a
    // clamp) in 32 bits, once per vector: counted as the stage's width,
    // they made its vectors a quarter as wide as the target's.
    const int W = 301, H = 67;
    Buffer<uint8_t> in(W, H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) in(x, y) = uint8_t((x * 37 + y * 11) % 256);
    Var x("x"), y("y");
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func vmax("vmax"), out("out");
    vmax(x, y) = max(clamped(x, y - 1), clamped(x, y), clamped(x, y + 1));
    out(x, y) = cast<int32_t>(vmax(x - 1, y)) + cast<int32_t>(vmax(x + 1, y)) * 2;
    Pipeline p(out);
    AutoSchedulerResults r = p.apply_autoscheduler({W, H}, get_jit_target_from_environment());
    INFO(r.schedule_source);
    auto lanes = [&](const std::string &func) {
        size_t at = r.schedule_source.find(func + ".");
        REQUIRE(at != std::string::npos);
        size_t split = r.schedule_source.find("x_vi, ", at);
        REQUIRE(split != std::string::npos);
        return std::stoi(r.schedule_source.substr(split + 6));
    };
    CHECK(lanes("vmax") == 4 * lanes("out"));
    CHECK(loom_test::schedule_round_trip_problem(p) == "");

    auto at = [&](int i, int j) {
        return int(in(std::min(std::max(i, 0), W - 1), std::min(std::max(j, 0), H - 1)));
    };
    auto vm = [&](int i, int j) { return std::max({at(i, j - 1), at(i, j), at(i, j + 1)}); };
    Buffer<int32_t> got = p.realize({W, H});
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            INFO("x " << i << " y " << j);
            REQUIRE(got(i, j) == vm(i - 1, j) + vm(i + 1, j) * 2);
        }
}

TEST_CASE("autoschedule: an output's channels with their own formulas are computed together",
          "[autoschedule]") {
    // Histogram equalization's last stage in small: a luma shared by three
    // channel formulas chosen by mux(c, ...). With the channels outside x
    // the luma was stored as a plane (read back per channel); now each
    // vector of x computes the three channels unrolled, the luma inlined.
    // The split is guarded, so more channels than planned stay correct.
    const int W = 67, H = 45;
    Buffer<uint8_t> in(W, H, 3);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) in(x, y, c) = uint8_t((x * 29 + y * 7 + c * 83) % 256);
    Var x("x"), y("y"), c("c");
    Func luma("luma"), out("out");
    auto channel = [&](int k) { return cast<int32_t>(in(x, y, k)); };
    Expr r = channel(0), g = channel(1), b = channel(2);
    luma(x, y) = (77 * r + 150 * g + 29 * b + 128) >> 8;
    Expr red = luma(x, y) + ((359 * (r - luma(x, y)) + 128) >> 8);
    Expr green = luma(x, y) - ((88 * (b - luma(x, y)) + 128) >> 8);
    Expr blue = luma(x, y) + ((454 * (b - luma(x, y)) + 128) >> 8);
    out(x, y, c) = cast<uint8_t>(clamp(mux(c, {red, green, blue}), 0, 255));
    Pipeline p(out);
    AutoSchedulerResults res = p.apply_autoscheduler({W, H, 3}, get_jit_target_from_environment());
    INFO(res.schedule_source);
    CHECK(!has(res.schedule_source, "luma."));
    CHECK(has(res.schedule_source, ".split(c, co, ci, 3, TailStrategy::GuardWithIf)"));
    CHECK(has(res.schedule_source, ".unroll(ci)"));
    CHECK(loom_test::schedule_round_trip_problem(p) == "");

    auto want = [&](int i, int j, int k) {
        int rr = in(i, j, 0), gg = in(i, j, 1), bb = in(i, j, 2);
        int l = (77 * rr + 150 * gg + 29 * bb + 128) >> 8;
        int v = k == 0   ? l + ((359 * (rr - l) + 128) >> 8)
                : k == 1 ? l - ((88 * (bb - l) + 128) >> 8)
                         : l + ((454 * (bb - l) + 128) >> 8);
        return std::min(std::max(v, 0), 255);
    };
    // Four channels where three were planned: mux() repeats the last.
    for (int channels : {3, 4}) {
        Buffer<uint8_t> got = p.realize({W, H, channels});
        for (int k = 0; k < channels; k++)
            for (int j = 0; j < H; j++)
                for (int i = 0; i < W; i++) {
                    INFO("x " << i << " y " << j << " c " << k);
                    REQUIRE(int(got(i, j, k)) == want(i, j, std::min(k, 2)));
                }
    }
}

TEST_CASE("autoschedule: small dimensions past x and y are unrolled inside x", "[autoschedule]") {
    // A colour matrix (camera_pipe's correction in small): every output
    // colour c reads the same three input channels, so each vector of x
    // computes the three colours together and loads the inputs once. c is
    // not compared (no mux), which the rule for channels used to need.
    const int W = 61, H = 23;
    Buffer<int16_t> in(W, H, 3);
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < H; j++)
            for (int i = 0; i < W; i++) in(i, j, k) = int16_t((i * 31 + j * 17 + k * 101) % 1000);
    Buffer<int16_t> matrix(3, 3);
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < 3; k++) matrix(k, c) = int16_t((c == k ? 200 : 20) - 10 * k);
    Var x("x"), y("y"), c("c");
    Func mixed("mixed"), out("out");
    auto term = [&](int k) { return cast<int32_t>(matrix(k, c)) * in(x, y, k); };
    mixed(x, y, c) = (term(0) + term(1) + term(2)) >> 8;
    out(x, y, c) = cast<int16_t>(mixed(x, y, c) + mixed(x, y, c) / 4);
    Pipeline p(out);
    AutoSchedulerResults res = p.apply_autoscheduler({W, H, 3}, get_jit_target_from_environment());
    INFO(res.schedule_source);
    CHECK(has(res.schedule_source, ".split(c, co, ci, 3, TailStrategy::GuardWithIf)"));
    CHECK(has(res.schedule_source, ".unroll(ci)"));
    CHECK(loom_test::schedule_round_trip_problem(p) == "");
    auto want = [&](int i, int j, int k) {
        int m = 0;
        for (int q = 0; q < 3; q++) m += matrix(q, k) * in(i, j, q);
        m >>= 8;
        return int16_t(m + m / 4);
    };
    Buffer<int16_t> got = p.realize({W, H, 3});
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < H; j++)
            for (int i = 0; i < W; i++) {
                INFO("x " << i << " y " << j << " c " << k);
                REQUIRE(got(i, j, k) == want(i, j, k));
            }
}

TEST_CASE("autoschedule: a scatter to bins chosen by the data is not vectorized",
          "[autoschedule]") {
    // A bilateral grid's splat in small: each cell (x, y) adds the s x s
    // pixels it covers into the bin their value picks, keeping their sum
    // (c = 0) and count (c = 1); a blur along z and x reads the grid, so
    // the splat is computed per strip. Its vectors along x gathered the
    // pixels at stride s and scattered the sums lane by lane, 25% slower
    // than scalar code on apps/bilateral_grid; its channels were unrolled
    // outermost, so each pixel was loaded once per channel.
    const int s = 4, GW = 37, GH = 19, Z = 6;
    const int W = GW * s + 3, H = GH * s + 1;
    Buffer<float> in(W, H);
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) in(i, j) = float((i * 37 + j * 11) % 101) / 100.0f;
    Var x("x"), y("y"), z("z"), c("c");
    RDom cell(0, s, 0, s, "cell");
    Func clamped = BoundaryConditions::repeat_edge(in);
    Expr sample = clamp(clamped(x * s + cell.x, y * s + cell.y), 0.0f, 1.0f);
    Expr bin = cast<int>(sample * float(Z - 1) + 0.5f);
    Func grid("grid"), blur_z("blur_z"), blur_x("blur_x"), out("out");
    grid(x, y, z, c) = 0.0f;
    grid(x, y, bin, c) += select(c == 0, sample, 1.0f);
    blur_z(x, y, z, c) = grid(x, y, z - 1, c) + 2.0f * grid(x, y, z, c) + grid(x, y, z + 1, c);
    blur_x(x, y, z, c) =
        blur_z(x - 1, y, z, c) + 2.0f * blur_z(x, y, z, c) + blur_z(x + 1, y, z, c);
    out(x, y, z) = blur_x(x, y, z, 0) / (blur_x(x, y, z, 1) + 1.0f);
    Pipeline p(out);
    AutoSchedulerResults res =
        p.apply_autoscheduler({GW, GH, Z}, get_jit_target_from_environment());
    INFO(res.schedule_source);
    size_t at = res.schedule_source.find("grid.update(0)");
    REQUIRE(at != std::string::npos);
    std::string update = res.schedule_source.substr(at, res.schedule_source.find('\n', at) - at);
    CHECK(!has(update, "vectorize"));
    CHECK(has(update, "reorder(c, x, cell_x, cell_y, y)"));
    CHECK(loom_test::schedule_round_trip_problem(p) == "");

    // The grid over x in [-1, GW] (blur_x's reach), from the clamped image.
    auto pixel = [&](int i, int j) {
        return in(std::min(std::max(i, 0), W - 1), std::min(std::max(j, 0), H - 1));
    };
    std::vector<float> g(size_t((GW + 2) * GH * Z * 2), 0.0f);
    auto at_grid = [&](int i, int j, int k, int ch) -> float & {
        return g[size_t((((ch * Z + k) * GH + j) * (GW + 2)) + (i + 1))];
    };
    for (int j = 0; j < GH; j++)
        for (int i = -1; i <= GW; i++)
            for (int cy = 0; cy < s; cy++)
                for (int cx = 0; cx < s; cx++) {
                    float v = pixel(i * s + cx, j * s + cy);
                    int k = int(v * float(Z - 1) + 0.5f);
                    at_grid(i, j, k, 0) += v;
                    at_grid(i, j, k, 1) += 1.0f;
                }
    auto grid_at = [&](int i, int j, int k, int ch) {
        return k < 0 || k >= Z ? 0.0f : at_grid(i, j, k, ch);
    };
    auto bz = [&](int i, int j, int k, int ch) {
        return grid_at(i, j, k - 1, ch) + 2.0f * grid_at(i, j, k, ch) + grid_at(i, j, k + 1, ch);
    };
    auto bx = [&](int i, int j, int k, int ch) {
        return bz(i - 1, j, k, ch) + 2.0f * bz(i, j, k, ch) + bz(i + 1, j, k, ch);
    };
    Buffer<float> got = p.realize({GW, GH, Z});
    for (int k = 0; k < Z; k++)
        for (int j = 0; j < GH; j++)
            for (int i = 0; i < GW; i++) {
                INFO("x " << i << " y " << j << " z " << k);
                float want = bx(i, j, k, 0) / (bx(i, j, k, 1) + 1.0f);
                REQUIRE(std::fabs(got(i, j, k) - want) <= 1e-4f * std::max(1.0f, std::fabs(want)));
            }
}

TEST_CASE("autoschedule: a mosaic's planes are stored per strip and its quads computed per strip",
          "[autoschedule]") {
    // camera_pipe in small: planes read the mosaic at stride 2 and a
    // suppression reads them at five offsets; quads of 2x2 sites are read
    // back per pixel at (clamp(x) / 2, clamp(y) / 2, site = x % 2 + 2 (y % 2)).
    // Inlined, the planes' gathers were repeated per offset; the quads,
    // read at coordinates no rule knew, went to root with their producers
    // (a whole image stored and read back): camera_pipe's heuristic
    // schedule ran at 0.83 of the hand schedule, 1.04 with both rules.
    const int W = 70, H = 46; // the mosaic: 35 x 23 quads
    Buffer<uint16_t> in(W, H);
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) in(i, j) = uint16_t((i * 97 + j * 41 + (i * j) % 13) % 1024);
    Var x("x"), y("y"), c("c"), site("site");
    Func planes("planes"), denoised("denoised"), quads("quads"), out("out");
    const int QW = W / 2, QH = H / 2;
    planes(x, y, c) = in(2 * clamp(x, 0, QW - 1) + c % 2, 2 * clamp(y, 0, QH - 1) + c / 2);
    Expr brightest = max(max(planes(x - 1, y, c), planes(x + 1, y, c)),
                         max(planes(x, y - 1, c), planes(x, y + 1, c)));
    denoised(x, y, c) = min(planes(x, y, c), brightest);
    auto d = [&](int plane, int dx) { return cast<int32_t>(denoised(x + dx, y, plane)); };
    quads(x, y, site) =
        cast<uint16_t>(mux(site, {d(0, 0) * 3 + d(1, -1), d(1, 0) * 5 - d(0, 1) + 4096,
                                  d(2, 0) + d(3, 0) * 2, d(3, 1) * 7 - d(2, 0) + 8192}) >>
                       2);
    Expr px = clamp(x, 0, W - 1), py = clamp(y, 0, H - 1);
    out(x, y) = quads(px / 2, py / 2, px % 2 + 2 * (py % 2)) + 1;
    Pipeline p(out);
    AutoSchedulerResults res = p.apply_autoscheduler({W, H}, get_jit_target_from_environment());
    INFO(res.schedule_source);
    CHECK(has(res.schedule_source, "planes.compute_at(out, yo)"));
    CHECK(has(res.schedule_source, "denoised.compute_at(out, yo)"));
    CHECK(has(res.schedule_source, "quads.compute_at(out, yo)"));
    CHECK(loom_test::schedule_round_trip_problem(p) == "");

    auto plane = [&](int i, int j, int k) {
        i = std::min(std::max(i, 0), QW - 1);
        j = std::min(std::max(j, 0), QH - 1);
        return int(in(2 * i + k % 2, 2 * j + k / 2));
    };
    auto den = [&](int i, int j, int k) {
        int b = std::max(std::max(plane(i - 1, j, k), plane(i + 1, j, k)),
                         std::max(plane(i, j - 1, k), plane(i, j + 1, k)));
        return std::min(plane(i, j, k), b);
    };
    auto quad = [&](int i, int j, int s) {
        int v[4] = {den(i, j, 0) * 3 + den(i - 1, j, 1), den(i, j, 1) * 5 - den(i + 1, j, 0) + 4096,
                    den(i, j, 2) + den(i, j, 3) * 2, den(i + 1, j, 3) * 7 - den(i, j, 2) + 8192};
        return int(uint16_t(v[s]) >> 2);
    };
    Buffer<uint16_t> got = p.realize({W, H});
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            INFO("x " << i << " y " << j);
            REQUIRE(got(i, j) == uint16_t(quad(i / 2, j / 2, i % 2 + 2 * (j % 2)) + 1));
        }
}

TEST_CASE("autoschedule: a table of quotients by unknown divisors is stored, not inlined",
          "[autoschedule]") {
    // As lens_blur's share of a circle, 65536 / area(k), read per pixel at
    // a radius from the data: a few operations, but an integer division by
    // a value not known at compile time divides lane by lane. Inlined, it
    // cost lens_blur 10%.
    const int W = 83, H = 29;
    Buffer<uint8_t> in(W, H);
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) in(i, j) = uint8_t((i * 13 + j * 7) % 11);
    Buffer<int> areas(9);
    for (int i = 0; i < 9; i++) areas(i) = i * 3 + 1;
    Var x("x"), y("y"), k("k");
    Func spread("spread"), out("out");
    spread(k) = 65536 / areas(k);
    out(x, y) = spread(clamp(cast<int32_t>(in(x, y)), 0, 8)) + x;
    spread.bound(k, 0, 9);
    Pipeline p(out);
    AutoSchedulerResults res = p.apply_autoscheduler({W, H}, get_jit_target_from_environment());
    INFO(res.schedule_source);
    CHECK(has(res.schedule_source, "spread.compute_root()"));
    CHECK(loom_test::schedule_round_trip_problem(p) == "");
    Buffer<int> got = p.realize({W, H});
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            INFO("x " << i << " y " << j);
            REQUIRE(got(i, j) == 65536 / (std::min(int(in(i, j)), 8) * 3 + 1) + i);
        }
}

TEST_CASE("autoschedule: a few operations on an image read by several groups are inlined",
          "[autoschedule]") {
    // As interpolate's finest level: a premultiplied colour read pointwise
    // by one output and at 2 x - 1, 2 x, 2 x + 1 by another. At root it was
    // written and read back whole (96 MB in interpolate, 15% of its time).
    const int W = 67, H = 31;
    Buffer<float> in(2 * W + 1, H, 4);
    for (int k = 0; k < 4; k++)
        for (int j = 0; j < H; j++)
            for (int i = 0; i < 2 * W + 1; i++)
                in(i, j, k) = float((i * 7 + j * 3 + k * 5) % 17) / 16.0f;
    Var x("x"), y("y"), c("c");
    Func premultiplied("premultiplied"), same("same"), halved("halved");
    premultiplied(x, y, c) = in(x, y, c) * select(c == 3, 1.0f, in(x, y, 3));
    same(x, y, c) = premultiplied(x, y, c) * 2.0f;
    halved(x, y, c) = (premultiplied(2 * x, y, c) + 2.0f * premultiplied(2 * x + 1, y, c) +
                       premultiplied(2 * x + 2, y, c)) *
                      0.25f;
    Pipeline p({same, halved});
    AutoSchedulerResults res = p.apply_autoscheduler({W, H, 4}, get_jit_target_from_environment());
    INFO(res.schedule_source);
    CHECK(!has(res.schedule_source, "premultiplied."));
    CHECK(loom_test::schedule_round_trip_problem(p) == "");
    auto pm = [&](int i, int j, int k) { return in(i, j, k) * (k == 3 ? 1.0f : in(i, j, 3)); };
    Realization r = p.realize({W, H, 4});
    Buffer<float> got_same = r[0], got_halved = r[1];
    for (int k = 0; k < 4; k++)
        for (int j = 0; j < H; j++)
            for (int i = 0; i < W; i++) {
                INFO("x " << i << " y " << j << " c " << k);
                REQUIRE(got_same(i, j, k) == pm(i, j, k) * 2.0f);
                float want =
                    (pm(2 * i, j, k) + 2.0f * pm(2 * i + 1, j, k) + pm(2 * i + 2, j, k)) * 0.25f;
                REQUIRE(std::fabs(got_halved(i, j, k) - want) <= 1e-6f);
            }
}

TEST_CASE("autoschedule: products read at their own point are inlined into the sums over them",
          "[autoschedule]") {
    // harris in small: each product of the gradients is one multiplication
    // of two values at its own point, summed over a 3x3 box. Stored per
    // strip, the products inlined the gradients, so each gradient was
    // computed once per product (harris' heuristic schedule 0.77 of the hand
    // schedule); inlined into the sums, the gradients are stored once (0.93).
    const int W = 61, H = 37;
    Buffer<float> in(W, H);
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) in(i, j) = float((i * 29 + j * 13) % 41) / 40.0f;
    Var x("x"), y("y");
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func grad_x("grad_x"), grad_y("grad_y"), xx("xx"), xy("xy"), out("out");
    grad_x(x, y) = clamped(x + 1, y - 1) - clamped(x - 1, y - 1) +
                   2.0f * (clamped(x + 1, y) - clamped(x - 1, y)) + clamped(x + 1, y + 1) -
                   clamped(x - 1, y + 1);
    grad_y(x, y) = clamped(x - 1, y + 1) - clamped(x - 1, y - 1) +
                   2.0f * (clamped(x, y + 1) - clamped(x, y - 1)) + clamped(x + 1, y + 1) -
                   clamped(x + 1, y - 1);
    xx(x, y) = grad_x(x, y) * grad_x(x, y);
    xy(x, y) = grad_x(x, y) * grad_y(x, y);
    auto box = [&](Func f) {
        Expr s = 0.0f;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) s = s + f(x + dx, y + dy);
        return s;
    };
    out(x, y) = box(xx) - 0.5f * box(xy);
    Pipeline p(out);
    AutoSchedulerResults res = p.apply_autoscheduler({W, H}, get_jit_target_from_environment());
    INFO(res.schedule_source);
    CHECK(has(res.schedule_source, "grad_x.compute_at(out, yo)"));
    CHECK(has(res.schedule_source, "grad_y.compute_at(out, yo)"));
    CHECK(!has(res.schedule_source, "xx."));
    CHECK(!has(res.schedule_source, "xy."));
    CHECK(loom_test::schedule_round_trip_problem(p) == "");
    auto at = [&](int i, int j) {
        return in(std::min(std::max(i, 0), W - 1), std::min(std::max(j, 0), H - 1));
    };
    auto gx = [&](int i, int j) {
        return at(i + 1, j - 1) - at(i - 1, j - 1) + 2.0f * (at(i + 1, j) - at(i - 1, j)) +
               at(i + 1, j + 1) - at(i - 1, j + 1);
    };
    auto gy = [&](int i, int j) {
        return at(i - 1, j + 1) - at(i - 1, j - 1) + 2.0f * (at(i, j + 1) - at(i, j - 1)) +
               at(i + 1, j + 1) - at(i + 1, j - 1);
    };
    Buffer<float> got = p.realize({W, H});
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            float sxx = 0, sxy = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    sxx += gx(i + dx, j + dy) * gx(i + dx, j + dy);
                    sxy += gx(i + dx, j + dy) * gy(i + dx, j + dy);
                }
            float want = sxx - 0.5f * sxy;
            INFO("x " << i << " y " << j);
            REQUIRE(std::fabs(got(i, j) - want) <= 1e-4f * std::max(1.0f, std::fabs(want)));
        }
}
