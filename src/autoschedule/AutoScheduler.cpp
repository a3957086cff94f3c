// The auto-scheduler registry: "Loom" (built in) and those added with
// Pipeline::add_autoscheduler, run by name with timing and results.

#include "autoschedule/AutoScheduler.h"

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>

#include "autoschedule/HeuristicScheduler.h"
#include "ir/Error.h"
#include "ir/IROperator.h"
#include "loom/Func.h"
#include "loom/Pipeline.h"

namespace loom {

std::string AutoschedulerParams::to_string() const {
    std::string s = name;
    for (const auto &[k, v] : extra) s += " " + k + "=" + v;
    return s;
}

std::string MachineParams::to_string() const {
    std::ostringstream os;
    os << parallelism << "," << last_level_cache_size << "," << balance;
    return os.str();
}

namespace Internal {

namespace {

struct Registry {
    std::mutex lock;
    std::map<std::string, AutoSchedulerFn> fns;
    std::string default_name = "Loom";
};

Registry &registry() {
    static Registry r;
    return r;
}

void run_loom(const Pipeline &p, const Target &t, const AutoschedulerParams &params,
              const std::vector<std::vector<int>> &sizes, AutoSchedulerResults *results) {
    HeuristicOptions opts = heuristic_options(t, params.extra);
    results->user_scheduled = heuristic_schedule(p, opts, sizes);
}

} // namespace

void register_autoscheduler(const std::string &name, const AutoSchedulerFn &fn) {
    if (name.empty() || name == "Loom" || name == "none")
        user_error("add_autoscheduler: the name " << (name.empty() ? "\"\"" : name)
                                                  << " is taken; choose another name");
    if (!fn) user_error("add_autoscheduler(" << name << ") was given an empty function");
    Registry &r = registry();
    std::lock_guard<std::mutex> g(r.lock);
    r.fns[name] = fn;
}

void set_default_autoscheduler(const std::string &name) {
    Registry &r = registry();
    std::lock_guard<std::mutex> g(r.lock);
    r.default_name = name;
}

std::string default_autoscheduler() {
    Registry &r = registry();
    std::lock_guard<std::mutex> g(r.lock);
    return r.default_name;
}

std::vector<std::vector<int>> output_estimates(const Pipeline &pipeline) {
    std::vector<std::vector<int>> sizes;
    for (const Func &f : pipeline.outputs()) {
        const Function &fn = f.function();
        std::vector<int> s;
        for (const std::string &a : fn.args()) {
            int extent = -1;
            for (const Bound &b : fn.schedule().estimates)
                if (b.var == a && b.extent.defined())
                    if (auto c = as_const_int(b.extent)) extent = int(*c);
            if (extent <= 0) return {};
            s.push_back(extent);
        }
        sizes.push_back(s);
    }
    return sizes;
}

AutoSchedulerResults run_autoscheduler(const Pipeline &pipeline, const Target &target,
                                       const AutoschedulerParams &params,
                                       const std::vector<std::vector<int>> &output_sizes) {
    std::string name = params.name.empty() ? default_autoscheduler() : params.name;
    AutoSchedulerFn custom;
    if (name == "none") {
        // Built in: leave the pipeline as schedule() left it (the autotuner's
        // start when it should search from scratch).
        custom = [](const Pipeline &, const Target &, const AutoschedulerParams &,
                    AutoSchedulerResults *) {};
    } else if (name != "Loom") {
        Registry &r = registry();
        std::lock_guard<std::mutex> g(r.lock);
        auto it = r.fns.find(name);
        if (it == r.fns.end()) {
            std::string known = "Loom, none";
            for (const auto &kv : r.fns) known += ", " + kv.first;
            user_error("There is no auto-scheduler named "
                       << name << "; the known ones are " << known
                       << " (Halide's Mullapudi2016, Adams2019 and Li2018 are Halide plugins; "
                          "add others with Pipeline::add_autoscheduler)");
        }
        custom = it->second;
    }
    AutoSchedulerResults results;
    results.scheduler_name = name;
    results.autoscheduler_params = params;
    results.autoscheduler_params.name = name;
    results.target = target;
    results.output_sizes = output_sizes;
    auto t0 = std::chrono::steady_clock::now();
    if (custom)
        custom(pipeline, target, results.autoscheduler_params, &results);
    else
        run_loom(pipeline, target, results.autoscheduler_params, output_sizes, &results);
    results.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    results.schedule = PipelineSchedule::of(pipeline);
    if (results.schedule_source.empty()) results.schedule_source = results.schedule.to_cpp();
    const char *debug = std::getenv("LOOM_DEBUG");
    if (debug && std::atoi(debug) >= 1)
        std::cerr << "Auto-scheduler " << name << " chose, in " << results.seconds * 1000
                  << " ms:\n"
                  << results.schedule_source;
    return results;
}

} // namespace Internal
} // namespace loom
