// Random valid schedules for several small integer pipelines, each output
// compared exactly with plain C++. Integer pipelines keep the comparison exact
// whatever order the schedule computes in.
//
// Seeded from LOOM_TEST_SEED (else the clock); LOOM_RANDOM_SCHEDULES sets the
// count per pipeline (default 40: five pipelines make 200 per run; 10 under the C backend);
// LOOM_TEST_ONLY=i reruns one
// schedule; LOOM_RANDOM_NO_FUSE=1 generates no fuse. A failure prints the seed, the schedule index
// and the schedule as code.

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "Loom.h"
#include "autoschedule/ScheduleUtil.h"
#include "common/RandomPipelines.h"
#include "common/RandomSchedules.h"
#include "common/ScheduleRoundTrip.h"

using namespace loom;

namespace {

constexpr int W = 53, H = 41;

// ---------------------------------------------------------------------------
// Pipelines: the shapes of test/common/RandomPipelines.h.

using PipelineDef = loom_test::PipelineShape;

std::vector<PipelineDef> pipelines() {
    return {loom_test::stencil_chain(), loom_test::pointwise_chain(), loom_test::down_up(),
            loom_test::separable_blur(), loom_test::multi_consumer_dag()};
}

// ---------------------------------------------------------------------------
// Schedule description: a list of primitive calls per Func, plus placement.

const char *tail_name(TailStrategy t) {
    return loom::Internal::tail_strategy_names()[size_t(t)].c_str();
}

struct Op {
    enum Kind { Split, Fuse, Reorder, Tile, Vectorize, Unroll, Parallel } kind;
    std::vector<std::string> vars; // operands, in call order
    int f1 = 0, f2 = 0;            // factors (0: none)
    TailStrategy tail = TailStrategy::Auto;
};

struct Loop {
    std::string name;
    int min_extent;      // a lower bound on the extent (only tracked for the output)
    bool constant;       // extent is a compile-time constant
    int extent;          // its value when constant
    bool vector = false; // a vectorized loop (or the hidden lanes of one)
    bool hidden = false; // made by vectorize/parallel with a factor: no name to use
    // Made by fuse (or split from such a loop): a producer computed there has
    // a region that depends on fused / extent, the hardest case for bounds.
    bool fused = false;
    // Points of the original dimension one iteration covers: the product of
    // the factors split off inside this loop.
    int grain = 1;
};

struct FuncPlan {
    std::vector<Op> ops;
    std::vector<Loop> loops; // innermost first, after all ops
    enum { Inline, Root, At } compute = Root;
    int compute_func = -1, store_func = -1; // -1 with At means root for store
    std::string compute_var, store_var;
    bool store_root = false;
};

struct Generator {
    std::mt19937 &rng;
    bool is_output;
    int counter = 0;
    // LOOM_RANDOM_NO_FUSE=1 leaves fuse out, to look for other bugs behind a fuse bug.
    bool allow_fuse = !std::getenv("LOOM_RANDOM_NO_FUSE");
    // An intermediate split by nested factors is computed over a region rounded
    // up to their product at every use; unbounded, a few nested tiles (8^4) made
    // one schedule compute ~10^10 points and run for minutes.
    static constexpr int max_intermediate_grain = 64;
    bool too_coarse(const Loop &l, int f) const {
        return !is_output && l.grain * f > max_intermediate_grain;
    }

    int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
    bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }

    // Tails valid for splitting loop l by f: outputs must not be written past their
    // end (no RoundUp) and ShiftInwards (what Auto picks for pure definitions) needs
    // the extent to be at least the factor. Intermediates may compute extra points:
    // every pipeline is defined everywhere (boundary conditions or pure math).
    TailStrategy pick_tail(const Loop &l, int f) {
        std::vector<TailStrategy> ok = {TailStrategy::GuardWithIf};
        if (!is_output || l.min_extent >= f) {
            ok.push_back(TailStrategy::Auto);
            ok.push_back(TailStrategy::ShiftInwards);
        }
        if (!is_output) ok.push_back(TailStrategy::RoundUp);
        return ok[size_t(uniform(0, int(ok.size()) - 1))];
    }

    std::string fresh(const std::string &base, const char *suffix) {
        // Keep names short: strip earlier suffixes so x_o1_i2 reads as x_i2.
        std::string b = base.substr(0, base.find('_', 1));
        return b + "_" + suffix + std::to_string(++counter);
    }

    std::pair<Loop, Loop> split_loops(const Loop &l, const std::string &o, const std::string &i,
                                      int f) {
        Loop inner{i, f, true, f};
        Loop outer{o, (l.min_extent + f - 1) / f, l.constant,
                   l.constant ? (l.extent + f - 1) / f : 0};
        inner.fused = outer.fused = l.fused;
        inner.grain = l.grain;
        outer.grain = l.grain * f;
        return {inner, outer};
    }

    // Halide's reorder: the listed loops take the positions they held, in the
    // given order (innermost first).
    static void reorder_loops(std::vector<Loop> &loops, const std::vector<std::string> &order) {
        std::vector<size_t> pos;
        std::vector<Loop> picked;
        for (const auto &n : order)
            for (size_t k = 0; k < loops.size(); k++)
                if (loops[k].name == n) {
                    pos.push_back(k);
                    picked.push_back(loops[k]);
                }
        std::sort(pos.begin(), pos.end());
        for (size_t k = 0; k < pos.size(); k++) loops[pos[k]] = picked[k];
    }

    FuncPlan plan_loops(const std::vector<std::string> &args) {
        FuncPlan p;
        for (const auto &a : args)
            p.loops.push_back({a, is_output ? (a == args[0] ? W : H) : 1, false, 0});
        int n_ops = uniform(0, 4);
        for (int k = 0; k < n_ops; k++) {
            int kind = uniform(0, 3);
            auto &L = p.loops;
            if (kind == 0) { // split
                size_t i = size_t(uniform(0, int(L.size()) - 1));
                int f = uniform(2, 8);
                if (too_coarse(L[i], f)) continue;
                TailStrategy t = pick_tail(L[i], f);
                std::string o = fresh(L[i].name, "o"), in = fresh(L[i].name, "i");
                p.ops.push_back({Op::Split, {L[i].name, o, in}, f, 0, t});
                auto [li, lo] = split_loops(L[i], o, in, f);
                L[i] = li;
                L.insert(L.begin() + long(i) + 1, lo);
            } else if (kind == 1 && L.size() >= 2 && allow_fuse) { // fuse two adjacent loops
                size_t i = size_t(uniform(0, int(L.size()) - 2));
                std::string fu = fresh(L[i].name, "f");
                p.ops.push_back({Op::Fuse, {L[i].name, L[i + 1].name, fu}});
                Loop nl{fu, L[i].min_extent * L[i + 1].min_extent,
                        L[i].constant && L[i + 1].constant, L[i].extent * L[i + 1].extent};
                nl.fused = true;
                nl.grain = L[i].grain * L[i + 1].grain;
                L[i] = nl;
                L.erase(L.begin() + long(i) + 1);
            } else if (kind == 2 && L.size() >= 2) { // reorder a random subset
                std::vector<std::string> names;
                for (auto &l : L) names.push_back(l.name);
                std::shuffle(names.begin(), names.end(), rng);
                names.resize(size_t(uniform(2, int(names.size()))));
                p.ops.push_back({Op::Reorder, names});
                reorder_loops(L, names);
            } else if (kind == 3 && L.size() >= 2) { // tile two adjacent loops
                size_t i = size_t(uniform(0, int(L.size()) - 2));
                int fx = uniform(2, 8), fy = uniform(2, 8);
                Loop lx = L[i], ly = L[i + 1];
                if (too_coarse(lx, fx) || too_coarse(ly, fy)) continue;
                // One tail for both splits: it must suit both.
                TailStrategy t =
                    pick_tail(lx.min_extent < ly.min_extent ? lx : ly, std::max(fx, fy));
                std::string xo = fresh(lx.name, "o"), yo = fresh(ly.name, "o"),
                            xi = fresh(lx.name, "i"), yi = fresh(ly.name, "i");
                p.ops.push_back({Op::Tile, {lx.name, ly.name, xo, yo, xi, yi}, fx, fy, t});
                auto [xil, xol] = split_loops(lx, xo, xi, fx);
                auto [yil, yol] = split_loops(ly, yo, yi, fy);
                // tile() leaves xi, yi, xo, yo (innermost first) where x and y were.
                L.erase(L.begin() + long(i), L.begin() + long(i) + 2);
                L.insert(L.begin() + long(i), {xil, yil, xol, yol});
            }
        }
        auto &L = p.loops;
        // Vectorize the innermost loop.
        if (chance(0.5)) {
            Loop &v = L[0];
            if (v.constant && v.extent >= 2 && v.extent <= 16 && chance(0.5)) {
                p.ops.push_back({Op::Vectorize, {v.name}});
                v.vector = true;
            } else if (int f = std::vector<int>{4, 8, 16}[size_t(uniform(0, 2))];
                       !too_coarse(v, f)) {
                TailStrategy t = pick_tail(v, f);
                p.ops.push_back({Op::Vectorize, {v.name}, f, 0, t});
                auto [li, lo] = split_loops(v, v.name, v.name + ".v", f);
                li.vector = true;
                li.hidden = true;
                L[0] = lo;
                L.insert(L.begin(), li);
            }
        }
        // Unroll a small constant loop.
        if (chance(0.3)) {
            for (size_t k = 0; k < L.size(); k++) {
                if (!L[k].vector && L[k].constant && L[k].extent <= 8) {
                    p.ops.push_back({Op::Unroll, {L[k].name}});
                    break;
                }
            }
        }
        // Parallelize the outermost loop, maybe with a task size.
        if (chance(0.4) && !L.back().vector) {
            Loop &o = L.back();
            if (chance(0.5)) {
                p.ops.push_back({Op::Parallel, {o.name}});
            } else if (int f = uniform(2, 4); !too_coarse(o, f)) {
                TailStrategy t = pick_tail(o, f);
                p.ops.push_back({Op::Parallel, {o.name}, f, 0, t});
                auto [li, lo] = split_loops(o, o.name, o.name + ".par", f);
                li.hidden = true;
                o = lo;
                L.insert(L.end() - 1, li);
            }
        }
        return p;
    }
};

// LOOM_RANDOM_NO_COMPUTE_IN_FUSED=1 picks no compute level at or inside a fused loop.
static const bool no_compute_in_fused = std::getenv("LOOM_RANDOM_NO_COMPUTE_IN_FUSED") != nullptr;

// The loops (func, var) enclosing a Func's computation, outermost first.
using Path = std::vector<std::pair<int, std::string>>;

struct Schedule {
    std::vector<FuncPlan> plans;
    std::vector<std::string> names;

    Path enclosing(int i) const {
        const FuncPlan &p = plans[size_t(i)];
        if (p.compute != FuncPlan::At) return {};
        Path path = enclosing(p.compute_func);
        const auto &cl = plans[size_t(p.compute_func)].loops;
        for (size_t k = cl.size(); k-- > 0;) {
            if (cl[k].hidden) continue;
            path.push_back({p.compute_func, cl[k].name});
            if (cl[k].name == p.compute_var) break;
        }
        return path;
    }

    // Where the uses of Func i inside consumer d happen: all of d's loops.
    Path use_site(int d) const {
        Path path = enclosing(d);
        const auto &cl = plans[size_t(d)].loops;
        for (size_t k = cl.size(); k-- > 0;) {
            if (cl[k].vector) break; // nothing is computed inside a vectorized loop
            if (cl[k].fused && no_compute_in_fused) break; // see Loop::fused
            if (cl[k].hidden) continue;
            path.push_back({d, cl[k].name});
        }
        return path;
    }

    std::string text() const {
        std::ostringstream s;
        for (size_t i = 0; i < plans.size(); i++) {
            const FuncPlan &p = plans[i];
            const std::string &n = names[i];
            if (p.compute == FuncPlan::Inline) {
                s << "  " << n << ".compute_inline();\n";
                continue;
            }
            for (const Op &op : p.ops) {
                s << "  " << n;
                const auto &v = op.vars;
                switch (op.kind) {
                case Op::Split:
                    s << ".split(" << v[0] << ", " << v[1] << ", " << v[2] << ", " << op.f1
                      << ", TailStrategy::" << tail_name(op.tail) << ")";
                    break;
                case Op::Fuse:
                    s << ".fuse(" << v[0] << ", " << v[1] << ", " << v[2] << ")";
                    break;
                case Op::Reorder:
                    s << ".reorder(";
                    for (size_t k = 0; k < v.size(); k++) s << (k ? ", " : "") << v[k];
                    s << ")";
                    break;
                case Op::Tile:
                    s << ".tile(" << v[0] << ", " << v[1] << ", " << v[2] << ", " << v[3] << ", "
                      << v[4] << ", " << v[5] << ", " << op.f1 << ", " << op.f2
                      << ", TailStrategy::" << tail_name(op.tail) << ")";
                    break;
                case Op::Vectorize:
                    s << ".vectorize(" << v[0];
                    if (op.f1) s << ", " << op.f1 << ", TailStrategy::" << tail_name(op.tail);
                    s << ")";
                    break;
                case Op::Unroll:
                    s << ".unroll(" << v[0] << ")";
                    break;
                case Op::Parallel:
                    s << ".parallel(" << v[0];
                    if (op.f1) s << ", " << op.f1 << ", TailStrategy::" << tail_name(op.tail);
                    s << ")";
                    break;
                }
                s << ";\n";
            }
            if (i + 1 == plans.size()) continue; // the output
            s << "  " << n;
            if (p.compute == FuncPlan::Root) {
                s << ".compute_root();\n";
                continue;
            }
            if (p.store_root)
                s << ".store_root()";
            else
                s << ".store_at(" << names[size_t(p.store_func)] << ", " << p.store_var << ")";
            s << ".compute_at(" << names[size_t(p.compute_func)] << ", " << p.compute_var << ");\n";
        }
        return s.str();
    }
};

Schedule random_schedule(const PipelineDef &def, const std::vector<Func> &funcs,
                         std::mt19937 &rng) {
    Schedule s;
    size_t n = funcs.size();
    s.plans.resize(n);
    for (size_t i = 0; i < n; i++) {
        std::vector<std::string> args;
        for (const Var &v : funcs[i].args()) args.push_back(v.name());
        s.names.push_back(funcs[i].name());
        Generator g{rng, i + 1 == n};
        s.plans[i] = g.plan_loops(args);
    }
    Generator g{rng, false};
    std::vector<std::vector<int>> effective(n); // non-inlined Funcs that use Func i
    for (size_t k = n - 1; k-- > 0;) {
        int i = int(k);
        for (int d : def.consumers[k]) {
            if (s.plans[size_t(d)].compute == FuncPlan::Inline)
                effective[k].insert(effective[k].end(), effective[size_t(d)].begin(),
                                    effective[size_t(d)].end());
            else
                effective[k].push_back(d);
        }
        // Legal compute_at levels: the loops enclosing every use.
        Path common;
        bool first = true;
        for (int d : effective[k]) {
            Path site = s.use_site(d);
            if (first) {
                common = site;
                first = false;
                continue;
            }
            size_t m = 0;
            while (m < common.size() && m < site.size() && common[m] == site[m]) m++;
            common.resize(m);
        }
        FuncPlan &p = s.plans[k];
        int r = g.uniform(0, 3);
        if (r == 0) {
            p.compute = FuncPlan::Inline;
        } else if (r == 1 || common.empty()) {
            p.compute = FuncPlan::Root;
        } else {
            size_t c = size_t(g.uniform(0, int(common.size()) - 1));
            p.compute = FuncPlan::At;
            p.compute_func = common[c].first;
            p.compute_var = common[c].second;
            int sr = g.uniform(0, 4);
            if (sr == 0) {
                p.store_root = true;
            } else {
                size_t st = sr == 1 ? size_t(g.uniform(0, int(c))) : c;
                p.store_func = common[st].first;
                p.store_var = common[st].second;
            }
        }
        (void)i;
    }
    return s;
}

void apply_schedule(const Schedule &s, std::vector<Func> &funcs) {
    for (size_t i = 0; i < funcs.size(); i++) {
        Func &f = funcs[i];
        const FuncPlan &p = s.plans[i];
        if (p.compute == FuncPlan::Inline) {
            f.compute_inline();
            continue;
        }
        for (const Op &op : p.ops) {
            std::vector<Var> v;
            for (const auto &n : op.vars) v.emplace_back(n);
            switch (op.kind) {
            case Op::Split:
                f.split(v[0], v[1], v[2], op.f1, op.tail);
                break;
            case Op::Fuse:
                f.fuse(v[0], v[1], v[2]);
                break;
            case Op::Reorder: {
                std::vector<VarOrRVar> order(v.begin(), v.end());
                f.reorder(order);
                break;
            }
            case Op::Tile:
                f.tile(v[0], v[1], v[2], v[3], v[4], v[5], op.f1, op.f2, op.tail);
                break;
            case Op::Vectorize:
                if (op.f1)
                    f.vectorize(v[0], op.f1, op.tail);
                else
                    f.vectorize(v[0]);
                break;
            case Op::Unroll:
                f.unroll(v[0]);
                break;
            case Op::Parallel:
                if (op.f1)
                    f.parallel(v[0], op.f1, op.tail);
                else
                    f.parallel(v[0]);
                break;
            }
        }
        if (i + 1 == funcs.size()) continue;
        if (p.compute == FuncPlan::Root) {
            f.compute_root();
            continue;
        }
        f.compute_at(funcs[size_t(p.compute_func)], Var(p.compute_var));
        if (p.store_root)
            f.store_root();
        else
            f.store_at(funcs[size_t(p.store_func)], Var(p.store_var));
    }
}

void run_pipeline(const PipelineDef &def) {
    const uint64_t seed = loom_test::random_schedule_seed();
    const int count = loom_test::random_schedule_count(40);
    const long only = long(loom_test::env_u64("LOOM_TEST_ONLY", uint64_t(-1)));
    INFO("pipeline " << def.name << ", LOOM_TEST_SEED=" << seed);

    Buffer<int> in(W, H);
    in.set_name("random_sched_input");
    std::mt19937 irng{uint32_t(seed)};
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) in(i, j) = int(irng() % 256);
    std::vector<int> ref(size_t(W * H));
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) ref[size_t(j * W + i)] = def.reference(in, i, j);

    int failures = 0, reported = 0;
    for (int it = 0; it < count; it++) {
        if (only >= 0 && it != only) continue;
        std::mt19937 rng(
            uint32_t(seed * 1000003u + uint64_t(it) * 7919u + std::hash<std::string>()(def.name)));
        std::vector<Func> funcs = def.build(in);
        Schedule s = random_schedule(def, funcs, rng);
        std::string problem;
        try {
            apply_schedule(s, funcs);
            // The schedule as a value prints, reads back and saves exactly.
            problem = loom_test::schedule_round_trip_problem(Pipeline(funcs.back()));
            if (!problem.empty()) throw std::runtime_error(problem);
            Buffer<int> out(W, H);
            funcs.back().realize(out);
            for (int j = 0; j < H && problem.empty(); j++)
                for (int i = 0; i < W; i++)
                    if (out(i, j) != ref[size_t(j * W + i)]) {
                        problem = "output differs at (" + std::to_string(i) + ", " +
                                  std::to_string(j) + "): got " + std::to_string(out(i, j)) +
                                  ", expected " + std::to_string(ref[size_t(j * W + i)]);
                        break;
                    }
        } catch (const std::exception &e) {
            problem = std::string("exception: ") + e.what();
        }
        if (!problem.empty()) {
            failures++;
            if (reported++ < 5) {
                FAIL_CHECK("pipeline " << def.name << ", schedule " << it
                                       << " (rerun with LOOM_TEST_SEED=" << seed
                                       << " LOOM_TEST_ONLY=" << it << "):\n"
                                       << s.text() << problem);
            }
        }
    }
    INFO(failures << " of " << count << " random schedules failed");
    CHECK(failures == 0);
}

} // namespace

TEST_CASE("random schedules: 3x3 stencil chain with repeat_edge", "[random_schedule]") {
    run_pipeline(pipelines()[0]);
}

TEST_CASE("random schedules: pointwise chain", "[random_schedule]") {
    run_pipeline(pipelines()[1]);
}

TEST_CASE("random schedules: downsample / upsample pair", "[random_schedule]") {
    run_pipeline(pipelines()[2]);
}

TEST_CASE("random schedules: separable blur", "[random_schedule]") {
    run_pipeline(pipelines()[3]);
}

TEST_CASE("random schedules: multi-consumer DAG", "[random_schedule]") {
    run_pipeline(pipelines()[4]);
}

// A store_root Func computed inside a fused loop whose consumers are fused
// too: bounds inference once bounded `fused / extent` by the quotient of two
// ranges over every iteration of the enclosing loop, which made p1's storage
// 23,366,786,625 elements (refused). The fused loop builder now caps the
// quotient at the outer extent (ScheduleFunctions apply_fuse). Seen once in
// CI (c_backend, 2026-11-26, seed 590305786).
TEST_CASE("random schedules: store_root of a fused RoundUp Func at a fused loop",
          "[random_schedule]") {
    std::vector<Func> funcs = pipelines()[1].build(Buffer<int>(W, H));
    std::mt19937 rng(uint32_t(590305786ull * 1000003u + 5u * 7919u +
                              std::hash<std::string>()(pipelines()[1].name)));
    apply_schedule(random_schedule(pipelines()[1], funcs, rng), funcs);
    Buffer<int> out(W, H);
    REQUIRE_NOTHROW(funcs.back().realize(out));
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++)
            REQUIRE(out(i, j) == pipelines()[1].reference(Buffer<int>(), i, j));
}
