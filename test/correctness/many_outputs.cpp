// A pipeline with more outputs than the LLVM backend keeps in one function
// (32 loop nests): runs of nests and runs of checks go to functions of a
// few statements each, and buffer fields are read again where used instead
// of once at the top (CodeGen_LLVM_Rematerialize.cpp). Values, bounds
// queries and errors must be what they are for a small pipeline; values are
// compared with plain C++.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "Loom.h"
#include "common/ScratchFile.h"

using namespace loom;
using Catch::Contains;

namespace {

constexpr int outputs = 40;

int reference(const Buffer<int> &in, int i, int x, int y) {
    return in(x + i % 3, y) * (i + 1) - in(x, y + i % 2);
}

Pipeline many_outputs(ImageParam &in) {
    Var x("x"), y("y");
    std::vector<Func> outs;
    for (int i = 0; i < outputs; i++) {
        Func g("out_" + std::to_string(i));
        g(x, y) = in(x + i % 3, y) * (i + 1) - in(x, y + i % 2);
        if (i % 4 == 0) g.vectorize(x, 4, TailStrategy::GuardWithIf);
        outs.push_back(g);
    }
    return Pipeline(outs);
}

size_t count_definitions(const std::string &ir, const std::string &prefix) {
    size_t n = 0;
    for (size_t at = ir.find("define internal"); at != std::string::npos;
         at = ir.find("define internal", at + 1)) {
        n += ir.compare(ir.find('@', at), prefix.size(), prefix) == 0;
    }
    return n;
}

} // namespace

TEST_CASE("many outputs: values, with nests and checks in functions of their own",
          "[correctness][outlined]") {
    ImageParam in(Int(32), 2, "in");
    Pipeline p = many_outputs(in);

    loom_test::ScratchFile ll("many_outputs", "many.ll");
    p.compile_to_llvm_assembly(ll.path, {in}, "many", get_host_target());
    std::string ir = loom_test::read_text(ll.path);
    // 40 nests in functions of up to 16; the checks likewise.
    CHECK(count_definitions(ir, "@nests.") == 3);
    CHECK(count_definitions(ir, "@checks.") > 0);
    CHECK(ir.find("load volatile") != std::string::npos);

    Buffer<int> input(40, 30);
    input.fill([](int x, int y) { return x * 31 + y * 17 - 400; });
    in.set(input);
    std::vector<Buffer<>> bufs;
    for (int i = 0; i < outputs; i++) {
        Buffer<int> b(13 + i % 5, 9);
        b.set_min(i % 7, i % 3);
        bufs.push_back(b);
    }
    p.realize(Realization(bufs));
    for (int i = 0; i < outputs; i++) {
        Buffer<int> b = bufs[size_t(i)];
        b.for_each_element([&](int x, int y) {
            INFO("out_" << i << " at (" << x << ", " << y << ")");
            REQUIRE(b(x, y) == reference(input, i, x, y));
        });
    }
}

TEST_CASE("many outputs: a bounds query answers the union of what the outputs read",
          "[correctness][outlined]") {
    ImageParam in(Int(32), 2, "in");
    Pipeline p = many_outputs(in);
    std::vector<Buffer<>> bufs;
    for (int i = 0; i < outputs; i++) {
        Buffer<int> b(10, 6);
        b.set_min(i == 17 ? -5 : 0, i == 31 ? 4 : 0);
        bufs.push_back(b);
    }
    p.infer_input_bounds(Realization(bufs));
    Buffer<int> got = in.get();
    REQUIRE(got.defined());
    // x: out_17 starts at -5; the largest read is x + 2 at x = 9.
    CHECK(got.dim(0).min() == -5);
    CHECK(got.dim(0).max() == 11);
    // y: out_31 covers 4..9 and reads y + 1.
    CHECK(got.dim(1).min() == 0);
    CHECK(got.dim(1).max() == 10);
}

TEST_CASE("many outputs: errors name the buffer", "[correctness][outlined]") {
    ImageParam in(Int(32), 2, "in");
    Pipeline p = many_outputs(in);
    Buffer<int> input(40, 30);
    in.set(input);
    std::vector<Buffer<>> bufs;
    for (int i = 0; i < outputs; i++) bufs.push_back(Buffer<int>(10, 6));
    SECTION("an output of the wrong type") {
        bufs[33] = Buffer<float>(10, 6);
        CHECK_THROWS_WITH(p.realize(Realization(bufs)), Contains("out_33"));
    }
    SECTION("an input too small for one output") {
        bufs[38] = Buffer<int>(40, 6);
        CHECK_THROWS_WITH(p.realize(Realization(bufs)), Contains("in"));
    }
}

// Outputs are produced in the order their uses need, not the order listed:
// an output read by other outputs, and a compute_root Func that reads one
// output and is read by another, come between them.
TEST_CASE("many outputs: an output read by others is produced first", "[correctness]") {
    Var x("x");
    Func a("a"), t("t"), b("b"), c("c");
    a(x) = x * 3;
    t(x) = a(x + 1) - 1;
    t.compute_root();
    b(x) = t(x) + a(x);
    c(x) = b(x) * 2 + a(x + 2);
    Buffer<int> a_out(12), b_out(10), c_out(10);
    Pipeline({c, b, a}).realize({c_out, b_out, a_out});
    for (int i = 0; i < 10; i++) {
        CHECK(a_out(i) == 3 * i);
        int b_ref = (3 * (i + 1) - 1) + 3 * i;
        CHECK(b_out(i) == b_ref);
        CHECK(c_out(i) == b_ref * 2 + 3 * (i + 2));
    }
}
