// A large strip-mined pipeline: its task's loops become functions of their
// own (pieces), and the JIT optimizes and compiles the module's functions
// in parts on several threads at once. Both give the reference result.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "Loom.h"
#include "jit/JITModule.h"
#include "lower/Lower.h"
#include "lower_interpreter.h"

using namespace loom;
using namespace loom::Internal;
using lower_test::TestBuffer;

namespace {

constexpr int width = 67, height = 37, stages = 4, radius = 2;

// Stage k's weight of the tap (dx, dy): different in every stage and tap.
int weight(int k, int dx, int dy) {
    return (dx + 3) * 3 + (dy + 3) * 5 + k;
}

// stages 5x5 stencils, each over the one before; the first over the input.
Func stencil_chain(ImageParam in, int stages = ::stages) {
    Var x("x"), y("y");
    Func prev = Func(in);
    std::vector<Func> chain;
    for (int k = 0; k < stages; k++) {
        Func f("stage_" + std::to_string(k));
        Expr sum = 0;
        for (int dy = -radius; dy <= radius; dy++)
            for (int dx = -radius; dx <= radius; dx++)
                sum += prev(x + dx, y + dy) * weight(k, dx, dy);
        f(x, y) = (sum >> 4) & 0xffff;
        chain.push_back(f);
        prev = f;
    }
    Func out = chain.back();
    Var yo("yo"), yi("yi");
    out.split(y, yo, yi, 8).parallel(yo).vectorize(x, 8);
    for (int k = 0; k + 1 < stages; k++) chain[size_t(k)].compute_at(out, yo).vectorize(x, 8);
    return out;
}

int count_outlined_loops(const std::string &ir) {
    int found = 0;
    for (size_t at = ir.find("define internal"); at != std::string::npos;
         at = ir.find("define internal", at + 1))
        found += ir.compare(ir.find('@', at), 11, "@loop_nest.") == 0;
    return found;
}

} // namespace

TEST_CASE("a large strip-mined pipeline compiles in pieces and parts and computes the reference",
          "[jit][parts]") {
    ImageParam in(Int(32), 2, "in");
    Func out = stencil_chain(in);
    LoweredFunc lf = lower({out.function()}, "parts", get_host_target());

    // Each stage's loops over a strip are a function of their own.
    JITModule printed = JITModule::compile(lf, get_host_target(), /*want_assembly=*/true);
    CHECK(count_outlined_loops(printed.llvm_assembly()) >= stages);

    JITModule m = JITModule::compile(lf, get_host_target());
    CHECK(m.parts() == std::min(2, JITModule::compile_threads()));

    const int margin = stages * radius;
    TestBuffer input({-margin, -margin}, {width + 2 * margin, height + 2 * margin});
    for (int y = -margin; y < height + margin; y++)
        for (int x = -margin; x < width + margin; x++) input.at({x, y}) = (x * 37 + y * 101) % 251;
    TestBuffer result({0, 0}, {width, height});
    std::vector<void *> argv{nullptr, &input.raw, &result.raw};
    REQUIRE(m.argv_function()(argv.data()) == 0);

    // The reference: each stage over the region the next one reads.
    std::vector<int> cur(input.data.begin(), input.data.end());
    int cur_margin = margin;
    for (int k = 0; k < stages; k++) {
        int next_margin = cur_margin - radius;
        int cw = width + 2 * cur_margin, nw = width + 2 * next_margin,
            nh = height + 2 * next_margin;
        std::vector<int> next(size_t(nw * nh));
        for (int y = 0; y < nh; y++) {
            for (int x = 0; x < nw; x++) {
                int sum = 0;
                for (int dy = -radius; dy <= radius; dy++)
                    for (int dx = -radius; dx <= radius; dx++)
                        sum += cur[size_t((y + radius + dy) * cw + x + radius + dx)] *
                               weight(k, dx, dy);
                next[size_t(y * nw + x)] = (sum >> 4) & 0xffff;
            }
        }
        cur.swap(next);
        cur_margin = next_margin;
    }
    int wrong = 0;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) wrong += result.at({x, y}) != cur[size_t(y * width + x)];
    CHECK(wrong == 0);
}

TEST_CASE("a small pipeline is compiled whole, without pieces", "[jit][parts]") {
    ImageParam in(Int(32), 2, "in");
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = in(x, y) * 3 + 1;
    f.parallel(y).vectorize(x, 8);
    LoweredFunc lf = lower({f.function()}, "whole", get_host_target());
    JITModule printed = JITModule::compile(lf, get_host_target(), /*want_assembly=*/true);
    CHECK(count_outlined_loops(printed.llvm_assembly()) == 0);
    JITModule m = JITModule::compile(lf, get_host_target());
    CHECK(m.parts() == 1);
    TestBuffer input({0, 0}, {19, 5}), result({0, 0}, {19, 5});
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 19; x++) input.at({x, y}) = x - 7 * y;
    std::vector<void *> argv{nullptr, &input.raw, &result.raw};
    REQUIRE(m.argv_function()(argv.data()) == 0);
    int wrong = 0;
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 19; x++) wrong += result.at({x, y}) != (x - 7 * y) * 3 + 1;
    CHECK(wrong == 0);
}

namespace {

/** The attribute list of `name`'s definition in printed LLVM IR, or "". */
std::string attributes_of(const std::string &ir, const std::string &name) {
    size_t def = ir.find("@" + name + "(");
    if (def == std::string::npos) return "";
    size_t hash = ir.find(" #", def), eol = ir.find('\n', def);
    if (hash == std::string::npos || hash > eol) return "";
    std::string group = ir.substr(hash + 1, ir.find(' ', hash + 1) - hash - 1);
    size_t list = ir.find("attributes " + group + " = {");
    return list == std::string::npos ? "" : ir.substr(list, ir.find('\n', list) - list);
}

} // namespace

TEST_CASE("a pipeline's entry is compiled without optimization, its loop nests with",
          "[jit][parts]") {
    // The entry keeps checks, field reads and calls (it runs once per call);
    // each serial loop nest is a function of its own, optimized.
    ImageParam in(Int(32), 2, "in");
    Var x("x"), y("y");
    Func f("cold_f");
    f(x, y) = in(x, y) * 5 - y;
    f.vectorize(x, 8);
    LoweredFunc lf = lower({f.function()}, "cold", get_host_target());
    JITModule printed = JITModule::compile(lf, get_host_target(), /*want_assembly=*/true);
    const std::string &ir = printed.llvm_assembly();
    INFO(ir);
    CHECK(attributes_of(ir, "cold_with_context").find("optnone") != std::string::npos);
    CHECK(count_outlined_loops(ir) == 1);
    CHECK(attributes_of(ir, "loop_nest.cold_f.s0.y").find("optnone") == std::string::npos);

    JITModule m = JITModule::compile(lf, get_host_target());
    TestBuffer input({0, 0}, {21, 6}), result({0, 0}, {21, 6});
    for (int yy = 0; yy < 6; yy++)
        for (int xx = 0; xx < 21; xx++) input.at({xx, yy}) = xx * 11 - yy;
    std::vector<void *> argv{nullptr, &input.raw, &result.raw};
    REQUIRE(m.argv_function()(argv.data()) == 0);
    int wrong = 0;
    for (int yy = 0; yy < 6; yy++)
        for (int xx = 0; xx < 21; xx++) wrong += result.at({xx, yy}) != (xx * 11 - yy) * 5 - yy;
    CHECK(wrong == 0);
}

TEST_CASE("the task of a pipeline with one loop nest is compiled in pieces from half the size",
          "[jit][parts]") {
    // A row blur and a column blur per strip: too small a task to split
    // beside other loop nests, but all of this pipeline's loops; in one
    // function they would leave the other compile threads only the entry's
    // glue.
    ImageParam in(Int(32), 2, "in");
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func rows("sole_rows"), cols("sole_cols");
    Expr r = 0, c = 0;
    for (int d = -5; d <= 5; d++) r += in(x + d, y) * (d + 5);
    rows(x, y) = r;
    for (int d = -5; d <= 5; d++) c += rows(x, y + d) * (7 - d);
    cols(x, y) = c;
    cols.split(y, yo, yi, 8).parallel(yo).vectorize(x, 8);
    rows.compute_at(cols, yo).vectorize(x, 8);
    LoweredFunc lf = lower({cols.function()}, "sole", get_host_target());
    JITModule printed = JITModule::compile(lf, get_host_target(), /*want_assembly=*/true);
    CHECK(count_outlined_loops(printed.llvm_assembly()) >= 2);

    const int w = 37, h = 19, m = 5;
    JITModule jit = JITModule::compile(lf, get_host_target());
    TestBuffer input({-m, -m}, {w + 2 * m, h + 2 * m}), result({0, 0}, {w, h});
    for (int yy = -m; yy < h + m; yy++)
        for (int xx = -m; xx < w + m; xx++) input.at({xx, yy}) = (xx * 29 + yy * 13) % 97;
    std::vector<void *> argv{nullptr, &input.raw, &result.raw};
    REQUIRE(jit.argv_function()(argv.data()) == 0);
    auto row = [&](int xx, int yy) {
        int sum = 0;
        for (int d = -m; d <= m; d++) sum += input.at({xx + d, yy}) * (d + 5);
        return sum;
    };
    int wrong = 0;
    for (int yy = 0; yy < h; yy++)
        for (int xx = 0; xx < w; xx++) {
            int sum = 0;
            for (int d = -m; d <= m; d++) sum += row(xx, yy + d) * (7 - d);
            wrong += result.at({xx, yy}) != sum;
        }
    CHECK(wrong == 0);
}
