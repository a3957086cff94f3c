// Bounds of a chain of stages computed at the same loop (apps/lens_blur's
// schedule: every stage computed per strip of output rows and vectorized
// with ShiftInwards splits). Each stage's x-range comes from the loops of
// its consumer, whose split uses both ends of the consumer's range more than
// once (clamps and rounding); written out in full, the bounds grew by a
// factor of about four per stage (lens_blur's IR after bounds inference was
// ~12 MB, lowering took ~15 s). Named once per stage, as Halide's
// f.s0.x.min lets, they grow linearly with the length of the chain.

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "Loom.h"
#include "ir/IRUtil.h"
#include "lower/BoundsInference.h"
#include "lower/FindEnvironment.h"
#include "lower/InlineFunctions.h"
#include "lower/Lower.h"
#include "lower/ScheduleFunctions.h"

using namespace loom;
using namespace loom::Internal;

namespace {

constexpr int W = 77, H = 29;

/** stage k reads stage k-1 at x - 1 and x + 2; all stages are computed per
 * strip of 8 output rows, vectorized by 8 (ShiftInwards). */
Func stage_chain(const Buffer<int> &in, int stages) {
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func edged = BoundaryConditions::repeat_edge(in);
    std::vector<Func> chain;
    Func prev = edged;
    for (int k = 0; k < stages; k++) {
        Func f("stage" + std::to_string(k));
        f(x, y) = prev(x - 1, y) + prev(x + 2, y) + k;
        chain.push_back(f);
        prev = f;
    }
    Func out("out");
    out(x, y) = prev(x, y) * 2;
    out.split(y, yo, yi, 8).parallel(yo).vectorize(x, 8);
    for (Func &f : chain) f.compute_at(out, yo).vectorize(x, 8);
    return out;
}

int reference(const Buffer<int> &in, int stages, int i, int j) {
    // Each value is a sum over the input: stage k at x is stage k-1 at
    // x - 1 plus at x + 2, plus k.
    std::vector<int> row(W);
    for (int a = 0; a < W; a++) row[size_t(a)] = in(a, j);
    int reach = 2 * stages; // how far the chain reads beyond the image
    std::vector<int> values(size_t(W + 2 * reach));
    for (int a = -reach; a < W + reach; a++)
        values[size_t(a + reach)] = row[size_t(std::clamp(a, 0, W - 1))];
    for (int k = 0; k < stages; k++) {
        std::vector<int> next(values.size(), 0);
        for (int a = -reach + 1; a < W + reach - 2; a++)
            next[size_t(a + reach)] =
                values[size_t(a - 1 + reach)] + values[size_t(a + 2 + reach)] + k;
        values = next;
    }
    return values[size_t(i + reach)] * 2;
}

Buffer<int> input() {
    Buffer<int> in(W, H);
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) in(i, j) = (i * 13 + j * 7) % 64;
    return in;
}

/** Nodes of every let value after bounds inference, counted as trees. */
double bounds_let_nodes(const Func &out) {
    std::vector<Function> outputs{out.function()};
    Environment env = find_environment(outputs);
    std::vector<std::string> order = realization_order(outputs, env);
    Stmt s = inline_functions(schedule_functions(outputs, order, env), outputs);
    s = bounds_inference(s, outputs, order, env);
    double total = 0;
    visit_all(s, [&](const IRNode *node) {
        if (node->node_type == IRNodeType::LetStmt)
            total += tree_size(static_cast<const LetStmt *>(node)->value);
    });
    return total;
}

/** Nodes of the whole lowered statement, counted as a tree. */
double lowered_nodes(const Func &out) {
    LoweredFunc lowered = lower({out.function()}, "stage_chain", Target("host"));
    double total = 0;
    visit_all(lowered.body, [&](const IRNode *node) {
        if (node->node_type == IRNodeType::LetStmt)
            total += tree_size(static_cast<const LetStmt *>(node)->value);
        else if (node->node_type == IRNodeType::For)
            total += tree_size(static_cast<const For *>(node)->extent);
    });
    return total;
}

} // namespace

TEST_CASE("bounds of a chain of stages computed at one loop grow linearly", "[bounds][lower]") {
    Buffer<int> in = input();
    double short_chain = bounds_let_nodes(stage_chain(in, 4));
    double long_chain = bounds_let_nodes(stage_chain(in, 8));
    INFO("let values after bounds inference: 4 stages " << short_chain << " nodes, 8 stages "
                                                        << long_chain << " nodes");
    // Twice the stages: about twice the nodes (written out in full, each
    // stage multiplied them by about four: ~250 times as many).
    CHECK(long_chain < 3 * short_chain);

    double short_lowered = lowered_nodes(stage_chain(in, 4));
    double long_lowered = lowered_nodes(stage_chain(in, 8));
    INFO("lowered lets and extents: 4 stages " << short_lowered << " nodes, 8 stages "
                                               << long_lowered << " nodes");
    CHECK(long_lowered < 3 * short_lowered);
}

TEST_CASE("a chain of stages computed at one loop computes the right values", "[bounds][lower]") {
    Buffer<int> in = input();
    for (int stages : {1, 3, 8}) {
        Func out = stage_chain(in, stages);
        Buffer<int> result(W, H);
        out.realize(result);
        int wrong = 0;
        for (int j = 0; j < H; j++)
            for (int i = 0; i < W; i++) wrong += result(i, j) != reference(in, stages, i, j);
        INFO(stages << " stages");
        CHECK(wrong == 0);
    }
}
