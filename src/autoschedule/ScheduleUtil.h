#ifndef LOOM_AUTOSCHEDULE_SCHEDULE_UTIL_H
#define LOOM_AUTOSCHEDULE_SCHEDULE_UTIL_H

// Helpers shared by the schedule value, its printers and readers, and the
// auto-schedulers.

#include <map>
#include <string>
#include <vector>

#include "ir/IR.h"
#include "loom/Function.h"
#include "loom/Parameter.h"

namespace loom {
class Pipeline;
namespace Internal {

/** Every Func the pipeline computes, producers first, outputs last. */
std::vector<Function> pipeline_functions(const Pipeline &pipeline);

/** The scalar Params the definitions of these Funcs read, by name. */
std::map<std::string, Parameter> scalar_params_of(const std::vector<Function> &funcs);

/** Every parameter (buffers and scalars) the definitions of these Funcs
 * read, by name. */
/** Give f the schedule it had when defined (inlined, loops unsplit). */
void reset_schedule(Function f);

/** The concrete Buffers the Funcs' definitions read, by name. */
std::map<std::string, Buffer<>> buffers_read_by(const std::vector<Function> &funcs);
std::map<std::string, Parameter> all_params_of(const std::vector<Function> &funcs);

/** e with every Param variable bound to the Param of the same name in
 * params (schedules applied to another copy of an algorithm must use that
 * copy's Params). */
Expr rebind_params(const Expr &e, const std::map<std::string, Parameter> &params);

/** The names of each enum's values, indexed by value (as spelled in C++
 * after "TailStrategy::" and so on): shared by the C++ and JSON forms. */
const std::vector<std::string> &tail_strategy_names();
const std::vector<std::string> &memory_type_names();
const std::vector<std::string> &device_api_names();
const std::vector<std::string> &for_type_names();

/** The last part of a qualified loop name ("x.xo" -> "xo"). */
std::string short_loop_name(const std::string &qualified);
/** The first part: the Var or RVar a loop was made from ("x.xo" -> "x"). */
std::string root_loop_name(const std::string &qualified);

/** The stage's loops before any scheduling: pure Vars and RVars. */
std::vector<std::string> initial_loops(const Definition &def, bool is_update,
                                       const std::vector<std::string> &pure_args);

/** An update's schedule as defined: its loops serial, in the initial order. */
StageSchedule initial_schedule(const Definition &update, const std::vector<std::string> &pure_args);

} // namespace Internal
} // namespace loom

#endif
