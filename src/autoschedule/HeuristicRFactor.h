#ifndef LOOM_AUTOSCHEDULE_HEURISTIC_RFACTOR_H
#define LOOM_AUTOSCHEDULE_HEURISTIC_RFACTOR_H

// The heuristic auto-scheduler's rule for reductions whose update has no
// pure loop to run in parallel (a histogram, a sum to one value, a column
// sum over a few columns): rfactor() them into partial results per chunk
// of the outer RVar, computed in parallel, and a vectorized merge.

#include <set>
#include <string>
#include <vector>

#include "loom/Function.h"

namespace loom {
namespace Internal {

struct RFactorChoice {
    int parallelism = 1;
    int vector_width = 1; // lanes of the Func's type
    /** The Func's extents where known (JIT sizes or estimates), else -1. */
    std::vector<int> extents;
    /** Func names already in the pipeline (the intermediate's name must be new). */
    std::set<std::string> *taken = nullptr;
};

/** If update `update` of f is an associative reduction over enough
 * iterations, factor it (split the outer RVar into chunks, rfactor on the
 * chunks), compute the intermediate at root in parallel over the chunks
 * and vectorized where its left-hand side allows, and vectorize the merge
 * over f's first dimension. False (f unchanged) when the rule does not
 * apply or rfactor() refuses. */
bool rfactor_for_parallelism(Function f, int update, const RFactorChoice &c);

} // namespace Internal
} // namespace loom

#endif
