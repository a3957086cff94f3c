#ifndef LOOM_APP_DRIVER_H
#define LOOM_APP_DRIVER_H

// The main() that the apps' drivers share once they have their inputs and
// an output buffer: run the AOT library and check it against the
// reference, write the PNG, then the --auto check (auto-scheduler and a
// short tuning run) and the --bench rows (AOT against the JIT of the same
// generator in alternating calls, then the automatic schedules). What
// differs from app to app comes in as lambdas.

#include <cstdio>
#include <functional>
#include <string>

#include "Loom.h"
#include "app_autoschedule.h"
#include "app_bench.h"

namespace loom_apps {

/** One app's parts for run_app_driver. G is its generator class. */
template <typename G> struct AppDriver {
    /** The library's name ("hist"): messages say "hist failed ..." and
     * "hist_app: ...". */
    std::string name;
    /** The size printed after the name: "<name>_app: <size> ok" and
     * "<name> <size><bench_note>: AOT ...". */
    std::string size, bench_note;
    /** Calls the AOT library on the inputs into the output; its error code. */
    std::function<int()> run;
    /** Mismatches of the AOT output against the reference (printing the
     * first ones). */
    std::function<int()> check;
    /** Writes the output as a PNG (image operations only). */
    std::function<void(const std::string &)> save_png;
    /** Binds the generator's Inputs to the driver's inputs. */
    std::function<void(G &)> setup;
    /** Where the JIT and the automatic schedules write, and its mismatches
     * against the right result. */
    loom::Realization other;
    std::function<int()> check_other;
    /** Floating-point operations of one run (prints GFLOP/s when > 0). */
    double flops = 0;
    /** Calls timed per variant under --bench. */
    int bench_runs = 20;
    /** Whether --auto and --bench also tune (false for pipelines whose
     * unscheduled form is too large to compile). */
    bool tune = true;
};

/** The driver's main() from its parsed command line: 0 when every check
 * passed, else 1. */
template <typename G> int run_app_driver(int argc, char **argv, const AppDriver<G> &app) {
    const char *name = app.name.c_str();
    AppArgs args = parse_app_args(argc, argv);
    if (int err = app.run()) {
        std::printf("%s failed with error %d\n", name, err);
        return 1;
    }
    if (int failures = app.check()) {
        std::printf("%s_app: %d mismatches\n", name, failures);
        return 1;
    }
    if (!args.out_png.empty() && app.save_png) app.save_png(args.out_png);
    std::printf("%s_app: %s ok\n", name, app.size.c_str());

    const double tune_seconds = app.tune ? app_tune_seconds() : 0;
    auto check_other = [&] { return app.check_other() == 0; };
    if (has_flag(argc, argv, "--auto")) {
        // The auto-scheduler's and a short tuning run's schedules, checked.
        if (!bench_automatic<G>(name, app.setup, app.other, check_other, 0, tune_seconds, 3).ok)
            return 1;
    }
    if (args.bench) {
        print_machine(loom::get_host_target().to_string());
        G g;
        loom::Pipeline p = g.build_pipeline();
        app.setup(g);
        p.compile_jit();
        auto [aot_ms, jit_ms] = alternating_median_ms(
            app.bench_runs, [&] { app.run(); }, [&] { p.realize(app.other); });
        if (!check_other()) {
            std::printf("%s_app: the JIT output differs\n", name);
            return 1;
        }
        std::string gflops;
        if (app.flops > 0) {
            char text[64];
            std::snprintf(text, sizeof text, " (%.1f GFLOP/s)", app.flops / aot_ms * 1e-6);
            gflops = text;
        }
        std::printf("%s %s%s: AOT %.3f ms%s, JIT %.3f ms, AOT/JIT %.2f\n", name, app.size.c_str(),
                    app.bench_note.c_str(), aot_ms, gflops.c_str(), jit_ms, aot_ms / jit_ms);
        if (!bench_automatic<G>(name, app.setup, app.other, check_other, jit_ms, tune_seconds,
                                app.bench_runs)
                 .ok)
            return 1;
    }
    return 0;
}

/** "WxH" or "WxHxC" of a buffer, for AppDriver::size. */
template <typename T> std::string size_text(const loom::Buffer<T> &b, bool channels) {
    std::string s = std::to_string(b.width()) + "x" + std::to_string(b.height());
    if (channels) s += "x" + std::to_string(b.channels());
    return s;
}

} // namespace loom_apps

#endif
