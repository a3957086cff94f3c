#ifndef LOOM_LOWER_REGIONS_TOUCHED_H
#define LOOM_LOWER_REGIONS_TOUCHED_H

// The regions of Funcs and images a loop nest reads or writes, for bounds
// inference. Like boxes_required/boxes_provided (analysis/Bounds.h), but it
// knows the guards that GuardWithIf splits put around stores: inside
// `if (likely(v <= bound))` the variable v stays within bound, so a guarded
// tail does not count the points it skips.

#include <map>
#include <string>

#include "analysis/Interval.h"

namespace loom {
namespace Internal {

/** Regions read (Call::Loom and Call::Image), keyed by name. */
std::map<std::string, Box> regions_read(const Stmt &s);
/** Regions written (Provide), keyed by Func name. */
std::map<std::string, Box> regions_written(const Stmt &s);

} // namespace Internal
} // namespace loom

#endif
