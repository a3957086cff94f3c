#ifndef LOOM_APPS_BENCH_TIMING_H
#define LOOM_APPS_BENCH_TIMING_H

// perf_apps' clock and the small statistics its tables share (the hand rows
// of perf_apps.cpp and the automatic rows of auto_rows.cpp).

#include <functional>
#include <utility>
#include <vector>

namespace loom_apps_bench {

/** Whether now_ms() reads the process's CPU time (--cpu-time) rather than
 * wall-clock time. */
void measure_cpu_time(bool cpu_time);
bool measuring_cpu_time();
/** Milliseconds on the clock the times use. */
double now_ms();

/** Median and fastest of a pipeline's timed runs, in ms. */
struct Times {
    double median = 0, fastest = 0;
};

/** `runs` timed calls of each function (an empty one is skipped and gets
 * zero times), one after the other in turn after one warm-up call of each,
 * so that all see the same machine load. */
std::vector<Times> alternating_times(int runs, const std::vector<std::function<void()>> &fs);

/** Largest difference between two outputs, and whether it is within
 * tolerance (relative: scaled by the largest output value). */
std::pair<double, bool> compare(const std::vector<double> &a, const std::vector<double> &b,
                                double tolerance, bool relative);

/** Geometric mean (0 for none). */
double geomean(const std::vector<double> &v);

} // namespace loom_apps_bench

#endif
