#include <catch2/catch.hpp>

#include <optional>

#include "Loom.h"
#include "ir/IROperator.h"
#include "lower/Lower.h"
#include "lower_test_util.h"

// Sliding window and storage folding: a 3-tap vertical blur whose horizontal
// stage is stored at root (or per strip) and computed per row of the output.
// Structure: the produce's min slides with the loop (a select on the first
// iteration) and the storage folds to a few rows; values: the JIT against
// plain C++.

using namespace lower_test;

namespace {

const int W = 29, H = 23;

Buffer<int> make_input() {
    Buffer<int> in(W + 1, H + 2);
    in.set_name("win_in");
    for (int j = 0; j < H + 2; j++)
        for (int i = 0; i < W + 1; i++) in(i, j) = (i * 31 + j * 17 + (i * j) % 11) % 500;
    return in;
}

struct Blur {
    Var x{"x"}, y{"y"};
    Func bx{"win_bx"}, by{"win_by"};
    explicit Blur(const Buffer<int> &in) {
        bx(x, y) = in(x, y) * 2 + in(x + 1, y);
        by(x, y) = bx(x, y) + bx(x, y + 1) * 3 + bx(x, y + 2);
    }
};

int wrong_values(const Buffer<int> &in, const Buffer<int> &out) {
    auto bx = [&](int i, int j) { return in(i, j) * 2 + in(i + 1, j); };
    int wrong = 0;
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++)
            wrong += out(i, j) != bx(i, j) + bx(i, j + 1) * 3 + bx(i, j + 2);
    return wrong;
}

/** The constant extents of an Allocate named `name` (lets followed), or empty. */
std::vector<std::optional<int64_t>> alloc_extents(const Stmt &s, const std::string &name) {
    std::vector<std::optional<int64_t>> out;
    auto allocs = find_nodes<Allocate>(s, [&](const Allocate *a) { return a->name == name; });
    if (allocs.size() != 1) return out;
    for (const Expr &e : allocs[0]->extents) {
        std::optional<int64_t> c = as_const_int(e);
        if (!c) {
            if (const auto *var = e.as<Variable>()) {
                for (const LetStmt *l : find_nodes<LetStmt>(
                         s, [&](const LetStmt *l) { return l->name == var->name; })) {
                    c = as_const_int(l->value);
                }
            }
        }
        out.push_back(c);
    }
    return out;
}

int count_produces(const Stmt &s, const std::string &func) {
    return int(find_nodes<ProducerConsumer>(s, [&](const ProducerConsumer *pc) {
                   return pc->is_producer && pc->name == func;
               }).size());
}

/** b.by's values against plain C++, then its lowered body. */
Stmt checked_and_lowered(Blur &b, const Buffer<int> &in, const std::string &name) {
    Buffer<int> out(W, H);
    b.by.realize(out);
    CHECK(wrong_values(in, out) == 0);
    return lower({b.by.function()}, name, get_host_target()).body;
}

bool min_slides(const Stmt &s, const std::string &let_name) {
    auto lets = find_nodes<LetStmt>(s, [&](const LetStmt *l) { return l->name == let_name; });
    for (const LetStmt *l : lets) {
        if (!find_nodes<Select>(Evaluate::make(l->value)).empty()) return true;
    }
    return false;
}

} // namespace

TEST_CASE("sliding window computes each row once and storage folds to a circular buffer",
          "[window]") {
    Buffer<int> in = make_input();
    Blur b(in);
    b.bx.store_root().compute_at(b.by, b.y);
    Stmt body = checked_and_lowered(b, in, "win");
    INFO(body);
    // Produced once per row of the output: the first-row test costs once
    // per row, so the row loop is not peeled into two copies.
    CHECK(count_produces(body, "win_bx") == 1);
    auto extents = alloc_extents(body, "win_bx");
    REQUIRE(extents.size() == 2);
    // Three rows are live at a time: y folds to 4.
    CHECK(extents[1] == std::optional<int64_t>(4));
    // The produce loop over y runs over one row in the steady state.
    auto produce_loops =
        find_nodes<For>(body, [](const For *f) { return f->name == "win_bx.s0.y"; });
    bool one_row = false;
    for (const For *f : produce_loops) one_row = one_row || is_const(f->extent, 1);
    bool slid = min_slides(body, "win_bx.s0.y.min");
    CHECK((one_row || slid));
}

TEST_CASE("sliding window with storage per strip and computation per row", "[window]") {
    Buffer<int> in = make_input();
    Blur b(in);
    Var yo("yo"), yi("yi");
    b.by.split(b.y, yo, yi, 8);
    b.bx.store_at(b.by, yo).compute_at(b.by, yi);
    Buffer<int> out(W, H);
    b.by.realize(out);
    CHECK(wrong_values(in, out) == 0);
    LoweredFunc lf = lower({b.by.function()}, "win2", get_host_target());
    INFO(lf.body);
    auto extents = alloc_extents(lf.body, "win_bx");
    REQUIRE(extents.size() == 2);
    CHECK(extents[1] == std::optional<int64_t>(4));
}

TEST_CASE("sliding window with the producer computed per tile of the consumer", "[window]") {
    // Stored per row of the output, computed per column: nothing slides over
    // x (the columns do not overlap), so only the values are checked.
    Buffer<int> in = make_input();
    Blur b(in);
    b.bx.store_root().compute_at(b.by, b.x);
    Buffer<int> out(W, H);
    b.by.realize(out);
    CHECK(wrong_values(in, out) == 0);
}

TEST_CASE("fold_storage folds by the requested extent and rejects one too small", "[window]") {
    Buffer<int> in = make_input();
    {
        Blur b(in);
        b.bx.store_root().compute_at(b.by, b.y).fold_storage(b.y, 3);
        Buffer<int> out(W, H);
        b.by.realize(out);
        CHECK(wrong_values(in, out) == 0);
        LoweredFunc lf = lower({b.by.function()}, "win3", get_host_target());
        auto extents = alloc_extents(lf.body, "win_bx");
        REQUIRE(extents.size() == 2);
        CHECK(extents[1] == std::optional<int64_t>(3));
    }
    {
        Blur b(in);
        b.bx.store_root().compute_at(b.by, b.y).fold_storage(b.y, 2);
        try {
            lower({b.by.function()}, "win4", get_host_target());
            FAIL("expected a CompileError");
        } catch (const CompileError &e) {
            std::string msg = e.what();
            INFO(msg);
            CHECK(msg.find("win_bx") != std::string::npos);
            CHECK(msg.find("fold_storage(y, 2)") != std::string::npos);
            CHECK(msg.find("at least 3") != std::string::npos);
        }
    }
}

TEST_CASE("sliding window with a boundary condition and vectorized rows", "[window]") {
    Buffer<int> in = make_input();
    Var x("x"), y("y");
    Func bnd = BoundaryConditions::repeat_edge(in);
    Func bx("win5_bx"), by("win5_by");
    bx(x, y) = bnd(x - 1, y) + bnd(x, y) * 2 + bnd(x + 1, y);
    by(x, y) = bx(x, y - 1) + bx(x, y) + bx(x, y + 1);
    bx.store_root().compute_at(by, y).vectorize(x, 8);
    by.vectorize(x, 8);
    Buffer<int> out(W, H);
    by.realize(out);
    auto bi = [&](int i, int j) {
        return in(std::min(std::max(i, 0), W), std::min(std::max(j, 0), H + 1));
    };
    auto rbx = [&](int i, int j) { return bi(i - 1, j) + bi(i, j) * 2 + bi(i + 1, j); };
    int wrong = 0;
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) wrong += out(i, j) != rbx(i, j - 1) + rbx(i, j) + rbx(i, j + 1);
    CHECK(wrong == 0);
}

TEST_CASE("sliding window peels the first row where the produce runs per column",
          "[window][partition]") {
    // Produced per column inside each row, sliding down the strip: the
    // first-row test would run for every column, so the first row is peeled.
    Buffer<int> in = make_input();
    Blur b(in);
    Var yo("yo"), yi("yi");
    b.by.split(b.y, yo, yi, 8);
    b.bx.store_at(b.by, yo).compute_at(b.by, b.x);
    Stmt body = checked_and_lowered(b, in, "win7");
    INFO(body);
    CHECK(count_produces(body, "win_bx") == 2);
}
