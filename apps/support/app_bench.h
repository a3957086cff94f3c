#ifndef LOOM_APP_BENCH_H
#define LOOM_APP_BENCH_H

// Timing for the apps' --bench mode: the median of several runs, so AOT and
// JIT are compared side by side in one process (never against fixed times).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace loom_apps {

/** An app's command line: `[--bench] [input.png [output.png]]`. */
struct AppArgs {
    bool bench = false;
    std::string in_png, out_png;
};

inline AppArgs parse_app_args(int argc, char **argv) {
    AppArgs args;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--bench"))
            args.bench = true;
        else if (!std::strncmp(argv[i], "--", 2))
            continue; // other modes (has_flag)
        else if (args.in_png.empty())
            args.in_png = argv[i];
        else
            args.out_png = argv[i];
    }
    return args;
}

/** Was this flag (e.g. "--auto") given? */
inline bool has_flag(int argc, char **argv, const char *flag) {
    for (int i = 1; i < argc; i++)
        if (!std::strcmp(argv[i], flag)) return true;
    return false;
}

/** Median milliseconds of `runs` calls of f (after one warm-up call). */
template <typename F> double median_ms(int runs, F &&f) {
    f();
    std::vector<double> ms;
    for (int i = 0; i < runs; i++) {
        auto t0 = std::chrono::steady_clock::now();
        f();
        auto t1 = std::chrono::steady_clock::now();
        ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

/** Median milliseconds of `runs` calls each of a and b, alternating (after
 * one warm-up call of each), so that both see the same machine load. */
template <typename A, typename B>
std::pair<double, double> alternating_median_ms(int runs, A &&a, B &&b) {
    auto time = [](auto &f) {
        auto t0 = std::chrono::steady_clock::now();
        f();
        auto t1 = std::chrono::steady_clock::now();
        return std::chrono::duration<double, std::milli>(t1 - t0).count();
    };
    a();
    b();
    std::vector<double> ms_a, ms_b;
    for (int i = 0; i < runs; i++) {
        ms_a.push_back(time(a));
        ms_b.push_back(time(b));
    }
    std::sort(ms_a.begin(), ms_a.end());
    std::sort(ms_b.begin(), ms_b.end());
    return {ms_a[ms_a.size() / 2], ms_b[ms_b.size() / 2]};
}

/** The CPU's model name from /proc/cpuinfo ("unknown" elsewhere). */
inline std::string cpu_model() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);)
        if (line.rfind("model name", 0) == 0) {
            size_t colon = line.find(':');
            if (colon != std::string::npos) return line.substr(colon + 2);
        }
    return "unknown";
}

/** One line naming the machine and the target the code was compiled for,
 * so that figures from different machines are never mixed. */
inline void print_machine(const std::string &target) {
    std::printf("machine: %s, %u hardware threads; target %s\n", cpu_model().c_str(),
                std::thread::hardware_concurrency(), target.c_str());
}

} // namespace loom_apps

#endif
