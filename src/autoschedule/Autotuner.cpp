// The empirical autotuner: turns the heuristic auto-scheduler's knobs
// (strip heights, vector widths, each Func's placement, matrix-product tile
// sizes), compiles each candidate, times it on the user's buffers (never
// while compiling), checks its output against the first schedule's, and
// keeps the fastest. Search: the heuristic's own choice first, then one-knob
// changes of the best so far (hill climbing), then random combinations.
// The finalists are re-timed in alternating order, and a challenger must
// beat the earlier choice by a margin, so the same winner comes out of
// repeated runs.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "autoschedule/FuncAnalysis.h"
#include "autoschedule/HeuristicScheduler.h"
#include "autoschedule/ScheduleUtil.h"
#include "autoschedule/TuningCache.h"
#include "frontend/CallableContents.h"
#include "frontend/JITCall.h"
#include "ir/Error.h"
#include "ir/IRUtil.h"
#include "ir/StackGuard.h"
#include "loom/AutoSchedule.h"
#include "loom/Callable.h"
#include "loom/Func.h"
#include "loom/Pipeline.h"

namespace loom {

using namespace Internal;

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/** A point of the search space: the heuristic's knobs. */
struct Knobs {
    int rows = 0, vmul = 1, mm_vectors = 3, mm_rows = 32, mm_block = 4;
    int gpu_tx = 32, gpu_ty = 8, gpu_vec = 0, gpu_rows = 1, gpu_mx = 4, gpu_my = 8, gpu_mk = 16;
    std::map<std::string, std::string> placement;

    bool operator==(const Knobs &o) const {
        return rows == o.rows && vmul == o.vmul && mm_vectors == o.mm_vectors &&
               mm_rows == o.mm_rows && mm_block == o.mm_block && gpu_tx == o.gpu_tx &&
               gpu_ty == o.gpu_ty && gpu_vec == o.gpu_vec && gpu_rows == o.gpu_rows &&
               gpu_mx == o.gpu_mx && gpu_my == o.gpu_my && gpu_mk == o.gpu_mk &&
               placement == o.placement;
    }

    HeuristicOptions apply_to(HeuristicOptions o) const {
        o.rows_per_task = rows;
        o.vector_multiplier = vmul;
        o.matmul_tile_vectors = mm_vectors;
        o.matmul_tile_rows = mm_rows;
        o.matmul_block_rows = mm_block;
        o.gpu_tile_x = gpu_tx;
        o.gpu_tile_y = gpu_ty;
        o.gpu_vector = gpu_vec;
        o.gpu_rows = gpu_rows;
        o.gpu_matmul_x = gpu_mx;
        o.gpu_matmul_y = gpu_my;
        o.gpu_matmul_k = gpu_mk;
        o.placement = placement;
        return o;
    }
};

/** Same values within float rounding (schedules may reorder float sums).
 * `reference` is a copy of an earlier output (dense); `b` is compared in
 * place where it is laid out the same (a copy of a 256 MB GPU output per
 * candidate was most of a tuning run's time). */
bool same_output(const Buffer<> &reference, const Buffer<> &b) {
    const Buffer<> &x = reference;
    bool same_layout = x.dimensions() == b.dimensions() && x.type() == b.type();
    for (int d = 0; same_layout && d < x.dimensions(); d++)
        same_layout =
            x.dim(d).extent() == b.dim(d).extent() && x.dim(d).stride() == b.dim(d).stride();
    Buffer<> y = b;
    if (same_layout)
        y.copy_to_host();
    else
        y = b.copy();
    if (x.size_in_bytes() != y.size_in_bytes()) return false;
    const uint8_t *p = static_cast<const uint8_t *>(x.raw_buffer()->host);
    const uint8_t *q = static_cast<const uint8_t *>(y.raw_buffer()->host);
    size_t n = x.number_of_elements();
    if (x.type().is_float() && x.type().bits() == 32) {
        for (size_t i = 0; i < n; i++) {
            float u, v;
            std::memcpy(&u, p + 4 * i, 4);
            std::memcpy(&v, q + 4 * i, 4);
            if (!(std::fabs(u - v) <= 1e-4f * std::max(1.0f, std::fabs(u))) && !(u != u && v != v))
                return false;
        }
        return true;
    }
    if (x.type().is_float() && x.type().bits() == 64) {
        for (size_t i = 0; i < n; i++) {
            double u, v;
            std::memcpy(&u, p + 8 * i, 8);
            std::memcpy(&v, q + 8 * i, 8);
            if (!(std::fabs(u - v) <= 1e-9 * std::max(1.0, std::fabs(u))) && !(u != u && v != v))
                return false;
        }
        return true;
    }
    return std::memcmp(p, q, x.size_in_bytes()) == 0;
}

/** The most IR nodes of a consumer that a compound move inlines (a product
 * of two calls is 3, a 3x3 stencil 15). */
constexpr int cheap_consumer_cost = 8;

int thread_count() {
    if (const char *n = std::getenv("LOOM_NUM_THREADS"); n && std::atoi(n) > 0) return std::atoi(n);
    return int(std::max(1u, std::thread::hardware_concurrency()));
}

class Tuner {
    Pipeline p_;
    Realization out_;
    const AutotuneOptions &o_;
    HeuristicOptions base_;
    std::vector<std::vector<int>> sizes_;
    PipelineSchedule user_state_;
    std::vector<Argument> args_;
    std::vector<Callable::Value> values_;
    std::vector<Buffer<>> reference_;
    std::vector<std::string> tunable_; // Funcs whose placement may change
    /** Tunable Funcs read only pointwise: the only ones the search inlines
     * (inlining a stencil multiplies its work, and the compile time of long
     * chains with it). */
    std::set<std::string> pointwise_;
    /** Per tunable Func, its tunable consumers cheap enough to inline even
     * where they are read as a stencil (a product of two gradients under a
     * box sum): only the compound moves inline those. */
    std::map<std::string, std::vector<std::string>> cheap_consumers_;
    bool has_matrix_product_ = false;
    std::mt19937_64 rng_;
    Clock::time_point start_ = Clock::now();
    std::set<uint64_t> seen_;

    struct Tried {
        Knobs knobs;
        PipelineSchedule schedule;
        Callable callable;
        double ms = 0;
        int order = 0;
    };
    std::vector<Tried> finalists_; // best few, fastest first
    std::vector<Function> outputs_;
    Target target_;
    int compile_threads_ = 1;
    int largest_batch_ = 0;
    int baseline_order_ = 0; // the first schedule that ran (the heuristic's)
    double first_lowering_ms_ = 0;
    double last_batch_seconds_ = 0; // lowering, compiling and timing the last batch
    AutotuneProgress progress_;

    double elapsed() const { return ms_since(start_) / 1000; }
    /** Past 80% of the budget, or where another batch as long as the last
     * would end past 90% (local_laplacian's batches of 2 compiles took 5 s:
     * its tuning ended at 64 s of 60), or out of trials. */
    bool out_of_budget() const {
        const double budget = o_.budget_seconds;
        return elapsed() >= budget * 0.8 ||
               (budget > 0 && elapsed() + last_batch_seconds_ >= budget * 0.9) ||
               (o_.max_trials > 0 && progress_.trials >= o_.max_trials);
    }

    /** The user's schedules again; Funcs made while tuning (the heuristic's
     * wrappers that stage operands) back to their default schedule, so that
     * a candidate that does not use them leaves them inlined. */
    void restore_user_state() {
        user_state_.apply(p_);
        for (Function f : pipeline_functions(p_))
            if (!user_state_.find(f.name())) reset_schedule(f);
    }

    void report() {
        progress_.elapsed_seconds = elapsed();
        if (o_.on_progress) o_.on_progress(progress_);
        const char *d = std::getenv("LOOM_DEBUG");
        if (d && std::atoi(d) >= 1)
            std::cerr << "autotune: " << progress_.trials << " tried (" << progress_.failed
                      << " failed), best " << progress_.best_ms << " ms, heuristic "
                      << progress_.baseline_ms << " ms, " << progress_.elapsed_seconds << " s\n";
    }

    double run_once(const Callable &c) {
        auto t0 = Clock::now();
        c.call(nullptr, values_.data(), values_.size());
        // GPU work is asynchronous: a run ends when the device is done.
        if (base_.gpu)
            for (const Buffer<> &b : out_.buffers()) b.device_sync();
        return ms_since(t0);
    }

    double median_of(const Callable &c, int runs) {
        std::vector<double> t;
        for (int i = 0; i < std::max(1, runs); i++) t.push_back(run_once(c));
        std::sort(t.begin(), t.end());
        return t[t.size() / 2];
    }

    /** A candidate on its way: lowered (serially, as lowering reads the
     * schedule now applied to the pipeline), then compiled (on a worker). */
    struct Pending {
        Tried tried;
        std::shared_ptr<CallableContents> contents;
        std::string error; // a failed compile
    };

    /** Schedule and lower one candidate. Nothing when it is a schedule
     * already tried, or it failed (counted). */
    std::optional<Pending> prepare(const Knobs &k) {
        Pending p;
        p.tried.knobs = k;
        try {
            restore_user_state();
            heuristic_schedule(p_, k.apply_to(base_), sizes_);
            p.tried.schedule = PipelineSchedule::of(p_);
        } catch (const std::exception &) {
            return std::nullopt; // knobs that do not make a schedule are not a trial
        }
        if (!seen_.insert(p.tried.schedule.hash()).second) return std::nullopt;
        progress_.trials++;
        p.tried.order = progress_.trials;
        try {
            // A testing aid: LOOM_AUTOTUNE_INJECT_FAILURES=n makes every n-th
            // candidate after the first fail, to check that failures are skipped.
            const char *inject_env = std::getenv("LOOM_AUTOTUNE_INJECT_FAILURES");
            const int inject = inject_env ? std::atoi(inject_env) : 0;
            if (inject > 0 && progress_.trials > 1 && progress_.trials % inject == 0)
                throw std::runtime_error("injected failure");
            // The first candidate (the heuristic's schedule) sets the pace;
            // a later one whose lowering takes far longer (bounds that grow
            // exponentially along a chain) is stopped and counted failed:
            // one such took 45 s of interpolate's 60 s budget.
            auto t0 = Clock::now();
            std::optional<ScopedCompileDeadline> deadline;
            if (first_lowering_ms_ > 0) deadline.emplace(compile_time_limit_seconds());
            p.contents = std::make_shared<CallableContents>(
                lower_callable(outputs_, args_, target_, p_.jit_handlers()));
            if (first_lowering_ms_ == 0) first_lowering_ms_ = std::max(ms_since(t0), 1e-3);
        } catch (const std::exception &) {
            progress_.failed++;
            report();
            return std::nullopt;
        }
        return p;
    }

    /** How long a candidate's lowering (and, apart, its code generation)
     * may take: ten times the first candidate's lowering, 2 s at least. */
    double compile_time_limit_seconds() const {
        return std::max(2.0, 10 * first_lowering_ms_ / 1000);
    }

    /** Machine code for a batch, one compile engine per candidate at once.
     * Loom's code generator stops at the time limit; LLVM's passes do not. */
    void compile_all(std::vector<Pending> &batch) const {
        const double limit = first_lowering_ms_ > 0 ? compile_time_limit_seconds() : 0;
        auto compile = [limit](Pending &p) {
            try {
                std::optional<ScopedCompileDeadline> deadline;
                if (limit > 0) deadline.emplace(limit);
                compile_callable(*p.contents);
            } catch (const std::exception &e) {
                p.error = e.what();
            }
        };
        std::vector<std::thread> workers;
        for (size_t i = 1; i < batch.size(); i++) workers.emplace_back(compile, std::ref(batch[i]));
        if (!batch.empty()) compile(batch[0]);
        for (std::thread &w : workers) w.join();
    }

    /** Check and time one compiled candidate (never while others compile). */
    void measure(Pending &p) {
        Tried &t = p.tried;
        try {
            if (!p.error.empty()) throw std::runtime_error(p.error);
            t.callable = Callable(p.contents);
            double first = run_once(t.callable);
            bool is_first = reference_.empty();
            if (is_first) {
                for (const Buffer<> &b : out_.buffers()) reference_.push_back(b.copy());
            } else {
                for (size_t i = 0; i < reference_.size(); i++)
                    if (!same_output(reference_[i], out_[i]))
                        throw std::runtime_error("wrong output");
            }
            double best = finalists_.empty() ? 0 : finalists_.front().ms;
            if (best > 0 && first > 3 * best) {
                report();
                return; // far slower: not worth timing
            }
            t.ms = median_of(t.callable, o_.runs);
        } catch (const std::exception &) {
            progress_.failed++;
            report();
            return;
        }
        if (baseline_order_ == 0) {
            baseline_order_ = t.order;
            progress_.baseline_ms = t.ms;
        }
        finalists_.push_back(std::move(t));
        std::stable_sort(finalists_.begin(), finalists_.end(),
                         [](const Tried &a, const Tried &b) { return a.ms < b.ms; });
        // Keep the three fastest and always the heuristic's own schedule.
        while (finalists_.size() > 4) {
            auto victim = finalists_.end() - 1;
            if (victim->order == baseline_order_) --victim;
            finalists_.erase(victim);
        }
        progress_.best_ms = finalists_.front().ms;
        report();
    }

    /** One-knob changes of k, in a seeded order. */
    std::vector<Knobs> neighbours(const Knobs &k) {
        std::vector<Knobs> out;
        if (base_.gpu) {
            // GPU blocks: the tile's width (coalesced) and height.
            for (int tx : {8, 16, 32, 64, 128})
                for (int ty : {1, 2, 4, 8, 16})
                    if ((tx != k.gpu_tx || ty != k.gpu_ty) && tx * ty <= 1024 && tx * ty >= 32) {
                        Knobs n = k;
                        n.gpu_tx = tx;
                        n.gpu_ty = ty;
                        out.push_back(n);
                    }
            // Outputs per thread: a vector across x, rows down y.
            for (int v : {1, 2, 4, 8})
                if (v != k.gpu_vec) {
                    Knobs n = k;
                    n.gpu_vec = v;
                    out.push_back(n);
                }
            for (int r : {1, 2, 4, 8})
                if (r != k.gpu_rows) {
                    Knobs n = k;
                    n.gpu_rows = r;
                    out.push_back(n);
                }
        }
        for (int r : {2, 4, 8, 16, 32, 64, 128})
            if (!base_.gpu && r != k.rows) {
                Knobs n = k;
                n.rows = r;
                out.push_back(n);
            }
        for (int v : {1, 2}) {
            if (base_.gpu || v == k.vmul) continue;
            Knobs n = k;
            n.vmul = v;
            out.push_back(n);
        }
        for (const char *place : {"strip", "sliding"}) {
            Knobs n = compound_move(k, place);
            if (n.placement != k.placement) out.push_back(n);
        }
        for (const std::string &f : tunable_)
            for (const char *place : {"inline", "root", "strip", "sliding"}) {
                if (!std::strcmp(place, "inline") && !pointwise_.count(f)) continue;
                auto it = k.placement.find(f);
                if (it != k.placement.end() && it->second == place) continue;
                Knobs n = k;
                n.placement[f] = place;
                out.push_back(n);
            }
        if (has_matrix_product_ && base_.gpu) {
            // Sums per thread of a GPU matrix product.
            for (int mx : {1, 2, 4, 8})
                for (int my : {1, 2, 4, 8, 16})
                    if (mx != k.gpu_mx || my != k.gpu_my) {
                        Knobs n = k;
                        n.gpu_mx = mx;
                        n.gpu_my = my;
                        out.push_back(n);
                    }
            // Slices of the operands staged in shared memory (0: none).
            for (int mk : {0, 8, 16, 32})
                if (mk != k.gpu_mk) {
                    Knobs n = k;
                    n.gpu_mk = mk;
                    out.push_back(n);
                }
        }
        if (has_matrix_product_ && !base_.gpu) {
            for (int v : {1, 2, 3, 4}) {
                Knobs n = k;
                n.mm_vectors = v;
                if (v != k.mm_vectors) out.push_back(n);
            }
            for (int r : {8, 16, 32, 64}) {
                Knobs n = k;
                n.mm_rows = r;
                if (r != k.mm_rows) out.push_back(n);
            }
            for (int b : {2, 4, 8}) {
                Knobs n = k;
                n.mm_block = b;
                if (b != k.mm_block) out.push_back(n);
            }
        }
        std::shuffle(out.begin(), out.end(), rng_);
        return out;
    }

    /** Every tunable Func with cheap consumers computed at `place` (per
     * strip, or sliding down it) and those consumers inlined, and every other
     * tunable Func read as a stencil at `place` too: the placement of a hand
     * schedule that slides a chain of stencils (harris: the luminance and
     * both gradients slide, the gradients' products go into the box sums).
     * One Func at a time the search does not get there: each step alone is
     * slower, or names a loop its consumer no longer has. */
    Knobs compound_move(const Knobs &k, const char *place) const {
        Knobs n = k;
        std::set<std::string> inlined;
        for (const std::string &f : tunable_) {
            auto it = cheap_consumers_.find(f);
            if (it != cheap_consumers_.end()) inlined.insert(it->second.begin(), it->second.end());
        }
        for (const std::string &f : tunable_) {
            if (inlined.count(f)) {
                n.placement[f] = "inline";
            } else if (cheap_consumers_.count(f) || !pointwise_.count(f)) {
                n.placement[f] = place;
            }
        }
        return n;
    }

    Knobs random_knobs() {
        auto pick = [&](std::initializer_list<int> v) {
            return *(v.begin() + long(rng_() % v.size()));
        };
        Knobs k;
        k.rows = pick({0, 2, 4, 8, 16, 32, 64});
        k.vmul = pick({1, 1, 2});
        k.mm_vectors = pick({1, 2, 3, 4});
        k.mm_rows = pick({8, 16, 32, 64});
        k.mm_block = pick({2, 4, 8});
        k.gpu_tx = pick({16, 32, 64});
        k.gpu_ty = pick({1, 2, 4, 8});
        k.gpu_vec = pick({0, 1, 2, 4});
        k.gpu_rows = pick({1, 2, 4});
        k.gpu_mx = pick({2, 4, 8});
        k.gpu_my = pick({2, 4, 8});
        k.gpu_mk = pick({0, 16, 16, 32});
        static const char *places[] = {"", "inline", "root", "strip", "sliding"};
        for (const std::string &f : tunable_) {
            const char *p = places[rng_() % 5];
            if (!std::strcmp(p, "inline") && !pointwise_.count(f)) p = "";
            if (*p) k.placement[f] = p;
        }
        return k;
    }

    /** Re-time the finalists in alternating order; a challenger must be
     * 3% faster than an earlier-tried finalist to win. */
    const Tried &pick_winner() {
        std::vector<std::vector<double>> times(finalists_.size());
        // As many rounds as the budget's rest allows (two at least): for a
        // pipeline of a second a run, five rounds of five finalists took a
        // third of a 60 s budget past its end.
        double round_ms = 0;
        for (const Tried &t : finalists_) round_ms += t.ms;
        double left_ms = (o_.budget_seconds - elapsed()) * 1000;
        int rounds = std::max(3, o_.runs);
        if (round_ms > 0 && left_ms < rounds * round_ms)
            rounds = std::max(2, int(left_ms / round_ms));
        for (int r = 0; r < rounds; r++)
            for (size_t i = 0; i < finalists_.size(); i++) {
                size_t j = (i + size_t(r)) % finalists_.size();
                times[j].push_back(run_once(finalists_[j].callable));
            }
        for (size_t i = 0; i < finalists_.size(); i++) {
            std::sort(times[i].begin(), times[i].end());
            finalists_[i].ms = std::min(finalists_[i].ms, times[i][times[i].size() / 2]);
        }
        size_t best = 0;
        for (size_t i = 1; i < finalists_.size(); i++) {
            const Tried &a = finalists_[best], &b = finalists_[i];
            bool b_earlier = b.order < a.order;
            double margin = b_earlier ? 1.0 / 1.03 : 1.03;
            if (b.ms * margin < a.ms) best = i;
        }
        return finalists_[best];
    }

public:
    Tuner(Pipeline p, Realization out, const AutotuneOptions &o)
        : p_(std::move(p)), out_(std::move(out)), o_(o), rng_(o.seed) {
        base_ = heuristic_options(o.target, {});
        std::vector<Function> &outputs = outputs_;
        for (const Func &f : p_.outputs()) outputs.push_back(f.function());
        target_ = pipeline_target(p_, resolve_jit_target(o.target, outputs[0].name()));
        compile_threads_ = o.compile_threads > 0 ? o.compile_threads : thread_count();
        size_t slot = 0;
        for (const Function &f : outputs) {
            std::vector<int> s;
            for (int d = 0; d < out_[slot].dimensions(); d++)
                s.push_back(out_[slot].dim(d).extent());
            sizes_.push_back(s);
            slot += size_t(f.outputs());
        }
        user_state_ = PipelineSchedule::of(p_);
        std::vector<Function> funcs = pipeline_functions(p_);
        PipelineInfo info = analyze_pipeline(funcs, outputs);
        for (const std::string &n : info.order) {
            const FuncInfo &f = info.funcs.at(n);
            // Cheap Funcs (boundary conditions, wrappers of Buffers) stay
            // inlined: storing them never pays, and their names are made
            // by Loom, so a schedule naming them would not paste back.
            if (!f.is_output && !f.user_scheduled && !f.has_updates &&
                (f.cost > 3 || f.calls > 1)) {
                tunable_.push_back(n);
                if (f.access == Access::Pointwise) pointwise_.insert(n);
            }
            if (f.has_updates && f.func.updates().size() == 1 && f.consumers.size() == 1)
                has_matrix_product_ = true;
        }
        std::set<std::string> tunable(tunable_.begin(), tunable_.end());
        for (const std::string &n : tunable_) {
            for (const std::string &c : info.funcs.at(n).consumers) {
                const FuncInfo &ci = info.funcs.at(c);
                if (tunable.count(c) && ci.cost <= cheap_consumer_cost && !ci.has_updates)
                    cheap_consumers_[n].push_back(c);
            }
        }
        // The arguments straight from the definitions (infer_arguments would
        // lower the pipeline as it is now, possibly everything inlined).
        std::map<std::string, Parameter> params = all_params_of(funcs);
        for (const auto &[name, param] : params)
            args_.emplace_back(name,
                               param.is_buffer() ? Argument::InputBuffer : Argument::InputScalar,
                               param.type(), param.is_buffer() ? param.dimensions() : 0);
        for (const Argument &a : args_) {
            auto it = params.find(a.name);
            Callable::Value v;
            if (a.is_buffer()) {
                if (!it->second.buffer().defined())
                    user_error("autotune of " << outputs[0].name() << ": ImageParam " << a.name
                                              << " has no Buffer; set() one before tuning");
                v.is_buffer = true;
                v.buffer = it->second.buffer().raw_buffer();
            } else {
                v.scalar_type = raw_from_type(a.type);
                v.scalar_bits = it->second.scalar_bits();
            }
            values_.push_back(v);
        }
        for (size_t i = 0; i < out_.size(); i++) {
            Callable::Value v;
            v.is_buffer = true;
            v.buffer = out_[i].raw_buffer();
            values_.push_back(v);
        }
    }

    const std::vector<std::vector<int>> &sizes() const { return sizes_; }

    AutotuneResult run() {
        std::deque<Knobs> queue{Knobs()};
        Knobs climbed_from;
        bool climbed = false;
        // The heuristic's own schedule first and alone: it is the reference
        // every other output is checked against.
        size_t batch_size = 1;
        // Proposals that give no new schedule (one already tried, or knobs
        // that make none): this many in a row and the search space is spent,
        // as for a histogram, whose few schedules random knobs keep repeating
        // until the budget ends (96 s of a 120 s budget for 3 schedules).
        const int spent_after = 200;
        int fruitless = 0;
        auto searching = [&] { return !out_of_budget() && fruitless < spent_after; };
        while (searching()) {
            const double batch_start = elapsed();
            std::vector<Pending> batch;
            while (batch.size() < batch_size && searching()) {
                if (queue.empty()) {
                    if (finalists_.empty()) break; // the first failed: nothing to climb from
                    const Knobs &best = finalists_.front().knobs;
                    if (!climbed || !(best == climbed_from)) {
                        for (const Knobs &n : neighbours(best)) queue.push_back(n);
                        climbed_from = best;
                        climbed = true;
                    } else {
                        queue.push_back(random_knobs());
                    }
                }
                Knobs k = queue.front();
                queue.pop_front();
                if (auto p = prepare(k)) {
                    batch.push_back(std::move(*p));
                    fruitless = 0;
                } else {
                    fruitless++;
                }
            }
            if (batch.empty()) break;
            compile_all(batch);
            largest_batch_ = std::max(largest_batch_, int(batch.size()));
            double best_before = finalists_.empty() ? 0 : finalists_.front().ms;
            for (Pending &p : batch) {
                // A batch (one candidate per core) can outlast the budget's
                // rest: those left untimed were no trial (a GPU tuning run of
                // 20 s took 53 s, finishing its second batch).
                if (!finalists_.empty() && elapsed() >= o_.budget_seconds * 0.9 &&
                    o_.budget_seconds > 0) {
                    progress_.trials--;
                    continue;
                }
                measure(p);
            }
            last_batch_seconds_ = elapsed() - batch_start;
            // An improvement restarts the climb around the new best.
            if (!finalists_.empty() && best_before > 0 && finalists_.front().ms < best_before)
                queue.clear();
            if (!finalists_.empty()) batch_size = size_t(compile_threads_);
        }
        AutotuneResult r;
        r.trials = progress_.trials;
        r.failed = progress_.failed;
        if (finalists_.empty()) {
            restore_user_state();
            user_error("autotune of " << p_.outputs()[0].name()
                                      << ": no schedule compiled and ran (" << progress_.failed
                                      << " failed); the pipeline keeps its own schedule");
        }
        const Tried &w = pick_winner();
        w.schedule.apply(p_);
        r.schedule = w.schedule;
        r.schedule_source = w.schedule.to_cpp();
        r.best_ms = w.ms;
        r.baseline_ms = progress_.baseline_ms;
        for (const Tried &t : finalists_)
            if (t.order == baseline_order_) r.baseline_ms = t.ms;
        r.tuning_seconds = elapsed();
        r.largest_compile_batch = largest_batch_;
        return r;
    }
};

} // namespace

AutotuneResult autotune(Pipeline pipeline, Realization outputs, const AutotuneOptions &options) {
    if (!pipeline.defined()) user_error("autotune of an empty Pipeline");
    if (options.budget_seconds <= 0 && options.max_trials <= 0)
        user_error("autotune needs a budget: budget_seconds or max_trials above 0");
    auto t0 = Clock::now();
    std::vector<Function> outs;
    for (const Func &f : pipeline.outputs()) outs.push_back(f.function());
    Tuner tuner(pipeline, outputs, options);
    TuningCache cache(options.cache_dir);
    std::string key =
        TuningCache::key(outs, tuner.sizes(), options.target.to_string(), thread_count());
    std::vector<std::pair<std::string, uint64_t>> defs =
        TuningCache::definitions_of(pipeline_functions(pipeline));
    std::vector<std::string> stale;
    if (options.use_cache) {
        if (auto entry = cache.load(key)) {
            stale = stale_funcs(entry->definitions, defs);
            if (stale.empty()) {
                try {
                    entry->schedule.apply(pipeline);
                    AutotuneResult r;
                    r.schedule = entry->schedule;
                    r.schedule_source = r.schedule.to_cpp();
                    r.best_ms = entry->best_ms;
                    r.baseline_ms = entry->baseline_ms;
                    r.from_cache = true;
                    r.tuning_seconds = ms_since(t0) / 1000;
                    return r;
                } catch (const CompileError &) {
                    stale.push_back("(schedule no longer fits)");
                }
            } else {
                std::string names;
                for (const std::string &s : stale) names += (names.empty() ? "" : ", ") + s;
                std::cerr << "Loom autotune: the cached schedule of " << outs[0].name()
                          << " is stale (the definitions of " << names
                          << " changed); tuning again\n";
            }
        }
    }
    AutotuneResult r = tuner.run();
    r.stale_funcs = stale;
    r.tuning_seconds = ms_since(t0) / 1000;
    if (options.use_cache) {
        TuningEntry e;
        e.schedule = r.schedule;
        e.definitions = defs;
        e.best_ms = r.best_ms;
        e.baseline_ms = r.baseline_ms;
        cache.store(key, e);
    }
    return r;
}

AutotuneResult autotune(Pipeline pipeline, const std::vector<int> &sizes,
                        const AutotuneOptions &options) {
    if (!pipeline.defined()) user_error("autotune of an empty Pipeline");
    std::vector<Buffer<>> buffers;
    for (const Func &f : pipeline.outputs()) {
        const Function &fn = f.function();
        if (int(sizes.size()) != fn.dimensions())
            user_error("autotune was given " << sizes.size() << " sizes but output Func "
                                             << fn.name() << " has " << fn.dimensions()
                                             << " dimensions");
        for (const Type &t : fn.output_types()) buffers.emplace_back(t, sizes, fn.name());
    }
    return autotune(std::move(pipeline), Realization(buffers), options);
}

} // namespace loom
