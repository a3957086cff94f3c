// An index of the form `value - invariant` (a histogram bin minus the
// histogram's min, a table lookup minus the table's min) is addressed as
// (base + value) - invariant, so the subtraction moves out of the loop.
// These check the results against plain C++ with buffers whose min is not 0,
// and that the histogram's inner loop has no subtraction left.

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "Loom.h"
#include "common/ScratchFile.h"

using namespace loom;

namespace {

Buffer<uint8_t> make_image(int w, int h) {
    Buffer<uint8_t> b(w, h);
    uint32_t s = 12345u;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            s = s * 1664525u + 1013904223u;
            b(x, y) = uint8_t(s >> 24);
        }
    return b;
}

struct Histogram {
    ImageParam input{UInt(8), 2, "image"};
    Func hist{"hist"};
    Var i{"i"};
    explicit Histogram(int unroll) {
        RDom r(0, input.width(), 0, input.height());
        hist(i) = 0;
        hist(cast<int>(input(r.x, r.y)) + 3) += 1;
        if (unroll > 1) hist.update(0).unroll(r.x, unroll);
    }
};

} // namespace

TEST_CASE("a histogram into an output whose min is not 0", "[correctness][address]") {
    const int w = 67, h = 29;
    Buffer<uint8_t> in = make_image(w, h);
    for (int unroll : {1, 4}) {
        Histogram p(unroll);
        p.input.set(in);
        Buffer<int> out(300);
        out.translate({-7}); // bins [-7, 293)
        p.hist.realize(out);
        std::vector<int> ref(300, 0);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) ref[size_t(in(x, y) + 3 + 7)]++;
        for (int b = -7; b < 293; b++) {
            INFO("unroll " << unroll << ", bin " << b);
            REQUIRE(out(b) == ref[size_t(b + 7)]);
        }
    }
}

TEST_CASE("a table lookup through a table whose min is not 0", "[correctness][address]") {
    const int w = 45, h = 13;
    Buffer<uint8_t> in = make_image(w, h);
    Buffer<float> table(256);
    table.translate({-40}); // entries [-40, 216)
    for (int k = -40; k < 216; k++) table(k) = float(k) * 0.5f + 1.0f;
    ImageParam image(UInt(8), 2, "image"), lut(Float(32), 1, "lut");
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = lut(cast<int>(image(x, y)) - 40) * 2.0f;
    f.vectorize(x, 8, TailStrategy::GuardWithIf);
    image.set(in);
    lut.set(table);
    Buffer<float> out = f.realize({w, h});
    for (int yy = 0; yy < h; yy++)
        for (int xx = 0; xx < w; xx++) {
            INFO("at " << xx << ", " << yy);
            REQUIRE(out(xx, yy) == table(int(in(xx, yy)) - 40) * 2.0f);
        }
}

TEST_CASE("the histogram's inner loop subtracts no buffer min", "[correctness][address]") {
    Histogram p(4);
    loom_test::ScratchFile file("invariant_index_offset", "hist.s");
    p.hist.compile_to_assembly(file.path, {p.input}, "hist", Target("x86-64-linux-avx2"));
    std::string text = loom_test::read_text(file.path);
    // Each increment of a bin: a byte load, then `incl (base,index,4)` or
    // `addl $1, (base,index,4)` right after it.
    size_t increments = 0, pos = 0;
    while ((pos = text.find("(%r", pos)) != std::string::npos) {
        size_t line_start = text.rfind('\n', pos) + 1;
        size_t line_end = text.find('\n', pos);
        std::string line = text.substr(line_start, line_end - line_start);
        pos = line_end;
        if (line.find("incl") == std::string::npos && line.find("addl\t$1,") == std::string::npos)
            continue;
        if (line.find(",4)") == std::string::npos) continue;
        increments++;
        size_t prev_end = line_start - 1, prev_start = text.rfind('\n', prev_end - 1) + 1;
        std::string prev = text.substr(prev_start, prev_end - prev_start);
        INFO("instruction before the increment: " << prev);
        CHECK(prev.find("movzbl") != std::string::npos);
    }
    CHECK(increments >= 4);
}

namespace {

// A 3x3 box filter over an input and into an output whose mins are not 0,
// vectorized along x with a tail that shifts inwards, rows in a serial loop:
// each tap's address is an invariant offset, the row's step and x's.
struct Box3x3 {
    ImageParam input{Int(32), 2, "box_in"};
    Func box{"box"};
    Var x{"x"}, y{"y"};
    Box3x3() {
        Expr sum = 0;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) sum = sum + input(x + dx, y + dy) * (2 + dx + 3 * dy);
        box(x, y) = sum;
        box.vectorize(x, 8);
    }
};

} // namespace

TEST_CASE("a stencil's addresses split into a frozen invariant part and the loops' steps",
          "[correctness][address]") {
    const int w = 37, h = 11;
    Buffer<int> in(w + 2, h + 2);
    in.translate({-5, 3});
    uint32_t s = 99u;
    for (int yy = 3; yy < h + 5; yy++)
        for (int xx = -5; xx < w - 3; xx++) {
            s = s * 1664525u + 1013904223u;
            in(xx, yy) = int(s >> 16) - 32768;
        }
    Box3x3 p;
    p.input.set(in);
    Buffer<int> out(w, h);
    out.translate({-4, 4});
    p.box.realize(out);
    for (int yy = 4; yy < h + 4; yy++)
        for (int xx = -4; xx < w - 4; xx++) {
            int ref = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) ref += in(xx + dx, yy + dy) * (2 + dx + 3 * dy);
            INFO("at " << xx << ", " << yy);
            REQUIRE(out(xx, yy) == ref);
        }
    // The terms of the addresses that no loop changes (the buffers' x mins)
    // are summed behind a 64-bit freeze, which loop strength reduction takes
    // as one value (LoopInvariantIndex.h); the rows' terms stay visible to it.
    // (Other freezes are of min, max and abs.)
    loom_test::ScratchFile file("invariant_index_offset", "box.ll");
    Box3x3 q;
    q.box.compile_to_llvm_assembly(file.path, {q.input}, "box", Target("x86-64-linux-avx2"));
    std::string text = loom_test::read_text(file.path);
    int frozen_sums = 0;
    for (size_t pos = 0; (pos = text.find(" = freeze i64 %", pos)) != std::string::npos;) {
        size_t start = pos + std::string(" = freeze i64 ").size();
        std::string operand = text.substr(start, text.find_first_of("\n ", start) - start);
        pos = start;
        // Value names are per function: look in the freeze's own.
        size_t function_start = text.rfind("\ndefine ", pos);
        size_t def = text.find("  " + operand + " = ", function_start);
        if (function_start == std::string::npos || def == std::string::npos || def > pos) continue;
        std::string op = text.substr(def + operand.size() + 5, 4);
        if (op == "add " || op == "sub ") frozen_sums++;
    }
    CHECK(frozen_sums >= 1);
}
