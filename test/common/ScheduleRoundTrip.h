// Checks that a pipeline's schedule survives being taken as a value,
// printed as C++ and read back (PipelineSchedule::to_cpp/apply_source), and
// saved as JSON and loaded (to_json/from_json): each way, starting from the
// default schedule, must give back exactly the same schedule.
#pragma once

#include <map>
#include <string>

#include "Loom.h"

namespace loom_test {

/** The default schedule of every Func the schedule s names. */
inline loom::PipelineSchedule default_schedule_like(const loom::PipelineSchedule &s) {
    using namespace loom::Internal;
    loom::PipelineSchedule d = s;
    for (auto &e : d.funcs()) {
        e.placement = FuncSchedule();
        for (size_t i = 0; i < e.stages.size(); i++) {
            std::map<std::string, bool> rvar;
            for (const Dim &dim : e.stages[i].dims) {
                rvar[dim.var.substr(0, dim.var.find('.'))] = dim.is_rvar;
                rvar[dim.var] = dim.is_rvar;
            }
            StageSchedule st;
            for (const std::string &n : e.initial_loops[i]) {
                // An rfactor() intermediate's RVars have qualified names.
                bool is_rvar = rvar.count(n) ? rvar[n] : rvar[n.substr(0, n.find('.'))];
                st.dims.push_back(Dim{n, loom::ForType::Serial, loom::DeviceAPI::None, is_rvar});
            }
            e.stages[i] = st;
            e.atomic[i] = false;
        }
    }
    return d;
}

/** "" when both round trips give the schedule back; else what went wrong.
 * Leaves the pipeline with its own schedule. `json` is false for schedules
 * that a file cannot hold (Exprs other than constants and Params). */
inline std::string schedule_round_trip_problem(const loom::Pipeline &p, bool json = true) {
    using loom::PipelineSchedule;
    PipelineSchedule s = PipelineSchedule::of(p);
    PipelineSchedule defaults = default_schedule_like(s);
    std::string source = s.to_cpp();
    std::string problem;
    auto check = [&](const std::string &how, auto apply) {
        defaults.apply(p);
        try {
            apply();
            PipelineSchedule got = PipelineSchedule::of(p);
            if (got != s)
                problem +=
                    how + " gave another schedule:\n" + got.to_cpp() + "instead of\n" + source;
            else if (got.hash() != s.hash())
                problem += how + ": equal schedules with different hashes\n";
        } catch (const std::exception &e) {
            problem += how + " failed: " + e.what() + "\nsource:\n" + source;
        }
    };
    check("C++ source", [&] { PipelineSchedule::apply_source(p, source); });
    if (json) check("JSON", [&] { PipelineSchedule::from_json(s.to_json()).apply(p); });
    s.apply(p);
    return problem;
}

} // namespace loom_test
