#ifndef LOOM_AUTO_SCHEDULE_H
#define LOOM_AUTO_SCHEDULE_H

/** \file Automatic schedules: the auto-scheduler's parameters and results
 * (Halide's shapes), and the empirical autotuner. */

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "loom/PipelineSchedule.h"
#include "loom/Realization.h"
#include "loom/Target.h"

namespace loom {

class Pipeline;

/** Which auto-scheduler to run and its options. "Loom" (the default) is the
 * built-in heuristic one; its options (all optional) are "parallelism"
 * (threads to plan for, default: the machine's), "vector_width" (lanes of
 * the widest type, default: the target's), "last_level_cache_size" (bytes). */
struct AutoschedulerParams {
    std::string name = "Loom";
    std::map<std::string, std::string> extra;

    AutoschedulerParams() = default;
    AutoschedulerParams(const std::string &name) : name(name) {}
    AutoschedulerParams(const char *name) : name(name) {}
    AutoschedulerParams(const std::string &name, const std::map<std::string, std::string> &extra)
        : name(name), extra(extra) {}
    /** "name key=value key=value" */
    std::string to_string() const;
};

/** Halide 14's machine description, accepted for source compatibility:
 * parallelism and cache size become the "Loom" options of the same name. */
struct MachineParams {
    int parallelism = 16;
    uint64_t last_level_cache_size = 16 * 1024 * 1024;
    float balance = 40;

    MachineParams() = default;
    MachineParams(int parallelism, uint64_t llc, float balance)
        : parallelism(parallelism), last_level_cache_size(llc), balance(balance) {}
    static MachineParams generic() { return MachineParams(); }
    std::string to_string() const;
};

/** What an auto-scheduler chose: the schedule (already applied to the
 * pipeline) as a value and as C++ source in the algorithm's own names. */
struct AutoSchedulerResults {
    std::string scheduler_name;
    AutoschedulerParams autoscheduler_params;
    Target target;
    std::string schedule_source;
    PipelineSchedule schedule;
    /** Funcs the user had scheduled, left as they were. */
    std::vector<std::string> user_scheduled;
    /** Output sizes the schedule was chosen for, per output dimension
     * (empty when the choice waits for the first realize; see
     * Pipeline::apply_autoscheduler). */
    std::vector<std::vector<int>> output_sizes;
    double seconds = 0; // time taken to choose
};

/** An auto-scheduler added with Pipeline::add_autoscheduler: schedules the
 * pipeline's Funcs and fills in results (schedule_source at least). */
using AutoSchedulerFn = std::function<void(const Pipeline &, const Target &,
                                           const AutoschedulerParams &, AutoSchedulerResults *)>;

// ---- The empirical autotuner.

/** Progress of a tuning run, reported after every candidate. */
struct AutotuneProgress {
    int trials = 0; // candidates compiled and run (or failed)
    int failed = 0; // candidates that did not compile, threw, or gave other results
    double elapsed_seconds = 0;
    double best_ms = 0;     // best median time so far
    double baseline_ms = 0; // the heuristic schedule's time
};

struct AutotuneOptions {
    /** Stop after this many seconds (compiling and timing together)... */
    double budget_seconds = 30;
    /** ...or after this many candidates (0: no limit). */
    int max_trials = 0;
    /** Timed runs per candidate; the median counts. */
    int runs = 5;
    /** Candidates compiled at once, each by its own compile engine on its
     * own thread (0: one per core, or LOOM_NUM_THREADS); they are then
     * timed one at a time, never while anything compiles. */
    int compile_threads = 0;
    Target target = get_jit_target_from_environment();
    /** Folder of the tuning cache; empty: $LOOM_TUNING_CACHE, else
     * $XDG_CACHE_HOME/loom/tuning or ~/.cache/loom/tuning. */
    std::string cache_dir;
    bool use_cache = true;
    /** Seed of the search (the same seed, pipeline and sizes try the same
     * candidates in the same order). */
    uint64_t seed = 1;
    /** Called after each candidate; LOOM_DEBUG=1 also prints progress. */
    std::function<void(const AutotuneProgress &)> on_progress;
};

struct AutotuneResult {
    PipelineSchedule schedule; // the winner, applied to the pipeline
    std::string schedule_source;
    double best_ms = 0;
    double baseline_ms = 0; // the heuristic auto-scheduler's schedule
    int trials = 0;
    int failed = 0;
    double tuning_seconds = 0;
    /** The most candidates compiled at once. */
    int largest_compile_batch = 0;
    bool from_cache = false;
    /** Funcs whose algorithm changed since a cache entry of this pipeline's
     * name and sizes was written (the entry was not used). */
    std::vector<std::string> stale_funcs;
};

/** Search schedules for the pipeline by compiling and timing them on these
 * output buffers (inputs are the Buffers and Params bound now), starting
 * from the heuristic auto-scheduler; every candidate's output is checked
 * against the first schedule's. Funcs the user scheduled are left alone.
 * The winner is applied to the pipeline and returned. */
AutotuneResult autotune(Pipeline pipeline, Realization outputs,
                        const AutotuneOptions &options = {});
/** As above, on new outputs of these sizes (mins at zero). */
AutotuneResult autotune(Pipeline pipeline, const std::vector<int> &sizes,
                        const AutotuneOptions &options = {});

} // namespace loom

#endif
