// Random schedules of update stages (splits of pure Vars and RVars,
// reorders, vectorize/parallel of pure Vars, unrolled RVars, atomic or
// rfactor for a histogram) checked against plain C++. Seeded from
// LOOM_TEST_SEED (else the clock); LOOM_RANDOM_SCHEDULES sets the count
// per pipeline (default 20: three pipelines make 60 per run; 10 under the C
// backend). A failure
// prints the seed, the schedule index and the schedule.

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <random>
#include <sstream>
#include <vector>

#include "Loom.h"
#include "common/RandomSchedules.h"
#include "common/ScheduleRoundTrip.h"

using namespace loom;

namespace {

constexpr int W = 23, H = 17;

/** One loop of the update being scheduled. */
struct Loop {
    std::string name;
    bool pure;     // made only of pure Vars (may run in parallel / vectorized)
    bool constant; // constant extent (made by a split with a constant factor)
    int rank = 0;  // position in the order the reduction visits its domain
};

/** Applies random loop transformations to an update stage and logs them. */
class RandomStageSchedule {
    std::mt19937 &rng;
    std::vector<Loop> loops; // innermost first
    std::ostringstream log;
    int counter = 0;

    int pick(int n) { return int(rng() % uint32_t(n)); }

    VarOrRVar handle(const Loop &l) const {
        return l.pure ? VarOrRVar(Var(l.name)) : VarOrRVar(RVar(l.name));
    }

public:
    RandomStageSchedule(std::mt19937 &r, std::vector<Loop> initial)
        : rng(r), loops(std::move(initial)) {}

    /** keep_rvar_order: a non-associative update (the RVars' loops keep
     * their relative order; pure loops move freely). */
    void apply(Stage s, bool allow_parallel_rvars, bool keep_rvar_order = false) {
        int splits = pick(3);
        for (int k = 0; k < splits; k++) {
            size_t i = size_t(pick(int(loops.size())));
            Loop l = loops[i];
            int factor = 2 + pick(4);
            std::string o = l.name + "o" + std::to_string(counter),
                        in = l.name + "i" + std::to_string(counter);
            counter++;
            s.split(handle(l), handle(Loop{o, l.pure, false}), handle(Loop{in, l.pure, true}),
                    factor);
            log << ".split(" << l.name << ", " << o << ", " << in << ", " << factor << ")";
            loops[i] = Loop{o, l.pure, false};
            loops.insert(loops.begin() + long(i), Loop{in, l.pure, true});
        }
        if (pick(2)) {
            for (size_t i = 0; i < loops.size(); i++) loops[i].rank = int(i);
            std::shuffle(loops.begin(), loops.end(), rng);
            if (keep_rvar_order) {
                std::vector<size_t> slots;
                std::vector<Loop> rvars;
                for (size_t i = 0; i < loops.size(); i++)
                    if (!loops[i].pure) slots.push_back(i), rvars.push_back(loops[i]);
                std::sort(rvars.begin(), rvars.end(),
                          [](const Loop &a, const Loop &b) { return a.rank < b.rank; });
                for (size_t k = 0; k < slots.size(); k++) loops[slots[k]] = rvars[k];
            }
            std::vector<VarOrRVar> order;
            log << ".reorder(";
            for (size_t i = 0; i < loops.size(); i++) {
                order.push_back(handle(loops[i]));
                log << (i ? ", " : "") << loops[i].name;
            }
            log << ")";
            s.reorder(order);
        }
        // Vectorize the innermost loop when legal, parallelize the outermost.
        const Loop &inner = loops.front();
        if (inner.pure && inner.constant && pick(2)) {
            s.vectorize(handle(inner));
            log << ".vectorize(" << inner.name << ")";
        } else if (inner.constant && pick(2)) {
            s.unroll(handle(inner));
            log << ".unroll(" << inner.name << ")";
        }
        const Loop &outer = loops.back();
        if (loops.size() > 1 && (outer.pure || allow_parallel_rvars) && pick(2)) {
            s.parallel(handle(outer));
            log << ".parallel(" << outer.name << ")";
        }
    }

    std::string text() const { return log.str(); }
};

Buffer<int> make_input(uint64_t seed) {
    Buffer<int> in(W, H);
    std::mt19937 r{uint32_t(seed)};
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) in(x, y) = int(r() % 256);
    return in;
}

} // namespace

TEST_CASE("random schedules of a 2-D RDom convolution update",
          "[correctness][reductions][random]") {
    const uint64_t seed = loom_test::random_schedule_seed();
    const int count = loom_test::random_schedule_count(20);
    Buffer<int> in = make_input(seed);
    std::vector<int> ref(size_t(W * H));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int s = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -2; dx <= 1; dx++)
                    s += in(std::clamp(x + dx, 0, W - 1), std::clamp(y + dy, 0, H - 1)) * (dx + 3);
            ref[size_t(y * W + x)] = s * 2 + 1;
        }
    std::mt19937 rng{uint32_t(seed) ^ 0x51u};
    for (int t = 0; t < count; t++) {
        Var x("x"), y("y");
        Func clamped("clamped"), conv("conv"), out("out");
        clamped(x, y) = in(clamp(x, 0, W - 1), clamp(y, 0, H - 1));
        RDom r({{-2, 4}, {-1, 3}}, "r");
        conv(x, y) = 1;
        conv(x, y) += clamped(x + r.x, y + r.y) * (r.x + 3);
        conv(x, y) = conv(x, y) * 2 - 1;
        out(x, y) = conv(x, y);
        RandomStageSchedule sched(rng, {{r.x.name(), false, false},
                                        {r.y.name(), false, false},
                                        {"x", true, false},
                                        {"y", true, false}});
        sched.apply(conv.update(0), false);
        std::string where = rng() % 2 ? "root" : "out.y";
        if (where == "root") {
            conv.compute_root();
        } else {
            conv.compute_at(out, y);
        }
        if (rng() % 2) clamped.compute_root();
        INFO("LOOM_TEST_SEED=" << seed << " schedule " << t << ": conv.update(0)" << sched.text()
                               << "; conv at " << where);
        REQUIRE(loom_test::schedule_round_trip_problem(Pipeline(out)) == "");
        Buffer<int> result = out.realize({W, H});
        int bad = 0;
        for (int yy = 0; yy < H; yy++)
            for (int xx = 0; xx < W; xx++)
                if (result(xx, yy) != ref[size_t(yy * W + xx)]) bad++;
        REQUIRE(bad == 0);
    }
}

TEST_CASE("random schedules of a histogram (plain, atomic, rfactor)",
          "[correctness][reductions][random]") {
    const uint64_t seed = loom_test::random_schedule_seed();
    const int count = loom_test::random_schedule_count(20);
    Buffer<int> in = make_input(seed + 1);
    const int bins = 19;
    std::vector<int> ref(bins, 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) ref[size_t(in(x, y) % bins)] += in(x, y) % 5;
    std::mt19937 rng{uint32_t(seed) ^ 0x77u};
    for (int t = 0; t < count; t++) {
        Var i("i"), u("u");
        Func hist("hist");
        RDom r({{0, W}, {0, H}}, "r");
        hist(i) = 0;
        hist(in(r.x, r.y) % bins) += in(r.x, r.y) % 5;
        int mode = int(rng() % 3);
        std::string text;
        if (mode == 0) {
            RandomStageSchedule sched(rng,
                                      {{r.x.name(), false, false}, {r.y.name(), false, false}});
            sched.apply(hist.update(0), false);
            text = "hist.update(0)" + sched.text();
        } else if (mode == 1) {
            RandomStageSchedule sched(rng,
                                      {{r.x.name(), false, false}, {r.y.name(), false, false}});
            hist.update(0).atomic();
            sched.apply(hist.update(0), true);
            text = "hist.update(0).atomic()" + sched.text();
        } else {
            Func intm = hist.update(0).rfactor(r.y, u);
            intm.compute_root();
            RandomStageSchedule sched(rng, {{r.x.name(), false, false}, {"u", true, false}});
            sched.apply(intm.update(0), false);
            text = "rfactor(r.y, u).update(0)" + sched.text();
        }
        INFO("LOOM_TEST_SEED=" << seed << " schedule " << t << ": " << text);
        REQUIRE(loom_test::schedule_round_trip_problem(Pipeline(hist)) == "");
        Buffer<int> result = hist.realize({bins});
        for (int b = 0; b < bins; b++) REQUIRE(result(b) == ref[size_t(b)]);
    }
}

TEST_CASE("random schedules of a scan and column sums", "[correctness][reductions][random]") {
    const uint64_t seed = loom_test::random_schedule_seed();
    const int count = loom_test::random_schedule_count(20);
    Buffer<int> in = make_input(seed + 2);
    std::vector<int> ref(size_t(W * H));
    for (int x = 0; x < W; x++) {
        int acc = 0;
        for (int y = 0; y < H; y++) {
            acc += in(x, y);
            ref[size_t(y * W + x)] = acc;
        }
    }
    std::mt19937 rng{uint32_t(seed) ^ 0x99u};
    for (int t = 0; t < count; t++) {
        Var x("x"), y("y");
        Func scan("scan"), out("out");
        scan(x, y) = in(x, y);
        RDom r({{1, H - 1}}, "r");
        scan(x, r) = scan(x, r) + scan(x, r - 1);
        out(x, y) = scan(x, y) + 0;
        RandomStageSchedule sched(rng, {{r.x.name(), false, false}, {"x", true, false}});
        // Columns are independent; only the loop over r carries a dependence.
        sched.apply(scan.update(0), false, true);
        if (rng() % 2) scan.compute_at(out, x);
        INFO("LOOM_TEST_SEED=" << seed << " schedule " << t << ": scan.update(0)" << sched.text());
        REQUIRE(loom_test::schedule_round_trip_problem(Pipeline(out)) == "");
        Buffer<int> result = out.realize({W, H});
        int bad = 0;
        for (int yy = 0; yy < H; yy++)
            for (int xx = 0; xx < W; xx++)
                if (result(xx, yy) != ref[size_t(yy * W + xx)]) bad++;
        REQUIRE(bad == 0);
    }
}
