#ifndef LOOM_LOWER_REGIONS_TOUCHED_H
#define LOOM_LOWER_REGIONS_TOUCHED_H

// The regions of Funcs and images a loop nest reads or writes, for bounds
// inference. Like boxes_required/boxes_provided (analysis/Bounds.h), but it
// knows the guards that GuardWithIf splits put around stores: inside
// `if (likely(v <= bound))` the variable v stays within bound, so a guarded
// tail does not count the points it skips.

#include <functional>
#include <map>
#include <set>
#include <string>

#include "analysis/Interval.h"

namespace loom {
namespace Internal {

/** Narrows a search to some names, so that its cost does not grow with the
 * rest of the pipeline (bounds inference asks once per Func). */
struct RegionQuery {
    /** Record only these names (empty: all). */
    std::set<std::string> names;
    /** How many reads (or writes) of `names` the statement has, lets
     * included; the search stops after the last. -1: unknown. */
    int expected_touches = -1;
    /** False for a Func whose production touches none of `names`: it is
     * skipped. Unset: every production is searched. */
    std::function<bool(const std::string &)> production_touches;
    /** Values of lets around the statement (none may use another), which
     * the search substitutes like the statement's own lets. Unset: none. */
    const std::map<std::string, Expr> *outer_lets = nullptr;
};

/** Regions read (Call::Loom and Call::Image), keyed by name. */
std::map<std::string, Box> regions_read(const Stmt &s, const RegionQuery &query = {});
/** Regions written (Provide), keyed by Func name. */
std::map<std::string, Box> regions_written(const Stmt &s, const RegionQuery &query = {});

} // namespace Internal
} // namespace loom

#endif
