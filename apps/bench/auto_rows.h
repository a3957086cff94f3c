#ifndef LOOM_APPS_BENCH_AUTO_ROWS_H
#define LOOM_APPS_BENCH_AUTO_ROWS_H

// perf_apps --auto: per app, the pipeline scheduled by each auto-scheduler
// asked for (Loom's built-in "Loom" on the Loom side, Halide 14's
// "Mullapudi2016" and "Adams2019" on the Halide side), checked against the
// same side's hand-schedule output and timed together with the hand
// schedules (perf_apps.cpp alternates all runs). A scheduler that throws,
// a run that fails or an output that differs becomes a "failed: <reason>"
// cell; the run goes on.

#include <string>
#include <vector>

#include "bench_side.h"
#include "bench_timing.h"

namespace loom_apps_bench {

/** Reads "--auto" (every scheduler) or "--auto=loom,mullapudi,adams" (short
 * or full names, any case) into the sides' scheduler names; false for any
 * other argument. Throws std::invalid_argument naming an unknown one. */
bool parse_auto_option(const std::string &arg, std::vector<std::string> &schedulers);

/** One auto-scheduler's result on one app. */
struct AutoCell {
    std::string scheduler;
    /** Why it failed (empty when it ran and its output agreed). */
    std::string failure;
    /** Medians and fastest runs: of the side's hand schedule and of this. */
    double hand_ms = 0, hand_fastest_ms = 0, run_ms = 0, fastest_ms = 0;
    /** Wall-clock time choosing the schedule. */
    double choose_ms = 0;

    bool ok() const { return failure.empty(); }
    /** Side's hand time over the auto time (>1: the auto schedule is
     * faster); 0 when failed. */
    double ratio() const { return ok() && run_ms > 0 ? hand_ms / run_ms : 0; }
    double fastest_ratio() const {
        return ok() && fastest_ms > 0 ? hand_fastest_ms / fastest_ms : 0;
    }
};

/** One side's view of an app for the auto rows: the side, its app (null
 * when the side lacks it), and its compiled, run hand pipeline (null when
 * the hand schedule failed there). */
struct SideHand {
    const Side *side = nullptr;
    const SideApp *app = nullptr;
    const SidePipeline *hand = nullptr;
};

/** An auto-scheduled pipeline compiled, run once and checked, waiting to
 * be timed; `halide` says which hand schedule it is measured against. */
struct AutoCandidate {
    AutoCell cell;
    SidePipeline pipeline;
    bool halide = false;
};

/** A candidate per scheduler (in order); the failed ones carry their
 * failure and are not to be timed. */
std::vector<AutoCandidate> prepare_autos(const std::vector<std::string> &schedulers,
                                         const SideHand &loom, const SideHand &halide);

/** The per-app lines under the app's hand row. */
void print_auto_cells(const std::vector<AutoCell> &cells);
/** Geometric means of hand/auto per scheduler over the apps where it
 * succeeded, with the failure counts. */
void print_auto_summary(const std::vector<std::string> &schedulers,
                        const std::vector<std::vector<AutoCell>> &apps);
/** CSV columns for the auto rows: header fields and one app's fields (each
 * starting with a comma). */
std::string auto_csv_header(const std::vector<std::string> &schedulers);
std::string auto_csv_fields(const std::vector<AutoCell> &cells);

} // namespace loom_apps_bench

#endif
