#include "bench_timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <time.h>

namespace loom_apps_bench {

namespace {
bool cpu_clock = false;
}

void measure_cpu_time(bool cpu_time) {
    cpu_clock = cpu_time;
}

bool measuring_cpu_time() {
    return cpu_clock;
}

double now_ms() {
    if (cpu_clock) {
        timespec t;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
    }
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::vector<Times> alternating_times(int runs, const std::vector<std::function<void()>> &fs) {
    std::vector<std::vector<double>> ms(fs.size());
    for (int i = 0; i <= runs; i++)
        for (size_t f = 0; f < fs.size(); f++) {
            if (!fs[f]) continue;
            double t0 = now_ms();
            fs[f]();
            double t = now_ms() - t0;
            if (i > 0) ms[f].push_back(t); // the first round warms up
        }
    std::vector<Times> times(fs.size());
    for (size_t f = 0; f < fs.size(); f++) {
        if (ms[f].empty()) continue;
        std::sort(ms[f].begin(), ms[f].end());
        times[f] = Times{ms[f][ms[f].size() / 2], ms[f][0]};
    }
    return times;
}

std::pair<double, bool> compare(const std::vector<double> &a, const std::vector<double> &b,
                                double tolerance, bool relative) {
    if (a.size() != b.size()) return {INFINITY, false};
    double largest = 1, worst = 0;
    for (size_t i = 0; i < a.size(); i++) {
        largest = std::max(largest, std::abs(a[i]));
        worst = std::max(worst, std::abs(a[i] - b[i]));
    }
    return {worst, worst <= tolerance * (relative ? largest : 1)};
}

double geomean(const std::vector<double> &v) {
    if (v.empty()) return 0;
    double log_sum = 0;
    for (double x : v) log_sum += std::log(x);
    return std::exp(log_sum / double(v.size()));
}

} // namespace loom_apps_bench
