#ifndef LOOM_APPS_BENCH_SIDE_H
#define LOOM_APPS_BENCH_SIDE_H

// What perf_apps needs from one library's build of the apps (Loom's or
// Halide 14's): per app, a way to build and JIT-compile its generator's
// pipeline, to run it, and to read its output. Plain C++ types only, so the
// two sides are compiled apart (each with its own library's headers).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace loom_apps_bench {

/** One app's pipeline on one side. */
struct SidePipeline {
    /** Builds the generator afresh and JIT-compiles its pipeline (the
     * pipeline that run() uses is the last one compiled). */
    std::function<void()> compile;
    /** Realizes the compiled pipeline into an output allocated once. */
    std::function<void()> run;
    /** The last run's output values, in storage order. */
    std::function<std::vector<double>()> output;
    /** Largest difference from the other side's output that still agrees
     * (ints: a rounding step or two; floats: relative to the values). */
    double tolerance = 0;
    /** Wall-clock ms the last compile spent choosing the schedule (0 for
     * the hand schedule). */
    std::function<double()> choose_ms;
};

/** An app as listed in app_list.inc: its name, the work one run does (in
 * `unit`: "Mpix/s" work is output pixels, "GFLOP/s" work is flops), and a
 * factory for its pipeline on this side. */
struct SideApp {
    std::string name;
    std::string unit;
    double work = 0;
    std::function<SidePipeline()> make;
    /** The same with the named auto-scheduler choosing the schedule (the
     * generator's schedule() steps aside); one the side lacks throws when
     * compiled. */
    std::function<SidePipeline(const std::string &autoscheduler)> make_auto;
};

/** The name of Loom's empirical autotuner among the auto-schedulers
 * (perf_apps --auto=tuned). */
inline const char *const tuned_scheduler = "LoomTuned";

/** One library's build of the apps: the JIT target it compiles for,
 * every app of app_list.inc, and the auto-schedulers it offers. */
struct Side {
    std::string target;
    std::vector<SideApp> apps;
    std::vector<std::string> autoschedulers;
};

/** The apps built against Loom. */
Side loom_side();
/** The apps built against Halide 14 (only with LOOM_WITH_HALIDE). */
Side halide_side();

/** Input values made up the same way on both sides: element i of an input
 * with this seed, spread over [lo, hi]. */
inline double input_value(uint32_t seed, int64_t i, double lo, double hi) {
    uint32_t h = uint32_t(i) * 2654435761u ^ (seed * 40503u + uint32_t(i >> 32));
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return lo + (hi - lo) * double(h % 1000001u) / 1000000.0;
}

} // namespace loom_apps_bench

#endif
