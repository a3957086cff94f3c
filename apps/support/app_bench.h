#ifndef LOOM_APP_BENCH_H
#define LOOM_APP_BENCH_H

// Timing for the apps' --bench mode: the median of several runs, so AOT and
// JIT are compared side by side in one process (never against fixed times).

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

namespace loom_apps {

/** Median milliseconds of `runs` calls of f (after one warm-up call). */
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

} // namespace loom_apps

#endif
