// perf_apps: every app's generator (apps/bench/app_list.inc) JIT-compiled
// in this process by Loom and, built with LOOM_WITH_HALIDE, by Halide 14,
// with the same algorithm and schedule. Per app it prints the median run
// time of N runs (Loom and Halide runs alternate, so both see the same
// machine load; the ratio of the fastest runs is printed too), the compile time (median of 3 fresh
// generators: building the pipeline and JIT-compiling it), the Loom/Halide ratios, and the
// throughput (output Mpixel/s, or GFLOP/s for matmul and the convolutions).
// Both outputs are compared once. The table is also written as
// apps_bench.csv and apps_bench.png (the ratios as bars) into the output
// folder. Run on demand; asserts nothing about time. Exit code 1 when an
// app fails on Loom or the outputs differ.
//
//   perf_apps [runs] [app...] [--out folder] [--cpu-time] [--auto[=list]]
//
// runs: default 10. app...: only these apps. The output folder defaults to
// the program's own folder. Threads: LOOM_NUM_THREADS and HL_NUM_THREADS
// (either one set is copied to the other). --cpu-time: every time is the
// process's CPU time (user and system) instead of wall-clock time; with one
// thread (LOOM_NUM_THREADS=1) that is steadier on a loaded machine, where
// wall-clock time counts the waits for a core (with more threads it counts
// the workers' spinning too).
//
// --auto adds, under each app's row, a row per auto-scheduler: Loom's
// built-in one ("loom", the generator param autoscheduler=Loom), Loom's
// empirical autotuner ("tuned": loom::autotune on the real buffers from no
// schedule, LOOM_PERF_TUNE_SECONDS of budget per app, default 60, no tuning
// cache; its "chosen in" is the tuning time; LOOM_PERF_PRINT_TUNED=1 prints
// the winner's schedule) and, with
// Halide, Halide 14's plugins "mullapudi" (Mullapudi2016) and "adams"
// (Adams2019), each choosing from the generators' estimates with the hand
// schedule() stepping aside. --auto=loom,mullapudi picks some (Adams2019
// can take minutes per app to choose). Each row: the median run time (its
// runs alternate with the hand ones), hand/auto (the time of the hand
// schedule on the same side over it; >1: the auto schedule is faster), the
// same for the fastest runs, and the wall-clock time choosing the schedule.
// A scheduler that throws, a run that fails or an output that differs from
// the same side's hand output shows as "failed: <reason>" and the run goes
// on; geometric means per scheduler over the apps that succeeded, and the
// failure counts, come at the end, and the CSV gets the columns. Failures
// do not change the exit code.

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "app_bench.h"
#include "auto_rows.h"
#include "bar_chart.h"
#include "bench_side.h"
#include "bench_timing.h"

using namespace loom_apps_bench;

namespace {

struct Options {
    int runs = 10;
    std::set<std::string> only;
    std::string out_folder;
    bool cpu_time = false;
    /** Auto-schedulers of --auto (none without it). */
    std::vector<std::string> autos;
};

double median_compile_ms(SidePipeline &p) {
    std::vector<double> ms;
    for (int i = 0; i < 3; i++) {
        double t0 = now_ms();
        p.compile();
        ms.push_back(now_ms() - t0);
    }
    std::sort(ms.begin(), ms.end());
    return ms[1];
}

Options parse_options(int argc, char **argv) {
    Options o;
    std::string self = argv[0];
    size_t slash = self.rfind('/');
    o.out_folder = slash == std::string::npos ? "." : self.substr(0, slash);
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--out") && i + 1 < argc)
            o.out_folder = argv[++i];
        else if (!std::strcmp(argv[i], "--cpu-time"))
            o.cpu_time = true;
        else if (parse_auto_option(argv[i], o.autos))
            continue;
        else if (std::isdigit(static_cast<unsigned char>(argv[i][0])))
            o.runs = std::max(1, std::atoi(argv[i]));
        else
            o.only.insert(argv[i]);
    }
    return o;
}

/** The vector extensions /proc/cpuinfo lists (x86 and Arm names). */
std::string vector_features() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);) {
        if (line.rfind("flags", 0) != 0 && line.rfind("Features", 0) != 0) continue;
        std::istringstream words(line.substr(line.find(':') + 1));
        std::string found;
        for (std::string w; words >> w;)
            if (w.rfind("sse4", 0) == 0 || w.rfind("avx", 0) == 0 || w == "fma" || w == "f16c" ||
                w == "asimd" || w == "sve" || w == "sve2" || w == "asimddp")
                found += (found.empty() ? "" : " ") + w;
        return found.empty() ? "none listed" : found;
    }
    return "unknown";
}

/** LOOM_NUM_THREADS and HL_NUM_THREADS alike (either one given is copied). */
std::string same_thread_counts() {
    const char *loom_threads = std::getenv("LOOM_NUM_THREADS");
    const char *halide_threads = std::getenv("HL_NUM_THREADS");
    if (loom_threads && !halide_threads) setenv("HL_NUM_THREADS", loom_threads, 1);
    if (halide_threads && !loom_threads) setenv("LOOM_NUM_THREADS", halide_threads, 1);
    const char *n = std::getenv("LOOM_NUM_THREADS");
    return n ? n : std::to_string(std::thread::hardware_concurrency()) + " (default)";
}

struct Row {
    std::string name, unit, note;
    double work = 0;
    /** Medians of the runs (the figures), and the fastest runs (less
     * sensitive to other work on a loaded machine). */
    double loom_ms = 0, halide_ms = 0, loom_fastest_ms = 0, halide_fastest_ms = 0;
    double loom_compile_ms = 0, halide_compile_ms = 0;
    bool loom_ok = false, halide_ok = false, agree = false;
    double max_difference = 0;
    /** One per --auto scheduler. */
    std::vector<AutoCell> autos;

    /** Loom/Halide (0 where Halide did not run or its output differs). */
    double run_ratio() const { return agree ? loom_ms / halide_ms : 0; }
    double fastest_ratio() const { return agree ? loom_fastest_ms / halide_fastest_ms : 0; }
    double compile_ratio() const { return agree ? loom_compile_ms / halide_compile_ms : 0; }
    double throughput(double ms) const {
        return ms > 0 ? work / (ms * 1e-3) / (unit == "GFLOP/s" ? 1e9 : 1e6) : 0;
    }
};

/** The app's hand-schedule row, with one cell per auto-scheduler in `autos`
 * (timed together with the hand schedules). */
Row bench_app(const SideApp &loom_app, const SideApp *halide_app, int runs,
              const std::vector<std::string> &autos, const Side &loom_build,
              const Side *halide_build) {
    Row row;
    row.name = loom_app.name;
    row.unit = loom_app.unit;
    row.work = loom_app.work;
    SidePipeline loom_pipe, halide_pipe;
    try {
        loom_pipe = loom_app.make();
        row.loom_compile_ms = median_compile_ms(loom_pipe);
        loom_pipe.run();
        row.loom_ok = true;
    } catch (const std::exception &e) {
        row.note = std::string("loom failed: ") + e.what();
    }
    if (halide_app) {
        try {
            halide_pipe = halide_app->make();
            row.halide_compile_ms = median_compile_ms(halide_pipe);
            halide_pipe.run();
            row.halide_ok = true;
        } catch (const std::exception &e) {
            row.note = std::string("halide failed: ") + e.what();
        }
    }
    if (row.loom_ok && row.halide_ok) {
        auto [difference, within] = compare(loom_pipe.output(), halide_pipe.output(),
                                            loom_pipe.tolerance, loom_pipe.tolerance < 1);
        row.max_difference = difference;
        row.agree = within;
        if (!within) row.note = "outputs differ by up to " + std::to_string(difference);
    }
    std::vector<AutoCandidate> candidates =
        prepare_autos(autos, {&loom_build, &loom_app, row.loom_ok ? &loom_pipe : nullptr},
                      {halide_build, halide_app, row.halide_ok ? &halide_pipe : nullptr});
    if (!row.loom_ok && candidates.empty()) return row;
    // Hand Halide runs count only where they agree with Loom's, except as
    // the measure of Halide's auto-schedules.
    std::vector<std::function<void()>> timed = {
        row.loom_ok ? loom_pipe.run : nullptr,
        row.agree || (row.halide_ok && !autos.empty()) ? halide_pipe.run : nullptr};
    for (const AutoCandidate &c : candidates)
        timed.push_back(c.cell.ok() ? c.pipeline.run : nullptr);
    std::vector<Times> times = alternating_times(runs, timed);
    row.loom_ms = times[0].median;
    row.loom_fastest_ms = times[0].fastest;
    row.halide_ms = times[1].median;
    row.halide_fastest_ms = times[1].fastest;
    for (size_t i = 0; i < candidates.size(); i++) {
        AutoCell cell = candidates[i].cell;
        const Times &hand = times[candidates[i].halide ? 1 : 0];
        cell.hand_ms = hand.median;
        cell.hand_fastest_ms = hand.fastest;
        cell.run_ms = times[2 + i].median;
        cell.fastest_ms = times[2 + i].fastest;
        row.autos.push_back(cell);
    }
    return row;
}

/** The hand rows, and the auto cells' columns after them with --auto. */
bool write_csv(const std::string &path, const std::vector<Row> &rows,
               const std::vector<std::string> &autos) {
    std::ofstream csv(path);
    if (!csv) return false;
    csv << "app,loom_ms,halide_ms,run_ratio,loom_fastest_ms,halide_fastest_ms,fastest_ratio,"
           "loom_compile_ms,halide_compile_ms,compile_ratio,loom_throughput,halide_throughput,"
           "unit,outputs_agree,note"
        << (autos.empty() ? "" : auto_csv_header(autos)) << '\n';
    for (const Row &r : rows) {
        std::string note = r.note;
        std::replace(note.begin(), note.end(), ',', ';');
        std::replace(note.begin(), note.end(), '\n', ' ');
        csv << r.name << ',' << r.loom_ms << ',' << r.halide_ms << ',' << r.run_ratio() << ','
            << r.loom_fastest_ms << ',' << r.halide_fastest_ms << ',' << r.fastest_ratio() << ','
            << r.loom_compile_ms << ',' << r.halide_compile_ms << ',' << r.compile_ratio() << ','
            << r.throughput(r.loom_ms) << ',' << r.throughput(r.halide_ms) << ',' << r.unit << ','
            << (r.agree ? "yes" : "no") << ',' << note
            << (autos.empty() ? "" : auto_csv_fields(r.autos)) << '\n';
    }
    return bool(csv);
}

} // namespace

int main(int argc, char **argv) {
    Options options;
    try {
        options = parse_options(argc, argv);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "perf_apps: %s\n", e.what());
        return 2;
    }
    measure_cpu_time(options.cpu_time);
    std::string threads = same_thread_counts();
    std::printf("cpu: %s\nvector features: %s\nthreads: %s, runs: %d, times: %s\n",
                loom_apps::cpu_model().c_str(), vector_features().c_str(), threads.c_str(),
                options.runs, measuring_cpu_time() ? "process CPU time" : "wall-clock");
    Side loom_build = loom_side(), halide_build;
    std::printf("loom target: %s\n", loom_build.target.c_str());
#ifdef LOOM_WITH_HALIDE
    halide_build = halide_side();
    std::printf("halide target: %s\n", halide_build.target.c_str());
#else
    std::printf("halide: not built (configure with -DLOOM_WITH_HALIDE=ON)\n");
#endif
    if (!options.autos.empty()) {
        // Without Halide only Loom's own auto-scheduler can run.
        std::vector<std::string> offered;
        for (const std::string &s : options.autos) {
            bool found = false;
            for (const Side *side : {&loom_build, &halide_build})
                found |=
                    std::count(side->autoschedulers.begin(), side->autoschedulers.end(), s) > 0;
            if (found)
                offered.push_back(s);
            else
                std::printf("auto-scheduler %s: not in this build, skipped\n", s.c_str());
        }
        options.autos = offered;
        std::printf("auto-schedulers:");
        for (const std::string &s : options.autos) std::printf(" %s", s.c_str());
        std::printf(" (hand/auto: the side's hand-schedule time over the auto-schedule's; choose "
                    "times are wall-clock)\n");
    }

    std::printf("\n%-25s %8s %8s %6s %6s | %8s %8s %6s | %8s %8s %-7s %s\n", "", "loom", "halide",
                "", "fast", "loom", "halide", "", "loom", "halide", "", "");
    std::printf("%-25s %8s %8s %6s %6s | %8s %8s %6s | %8s %8s %-7s %s\n", "app", "run ms",
                "run ms", "ratio", "ratio", "jit ms", "jit ms", "ratio", "rate", "rate", "unit",
                "note");
    std::vector<Row> rows;
    for (const SideApp &app : loom_build.apps) {
        if (!options.only.empty() && !options.only.count(app.name)) continue;
        const SideApp *halide_app = nullptr;
        for (const SideApp &h : halide_build.apps)
            if (h.name == app.name) halide_app = &h;
        Row r = bench_app(app, halide_app, options.runs, options.autos, loom_build, &halide_build);
        std::printf("%-25s %8.2f %8.2f %6.2f %6.2f | %8.1f %8.1f %6.2f | %8.1f %8.1f %-7s %s\n",
                    r.name.c_str(), r.loom_ms, r.halide_ms, r.run_ratio(), r.fastest_ratio(),
                    r.loom_compile_ms, r.halide_compile_ms, r.compile_ratio(),
                    r.throughput(r.loom_ms), r.throughput(r.halide_ms), r.unit.c_str(),
                    r.note.c_str());
        if (!options.autos.empty()) print_auto_cells(r.autos);
        std::fflush(stdout);
        rows.push_back(r);
    }

    std::vector<double> run_ratios, fastest_ratios, compile_ratios;
    std::vector<BarRow> bars;
    bool ok = true;
    for (const Row &r : rows) {
        ok = ok && r.loom_ok && (r.agree || !r.halide_ok);
        if (!r.agree) continue;
        run_ratios.push_back(r.run_ratio());
        fastest_ratios.push_back(r.fastest_ratio());
        compile_ratios.push_back(r.compile_ratio());
        bars.push_back({r.name, r.run_ratio(), r.compile_ratio()});
    }
    if (!run_ratios.empty()) {
        double run_geomean = geomean(run_ratios), compile_geomean = geomean(compile_ratios);
        std::printf("%-25s %8s %8s %6.2f %6.2f | %8s %8s %6.2f |   (loom/halide, %zu apps)\n",
                    "geomean", "", "", run_geomean, geomean(fastest_ratios), "", "",
                    compile_geomean, run_ratios.size());
        bars.push_back({"geomean", run_geomean, compile_geomean});
    }
    if (!options.autos.empty()) {
        std::vector<std::vector<AutoCell>> cells;
        for (const Row &r : rows) cells.push_back(r.autos);
        print_auto_summary(options.autos, cells);
    }

    std::error_code made;
    std::filesystem::create_directories(options.out_folder, made); // --out may name a new folder
    std::string csv = options.out_folder + "/apps_bench.csv";
    if (!write_csv(csv, rows, options.autos)) {
        std::printf("\ncannot write %s\n", csv.c_str());
        return 1;
    }
    std::printf("\nwrote %s", csv.c_str());
    if (!bars.empty()) {
        std::string png = options.out_folder + "/apps_bench.png";
        try {
            write_bar_chart(png, "loom / halide 14 (lower is faster for loom)", "run time ratio",
                            "jit compile time ratio", bars);
            std::printf(" and %s", png.c_str());
        } catch (const std::exception &e) {
            std::printf(" (chart: %s)", e.what());
        }
    }
    std::printf("\n");
    return ok ? 0 : 1;
}
