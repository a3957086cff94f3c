// Every scheduling primitive, alone and in useful combinations, on one small
// integer pipeline. Each schedule's output is compared with the same algorithm
// under an all-compute_root baseline schedule and with plain C++, on sizes
// that are not multiples of any split factor (37x23 and 101x7).

#include <catch2/catch.hpp>

#include <exception>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "Loom.h"

using namespace loom;

namespace {

// The algorithm, built fresh for every schedule because schedules accumulate.
struct Alg {
    Var x{"x"}, y{"y"};
    Param<int> p{"p"};
    Func bnd, f{"f"}, g{"g"}, out{"out"};

    explicit Alg(const Buffer<int> &in) {
        bnd = BoundaryConditions::repeat_edge(in);
        f(x, y) = bnd(x, y) * 3 + bnd(x + 1, y);
        g(x, y) = f(x - 1, y) + 2 * f(x, y) + f(x + 1, y) + f(x, y + 1);
        out(x, y) = g(x, y) - g(x, y - 1) + x * 5 - y + p;
    }
};

using Schedule = std::function<void(Alg &)>;

Buffer<int> make_input(int w, int h) {
    Buffer<int> in(w, h);
    in.set_name("sched_input");
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) in(i, j) = (i * 37 + j * 101 + (i * j) % 13) % 1000;
    return in;
}

std::vector<int> reference(const Buffer<int> &in, int w, int h, int pv) {
    auto bnd = [&](int i, int j) {
        i = std::min(std::max(i, 0), w - 1);
        j = std::min(std::max(j, 0), h - 1);
        return in(i, j);
    };
    auto f = [&](int i, int j) { return bnd(i, j) * 3 + bnd(i + 1, j); };
    auto g = [&](int i, int j) { return f(i - 1, j) + 2 * f(i, j) + f(i + 1, j) + f(i, j + 1); };
    std::vector<int> r(size_t(w) * size_t(h));
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) r[size_t(j * w + i)] = g(i, j) - g(i, j - 1) + i * 5 - j + pv;
    return r;
}

Buffer<int> run(const Buffer<int> &in, int w, int h, int pv, const Schedule &s) {
    Alg a(in);
    s(a);
    a.p.set(pv);
    Buffer<int> o(w, h);
    a.out.realize(o);
    return o;
}

void root_all(Alg &a) {
    a.bnd.compute_root();
    a.f.compute_root();
    a.g.compute_root();
}

// Returns a description of the first mismatch, or "" if all agree.
std::string compare(const Buffer<int> &got, const std::vector<int> &want, int w, int h,
                    const char *what) {
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++)
            if (got(i, j) != want[size_t(j * w + i)])
                return std::string(what) + " differs at (" + std::to_string(i) + ", " +
                       std::to_string(j) + "): got " + std::to_string(got(i, j)) + ", expected " +
                       std::to_string(want[size_t(j * w + i)]);
    return "";
}

// The baseline is checked once per size and parameter value.
std::string baseline_problem(const Buffer<int> &in, const std::vector<int> &ref, int w, int h,
                             int pv) {
    static std::map<std::tuple<int, int, int>, std::string> done;
    auto key = std::make_tuple(w, h, pv);
    auto it = done.find(key);
    if (it != done.end()) return it->second;
    std::string problem;
    try {
        problem = compare(run(in, w, h, pv, root_all), ref, w, h, "compute_root baseline");
    } catch (const std::exception &e) {
        problem = std::string("compute_root baseline threw: ") + e.what();
    }
    return done[key] = problem;
}

void check_sizes(const std::string &name, const Schedule &s,
                 std::vector<std::pair<int, int>> sizes = {{37, 23}, {101, 7}},
                 std::vector<int> params = {0}) {
    for (auto [w, h] : sizes) {
        for (int pv : params) {
            INFO("schedule: " << name << ", size " << w << "x" << h << ", p = " << pv);
            Buffer<int> in = make_input(w, h);
            std::vector<int> ref = reference(in, w, h, pv);
            CHECK(baseline_problem(in, ref, w, h, pv) == "");
            // An exception fails this schedule only, so the rest still run.
            std::string problem;
            try {
                problem = compare(run(in, w, h, pv, s), ref, w, h, "scheduled output");
            } catch (const std::exception &e) {
                problem = std::string("threw: ") + e.what();
            }
            CHECK(problem == "");
        }
    }
}

} // namespace

TEST_CASE("default schedule (everything inlined)", "[schedule]") {
    check_sizes("inline all", [](Alg &) {});
}

TEST_CASE("split with each tail strategy", "[schedule]") {
    const std::vector<std::pair<TailStrategy, const char *>> tails = {
        {TailStrategy::Auto, "Auto"},
        {TailStrategy::GuardWithIf, "GuardWithIf"},
        {TailStrategy::ShiftInwards, "ShiftInwards"},
    };
    for (auto [tail, tname] : tails) {
        for (int factor : {2, 4, 5, 7}) {
            std::string n =
                std::string("out.split(x, xo, xi, ") + std::to_string(factor) + ", " + tname + ")";
            check_sizes(n, [=](Alg &a) {
                Var xo("xo"), xi("xi");
                a.out.split(a.x, xo, xi, factor, tail);
            });
            n = std::string("out.split(y, yo, yi, ") + std::to_string(factor) + ", " + tname + ")";
            check_sizes(n, [=](Alg &a) {
                Var yo("yo"), yi("yi");
                a.out.split(a.y, yo, yi, factor, tail);
            });
        }
    }
    // RoundUp is valid on intermediates: their allocation grows to the rounded extent.
    for (TailStrategy tail : {TailStrategy::RoundUp, TailStrategy::Auto, TailStrategy::GuardWithIf,
                              TailStrategy::ShiftInwards}) {
        check_sizes("g.compute_root().split(x, xo, xi, 8, tail " + std::to_string(int(tail)) +
                        "); f.compute_at(g, xo).split(y, 3, tail)",
                    [=](Alg &a) {
                        Var xo("xo"), xi("xi"), yo("yo"), yi("yi");
                        a.g.compute_root().split(a.x, xo, xi, 8, tail);
                        a.f.compute_at(a.g, xo).split(a.y, yo, yi, 3, tail);
                    });
    }
    // Nested splits: the inner loop of one split is split again.
    check_sizes("out.split(x, xo, xi, 8).split(xi, xio, xii, 3, GuardWithIf)", [](Alg &a) {
        Var xo("xo"), xi("xi"), xio("xio"), xii("xii");
        a.out.split(a.x, xo, xi, 8).split(xi, xio, xii, 3, TailStrategy::GuardWithIf);
    });
    check_sizes("out.split(x, xo, xi, 4).split(xo, xoo, xoi, 3)", [](Alg &a) {
        Var xo("xo"), xi("xi"), xoo("xoo"), xoi("xoi");
        a.out.split(a.x, xo, xi, 4).split(xo, xoo, xoi, 3, TailStrategy::GuardWithIf);
    });
    // A split that reuses the old name for the outer loop (Halide's idiom).
    check_sizes("out.split(y, y, yi, 4)", [](Alg &a) {
        Var yi("yi");
        a.out.split(a.y, a.y, yi, 4);
    });
}

TEST_CASE("RoundUp on an output needs an extent that is a multiple of the factor", "[schedule]") {
    // 40x24 is a multiple of 8x4: RoundUp is exact there.
    check_sizes("out.split(x, xo, xi, 8, RoundUp).split(y, yo, yi, 4, RoundUp)",
                [](Alg &a) {
                    Var xo("xo"), xi("xi"), yo("yo"), yi("yi");
                    a.out.split(a.x, xo, xi, 8, TailStrategy::RoundUp)
                        .split(a.y, yo, yi, 4, TailStrategy::RoundUp);
                },
                {{40, 24}});
    // On 37 columns it would write past the output: a RuntimeError, not a crash.
    Buffer<int> in = make_input(37, 23);
    Alg a(in);
    Var xo("xo"), xi("xi");
    a.out.split(a.x, xo, xi, 8, TailStrategy::RoundUp);
    a.p.set(0);
    Buffer<int> o(37, 23);
    CHECK_THROWS_AS(a.out.realize(o), RuntimeError);
}

TEST_CASE("fuse", "[schedule]") {
    check_sizes("out.fuse(x, y, xy)", [](Alg &a) {
        Var xy("xy");
        a.out.fuse(a.x, a.y, xy);
    });
    check_sizes("out.fuse(x, y, xy).vectorize(xy, 8)", [](Alg &a) {
        Var xy("xy");
        a.out.fuse(a.x, a.y, xy).vectorize(xy, 8);
    });
    check_sizes("out.fuse(x, y, xy).parallel(xy, 16)", [](Alg &a) {
        Var xy("xy");
        a.out.fuse(a.x, a.y, xy).parallel(xy, 16);
    });
    check_sizes("g.compute_root().split(x, xo, xi, 4).fuse(xo, y, t).parallel(t)", [](Alg &a) {
        Var xo("xo"), xi("xi"), t("t");
        a.g.compute_root().split(a.x, xo, xi, 4).fuse(xo, a.y, t).parallel(t);
    });
    check_sizes("out.tile(x, y, xi, yi, 4, 4, GuardWithIf).fuse(x, y, t).parallel(t)", [](Alg &a) {
        Var xi("xi"), yi("yi"), t("t");
        a.out.tile(a.x, a.y, xi, yi, 4, 4, TailStrategy::GuardWithIf).fuse(a.x, a.y, t).parallel(t);
    });
}

TEST_CASE("reorder", "[schedule]") {
    check_sizes("out.reorder(y, x)", [](Alg &a) { a.out.reorder(a.y, a.x); });
    check_sizes("g.compute_root().reorder(y, x); f.compute_at(g, x)", [](Alg &a) {
        a.g.compute_root().reorder(a.y, a.x);
        a.f.compute_at(a.g, a.x);
    });
    check_sizes("out.split(x, xo, xi, 4).reorder(xi, y, xo)", [](Alg &a) {
        Var xo("xo"), xi("xi");
        a.out.split(a.x, xo, xi, 4).reorder(xi, a.y, xo);
    });
    check_sizes("out.split(x,xo,xi,4).split(y,yo,yi,3).reorder(yi, xi, xo, yo)", [](Alg &a) {
        Var xo("xo"), xi("xi"), yo("yo"), yi("yi");
        a.out.split(a.x, xo, xi, 4).split(a.y, yo, yi, 3).reorder(yi, xi, xo, yo);
    });
}

TEST_CASE("tile, 2- and 4-variable forms", "[schedule]") {
    check_sizes("out.tile(x, y, xi, yi, 8, 4)", [](Alg &a) {
        Var xi("xi"), yi("yi");
        a.out.tile(a.x, a.y, xi, yi, 8, 4);
    });
    check_sizes("out.tile(x, y, xo, yo, xi, yi, 5, 3)", [](Alg &a) {
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        a.out.tile(a.x, a.y, xo, yo, xi, yi, 5, 3);
    });
    check_sizes("out.tile(x, y, xo, yo, xi, yi, 16, 8, GuardWithIf)", [](Alg &a) {
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        a.out.tile(a.x, a.y, xo, yo, xi, yi, 16, 8, TailStrategy::GuardWithIf);
    });
    check_sizes("out.tile(x, y, xi, yi, 8, 4, GuardWithIf).vectorize(xi).unroll(yi)", [](Alg &a) {
        Var xi("xi"), yi("yi");
        a.out.tile(a.x, a.y, xi, yi, 8, 4, TailStrategy::GuardWithIf).vectorize(xi).unroll(yi);
    });
    check_sizes("g.compute_root().tile(x, y, xo, yo, xi, yi, 6, 6, RoundUp)", [](Alg &a) {
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        a.g.compute_root().tile(a.x, a.y, xo, yo, xi, yi, 6, 6, TailStrategy::RoundUp);
    });
}

TEST_CASE("unroll", "[schedule]") {
    check_sizes("out.split(x, xo, xi, 4).unroll(xi)", [](Alg &a) {
        Var xo("xo"), xi("xi");
        a.out.split(a.x, xo, xi, 4).unroll(xi);
    });
    check_sizes("out.unroll(x, 3)", [](Alg &a) { a.out.unroll(a.x, 3); });
    check_sizes("out.unroll(y, 2, GuardWithIf)",
                [](Alg &a) { a.out.unroll(a.y, 2, TailStrategy::GuardWithIf); });
    check_sizes("g.compute_root().unroll(x, 5, RoundUp); f.compute_root().unroll(y, 2)",
                [](Alg &a) {
                    a.g.compute_root().unroll(a.x, 5, TailStrategy::RoundUp);
                    a.f.compute_root().unroll(a.y, 2);
                });
}

TEST_CASE("vectorize with and without a factor", "[schedule]") {
    for (int factor : {4, 8, 16}) {
        check_sizes("out.vectorize(x, " + std::to_string(factor) + ")",
                    [=](Alg &a) { a.out.vectorize(a.x, factor); });
        check_sizes("out.vectorize(x, " + std::to_string(factor) + ", GuardWithIf)",
                    [=](Alg &a) { a.out.vectorize(a.x, factor, TailStrategy::GuardWithIf); });
        check_sizes("g,f compute_root, vectorize(x, " + std::to_string(factor) + ", RoundUp)",
                    [=](Alg &a) {
                        a.g.compute_root().vectorize(a.x, factor, TailStrategy::RoundUp);
                        a.f.compute_root().vectorize(a.x, factor);
                    });
    }
    check_sizes("out.split(x, xo, xi, 8).vectorize(xi)", [](Alg &a) {
        Var xo("xo"), xi("xi");
        a.out.split(a.x, xo, xi, 8).vectorize(xi);
    });
    check_sizes("out.vectorize(y, 4) (vectorizing the outer dimension)",
                [](Alg &a) { a.out.vectorize(a.y, 4); });
    check_sizes("out.reorder(y, x).vectorize(x, 8) (strided vector stores)",
                [](Alg &a) { a.out.reorder(a.y, a.x).vectorize(a.x, 8); });
    check_sizes("bnd.compute_root().vectorize(x, 8)",
                [](Alg &a) { a.bnd.compute_root().vectorize(a.bnd.args()[0], 8); });
}

TEST_CASE("parallel with and without a task size, and serial", "[schedule]") {
    check_sizes("out.parallel(y)", [](Alg &a) { a.out.parallel(a.y); });
    check_sizes("out.parallel(y, 4)", [](Alg &a) { a.out.parallel(a.y, 4); });
    check_sizes("out.parallel(x, 8, GuardWithIf)",
                [](Alg &a) { a.out.parallel(a.x, 8, TailStrategy::GuardWithIf); });
    check_sizes("g.compute_root().parallel(y); f.compute_root().parallel(y).vectorize(x, 8)",
                [](Alg &a) {
                    a.g.compute_root().parallel(a.y);
                    a.f.compute_root().parallel(a.y).vectorize(a.x, 8);
                });
    check_sizes("nested: out.split(y, yo, yi, 2).parallel(yo).parallel(yi)", [](Alg &a) {
        Var yo("yo"), yi("yi");
        a.out.split(a.y, yo, yi, 2).parallel(yo).parallel(yi);
    });
    check_sizes("out.parallel(y).serial(y)", [](Alg &a) { a.out.parallel(a.y).serial(a.y); });
    check_sizes("out.serial(x)", [](Alg &a) { a.out.serial(a.x); });
}

TEST_CASE("bound, bound_extent, align_bounds", "[schedule]") {
    check_sizes("out.bound(x, 0, 37).bound(y, 0, 23)",
                [](Alg &a) { a.out.bound(a.x, 0, 37).bound(a.y, 0, 23).vectorize(a.x, 8); },
                {{37, 23}});
    check_sizes("g.compute_root().bound_extent(y, 24); f.compute_root()",
                [](Alg &a) {
                    // g is read at rows y-1..y: its extent is h + 1; f at x-1..x+1.
                    a.g.compute_root().bound_extent(a.y, 24);
                    a.f.compute_root();
                },
                {{37, 23}});
    check_sizes("f.compute_root().bound(x, -1, 39).bound(y, -1, 25)",
                [](Alg &a) { a.f.compute_root().bound(a.x, -1, 39).bound(a.y, -1, 25); },
                {{37, 23}});
    check_sizes("g.compute_root().align_bounds(x, 8)",
                [](Alg &a) { a.g.compute_root().align_bounds(a.x, 8).vectorize(a.x, 8); });
    check_sizes("g.compute_root().align_bounds(y, 4, 1); f.compute_at(g, y).align_bounds(x, 4)",
                [](Alg &a) {
                    a.g.compute_root().align_bounds(a.y, 4, 1);
                    a.f.compute_at(a.g, a.y).align_bounds(a.x, 4);
                });
    // A bound smaller than what the consumer reads is a runtime error.
    Buffer<int> in = make_input(37, 23);
    Alg a(in);
    a.g.compute_root().bound(a.x, 0, 10);
    a.p.set(0);
    Buffer<int> o(37, 23);
    CHECK_THROWS_AS(a.out.realize(o), RuntimeError);
}

TEST_CASE("reorder_storage", "[schedule]") {
    check_sizes("f.compute_root().reorder_storage(y, x)",
                [](Alg &a) { a.f.compute_root().reorder_storage(a.y, a.x); });
    check_sizes("g.compute_at(out, y).reorder_storage(y, x).vectorize(x, 4)", [](Alg &a) {
        a.g.compute_at(a.out, a.y).reorder_storage(a.y, a.x).vectorize(a.x, 4);
    });
}

TEST_CASE("compute_root, compute_at, compute_inline", "[schedule]") {
    check_sizes("compute_root everything", root_all);
    check_sizes("g.compute_at(out, y)", [](Alg &a) { a.g.compute_at(a.out, a.y); });
    check_sizes("g.compute_at(out, x)", [](Alg &a) { a.g.compute_at(a.out, a.x); });
    check_sizes("g.compute_at(out, y); f.compute_at(g, y)", [](Alg &a) {
        a.g.compute_at(a.out, a.y);
        a.f.compute_at(a.g, a.y);
    });
    check_sizes("f.compute_at(out, y) (through the inlined g)",
                [](Alg &a) { a.f.compute_at(a.out, a.y); });
    check_sizes("g.compute_at(out, x); f.compute_at(out, y)", [](Alg &a) {
        a.g.compute_at(a.out, a.x);
        a.f.compute_at(a.out, a.y);
    });
    check_sizes("tiled: out.tile(x,y,xi,yi,8,4); g,f,bnd compute_at(out, x)", [](Alg &a) {
        Var xi("xi"), yi("yi");
        a.out.tile(a.x, a.y, xi, yi, 8, 4);
        a.g.compute_at(a.out, a.x).vectorize(a.x, 4);
        a.f.compute_at(a.out, a.x);
        a.bnd.compute_at(a.out, a.x);
    });
    check_sizes("compute_at(LoopLevel(out, yi))", [](Alg &a) {
        Var yo("yo"), yi("yi");
        a.out.split(a.y, yo, yi, 4);
        a.g.compute_at(LoopLevel(a.out, yi));
        a.f.compute_at(LoopLevel::root());
    });
    check_sizes("compute_root then compute_inline",
                [](Alg &a) { a.f.compute_root().compute_inline(); });
    check_sizes("bnd.compute_at(f, x); f.compute_at(g, x); g.compute_at(out, x)", [](Alg &a) {
        a.bnd.compute_at(a.f, a.x);
        a.f.compute_at(a.g, a.x);
        a.g.compute_at(a.out, a.x);
    });
}

TEST_CASE("store_root and store_at with compute_at (sliding window)", "[schedule]") {
    check_sizes("g.store_root().compute_at(out, y)",
                [](Alg &a) { a.g.store_root().compute_at(a.out, a.y); });
    check_sizes("g.store_root().compute_at(out, x)",
                [](Alg &a) { a.g.store_root().compute_at(a.out, a.x); });
    check_sizes("g.compute_root(); f.store_root().compute_at(g, y)", [](Alg &a) {
        a.g.compute_root();
        a.f.store_root().compute_at(a.g, a.y);
    });
    check_sizes("out.split(y, yo, yi, 4).parallel(yo); g.store_at(out, yo).compute_at(out, yi)",
                [](Alg &a) {
                    Var yo("yo"), yi("yi");
                    a.out.split(a.y, yo, yi, 4).parallel(yo);
                    a.g.store_at(a.out, yo).compute_at(a.out, yi).vectorize(a.x, 8);
                });
    check_sizes("Halide blur schedule on this pipeline", [](Alg &a) {
        Var yi("yi");
        a.out.split(a.y, a.y, yi, 4).parallel(a.y).vectorize(a.x, 8);
        a.g.store_at(a.out, a.y).compute_at(a.out, a.x).vectorize(a.x, 8);
    });
    check_sizes("g.store_root().compute_at(out, y); f.store_at(out, y).compute_at(g, y)",
                [](Alg &a) {
                    a.g.store_root().compute_at(a.out, a.y);
                    a.f.store_at(a.out, a.y).compute_at(a.g, a.y);
                });
}

TEST_CASE("fold_storage", "[schedule]") {
    for (int fold : {2, 3, 4, 8}) {
        check_sizes(
            "g.store_root().compute_at(out, y).fold_storage(y, " + std::to_string(fold) + ")",
            [=](Alg &a) { a.g.store_root().compute_at(a.out, a.y).fold_storage(a.y, fold); });
    }
    check_sizes("g.store_root().compute_at(out, y).fold_storage(y, 4); f likewise", [](Alg &a) {
        a.g.store_root().compute_at(a.out, a.y).fold_storage(a.y, 4);
        a.f.store_root().compute_at(a.out, a.y).fold_storage(a.y, 4);
    });
}

TEST_CASE("specialize and specialize_fail", "[schedule]") {
    check_sizes("out.specialize(p > 2).vectorize(x, 8); out.specialize(p == 0).parallel(y)",
                [](Alg &a) {
                    a.out.specialize(a.p > 2).vectorize(a.x, 8);
                    a.out.specialize(a.p == 0).parallel(a.y);
                    a.g.compute_root();
                },
                {{37, 23}, {101, 7}}, {0, 1, 5});
    check_sizes("g.compute_root(); g.specialize(p >= 1).vectorize(x, 4)",
                [](Alg &a) {
                    a.g.compute_root();
                    a.g.specialize(a.p >= 1).vectorize(a.x, 4);
                },
                {{37, 23}}, {0, 3});

    // specialize_fail: the listed specializations run; anything else fails at run time.
    {
        check_sizes("out.specialize(p > 0).vectorize(x, 4); out.specialize_fail(...)",
                    [](Alg &a) {
                        a.out.specialize(a.p > 0).vectorize(a.x, 4);
                        a.out.specialize_fail("p must be positive");
                    },
                    {{37, 23}}, {1, 7});
        Buffer<int> in = make_input(37, 23);
        Alg a(in);
        a.out.specialize(a.p > 0).vectorize(a.x, 4);
        a.out.specialize_fail("p must be positive");
        a.p.set(0);
        Buffer<int> o(37, 23);
        bool threw = false;
        try {
            a.out.realize(o);
        } catch (const RuntimeError &e) {
            threw = true;
            CHECK_THAT(std::string(e.what()), Catch::Contains("p must be positive"));
        }
        CHECK(threw);
    }
}

TEST_CASE("combinations", "[schedule]") {
    check_sizes("tile+vectorize+parallel output; g at tile; f root vectorized", [](Alg &a) {
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi"), t("t");
        a.out.tile(a.x, a.y, xo, yo, xi, yi, 16, 4, TailStrategy::GuardWithIf)
            .fuse(xo, yo, t)
            .parallel(t)
            .vectorize(xi, 8);
        a.g.compute_at(a.out, t).vectorize(a.x, 8);
        a.f.compute_root().parallel(a.y).vectorize(a.x, 16);
    });
    check_sizes("unroll+vectorize in a compute_at producer", [](Alg &a) {
        Var xi("xi"), yi("yi");
        a.out.split(a.y, a.y, yi, 4).parallel(a.y);
        a.g.compute_at(a.out, a.y).tile(a.x, a.y, xi, yi, 8, 2).vectorize(xi).unroll(yi);
        a.f.store_at(a.out, a.y).compute_at(a.g, a.x).vectorize(a.x, 4);
    });
    check_sizes("everything at x, with sliding over x", [](Alg &a) {
        a.g.store_root().compute_at(a.out, a.x);
        a.f.store_root().compute_at(a.out, a.x);
    });
    check_sizes("reorder + reorder_storage + sliding over x + vectorize(y)", [](Alg &a) {
        a.out.reorder(a.y, a.x);
        a.g.store_root().compute_at(a.out, a.x).reorder_storage(a.y, a.x).vectorize(a.y, 4);
    });
}
