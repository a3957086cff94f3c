#ifndef LOOM_LOWER_COMPUTE_LEVELS_H
#define LOOM_LOWER_COMPUTE_LEVELS_H

// Resolves a Func's compute and store LoopLevels to loops of the partly
// scheduled pipeline (its consumers already placed), and rejects schedules
// that cannot work: a level in a Func that does not use it, a loop that does
// not enclose every use, storage inside the computation. The errors name the
// Func, the loop and the legal choices.

#include <string>
#include <vector>

#include "lower/LowerUtil.h"

namespace loom {
namespace Internal {

/** The loops f's production and storage go into; "" means root. `used` is
 * false when no use of f is left once inlined Funcs are substituted (f read
 * only in an argument that an inlined Func ignores): f is not computed. */
struct Placement {
    std::string compute_loop, store_loop;
    bool used = true;
};

Placement resolve_placement(const Stmt &s, const Function &f, const std::vector<Function> &outputs);

/** Does the loop named `loop` belong to Func `func`, stage `stage` (-1: any),
 * and run over variable `var` (its full name or its last component)? */
bool loop_matches(const std::string &loop, const std::string &func, const std::string &var,
                  int stage);

/** "g.s1.x.xo" -> "g.update(0).xo" style name a user recognises. */
std::string user_loop_name(const std::string &loop);

} // namespace Internal
} // namespace loom

#endif
