// Bounds of fused loops computed inside each other. A Func stored at root
// but computed inside a consumer's fused loop, itself computed inside tiled
// parallel loops, has region ends built from the extents of the loops around
// it: products and quotients that use each end of an inner range more than
// once. Written out in full these ends double with each level (the bound
// expressions after bounds inference reached ~2 million characters and
// lowering took ~15 s); with the shared ends bound to lets they stay small.
// The schedule is one the random schedule test once found (stencil chain,
// LOOM_TEST_SEED=13 LOOM_TEST_ONLY=38).

#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>

#include "Loom.h"
#include "ir/IRUtil.h"
#include "lower/BoundsInference.h"
#include "lower/FindEnvironment.h"
#include "lower/InlineFunctions.h"
#include "lower/ScheduleFunctions.h"

using namespace loom;
using namespace loom::Internal;

namespace {

constexpr int W = 53, H = 41;

struct Pipeline3x3 {
    Func s1{"s1"}, s2{"s2"}, out{"out"};
};

Pipeline3x3 stencil_chain(const Buffer<int> &in) {
    Var x("x"), y("y");
    Func bnd = BoundaryConditions::repeat_edge(in);
    Pipeline3x3 p;
    Expr sum = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) sum = sum + bnd(x + dx, y + dy);
    p.s1(x, y) = sum;
    p.s2(x, y) = p.s1(x - 1, y - 1) + 2 * p.s1(x, y) + p.s1(x + 1, y + 1) + p.s1(x + 1, y - 1);
    p.out(x, y) = (p.s2(x, y - 1) + p.s2(x, y + 1) + p.s2(x - 1, y) + p.s2(x + 1, y)) / 4;

    Var f("x_f1"), xo1("x_o1"), yo2("y_o2"), xi3("x_i3"), yi4("y_i4"), xo5("x_o5"), yo6("y_o6"),
        xi7("x_i7"), yi8("y_i8");
    p.s1.fuse(x, y, f).vectorize(f, 4, TailStrategy::GuardWithIf).parallel(f);
    p.s1.store_root().compute_at(p.s2, f);
    p.s2.reorder(x, y).fuse(x, y, f).parallel(f, 4, TailStrategy::Auto);
    p.s2.store_at(p.out, xo5).compute_at(p.out, xo5);
    p.out.tile(x, y, xo1, yo2, xi3, yi4, 4, 7, TailStrategy::ShiftInwards);
    p.out.tile(xo1, yo2, xo5, yo6, xi7, yi8, 6, 8, TailStrategy::GuardWithIf);
    p.out.unroll(xi3).parallel(yo6, 3, TailStrategy::GuardWithIf);
    return p;
}

int reference(const Buffer<int> &in, int i, int j) {
    auto edge = [&](int a, int b) { return in(std::clamp(a, 0, W - 1), std::clamp(b, 0, H - 1)); };
    auto s1 = [&](int a, int b) {
        int s = 0;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) s += edge(a + dx, b + dy);
        return s;
    };
    auto s2 = [&](int a, int b) {
        return s1(a - 1, b - 1) + 2 * s1(a, b) + s1(a + 1, b + 1) + s1(a + 1, b - 1);
    };
    return (s2(i, j - 1) + s2(i, j + 1) + s2(i - 1, j) + s2(i + 1, j)) / 4; // all positive
}

Buffer<int> input() {
    Buffer<int> in(W, H);
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) in(i, j) = (i * 37 + j * 11) % 256;
    return in;
}

} // namespace

TEST_CASE("bounds of fused loops computed inside fused loops stay small", "[bounds][lower]") {
    Buffer<int> in = input();
    Pipeline3x3 p = stencil_chain(in);
    std::vector<Function> outputs{p.out.function()};
    Environment env = find_environment(outputs);
    std::vector<std::string> order = realization_order(outputs, env);
    Stmt s = inline_functions(schedule_functions(outputs, order, env), outputs);
    s = bounds_inference(s, outputs, order, env);

    // Every let value that bounds inference wrote, counted as a tree.
    double largest = 0, total = 0;
    visit_all(s, [&](const IRNode *node) {
        if (node->node_type != IRNodeType::LetStmt) return;
        double nodes = tree_size(static_cast<const LetStmt *>(node)->value);
        largest = std::max(largest, nodes);
        total += nodes;
    });
    INFO("largest let value: " << largest << " nodes, all let values: " << total << " nodes");
    // With ends over 400 nodes named: ~77,000 and ~182,000 nodes (~55,000
    // and ~130,000 before the outer part of a fused loop was capped at its
    // extent, which adds the cap to each bound); without naming, ~147,000
    // and ~322,000 before the cap.
    CHECK(largest < 90000);
    CHECK(total < 210000);
}

TEST_CASE("nested fused compute_at schedule computes the stencil chain", "[bounds][lower]") {
    Buffer<int> in = input();
    Pipeline3x3 p = stencil_chain(in);
    Buffer<int> out(W, H);
    p.out.realize(out);
    int wrong = 0;
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) wrong += out(i, j) != reference(in, i, j);
    CHECK(wrong == 0);
}
