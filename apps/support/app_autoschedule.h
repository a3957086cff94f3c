#ifndef LOOM_APP_AUTOSCHEDULE_H
#define LOOM_APP_AUTOSCHEDULE_H

// The apps' benchmark rows for automatic schedules: the same generator
// scheduled by the built-in auto-scheduler ("Loom") and by the autotuner
// (from no schedule, for a budget of seconds), each run in the JIT and
// checked like the hand schedule, with ratios against the hand schedule's
// JIT time measured in the same process.

#include <cstdio>
#include <cstdlib>
#include <string>

#include "Loom.h"
#include "app_bench.h"

namespace loom_apps {

/** Times of one app under the automatic schedules. */
struct AutomaticRows {
    double auto_ms = 0, choose_ms = 0, tuned_ms = 0, tuning_s = 0;
    double tuner_best_ms = 0, tuner_baseline_ms = 0; // as the tuner timed them
    int trials = 0;
    bool ok = true;
};

/** G is the generator class (its schedule() returns early when
 * using_autoscheduler()); setup(G &) binds its Inputs; out is what
 * realize writes; check() says whether out holds the right result. */
template <typename G, typename Setup, typename Check>
AutomaticRows bench_automatic(const char *app, Setup setup, loom::Realization out, Check check,
                              double hand_jit_ms, double tune_seconds, int runs) {
    AutomaticRows rows;
    {
        G g;
        g.set_generator_param("autoscheduler", "Loom");
        setup(g);
        loom::Pipeline p = g.build_pipeline();
        rows.choose_ms = p.autoscheduler_results().seconds * 1000;
        p.compile_jit();
        rows.auto_ms = median_ms(runs, [&] { p.realize(out); });
        if (!check()) {
            std::printf("%s: the auto-scheduled output differs\n", app);
            rows.ok = false;
        }
    }
    if (tune_seconds > 0) {
        // The tuner starts from nothing: the built-in "none" auto-scheduler
        // leaves the Funcs unscheduled (schedule() steps aside for both).
        // (A tune_seconds of 0 skips it, for pipelines whose unscheduled
        // form is too large to compile.)
        G g;
        g.set_generator_param("autoscheduler", "none");
        setup(g);
        loom::Pipeline p = g.build_pipeline();
        loom::AutotuneOptions o;
        o.budget_seconds = tune_seconds;
        o.use_cache = false;
        loom::AutotuneResult r = loom::autotune(p, out, o);
        rows.tuning_s = r.tuning_seconds;
        rows.tuner_best_ms = r.best_ms;
        rows.tuner_baseline_ms = r.baseline_ms;
        rows.trials = r.trials;
        rows.tuned_ms = median_ms(runs, [&] { p.realize(out); });
        if (!check()) {
            std::printf("%s: the tuned output differs\n", app);
            rows.ok = false;
        }
    }
    if (tune_seconds <= 0 && hand_jit_ms > 0)
        std::printf("%s: hand (JIT) %.3f ms | auto-scheduled %.3f ms, hand/auto %.2f, chosen in "
                    "%.2f ms | not tuned\n",
                    app, hand_jit_ms, rows.auto_ms, hand_jit_ms / rows.auto_ms, rows.choose_ms);
    else if (tune_seconds <= 0)
        std::printf("%s: auto-scheduled %.3f ms (chosen in %.2f ms)%s, not tuned\n", app,
                    rows.auto_ms, rows.choose_ms, rows.ok ? ", correct" : "");
    else if (hand_jit_ms > 0)
        std::printf(
            "%s: hand (JIT) %.3f ms | auto-scheduled %.3f ms, hand/auto %.2f, chosen in "
            "%.2f ms | tuned %.3f ms, hand/tuned %.2f, %d trials in %.1f s (the tuner timed it "
            "%.3f ms, its start %.3f ms)\n",
            app, hand_jit_ms, rows.auto_ms, hand_jit_ms / rows.auto_ms, rows.choose_ms,
            rows.tuned_ms, hand_jit_ms / rows.tuned_ms, rows.trials, rows.tuning_s,
            rows.tuner_best_ms, rows.tuner_baseline_ms);
    else
        std::printf("%s: auto-scheduled %.3f ms (chosen in %.2f ms), tuned %.3f ms (%d trials in "
                    "%.1f s)%s\n",
                    app, rows.auto_ms, rows.choose_ms, rows.tuned_ms, rows.trials, rows.tuning_s,
                    rows.ok ? ", both correct" : "");
    return rows;
}

/** The tuning budget of --bench runs: LOOM_APP_TUNE_SECONDS, else 60. */
inline double app_tune_seconds() {
    const char *s = std::getenv("LOOM_APP_TUNE_SECONDS");
    return s && std::atof(s) > 0 ? std::atof(s) : 60;
}

} // namespace loom_apps

#endif
