// Random valid GPU schedules (OpenCL; PoCL in CI) for the pipeline shapes of
// the CPU random schedule tests (test/correctness/random_schedules.cpp and
// reductions_random_schedules.cpp): pointwise chains, stencils, blur-like
// multi-stage pipelines, a Tuple, update stages and an atomic histogram.
// Every output is compared exactly with plain C++ (integer pipelines).
//
// Each non-output Func is inlined, computed at root, or computed at a loop
// of its consumers: a host loop (a CPU loop, or the loop outside a kernel),
// the innermost block loop of a kernel (shared memory: the Func gets
// gpu_threads on its vars or runs serially per block), or a thread loop
// (per thread, serial). What a Func may do depends on where it lands:
//   host:   gpu_tile 1-D / 2-D (with or without the outer vars), split +
//           gpu_blocks + gpu_threads, gpu_blocks(y).gpu_threads(x),
//           gpu_blocks only, gpu_single_thread, or a CPU schedule (parallel,
//           vectorize); the inner thread var may be vectorized or unrolled;
//   block:  gpu_threads(x, y), gpu_threads(x), gpu_threads(y) or serial,
//           with vectorize / unroll;
//   thread: serial, with vectorize / unroll.
// Every stage of a Func with update definitions is scheduled the same way,
// its GPU loops over the update's pure vars. Tile sizes are powers of two
// and odd sizes; image sizes are ragged; tails are GuardWithIf, Auto,
// ShiftInwards or RoundUp where legal (never RoundUp on an output, and Auto
// or ShiftInwards on an output only where the extent is at least the factor).
//
// Seeded from LOOM_TEST_SEED (else the clock); LOOM_RANDOM_SCHEDULES sets the
// count per pipeline (default 12: nine pipelines make 108 per run);
// LOOM_TEST_ONLY=i reruns one schedule; LOOM_GPU_RANDOM_VERBOSE=1 prints each
// schedule before it runs. A failure prints the seed, the schedule index,
// the output size, the schedule as code and the first mismatch (or the
// exception).

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "Loom.h"
#include "common/RandomSchedules.h"
#include "gpu/gpu_test_util.h"

using namespace loom;
using gpu_test::opencl_target;

namespace {

constexpr int IW = 48, IH = 40; // the input image

int floordiv(int a, int b) {
    int q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int clampi(int v, int lo, int hi) {
    return std::min(std::max(v, lo), hi);
}

int edge(const Buffer<int> &in, int i, int j) {
    return in(clampi(i, 0, IW - 1), clampi(j, 0, IH - 1));
}

const char *tail_name(TailStrategy t) {
    switch (t) {
    case TailStrategy::Auto:
        return "Auto";
    case TailStrategy::RoundUp:
        return "RoundUp";
    case TailStrategy::GuardWithIf:
        return "GuardWithIf";
    case TailStrategy::ShiftInwards:
        return "ShiftInwards";
    default:
        return "?";
    }
}

// ---------------------------------------------------------------------------
// Pipelines: Funcs listed producers first, the output last; `consumers[i]`
// lists the Funcs that call Func i directly; `updates[i]` lists, for each
// update definition of Func i, its pure vars (x first) and whether it has
// RVars (they stay the innermost, serial loops).

struct UpdateDef {
    std::vector<std::string> pure;
    bool rvars;
};

struct PipelineDef {
    std::string name;
    std::function<std::vector<Func>(const Buffer<int> &)> build;
    std::vector<std::vector<int>> consumers;
    std::function<int(const Buffer<int> &, int, int)> reference;
    std::vector<std::vector<UpdateDef>> updates; // empty: no Func has updates
    std::vector<std::pair<int, int>> sizes;      // output sizes to choose from
    // Funcs whose region has no constant bound even where their consumers'
    // loops have one (an RDom over a fixed domain): never per-thread storage.
    std::vector<int> unbounded;
    // Funcs whose regions come from x / 2 (known bugs B4, B5).
    std::vector<int> divided;
};

const std::vector<std::pair<int, int>> ragged_sizes = {{53, 41}, {37, 23}, {64, 48},
                                                       {29, 47}, {17, 9},  {45, 30}};

PipelineDef stencil_chain() {
    return {"stencil_chain",
            [](const Buffer<int> &in) {
                Var x("x"), y("y");
                Func bnd = BoundaryConditions::repeat_edge(in);
                Func s1("s1"), s2("s2"), out("out");
                Expr sum = 0;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) sum = sum + bnd(x + dx, y + dy);
                s1(x, y) = sum;
                s2(x, y) = s1(x - 1, y - 1) + 2 * s1(x, y) + s1(x + 1, y + 1) + s1(x + 1, y - 1);
                out(x, y) = (s2(x, y - 1) + s2(x, y + 1) + s2(x - 1, y) + s2(x + 1, y)) / 4;
                return std::vector<Func>{bnd, s1, s2, out};
            },
            {{1}, {2}, {3}, {}},
            [](const Buffer<int> &in, int i, int j) {
                auto s1 = [&](int a, int b) {
                    int s = 0;
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++) s += edge(in, a + dx, b + dy);
                    return s;
                };
                auto s2 = [&](int a, int b) {
                    return s1(a - 1, b - 1) + 2 * s1(a, b) + s1(a + 1, b + 1) + s1(a + 1, b - 1);
                };
                return (s2(i, j - 1) + s2(i, j + 1) + s2(i - 1, j) + s2(i + 1, j)) / 4;
            },
            {},
            ragged_sizes,
            {},
            {}};
}

PipelineDef pointwise_chain() {
    return {"pointwise_chain",
            [](const Buffer<int> &) {
                Var x("x"), y("y");
                Func src("src"), p1("p1"), p2("p2"), p3("p3"), out("out");
                src(x, y) = (x * 7 + y * 13) % 256;
                p1(x, y) = src(x, y) * 3 + 1;
                p2(x, y) = p1(x, y) % 97 + x;
                p3(x, y) = p2(x, y) * p2(x, y) - p1(x, y);
                out(x, y) = p3(x, y) + p1(x, y) / 2 - y;
                return std::vector<Func>{src, p1, p2, p3, out};
            },
            {{1}, {2, 3, 4}, {3}, {4}, {}},
            [](const Buffer<int> &, int i, int j) {
                int src = (i * 7 + j * 13) % 256;
                int p1 = src * 3 + 1;
                int p2 = p1 % 97 + i;
                int p3 = p2 * p2 - p1;
                return p3 + p1 / 2 - j;
            },
            {},
            ragged_sizes,
            {},
            {}};
}

PipelineDef down_up() {
    return {"down_up",
            [](const Buffer<int> &in) {
                Var x("x"), y("y");
                Func bnd = BoundaryConditions::repeat_edge(in);
                Func down("down"), up("up"), out("out");
                down(x, y) = (bnd(2 * x, 2 * y) + bnd(2 * x + 1, 2 * y) + bnd(2 * x, 2 * y + 1) +
                              bnd(2 * x + 1, 2 * y + 1)) /
                             4;
                up(x, y) = (3 * down(x / 2, y / 2) + down((x + 1) / 2, (y + 1) / 2)) / 4;
                out(x, y) = 2 * up(x, y) - bnd(x, y) + up(x - 1, y);
                return std::vector<Func>{bnd, down, up, out};
            },
            {{1, 3}, {2}, {3}, {}},
            [](const Buffer<int> &in, int i, int j) {
                auto down = [&](int a, int b) {
                    return (edge(in, 2 * a, 2 * b) + edge(in, 2 * a + 1, 2 * b) +
                            edge(in, 2 * a, 2 * b + 1) + edge(in, 2 * a + 1, 2 * b + 1)) /
                           4;
                };
                auto up = [&](int a, int b) {
                    return floordiv(3 * down(floordiv(a, 2), floordiv(b, 2)) +
                                        down(floordiv(a + 1, 2), floordiv(b + 1, 2)),
                                    4);
                };
                return 2 * up(i, j) - edge(in, i, j) + up(i - 1, j);
            },
            {},
            ragged_sizes,
            {},
            {0, 1}};
}

PipelineDef separable_blur() {
    return {"separable_blur",
            [](const Buffer<int> &in) {
                Var x("x"), y("y");
                Func bnd = BoundaryConditions::repeat_edge(in);
                Func bx("blur_x"), by("blur_y"), out("out");
                bx(x, y) = bnd(x - 1, y) + 2 * bnd(x, y) + bnd(x + 1, y);
                by(x, y) = bx(x, y - 1) + 2 * bx(x, y) + bx(x, y + 1);
                out(x, y) = by(x, y) / 16;
                return std::vector<Func>{bnd, bx, by, out};
            },
            {{1}, {2}, {3}, {}},
            [](const Buffer<int> &in, int i, int j) {
                auto bx = [&](int a, int b) {
                    return edge(in, a - 1, b) + 2 * edge(in, a, b) + edge(in, a + 1, b);
                };
                return (bx(i, j - 1) + 2 * bx(i, j) + bx(i, j + 1)) / 16;
            },
            {},
            ragged_sizes,
            {},
            {}};
}

PipelineDef multi_consumer_dag() {
    return {"multi_consumer_dag",
            [](const Buffer<int> &in) {
                Var x("x"), y("y");
                Func bnd = BoundaryConditions::repeat_edge(in);
                Func a("a"), b("b"), c("c"), out("out");
                a(x, y) = bnd(x, y) * 2 + 1;
                b(x, y) = a(x - 1, y) + a(x + 1, y);
                c(x, y) = a(x, y - 1) * 2 - a(x, y + 2);
                out(x, y) = b(x, y) * c(x, y) + a(x, y);
                return std::vector<Func>{bnd, a, b, c, out};
            },
            {{1}, {2, 3, 4}, {4}, {4}, {}},
            [](const Buffer<int> &in, int i, int j) {
                auto a = [&](int p, int q) { return edge(in, p, q) * 2 + 1; };
                int b = a(i - 1, j) + a(i + 1, j);
                int c = a(i, j - 1) * 2 - a(i, j + 2);
                return b * c + a(i, j);
            },
            {},
            ragged_sizes,
            {},
            {}};
}

PipelineDef tuple_pair() {
    return {"tuple_pair",
            [](const Buffer<int> &in) {
                Var x("x"), y("y");
                Func bnd = BoundaryConditions::repeat_edge(in);
                Func t("t"), out("out");
                t(x, y) = Tuple(bnd(x, y) * 3 + x, bnd(x + 1, y) - y);
                out(x, y) = t(x, y)[0] + t(x - 1, y + 1)[1] * 2;
                return std::vector<Func>{bnd, t, out};
            },
            {{1}, {2}, {}},
            [](const Buffer<int> &in, int i, int j) {
                auto t0 = [&](int a, int b) { return edge(in, a, b) * 3 + a; };
                auto t1 = [&](int a, int b) { return edge(in, a + 1, b) - b; };
                return t0(i, j) + t1(i - 1, j + 1) * 2;
            },
            {},
            ragged_sizes,
            {},
            {}};
}

// The 2-D RDom convolution of reductions_random_schedules.cpp, with a
// pointwise update after it.
PipelineDef conv_update() {
    return {"conv_update",
            [](const Buffer<int> &in) {
                Var x("x"), y("y");
                Func clamped("clamped"), conv("conv"), out("out");
                clamped(x, y) = in(clamp(x, 0, IW - 1), clamp(y, 0, IH - 1));
                RDom r({{-2, 4}, {-1, 3}}, "r");
                conv(x, y) = 1;
                conv(x, y) += clamped(x + r.x, y + r.y) * (r.x + 3);
                conv(x, y) = conv(x, y) * 2 - 1;
                out(x, y) = conv(x, y) + x - y;
                return std::vector<Func>{clamped, conv, out};
            },
            {{1}, {2}, {}},
            [](const Buffer<int> &in, int i, int j) {
                int s = 0;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -2; dx <= 1; dx++) s += edge(in, i + dx, j + dy) * (dx + 3);
                return s * 2 + 1 + i - j;
            },
            {{}, {{{"x", "y"}, true}, {{"x", "y"}, false}}, {}},
            ragged_sizes,
            {},
            {}};
}

// The same convolution as the output: its update stages run on the GPU with
// the output's tails.
PipelineDef conv_output() {
    return {"conv_output",
            [](const Buffer<int> &in) {
                Var x("x"), y("y");
                Func clamped("clamped"), conv("conv");
                clamped(x, y) = in(clamp(x, 0, IW - 1), clamp(y, 0, IH - 1));
                RDom r({{-2, 4}, {-1, 3}}, "r");
                conv(x, y) = x - y;
                conv(x, y) += clamped(x + r.x, y + r.y) * (r.y + 2);
                conv(x, y) = conv(x, y) * 3 + 1;
                return std::vector<Func>{clamped, conv};
            },
            {{1}, {}},
            [](const Buffer<int> &in, int i, int j) {
                int s = i - j;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -2; dx <= 1; dx++) s += edge(in, i + dx, j + dy) * (dy + 2);
                return s * 3 + 1;
            },
            {{}, {{{"x", "y"}, true}, {{"x", "y"}, false}}},
            ragged_sizes,
            {},
            {}};
}

// The column scan of reductions_random_schedules.cpp: an update whose only
// pure var is x (the RVar runs serially inside each thread).
PipelineDef column_scan() {
    return {"column_scan",
            [](const Buffer<int> &in) {
                Var x("x"), y("y");
                Func bnd = BoundaryConditions::repeat_edge(in);
                Func scan("scan"), out("out");
                scan(x, y) = bnd(x, y);
                RDom r({{1, IH - 1}}, "r");
                scan(x, r) = scan(x, r) + scan(x, r - 1);
                out(x, y) = scan(x, y) * 2 - x;
                return std::vector<Func>{bnd, scan, out};
            },
            {{1}, {2}, {}},
            [](const Buffer<int> &in, int i, int j) {
                int acc = 0;
                for (int k = 0; k <= j; k++) acc += edge(in, i, k);
                return acc * 2 - i;
            },
            {{}, {{{"x"}, true}}, {}},
            // Rows of the scan stop at the input's height.
            {{53, 40}, {37, 23}, {48, 40}, {17, 9}, {61, 31}},
            {0, 1},
            {}};
}

// ---------------------------------------------------------------------------
// Schedules. A schedule is a list of printable operations per stage, plus a
// placement per Func; the loops each stage ends up with (outermost first)
// tell where its producers may be computed.

enum class Ctx { Host, Block, Thread };

// Choices that hit known bugs of the GPU implementation (each reduced to a
// repro in gpu_random_schedules' report); LOOM_GPU_RANDOM_SKIP_KNOWN=1 leaves
// them out, to look for other bugs behind them.
bool skip_known_bugs() {
    static const bool skip = std::getenv("LOOM_GPU_RANDOM_SKIP_KNOWN") != nullptr;
    return skip;
}

/** With LOOM_GPU_RANDOM_SKIP_KNOWN, the CompileErrors of known bugs B2 and B4
 * (sizes inside kernels that Loom cannot bound) count as skipped. */
bool known_bug_error(const std::string &what) {
    return skip_known_bugs() && (what.find("has no constant bound") != std::string::npos ||
                                 what.find("has no bound the host can compute") != std::string::npos);
}

struct Loop {
    std::string name;
    enum Kind { Serial, Parallel, Block, Thread, Vector, Unrolled } kind = Serial;
    bool hidden = false; // made by vectorize/unroll with a factor: no name to use
    // The inner loop of a split by a constant: its extent has a constant
    // bound wherever the Func is computed (hidden loops have one too).
    bool split_inner = false;
};

struct Op {
    enum Kind {
        GpuTile,
        Split,
        Reorder,
        GpuBlocks,
        GpuThreads,
        SingleThread,
        Vectorize,
        Unroll,
        Parallel
    } kind;
    std::vector<std::string> vars; // in call order
    std::vector<int> factors;      // after the vars
    bool has_tail = false;
    TailStrategy tail = TailStrategy::Auto;

    Op(Kind k, std::vector<std::string> v, std::vector<int> f = {}, bool with_tail = false,
       TailStrategy t = TailStrategy::Auto)
        : kind(k), vars(std::move(v)), factors(std::move(f)), has_tail(with_tail), tail(t) {}
};

struct StagePlan {
    std::vector<Op> ops;
    std::vector<Loop> loops; // outermost first; RVars' loops left out
    bool single_thread = false;
};

// A loop of a consumer where a producer may be computed: inside which kind
// of loop (host, GPU block, GPU thread) the producer would run.
struct Site {
    int func;
    std::string var;
    Ctx ctx;
    bool usable;  // false for a block loop with more block loops inside
    bool bounded; // the loop's extent has a constant bound
    bool operator==(const Site &o) const { return func == o.func && var == o.var; }
};
using Path = std::vector<Site>;

struct FuncPlan {
    enum { Inline, Root, At } where = Root;
    int at_func = -1;
    std::string at_var;
    Ctx ctx = Ctx::Host; // where its loops run
    Path enclosing;      // the sites enclosing its computation
    // Its region has a constant bound (for storage inside a GPU thread).
    bool region_bounded = false;
    std::vector<StagePlan> stages;
};

const char *ctx_name(Ctx c) {
    return c == Ctx::Host ? "host" : c == Ctx::Block ? "GPU block" : "GPU thread";
}

std::string op_text(const Op &op) {
    std::ostringstream s;
    static const char *names[] = {"gpu_tile",   "split",       "reorder",
                                  "gpu_blocks", "gpu_threads", "gpu_single_thread",
                                  "vectorize",  "unroll",      "parallel"};
    s << "." << names[op.kind] << "(";
    bool first = true;
    for (const auto &v : op.vars) {
        s << (first ? "" : ", ") << v;
        first = false;
    }
    for (int f : op.factors) {
        s << (first ? "" : ", ") << f;
        first = false;
    }
    if (op.has_tail) s << ", TailStrategy::" << tail_name(op.tail);
    s << ")";
    return s.str();
}

/** Applies one loop operation to a Func (its pure definition) or a Stage. */
template <typename S> void apply_op(S &&s, const Op &op) {
    auto v = [&](size_t k) { return VarOrRVar(Var(op.vars[k])); };
    auto f = [&](size_t k) { return Expr(op.factors[k]); };
    switch (op.kind) {
    case Op::GpuTile:
        if (op.vars.size() == 2)
            s.gpu_tile(v(0), v(1), f(0), op.tail);
        else if (op.vars.size() == 3)
            s.gpu_tile(v(0), v(1), v(2), f(0), op.tail);
        else if (op.vars.size() == 4)
            s.gpu_tile(v(0), v(1), v(2), v(3), f(0), f(1), op.tail);
        else
            s.gpu_tile(v(0), v(1), v(2), v(3), v(4), v(5), f(0), f(1), op.tail);
        break;
    case Op::Split:
        s.split(v(0), v(1), v(2), f(0), op.tail);
        break;
    case Op::Reorder: {
        std::vector<VarOrRVar> order;
        for (size_t k = 0; k < op.vars.size(); k++) order.push_back(v(k));
        s.reorder(order);
        break;
    }
    case Op::GpuBlocks:
        if (op.vars.size() == 1)
            s.gpu_blocks(v(0));
        else
            s.gpu_blocks(v(0), v(1));
        break;
    case Op::GpuThreads:
        if (op.vars.size() == 1)
            s.gpu_threads(v(0));
        else
            s.gpu_threads(v(0), v(1));
        break;
    case Op::SingleThread:
        s.gpu_single_thread();
        break;
    case Op::Vectorize:
        if (op.factors.empty())
            s.vectorize(v(0));
        else
            s.vectorize(v(0), f(0), op.tail);
        break;
    case Op::Unroll:
        if (op.factors.empty())
            s.unroll(v(0));
        else
            s.unroll(v(0), f(0), op.tail);
        break;
    case Op::Parallel:
        s.parallel(v(0));
        break;
    }
}

/** Random schedule choices for one stage, given where it runs. */
class StagePlanner {
public:
    StagePlanner(std::mt19937 &r, int &c) : rng(r), counter(c) {}

    int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
    bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }
    template <typename T> T pick(const std::vector<T> &v) {
        return v[size_t(uniform(0, int(v.size()) - 1))];
    }

    // What is being scheduled.
    std::vector<std::string> pure; // x first
    bool is_output = false, is_update = false, has_rvars = false;
    int width = 1, height = 1; // the output's size (for output tails)

    StagePlan plan(Ctx ctx, bool gpu) {
        p = StagePlan{};
        where = ctx;
        x = pure[0];
        y = pure.size() > 1 ? pure[1] : "";
        if (ctx == Ctx::Block)
            plan_block();
        else if (ctx == Ctx::Thread)
            plan_thread();
        else if (gpu)
            plan_host_gpu();
        else
            plan_cpu();
        return p;
    }

private:
    std::mt19937 &rng;
    int &counter;
    StagePlan p;
    Ctx where = Ctx::Host;
    std::string x, y;

    std::string fresh(const std::string &base, const char *suffix) {
        return base + suffix + std::to_string(++counter);
    }

    int extent_of(const std::string &v) const { return v == pure[0] ? width : height; }

    // Legal tails for splitting the given original vars (all of them) by
    // factor; `inner` for a split of a loop made by an earlier split.
    TailStrategy pick_tail(const std::vector<std::string> &vars, int factor, bool inner,
                           int inner_extent = 0) {
        std::vector<TailStrategy> ok = {TailStrategy::GuardWithIf};
        if (is_output) {
            bool fits = true;
            for (const auto &v : vars) fits = fits && extent_of(v) >= factor;
            if (inner) fits = inner_extent >= factor;
            // Auto on an output's update guards; on the pure stage it is
            // ShiftInwards, which needs the extent to be at least the factor.
            if (is_update || fits) ok.push_back(TailStrategy::Auto);
            if (!is_update && fits) ok.push_back(TailStrategy::ShiftInwards);
        } else {
            ok.push_back(TailStrategy::Auto);
            if (!is_update) ok.push_back(TailStrategy::ShiftInwards);
            if (!(is_update && inner)) ok.push_back(TailStrategy::RoundUp);
            if (skip_known_bugs() && where != Ctx::Host) // known bug B2
                ok = is_update ? std::vector<TailStrategy>{TailStrategy::GuardWithIf}
                               : std::vector<TailStrategy>{TailStrategy::GuardWithIf,
                                                           TailStrategy::RoundUp};
        }
        return pick(ok);
    }

    int tile_size() { return pick(std::vector<int>{2, 3, 4, 5, 7, 8, 12, 16, 32}); }

    void add(Op op) { p.ops.push_back(std::move(op)); }

    // Maybe vectorize or unroll part of the constant loop `v` (extent e) of a
    // GPU thread: the outer part keeps its name and its loop type.
    void maybe_split_thread_var(const std::string &v, int e) {
        // Known bug B3 (+ B1): a thread loop of extent 1 disappears.
        auto ok = [&](int f) { return !skip_known_bugs() || e >= 2 * f; };
        if (chance(0.3) && !has_rvars) {
            int f = pick(std::vector<int>{2, 4});
            if (!ok(f)) return;
            add({Op::Vectorize, {v}, {f}, true, pick_tail({}, f, true, e)});
            p.loops.push_back({v + ".v", Loop::Vector, true});
        } else if (chance(0.2)) {
            int f = pick(std::vector<int>{2, 3});
            if (!ok(f)) return;
            add({Op::Unroll, {v}, {f}, true, pick_tail({}, f, true, e)});
            p.loops.push_back({v + ".u", Loop::Unrolled, true});
        }
    }

    void plan_host_gpu() {
        bool two = !y.empty();
        enum { Tile2, Tile1, SplitBT, Rows, BlocksOnly, Single };
        std::vector<int> kinds = {Tile1, Tile1, SplitBT, SplitBT, BlocksOnly, Single};
        if (two) kinds.insert(kinds.end(), {Tile2, Tile2, Tile2, Rows});
        int kind = pick(kinds);
        if (kind == Tile2) {
            int fx = tile_size(), fy = tile_size();
            while (fx * fy > 256) fy = std::max(1, fy / 2);
            if (fy < 2) fy = 2;
            TailStrategy t = pick_tail({x, y}, std::max(fx, fy), false);
            std::string xi = fresh(x, "i"), yi = fresh(y, "i");
            if (chance(0.5)) {
                std::string xo = fresh(x, "o"), yo = fresh(y, "o");
                add({Op::GpuTile, {x, y, xo, yo, xi, yi}, {fx, fy}, true, t});
                p.loops = {{yo, Loop::Block}, {xo, Loop::Block}};
            } else {
                add({Op::GpuTile, {x, y, xi, yi}, {fx, fy}, true, t});
                p.loops = {{y, Loop::Block}, {x, Loop::Block}};
            }
            p.loops.push_back({yi, Loop::Thread, false, true});
            p.loops.push_back({xi, Loop::Thread, false, true});
            maybe_split_thread_var(xi, fx);
        } else if (kind == Tile1) {
            int fx = tile_size();
            TailStrategy t = pick_tail({x}, fx, false);
            std::string xi = fresh(x, "i");
            Loop outer_y{y, Loop::Serial};
            if (two) {
                int r = uniform(0, 2);
                if (r == 1) outer_y.kind = Loop::Parallel;
                if (r == 2) outer_y.kind = Loop::Block;
                p.loops.push_back(outer_y);
            }
            if (chance(0.5)) {
                std::string xo = fresh(x, "o");
                add({Op::GpuTile, {x, xo, xi}, {fx}, true, t});
                p.loops.push_back({xo, Loop::Block});
            } else {
                add({Op::GpuTile, {x, xi}, {fx}, true, t});
                p.loops.push_back({x, Loop::Block});
            }
            p.loops.push_back({xi, Loop::Thread, false, true});
            if (two && outer_y.kind == Loop::Parallel) add({Op::Parallel, {y}});
            if (two && outer_y.kind == Loop::Block) add({Op::GpuBlocks, {y}});
            maybe_split_thread_var(xi, fx);
        } else if (kind == SplitBT) {
            int fx = tile_size();
            std::string xo = fresh(x, "o"), xi = fresh(x, "i");
            add({Op::Split, {x, xo, xi}, {fx}, true, pick_tail({x}, fx, false)});
            if (two && chance(0.5)) {
                int fy = tile_size();
                while (fx * fy > 256) fy = std::max(2, fy / 2);
                std::string yo = fresh(y, "o"), yi = fresh(y, "i");
                add({Op::Split, {y, yo, yi}, {fy}, true, pick_tail({y}, fy, false)});
                add({Op::Reorder, {xi, yi, xo, yo}});
                add({Op::GpuBlocks, {xo, yo}});
                add({Op::GpuThreads, {xi, yi}});
                p.loops = {{yo, Loop::Block},
                           {xo, Loop::Block},
                           {yi, Loop::Thread, false, true},
                           {xi, Loop::Thread, false, true}};
            } else if (two) {
                add({Op::GpuBlocks, {xo, y}});
                add({Op::GpuThreads, {xi}});
                p.loops = {{y, Loop::Block}, {xo, Loop::Block}, {xi, Loop::Thread, false, true}};
            } else {
                add({Op::GpuBlocks, {xo}});
                add({Op::GpuThreads, {xi}});
                p.loops = {{xo, Loop::Block}, {xi, Loop::Thread, false, true}};
            }
            maybe_split_thread_var(xi, fx);
        } else if (kind == Rows) {
            add({Op::GpuBlocks, {y}});
            add({Op::GpuThreads, {x}});
            p.loops = {{y, Loop::Block}, {x, Loop::Thread}};
        } else if (kind == BlocksOnly) {
            if (two) {
                add({Op::GpuBlocks, {x, y}});
                p.loops = {{y, Loop::Block}, {x, Loop::Block}};
            } else {
                add({Op::GpuBlocks, {x}});
                p.loops = {{x, Loop::Block}};
            }
        } else {
            add({Op::SingleThread, {}});
            p.single_thread = true;
            if (two) p.loops.push_back({y, Loop::Serial});
            p.loops.push_back({x, Loop::Serial});
        }
    }

    void plan_cpu() {
        bool two = !y.empty();
        if (two) p.loops.push_back({y, Loop::Serial});
        p.loops.push_back({x, Loop::Serial});
        if (!has_rvars && chance(0.5)) {
            int f = pick(std::vector<int>{4, 8});
            add({Op::Vectorize, {x}, {f}, true, pick_tail({x}, f, false)});
            p.loops.push_back({x + ".v", Loop::Vector, true});
        }
        if (two && chance(0.6)) {
            add({Op::Parallel, {y}});
            p.loops[0].kind = Loop::Parallel;
        }
    }

    // Inside a block loop of the consumer's kernel: shared memory.
    void plan_block() {
        bool two = !y.empty();
        bool vec = !has_rvars && chance(0.25) && !skip_known_bugs(); // known bug B3
        if (vec) {
            int f = pick(std::vector<int>{2, 4});
            add({Op::Vectorize, {x}, {f}, true, pick_tail({x}, f, false)});
        }
        enum { XY, X, Y, Serial };
        std::vector<int> kinds = {X, Serial};
        if (two) kinds.insert(kinds.end(), {XY, XY, Y});
        if (skip_known_bugs()) {
            // Known bug B1: serial loops at block level.
            kinds.erase(std::remove(kinds.begin(), kinds.end(), int(Serial)), kinds.end());
            kinds.erase(std::remove(kinds.begin(), kinds.end(), int(Y)), kinds.end());
        }
        int kind = pick(kinds);
        Loop lx{x, Loop::Serial}, ly{y, Loop::Serial};
        if (kind == XY) {
            add({Op::GpuThreads, {x, y}});
            lx.kind = ly.kind = Loop::Thread;
        } else if (kind == X) {
            add({Op::GpuThreads, {x}});
            lx.kind = Loop::Thread;
        } else if (kind == Y) {
            add({Op::GpuThreads, {y}});
            ly.kind = Loop::Thread;
        }
        if (two) p.loops.push_back(ly);
        p.loops.push_back(lx);
        if (vec) p.loops.push_back({x + ".v", Loop::Vector, true});
        if (two && ly.kind == Loop::Serial && chance(0.25)) {
            // Unroll part of the serial y loop: its outer part keeps the name.
            add({Op::Unroll, {y}, {2}, true, pick_tail({y}, 2, false)});
            p.loops.insert(p.loops.begin() + 1, {y + ".u", Loop::Unrolled, true});
        }
    }

    // Inside a GPU thread: serial, maybe vectorized or unrolled.
    void plan_thread() {
        bool two = !y.empty();
        if (two) p.loops.push_back({y, Loop::Serial});
        p.loops.push_back({x, Loop::Serial});
        if (!has_rvars && chance(0.25)) {
            int f = pick(std::vector<int>{2, 4});
            add({Op::Vectorize, {x}, {f}, true, pick_tail({x}, f, false)});
            p.loops.push_back({x + ".v", Loop::Vector, true});
        } else if (chance(0.25)) {
            add({Op::Unroll, {x}, {2}, true, pick_tail({x}, 2, false)});
            p.loops.push_back({x + ".u", Loop::Unrolled, true});
        }
    }
};

struct Schedule {
    std::vector<std::string> names;
    std::vector<FuncPlan> plans;
    std::vector<bool> multi_stage;

    // The sites inside Func d's loops, outermost first: where the uses of
    // its producers happen. A Func with update definitions offers only the
    // sites enclosing it (nothing is computed at its own loops here).
    // `inner_bounded`: the loops inside the last site all have constant bounds.
    Path use_site(int d, bool &inner_bounded) const {
        const FuncPlan &p = plans[size_t(d)];
        Path path = p.enclosing;
        inner_bounded = true;
        if (multi_stage[size_t(d)]) {
            inner_bounded = p.region_bounded;
            return path;
        }
        const StagePlan &s = p.stages[0];
        Ctx ctx = s.single_thread ? Ctx::Thread : p.ctx;
        for (size_t k = 0; k < s.loops.size(); k++) {
            const Loop &l = s.loops[k];
            if (l.kind == Loop::Vector) break; // nothing is computed inside a vectorized loop
            if (l.kind == Loop::Block) ctx = Ctx::Block;
            if (l.kind == Loop::Thread) ctx = Ctx::Thread;
            if (l.hidden) continue;
            bool usable = true;
            if (l.kind == Loop::Block)
                for (size_t m = k + 1; m < s.loops.size(); m++)
                    usable = usable && s.loops[m].kind != Loop::Block;
            path.push_back({d, l.name, ctx, usable, l.split_inner || p.region_bounded});
        }
        return path;
    }

    std::string text() const {
        std::ostringstream s;
        for (size_t i = 0; i < plans.size(); i++) {
            const FuncPlan &p = plans[i];
            const std::string &n = names[i];
            if (p.where == FuncPlan::Inline) {
                s << "  " << n << ".compute_inline();\n";
                continue;
            }
            if (i + 1 < plans.size()) {
                if (p.where == FuncPlan::Root)
                    s << "  " << n << ".compute_root();";
                else
                    s << "  " << n << ".compute_at(" << names[size_t(p.at_func)] << ", " << p.at_var
                      << ");";
                s << "  // " << ctx_name(p.ctx) << "\n";
            }
            for (size_t st = 0; st < p.stages.size(); st++) {
                if (p.stages[st].ops.empty()) continue;
                s << "  " << n;
                if (st > 0) s << ".update(" << st - 1 << ")";
                for (const Op &op : p.stages[st].ops) s << op_text(op);
                s << ";\n";
            }
        }
        return s.str();
    }
};

Schedule random_schedule(const PipelineDef &def, const std::vector<Func> &funcs, std::mt19937 &rng,
                         int w, int h) {
    Schedule s;
    size_t n = funcs.size();
    s.plans.resize(n);
    s.multi_stage.resize(n);
    int counter = 0;
    StagePlanner sp(rng, counter);
    for (size_t i = 0; i < n; i++) {
        s.names.push_back(funcs[i].name());
        s.multi_stage[i] = i < def.updates.size() && !def.updates[i].empty();
    }
    auto plan_stages = [&](size_t i, Ctx ctx, bool gpu) {
        std::vector<std::string> args;
        for (const Var &v : funcs[i].args()) args.push_back(v.name());
        FuncPlan &p = s.plans[i];
        p.ctx = ctx;
        sp.is_output = i + 1 == n;
        sp.width = w;
        sp.height = h;
        sp.pure = args;
        sp.is_update = false;
        sp.has_rvars = false;
        p.stages.push_back(sp.plan(ctx, gpu));
        if (i < def.updates.size()) {
            for (const UpdateDef &u : def.updates[i]) {
                sp.pure = u.pure;
                sp.is_update = true;
                sp.has_rvars = u.rvars;
                // Each stage may go to the GPU or stay on the CPU on its own.
                bool g = ctx == Ctx::Host ? (sp.chance(0.25) ? !gpu : gpu) : gpu;
                p.stages.push_back(sp.plan(ctx, g));
            }
        }
    };

    // The output: on the GPU mostly.
    plan_stages(n - 1, Ctx::Host, sp.chance(0.8));

    std::vector<std::vector<int>> effective(n); // non-inlined Funcs that use Func k
    for (size_t k = n - 1; k-- > 0;) {
        for (int d : def.consumers[k]) {
            if (s.plans[size_t(d)].where == FuncPlan::Inline)
                effective[k].insert(effective[k].end(), effective[size_t(d)].begin(),
                                    effective[size_t(d)].end());
            else
                effective[k].push_back(d);
        }
        // Legal compute_at levels: the loops enclosing every use.
        Path common;
        std::vector<Path> sites;
        std::vector<bool> inner_bounded;
        for (int d : effective[k]) {
            bool b = true;
            sites.push_back(s.use_site(d, b));
            inner_bounded.push_back(b);
            if (sites.size() == 1) {
                common = sites.back();
                continue;
            }
            size_t m = 0;
            while (m < common.size() && m < sites.back().size() && common[m] == sites.back()[m])
                m++;
            common.resize(m);
        }
        // Computed at common[c], is the region of Func k bounded by a constant?
        auto region_bounded = [&](size_t c) {
            if (std::count(def.unbounded.begin(), def.unbounded.end(), int(k))) return false;
            for (size_t e = 0; e < sites.size(); e++) {
                if (!inner_bounded[e]) return false;
                for (size_t m = c + 1; m < sites[e].size(); m++)
                    if (!sites[e][m].bounded) return false;
            }
            return true;
        };
        bool divided = std::count(def.divided.begin(), def.divided.end(), int(k)) > 0;
        std::vector<size_t> usable;
        for (size_t c = 0; c < common.size(); c++) {
            // Storage inside a GPU thread must have a constant size (as in Halide).
            if (!common[c].usable || (common[c].ctx == Ctx::Thread && !region_bounded(c)))
                continue;
            if (skip_known_bugs()) {
                if (divided && common[c].ctx != Ctx::Host) continue; // known bugs B4, B5
                if (s.multi_stage[k] && common[c].ctx == Ctx::Block) continue; // known bug B6
                bool in_block_func = false; // known bug B3 (+ B1)
                for (size_t m = 0; m <= c; m++)
                    in_block_func |= s.plans[size_t(common[m].func)].ctx == Ctx::Block;
                if (in_block_func && common[c].ctx == Ctx::Thread) continue;
            }
            usable.push_back(c);
        }
        FuncPlan &p = s.plans[k];
        int r = sp.uniform(0, 9);
        if (r < 2 && !s.multi_stage[k]) {
            p.where = FuncPlan::Inline;
            continue;
        }
        if (r < 5 || usable.empty()) {
            p.where = FuncPlan::Root;
            plan_stages(k, Ctx::Host, sp.chance(0.7));
            continue;
        }
        size_t c = sp.pick(usable);
        p.where = FuncPlan::At;
        p.at_func = common[c].func;
        p.at_var = common[c].var;
        p.enclosing.assign(common.begin(), common.begin() + long(c) + 1);
        p.region_bounded = region_bounded(c);
        plan_stages(k, common[c].ctx, sp.chance(0.6));
    }
    return s;
}

void apply_schedule(const Schedule &s, std::vector<Func> &funcs) {
    for (size_t i = 0; i < funcs.size(); i++) {
        Func &f = funcs[i];
        const FuncPlan &p = s.plans[i];
        if (p.where == FuncPlan::Inline) {
            f.compute_inline();
            continue;
        }
        if (i + 1 < funcs.size()) {
            if (p.where == FuncPlan::Root)
                f.compute_root();
            else
                f.compute_at(funcs[size_t(p.at_func)], Var(p.at_var));
        }
        for (size_t st = 0; st < p.stages.size(); st++) {
            for (const Op &op : p.stages[st].ops) {
                if (st == 0)
                    apply_op(f, op);
                else
                    apply_op(f.update(int(st) - 1), op);
            }
        }
    }
}

Buffer<int> make_input(uint64_t seed) {
    Buffer<int> in(IW, IH);
    in.set_name("gpu_random_input");
    std::mt19937 r{uint32_t(seed)};
    for (int j = 0; j < IH; j++)
        for (int i = 0; i < IW; i++) in(i, j) = int(r() % 256);
    return in;
}

/** LOOM_GPU_RANDOM_VERBOSE: 1 prints each schedule before it runs, 2 its kernels too. */
int verbose() {
    static const int v = int(loom_test::env_u64("LOOM_GPU_RANDOM_VERBOSE", 0));
    return v;
}

void run_pipeline(const PipelineDef &def) {
    const uint64_t seed = loom_test::random_schedule_seed();
    const int count = loom_test::random_schedule_count(12);
    const long only = long(loom_test::env_u64("LOOM_TEST_ONLY", uint64_t(-1)));
    INFO("pipeline " << def.name << ", LOOM_TEST_SEED=" << seed);
    Buffer<int> in = make_input(seed);

    int failures = 0, reported = 0, ran = 0, known = 0;
    for (int it = 0; it < count; it++) {
        if (only >= 0 && it != only) continue;
        std::mt19937 rng(
            uint32_t(seed * 1000003u + uint64_t(it) * 7919u + std::hash<std::string>()(def.name)));
        auto [w, h] = def.sizes[rng() % def.sizes.size()];
        std::vector<Func> funcs = def.build(in);
        Schedule s = random_schedule(def, funcs, rng, w, h);
        std::ostringstream where;
        where << "pipeline " << def.name << ", schedule " << it
              << " (rerun with LOOM_TEST_SEED=" << seed << " LOOM_TEST_ONLY=" << it << "), output "
              << w << "x" << h << ":\n"
              << s.text();
        // Kept in scope so that a crash inside the run reports the schedule too.
        INFO(where.str());
        if (verbose()) std::cerr << where.str() << std::flush;
        std::string problem;
        try {
            apply_schedule(s, funcs);
            if (verbose() >= 2)
                std::cerr << Pipeline(funcs.back()).device_source({}, opencl_target()) << std::flush;
            Buffer<int> out(w, h);
            funcs.back().realize(out, opencl_target());
            out.copy_to_host();
            for (int j = 0; j < h && problem.empty(); j++)
                for (int i = 0; i < w; i++) {
                    int expected = def.reference(in, i, j);
                    if (out(i, j) != expected) {
                        problem = "output differs at (" + std::to_string(i) + ", " +
                                  std::to_string(j) + "): got " + std::to_string(out(i, j)) +
                                  ", expected " + std::to_string(expected);
                        break;
                    }
                }
        } catch (const std::exception &e) {
            problem = std::string("exception: ") + e.what();
            if (known_bug_error(e.what())) {
                known++;
                continue;
            }
        }
        ran++;
        if (!problem.empty()) {
            failures++;
            if (reported++ < 5) FAIL_CHECK(problem); // the schedule comes with the INFO above
        }
    }
    if (known) WARN(known << " schedules hit a known bug's CompileError (skipped)");
    INFO(failures << " of " << ran << " random GPU schedules failed");
    CHECK(failures == 0);
}

} // namespace

TEST_CASE("random GPU schedules: 3x3 stencil chain", "[gpu][random]") {
    run_pipeline(stencil_chain());
}

TEST_CASE("random GPU schedules: pointwise chain", "[gpu][random]") {
    run_pipeline(pointwise_chain());
}

TEST_CASE("random GPU schedules: downsample / upsample pair", "[gpu][random]") {
    run_pipeline(down_up());
}

TEST_CASE("random GPU schedules: separable blur", "[gpu][random]") {
    run_pipeline(separable_blur());
}

TEST_CASE("random GPU schedules: multi-consumer DAG", "[gpu][random]") {
    run_pipeline(multi_consumer_dag());
}

TEST_CASE("random GPU schedules: Tuple-valued stage", "[gpu][random]") {
    run_pipeline(tuple_pair());
}

TEST_CASE("random GPU schedules: RDom convolution with update stages", "[gpu][random]") {
    run_pipeline(conv_update());
}

TEST_CASE("random GPU schedules: column scan", "[gpu][random]") {
    run_pipeline(column_scan());
}

TEST_CASE("random GPU schedules: convolution output with update stages", "[gpu][random]") {
    run_pipeline(conv_output());
}

// The histogram of reductions_random_schedules.cpp, as the output: its
// initialization and its update on the CPU or the GPU, the update over RVars
// in GPU blocks and threads with atomic().
TEST_CASE("random GPU schedules: atomic histogram", "[gpu][random]") {
    const uint64_t seed = loom_test::random_schedule_seed();
    const int count = loom_test::random_schedule_count(12);
    const long only = long(loom_test::env_u64("LOOM_TEST_ONLY", uint64_t(-1)));
    Buffer<int> in = make_input(seed + 1);
    const int bins = 19;
    std::vector<int> ref(bins, 0);
    for (int j = 0; j < IH; j++)
        for (int i = 0; i < IW; i++) ref[size_t(in(i, j) % bins)] += in(i, j) % 5;
    int failures = 0, reported = 0, ran = 0, known = 0;
    for (int it = 0; it < count; it++) {
        if (only >= 0 && it != only) continue;
        std::mt19937 rng(uint32_t(seed * 1000003u + uint64_t(it) * 7919u + 0x4157u));
        auto uniform = [&](int lo, int hi) {
            return std::uniform_int_distribution<int>(lo, hi)(rng);
        };
        auto size = [&] {
            return std::vector<int>{2, 3, 4, 5, 7, 8, 12, 16, 32}[size_t(uniform(0, 8))];
        };
        Var i("i"), io("io"), ii("ii");
        RDom r({{0, IW}, {0, IH}}, "r");
        RVar rxo("rxo"), rxi("rxi"), ryo("ryo"), ryi("ryi");
        Func hist("hist");
        hist(i) = 0;
        hist(in(r.x, r.y) % bins) += in(r.x, r.y) % 5;
        std::ostringstream text;
        int pure = uniform(0, 3);
        int f = size();
        // The output's pure stage: ShiftInwards (Auto) needs bins >= f.
        TailStrategy t =
            f <= bins && uniform(0, 1) ? TailStrategy::Auto : TailStrategy::GuardWithIf;
        int update = uniform(0, 4);
        int fx = size(), fy = size();
        while (fx * fy > 256) fy = std::max(2, fy / 2);
        TailStrategy rt = uniform(0, 1) ? TailStrategy::Auto : TailStrategy::GuardWithIf;
        auto schedule = [&](bool apply) {
            if (pure == 1) {
                text << "  hist.gpu_tile(i, io, ii, " << f << ", TailStrategy::" << tail_name(t)
                     << ");\n";
                if (apply) hist.gpu_tile(i, io, ii, f, t);
            } else if (pure == 2) {
                text << "  hist.gpu_single_thread();\n";
                if (apply) hist.gpu_single_thread();
            } else if (pure == 3) {
                text << "  hist.gpu_blocks(i);\n";
                if (apply) hist.gpu_blocks(i);
            }
            Stage u = hist.update(0);
            if (update == 1) {
                text << "  hist.update(0).gpu_single_thread();\n";
                if (apply) u.gpu_single_thread();
            } else if (update == 2) {
                text << "  hist.update(0).atomic().split(r.x, rxo, rxi, " << fx
                     << ", TailStrategy::" << tail_name(rt)
                     << ").gpu_blocks(rxo).gpu_threads(rxi);\n";
                if (apply) u.atomic().split(r.x, rxo, rxi, fx, rt).gpu_blocks(rxo).gpu_threads(rxi);
            } else if (update == 3) {
                text << "  hist.update(0).atomic().gpu_blocks(r.y).gpu_threads(r.x);\n";
                if (apply) u.atomic().gpu_blocks(r.y).gpu_threads(r.x);
            } else if (update == 4) {
                text << "  hist.update(0).atomic().tile(r.x, r.y, rxo, ryo, rxi, ryi, " << fx
                     << ", " << fy << ", TailStrategy::" << tail_name(rt)
                     << ").gpu_blocks(rxo, ryo).gpu_threads(rxi, ryi);\n";
                if (apply)
                    u.atomic()
                        .tile(r.x, r.y, rxo, ryo, rxi, ryi, fx, fy, rt)
                        .gpu_blocks(rxo, ryo)
                        .gpu_threads(rxi, ryi);
            }
        };
        schedule(false);
        std::ostringstream where;
        where << "pipeline hist, schedule " << it << " (rerun with LOOM_TEST_SEED=" << seed
              << " LOOM_TEST_ONLY=" << it << "):\n"
              << text.str();
        INFO(where.str());
        if (verbose()) std::cerr << where.str() << std::flush;
        std::string problem;
        try {
            schedule(true);
            Buffer<int> out(bins);
            hist.realize(out, opencl_target());
            out.copy_to_host();
            for (int b = 0; b < bins; b++)
                if (out(b) != ref[size_t(b)]) {
                    problem = "output differs at " + std::to_string(b) + ": got " +
                              std::to_string(out(b)) + ", expected " +
                              std::to_string(ref[size_t(b)]);
                    break;
                }
        } catch (const std::exception &e) {
            problem = std::string("exception: ") + e.what();
            if (known_bug_error(e.what())) {
                known++;
                continue;
            }
        }
        ran++;
        if (!problem.empty()) {
            failures++;
            if (reported++ < 5) FAIL_CHECK(problem); // the schedule comes with the INFO above
        }
    }
    if (known) WARN(known << " schedules hit a known bug's CompileError (skipped)");
    INFO(failures << " of " << ran << " random GPU schedules failed");
    CHECK(failures == 0);
}
