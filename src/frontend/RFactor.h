#ifndef LOOM_FRONTEND_RFACTOR_H
#define LOOM_FRONTEND_RFACTOR_H

// rfactor() as schedules-as-values need it: with the intermediate's name
// given (a schedule applied to another copy of an algorithm makes the same
// intermediate), and undone (an update put back as it was defined).

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "loom/Func.h"

namespace loom {
namespace Internal {

/** One rfactor() call: the update it replaced (whose schedule holds the
 * RVar splits it used), the loops it kept as pure Vars of the
 * intermediate, and the intermediate's name. */
struct RFactorRecord {
    Definition original;
    std::vector<std::pair<std::string, std::string>> preserved; // RVar loop -> new pure Var
    std::string intermediate;
};

/** The rfactor() that made this update (a merge stage), or null
 * (Definition::rfactored). */
std::shared_ptr<const RFactorRecord> rfactor_record(const Definition &update);

/** Stage::rfactor of update stage_index - 1 of f, the intermediate named
 * `intermediate`. Records what it replaced on the merge stage. */
Func rfactor_stage(Function f, int stage_index, const std::vector<std::pair<RVar, Var>> &preserved,
                   const std::string &intermediate);

/** Put back every update of f that rfactor() replaced, as it was before. */
void undo_rfactors(Function f);

} // namespace Internal
} // namespace loom

#endif
