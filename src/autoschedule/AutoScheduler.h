#ifndef LOOM_AUTOSCHEDULE_AUTO_SCHEDULER_H
#define LOOM_AUTOSCHEDULE_AUTO_SCHEDULER_H

// Running an auto-scheduler by name (the registry behind
// Pipeline::apply_autoscheduler and add_autoscheduler).

#include <string>
#include <vector>

#include "loom/AutoSchedule.h"

namespace loom {
namespace Internal {

/** Run the named auto-scheduler on the pipeline for outputs of these sizes
 * (one list per output Func). Throws CompileError for an unknown name. */
AutoSchedulerResults run_autoscheduler(const Pipeline &pipeline, const Target &target,
                                       const AutoschedulerParams &params,
                                       const std::vector<std::vector<int>> &output_sizes);

/** The outputs' sizes from their set_estimate(s), or empty when some
 * output dimension has no constant estimate. */
std::vector<std::vector<int>> output_estimates(const Pipeline &pipeline);

void register_autoscheduler(const std::string &name, const AutoSchedulerFn &fn);
void set_default_autoscheduler(const std::string &name);
std::string default_autoscheduler();

} // namespace Internal
} // namespace loom

#endif
