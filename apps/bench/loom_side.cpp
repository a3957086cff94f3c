// perf_apps' Loom side: the apps of app_list.inc built against Loom.

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <type_traits>

#include "Loom.h"
#include "bench_side.h"

namespace loom_apps_bench {
namespace {
namespace L = loom;

template <class G> struct Built {
    std::unique_ptr<G> generator;
    loom::Pipeline pipeline;
    double choose_ms = 0;
};

/** LOOM_PERF_PRINT_TUNED=1 prints each automatic schedule (the heuristic's
 * and the tuner's winner), to compare with the hand schedule. */
bool print_schedules() {
    const char *p = std::getenv("LOOM_PERF_PRINT_TUNED");
    return p && *p == '1';
}

/** The generator param "autoscheduler" makes schedule() step aside and
 * build_pipeline() run that auto-scheduler on the outputs' estimates; the
 * pipeline records the time it took. */
template <class G> Built<G> build_generator(const std::string &autoscheduler) {
    Built<G> b;
    b.generator = std::make_unique<G>();
    // The tuner starts from no schedule at all (as the generator driver's
    // --autotune): schedule() steps aside and no auto-scheduler runs.
    const bool tuned = autoscheduler == tuned_scheduler;
    if (!autoscheduler.empty())
        b.generator->set_generator_param("autoscheduler", tuned ? "none" : autoscheduler);
    b.pipeline = b.generator->build_pipeline();
    if (!autoscheduler.empty() && !tuned) {
        b.choose_ms = b.pipeline.autoscheduler_results().seconds * 1000;
        if (print_schedules())
            std::fprintf(stderr, "%s:\n%s\n", autoscheduler.c_str(),
                         b.pipeline.autoscheduler_results().schedule_source.c_str());
    }
    return b;
}

/** LOOM_PERF_TUNE_SECONDS, else 60: the tuner's budget per app. */
double tune_seconds() {
    const char *s = std::getenv("LOOM_PERF_TUNE_SECONDS");
    double v = s ? std::atof(s) : 0;
    return v > 0 ? v : 60;
}

/** The tuned row: once the generator has its inputs, the empirical
 * autotuner chooses the schedule on the real buffers (no tuning cache, so
 * every run pays, and reports, the whole tuning time). */
template <class G, typename B>
void tune_if_asked(Built<G> &b, B &output, const std::string &autoscheduler) {
    if (autoscheduler != tuned_scheduler) return;
    loom::AutotuneOptions options;
    options.budget_seconds = tune_seconds();
    options.use_cache = false;
    loom::AutotuneResult r = loom::autotune(b.pipeline, loom::Realization({output}), options);
    b.choose_ms = r.tuning_seconds * 1000;
    if (print_schedules())
        std::fprintf(stderr, "tuned (%d trials, %.1f s):\n%s\n", r.trials, r.tuning_seconds,
                     r.schedule_source.c_str());
}

template <typename In, typename B> void set_buffer(In &input, const B &buffer) {
    input.set(buffer);
}
template <typename In, typename T> void set_scalar(In &input, T value) {
    input.set(value);
}
void jit_compile(loom::Pipeline &p) {
    p.compile_jit();
}
template <typename B> void realize(loom::Pipeline &p, B &output) {
    p.realize(loom::Realization({output}));
}

#include "side_apps.inc"

} // namespace

Side loom_side() {
    return {loom::get_jit_target_from_environment().to_string(),
            side_apps(),
            {"Loom", tuned_scheduler}};
}

} // namespace loom_apps_bench
