#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "Loom.h"
#include "common/IRInterpreter.h"
#include "ir/IROperator.h"
#include "lower/Lower.h"
#include "lower/LowerUtil.h"
#include "lower/PartitionLoops.h"
#include "lower_test_util.h"

// Loop partitioning: the pass alone on hand-built loops (every store checked
// against the unpartitioned loop by a small evaluator, over many bounds), and
// whole pipelines with boundary conditions and GuardWithIf tails through the
// JIT against plain C++.

using namespace lower_test;

namespace {

/** Runs scalar statements (lets, loops, ifs, blocks, stores), recording
 * every store as (buffer, index) -> value. */
struct StmtRunner {
    IRInterpreter interp;
    std::map<std::pair<std::string, int64_t>, int64_t> stores;
    int64_t iterations = 0;

    void run(const Stmt &s) {
        if (!s.defined()) return;
        if (const auto *l = s.as<LetStmt>()) {
            interp.set(l->name, interp.eval(l->value));
            run(l->body);
        } else if (const auto *f = s.as<For>()) {
            int64_t lo = interp.eval(f->min).i, n = interp.eval(f->extent).i;
            for (int64_t i = lo; i < lo + n; i++) {
                iterations++;
                interp.set(f->name, ScalarValue::make_int(Int(32), i));
                run(f->body);
            }
        } else if (const auto *b = s.as<Block>()) {
            run(b->first);
            run(b->rest);
        } else if (const auto *pc = s.as<ProducerConsumer>()) {
            run(pc->body);
        } else if (const auto *c = s.as<IfThenElse>()) {
            if (interp.eval(c->condition).is_true()) {
                run(c->then_case);
            } else {
                run(c->else_case);
            }
        } else if (const auto *st = s.as<Store>()) {
            stores[{st->name, interp.eval(st->index).i}] = interp.eval(st->value).i;
        } else if (s.as<Evaluate>()) {
        } else {
            FAIL("unexpected statement " << s);
        }
    }
};

Expr v(const std::string &n) {
    return ivar(n);
}

Expr clamp_likely(const Expr &x, const Expr &lo, const Expr &hi) {
    return Max::make(Min::make(Internal::likely(x), hi), lo);
}

Stmt store(const std::string &name, const Expr &value, const Expr &index) {
    return Store::make(name, value, index, Buffer<>(), Parameter());
}

/** The loops named `name` whose bodies hold no min, max, select or if. */
int clean_loops(const Stmt &s, const std::string &name) {
    int n = 0;
    for (const For *f : find_nodes<For>(s, [&](const For *f) { return f->name == name; })) {
        Stmt body = f->body;
        bool clean = find_nodes<Min>(body).empty() && find_nodes<Max>(body).empty() &&
                     find_nodes<Select>(body).empty() && find_nodes<IfThenElse>(body).empty();
        n += clean;
    }
    return n;
}

/** Runs a loop and its partitioned form with the given values of their free
 * variables: both must store the same values and run as many iterations. */
void check_same_stores(const Stmt &loop, const Stmt &parted,
                       const std::map<std::string, int> &values) {
    StmtRunner ref, got;
    std::string where;
    for (const auto &[name, value] : values) {
        for (StmtRunner *r : {&ref, &got})
            r->interp.set(name, ScalarValue::make_int(Int(32), value));
        where += name + " " + std::to_string(value) + " ";
    }
    ref.run(loop);
    got.run(parted);
    INFO(where);
    CHECK(ref.stores == got.stores);
    CHECK(ref.iterations == got.iterations);
}

/** for x in [a, a + n): out[x - a] = value. Partitioned, it must become a
 * prologue, a steady state free of clamps, selects and guards, and an
 * epilogue, and store the same values for every a, n and w given. */
void check_partitions_one_loop(const Expr &value, const std::vector<int> &as,
                               const std::vector<int> &ns, const std::vector<int> &ws) {
    Expr x = v("x"), a = v("a");
    Stmt loop = For::make("x", a, v("n"), ForType::Serial, DeviceAPI::None,
                          store("out", value, Sub::make(x, a)));
    Stmt parted = partition_loops(loop);
    INFO(parted);
    CHECK(find_nodes<For>(parted).size() == 3);
    CHECK(clean_loops(parted, "x") == 1);
    for (int av : as)
        for (int nv : ns)
            for (int wv : ws) check_same_stores(loop, parted, {{"a", av}, {"n", nv}, {"w", wv}});
}

} // namespace

TEST_CASE("partition_loops removes clamps from the steady state and keeps every value",
          "[partition]") {
    // for x in [a, a + n): out[x - a] = clamp(likely(x - 1), 0, w - 1) * 1000
    //                                   + select(likely(x < w), 1, 2)
    Expr x = v("x"), w = v("w");
    Expr value = Add::make(Mul::make(clamp_likely(Sub::make(x, 1), 0, Sub::make(w, 1)), 1000),
                           Select::make(Internal::likely(LT::make(x, w)), 1, 2));
    check_partitions_one_loop(value, {-5, 0, 1, 3}, {0, 1, 2, 5, 20}, {0, 1, 2, 4, 30});
}

TEST_CASE("partition_loops resolves GuardWithIf tails over inner loops", "[partition]") {
    // for xo in [0, (n + 7) / 8): for xi in [0, 8):
    //   let xx = xo * 8 + xi + a; if (likely(xx <= a + n - 1))
    //     out[xx - a] = clamp(likely(xx + 1), 0, w - 1)
    Expr xo = v("xo"), xi = v("xi"), xx = v("xx"), a = v("a"), n = v("n"), w = v("w");
    Stmt body = IfThenElse::make(
        Internal::likely(LE::make(xx, Sub::make(Add::make(a, n), 1))),
        store("out", clamp_likely(Add::make(xx, 1), 0, Sub::make(w, 1)), Sub::make(xx, a)));
    body = LetStmt::make("xx", Add::make(Add::make(Mul::make(xo, 8), xi), a), body);
    body = For::make("xi", 0, 8, ForType::Serial, DeviceAPI::None, body);
    Stmt loop =
        For::make("xo", 0, Div::make(Add::make(n, 7), 8), ForType::Serial, DeviceAPI::None, body);
    Stmt parted = partition_loops(loop);
    INFO(parted);
    // The steady state of xo holds an inner loop with no guard and no clamp.
    bool steady_found = false;
    for (const For *f : find_nodes<For>(parted, [](const For *f) { return f->name == "xo"; })) {
        steady_found =
            steady_found || (find_nodes<IfThenElse>(f->body).empty() &&
                             find_nodes<Min>(f->body).empty() && find_nodes<Max>(f->body).empty());
    }
    CHECK(steady_found);

    for (int av : {-9, 0, 2}) {
        for (int nv : {0, 1, 7, 8, 9, 40}) {
            for (int wv : {0, 3, 16, 60}) {
                StmtRunner ref, got;
                for (StmtRunner *r : {&ref, &got}) {
                    r->interp.set("a", ScalarValue::make_int(Int(32), av));
                    r->interp.set("n", ScalarValue::make_int(Int(32), nv));
                    r->interp.set("w", ScalarValue::make_int(Int(32), wv));
                }
                ref.run(loop);
                got.run(parted);
                INFO("a " << av << " n " << nv << " w " << wv);
                CHECK(ref.stores == got.stores);
            }
        }
    }
}

TEST_CASE("partition_loops sees through the min of a ShiftInwards split", "[partition]") {
    // A vectorized, ShiftInwards-split x over a clamped (repeat_edge) input:
    // for xo in [0, (n + 7) / 8): for xi in [0, 8):
    //   let xx = min(xo * 8, n - 8) + xi + a
    //   out[xx - a] = clamp(likely(xx - 2), 0, w - 1) + clamp(likely(xx + 2), 0, w - 1) * 100
    // The steady state of xo must hold no clamp, and every store must match.
    Expr xo = v("xo"), xi = v("xi"), xx = v("xx"), a = v("a"), n = v("n"), w = v("w");
    Expr value = Add::make(clamp_likely(Sub::make(xx, 2), 0, Sub::make(w, 1)),
                           Mul::make(clamp_likely(Add::make(xx, 2), 0, Sub::make(w, 1)), 100));
    Stmt body = store("out", value, Sub::make(xx, a));
    body = LetStmt::make(
        "xx", Add::make(Add::make(Min::make(Mul::make(xo, 8), Sub::make(n, 8)), xi), a), body);
    body = For::make("xi", 0, 8, ForType::Serial, DeviceAPI::None, body);
    Stmt loop =
        For::make("xo", 0, Div::make(Add::make(n, 7), 8), ForType::Serial, DeviceAPI::None, body);
    Stmt parted = partition_loops(loop);
    INFO(parted);
    bool steady_found = false;
    for (const For *f : find_nodes<For>(parted, [](const For *f) { return f->name == "xo"; })) {
        // Only the split's own min may stay.
        steady_found = steady_found ||
                       (find_nodes<Min>(f->body).size() == 1 && find_nodes<Max>(f->body).empty());
    }
    CHECK(steady_found);

    for (int av : {-3, 0, 2}) {
        for (int nv : {8, 9, 15, 16, 41}) {
            for (int wv : {0, 3, 8, 20, 60}) {
                check_same_stores(loop, parted, {{"a", av}, {"n", nv}, {"w", wv}});
            }
        }
    }
}

TEST_CASE("partition_loops moves a ShiftInwards clamp out of an innermost loop only",
          "[partition]") {
    // A vectorized ShiftInwards split leaves, per vector:
    // for xo in [0, (n + 15) / 16): out[min(xo * 16, n - 16) + a] = xo
    // Innermost in the schedule, its steady state must step without the min.
    Expr xo = v("xo"), a = v("a"), n = v("n");
    Expr base = Add::make(Min::make(Mul::make(xo, 16), Sub::make(n, 16)), a);
    Expr extent = Div::make(Add::make(n, 15), 16);
    Stmt loop =
        For::make("xo", 0, extent, ForType::Serial, DeviceAPI::None, store("out", xo, base));
    Stmt parted = partition_loops(loop);
    INFO(parted);
    CHECK(clean_loops(parted, "xo") == 1);
    for (int av : {-3, 0, 5}) {
        for (int nv : {16, 17, 31, 32, 100}) {
            check_same_stores(loop, parted, {{"a", av}, {"n", nv}});
        }
    }
    // A loop that produces another Func inside as straight-line code (blur's
    // x with a sliding blur_x) is still the innermost loop of its own stage,
    // as in Halide: partitioned the same way.
    Stmt with_producer =
        For::make("xo", 0, extent, ForType::Serial, DeviceAPI::None,
                  Block::make(ProducerConsumer::make_produce("f", store("f", xo, xo)),
                              store("out", xo, base)));
    Stmt with_producer_parted = partition_loops(with_producer);
    INFO(with_producer_parted);
    CHECK(clean_loops(with_producer_parted, "xo") == 1);
    for (int av : {-3, 5})
        for (int nv : {16, 17, 100})
            check_same_stores(with_producer, with_producer_parted, {{"a", av}, {"n", nv}});
    // A serial loop inside (another stage's loop) makes it not innermost.
    Stmt with_loop = For::make(
        "xo", 0, extent, ForType::Serial, DeviceAPI::None,
        Block::make(For::make("r", 0, 4, ForType::Serial, DeviceAPI::None, store("f", v("r"), xo)),
                    store("out", xo, base)));
    CHECK(find_nodes<For>(partition_loops(with_loop)).size() == 2);
}

TEST_CASE("partition_loops leaves loops without usable hints alone", "[partition]") {
    // A hint that does not depend on the loop, and one that is not linear.
    Expr x = v("x"), w = v("w");
    Stmt body = Block::make(
        store("out", Select::make(Internal::likely(LT::make(w, 3)), 1, 2), x),
        store("out2", Select::make(Internal::likely(LT::make(Mul::make(x, x), w)), 1, 2), x));
    Stmt loop = For::make("x", 0, 10, ForType::Serial, DeviceAPI::None, body);
    Stmt parted = partition_loops(loop);
    CHECK(find_nodes<For>(parted).size() == 1);
    // Vectorized loops are not partitioned.
    Stmt vec = For::make("x", 0, 8, ForType::Vectorized, DeviceAPI::None,
                         store("out", clamp_likely(x, 0, w), x));
    CHECK(find_nodes<For>(partition_loops(vec)).size() == 1);
}

TEST_CASE("partition_loops leaves a loop whose lets make its extent 1 whole", "[partition]") {
    // let c.min = k, c.max = k: the loop over c runs once; partitioning it
    // would only copy its body. The same loop over two values is partitioned.
    Expr c = v("c"), k = v("k");
    auto nest = [&](const Expr &max_value) {
        Stmt body = store("out", clamp_likely(c, 0, v("w")), c);
        Stmt loop = For::make("c", v("c.min"), Add::make(Sub::make(v("c.max"), v("c.min")), 1),
                              ForType::Serial, DeviceAPI::None, body);
        return LetStmt::make("c.min", k, LetStmt::make("c.max", max_value, loop));
    };
    CHECK(find_nodes<For>(partition_loops(nest(k))).size() == 1);
    CHECK(find_nodes<For>(partition_loops(nest(Add::make(k, 1)))).size() == 3);
    for (int kv : {-1, 0, 4, 9})
        check_same_stores(nest(k), partition_loops(nest(k)), {{"k", kv}, {"w", 5}});
}

TEST_CASE("boundary conditions and GuardWithIf tails run partitioned through the JIT",
          "[partition]") {
    const int W = 37, H = 11;
    Buffer<int> in(W, H);
    in.set_name("part_in");
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) in(i, j) = i * 13 + j * 101 + (i * j) % 7;

    for (int variant = 0; variant < 3; variant++) {
        Var x("x"), y("y"), xo("xo"), xi("xi");
        Func bnd = variant == 2 ? BoundaryConditions::mirror_image(in)
                                : BoundaryConditions::repeat_edge(in);
        Func f("part_f");
        f(x, y) = bnd(x - 2, y) + bnd(x + 1, y) * 3 + bnd(x, y - 1) * 7;
        if (variant == 1) f.split(x, xo, xi, 8, TailStrategy::GuardWithIf);
        Buffer<int> out(W, H);
        f.realize(out);
        auto clampi = [](int v, int lo, int hi) { return std::min(std::max(v, lo), hi); };
        auto ref_bnd = [&](int i, int j) {
            if (variant == 2) {
                int ti = ((i % (2 * W)) + 2 * W) % (2 * W), tj = ((j % (2 * H)) + 2 * H) % (2 * H);
                i = ti < W ? ti : 2 * W - 1 - ti;
                j = tj < H ? tj : 2 * H - 1 - tj;
            }
            return in(clampi(i, 0, W - 1), clampi(j, 0, H - 1));
        };
        int wrong = 0;
        for (int j = 0; j < H; j++)
            for (int i = 0; i < W; i++)
                wrong +=
                    out(i, j) != ref_bnd(i - 2, j) + ref_bnd(i + 1, j) * 3 + ref_bnd(i, j - 1) * 7;
        INFO("variant " << variant);
        CHECK(wrong == 0);

        LoweredFunc lf = lower({f.function()}, "part", get_host_target());
        INFO(lf.body);
        // Some loop over x stores f with no clamp of x, select or guard left
        // (the clamps of y stay: the same in every pixel of a row).
        auto of_x = [](const Expr &e) {
            bool found = false;
            visit_all(e, [&](const IRNode *n) {
                const auto *v = n->node_type == IRNodeType::Variable
                                    ? static_cast<const Variable *>(n)
                                    : nullptr;
                found = found || (v && v->name.find("part_f.s0.x") == 0);
            });
            return found;
        };
        bool clean = false;
        for (const For *loop : find_nodes<For>(lf.body)) {
            if (loop->name.find("part_f.s0.x") != 0) continue;
            Stmt b = loop->body;
            auto x_min = find_nodes<Min>(b, [&](const Min *m) { return of_x(Expr(m)); });
            auto x_max = find_nodes<Max>(b, [&](const Max *m) { return of_x(Expr(m)); });
            clean = clean || (!find_nodes<Store>(b).empty() && x_min.empty() && x_max.empty() &&
                              find_nodes<Select>(b).empty() && find_nodes<IfThenElse>(b).empty());
        }
        CHECK(clean);
    }
}

TEST_CASE("a loop around loops is not partitioned for a clamp its inner loops do not change",
          "[partition]") {
    const int W = 23, H = 9;
    Buffer<int> in(W, H);
    in.set_name("rows_in");
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) in(i, j) = i * 5 + j * 97;
    Var x("x"), y("y");
    Func bnd = BoundaryConditions::repeat_edge(in);
    Func f("rows_f");
    f(x, y) = bnd(x - 1, y - 1) + bnd(x + 1, y + 1) * 3;
    Buffer<int> out(W, H);
    f.realize(out);
    auto at = [&](int i, int j) {
        return in(std::min(std::max(i, 0), W - 1), std::min(std::max(j, 0), H - 1));
    };
    int wrong = 0;
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) wrong += out(i, j) != at(i - 1, j - 1) + at(i + 1, j + 1) * 3;
    CHECK(wrong == 0);

    // The clamps of y are the same in every pixel of a row (LLVM hoists them
    // out of the loop over x): the rows stay one loop; x is partitioned.
    LoweredFunc lf = lower({f.function()}, "rows", get_host_target());
    INFO(lf.body);
    auto loops = [&](const std::string &name) {
        return find_nodes<For>(lf.body, [&](const For *l) { return l->name == name; }).size();
    };
    CHECK(loops("rows_f.s0.y") == 1);
    CHECK(loops("rows_f.s0.x") == 3);
}

TEST_CASE("partition_loops partitions the innermost loops of a prologue and an epilogue",
          "[partition]") {
    // for k in [0, 5): for y in [0, h): for xo in [0, (n + 7) / 8): vectorized xi in [0, 8):
    //   let xx = xo * 8 + xi; if (likely(xx <= n - 1))
    //     out[(k * h + y) * 64 + xx] = clamp(likely(xx + k - 2), 0, w - 1)
    //                                  + clamp(likely(y + k - 2), 0, h - 1) * 100
    // No k keeps every row's clamp in range (a search window's offsets over a
    // whole image), so k's steady state is empty and the prologue and
    // epilogue run every k: their xo loops must still drop the guard (in a
    // vector loop it masks every load and store), while y, which is not
    // innermost, stays whole there.
    Expr k = v("k"), y = v("y"), xo = v("xo"), xi = v("xi"), xx = v("xx"), n = v("n"), w = v("w"),
         h = v("h");
    Expr value =
        Add::make(clamp_likely(Sub::make(Add::make(xx, k), 2), 0, Sub::make(w, 1)),
                  Mul::make(clamp_likely(Sub::make(Add::make(y, k), 2), 0, Sub::make(h, 1)), 100));
    Expr index = Add::make(Mul::make(Add::make(Mul::make(k, h), y), 64), xx);
    Stmt body = IfThenElse::make(Internal::likely(LE::make(xx, Sub::make(n, 1))),
                                 store("out", value, index));
    body = LetStmt::make("xx", Add::make(Mul::make(xo, 8), xi), body);
    body = For::make("xi", 0, 8, ForType::Vectorized, DeviceAPI::None, body);
    body =
        For::make("xo", 0, Div::make(Add::make(n, 7), 8), ForType::Serial, DeviceAPI::None, body);
    body = For::make("y", 0, h, ForType::Serial, DeviceAPI::None, body);
    Stmt loop = For::make("k", 0, 5, ForType::Serial, DeviceAPI::None, body);
    Stmt parted = partition_loops(loop);
    INFO(parted);

    std::vector<const For *> k_loops =
        find_nodes<For>(parted, [](const For *f) { return f->name == "k"; });
    REQUIRE(k_loops.size() == 3);
    for (const For *kl : k_loops) {
        bool clean_xo = false;
        for (const For *f :
             find_nodes<For>(kl->body, [](const For *f) { return f->name == "xo"; })) {
            clean_xo = clean_xo || find_nodes<IfThenElse>(f->body).empty();
        }
        CHECK(clean_xo);
    }
    // y is partitioned in k's steady state only (three copies there), one
    // copy in each of the prologue and the epilogue.
    CHECK(find_nodes<For>(k_loops[0]->body, [](const For *f) { return f->name == "y"; }).size() ==
          1);
    CHECK(find_nodes<For>(k_loops[2]->body, [](const For *f) { return f->name == "y"; }).size() ==
          1);

    for (int nv : {0, 1, 7, 8, 9, 21})
        for (int wv : {1, 3, 30})
            for (int hv : {1, 2, 6})
                check_same_stores(loop, parted, {{"n", nv}, {"w", wv}, {"h", hv}});
}

TEST_CASE("partition_loops solves clamps through a division by a constant", "[partition]") {
    // for x in [a, a + n): out[x - a] = clamp(likely(x / 2), 0, w - 1)
    //                                   + clamp(likely((x + 1) / 3 - 1), 0, w - 1) * 100
    Expr x = v("x"), w = v("w");
    Expr value = Add::make(
        clamp_likely(Div::make(x, 2), 0, Sub::make(w, 1)),
        Mul::make(clamp_likely(Sub::make(Div::make(Add::make(x, 1), 3), 1), 0, Sub::make(w, 1)),
                  100));
    check_partitions_one_loop(value, {-9, -1, 0, 4}, {0, 1, 5, 30}, {1, 2, 7, 20});
}

TEST_CASE("partition_loops builds the steady range in the order the hints are met", "[partition]") {
    // Two clamps of x with different ends, their nodes made in either order:
    // the partitioned loops print the same. (The ends of the steady range
    // were combined in the order of the hint nodes' addresses, so the order
    // of a min's operands changed from run to run.)
    auto build = [](bool reversed) {
        Expr x = v("x"), a = v("a");
        // Ends in different variables, which the simplifier cannot merge.
        auto first = [&] { return clamp_likely(Sub::make(x, 2), v("p"), v("w")); };
        auto second = [&] { return clamp_likely(Add::make(x, 3), v("q"), v("h")); };
        Expr c1, c2;
        if (reversed) {
            c2 = second();
            c1 = first();
        } else {
            c1 = first();
            c2 = second();
        }
        Expr value = Add::make(c1, Mul::make(c2, 100));
        return For::make("x", a, v("n"), ForType::Serial, DeviceAPI::None,
                         store("out", value, Sub::make(x, a)));
    };
    // The loops' unique names differ between the two calls.
    auto text = [](const Stmt &s) {
        std::ostringstream os;
        os << s;
        return std::regex_replace(os.str(), std::regex("x_[0-9]+"), "x_N");
    };
    std::string in_order = text(partition_loops(build(false)));
    std::string reversed = text(partition_loops(build(true)));
    INFO(in_order << "\n" << reversed);
    CHECK(in_order.find("steady_end") != std::string::npos);
    CHECK(in_order == reversed);
}
