#ifndef LOOM_AUTOSCHEDULE_REGION_ESTIMATE_H
#define LOOM_AUTOSCHEDULE_REGION_ESTIMATE_H

// The sizes of every Func of a pipeline, from its outputs' sizes. The
// heuristic auto-scheduler chooses strip and small dimensions by extent;
// an output's sizes alone say nothing of a stack of 4-D differences whose
// last two dimensions are a 7x7 window, or of a two-channel intermediate
// read by a one-channel output.

#include <map>
#include <string>
#include <vector>

#include "autoschedule/FuncAnalysis.h"

namespace loom {
namespace Internal {

/** The region of a Func computed for the outputs: per dimension its first
 * coordinate and its extent, extent -1 (and min 0) where unknown. */
struct EstimatedRegion {
    std::vector<int> min, extent;
};

/** The region of every Func, by interval arithmetic on the calls
 * (consumers first, outputs placed at 0 with the given sizes, reduction
 * domains with constant bounds walked whole); unknown where a dimension
 * depends on something unknown here (an input's size, a Param, a
 * data-dependent index). A Func no output reaches gets no entry. */
std::map<std::string, EstimatedRegion>
estimate_regions(const PipelineInfo &info,
                 const std::map<std::string, std::vector<int>> &output_sizes);

} // namespace Internal
} // namespace loom

#endif
