#ifndef LOOM_LOWER_SCHEDULE_FUNCTIONS_H
#define LOOM_LOWER_SCHEDULE_FUNCTIONS_H

// Builds the loop nests of the pipeline from the schedules: one nest per
// stage of every output and every non-inlined Func. A Func's production
// ("produce f" followed by "consume f" around the rest of the loop body) goes
// at the top of the body of its compute loop (or around everything, for
// root), and its Realize around the body of its store loop. Loops of stage s of f are named
// "f.s<s>.<var>"; their bounds are written in terms of the Variables
// "f.s<s>.<var>.min" and "f.s<s>.<var>.max" of the pure variables, which
// bounds inference defines. Realize bounds are "f.<var>.min_realized" and
// "f.<var>.extent_realized" (also bounds inference's).

#include <string>
#include <vector>

#include "lower/LowerUtil.h"

namespace loom {
namespace Internal {

Stmt schedule_functions(const std::vector<Function> &outputs, const std::vector<std::string> &order,
                        const Environment &env);

/** The loops and store of stage `stage` of f (0: the pure definition).
 * is_output: f writes into the caller's buffer, so update loops over pure
 * Vars guard their split tails instead of rounding up. `checks` (when given)
 * gets an assertion for each ShiftInwards split of an output that the
 * split's extent is at least its factor. */
Stmt build_stage_nest(const Function &f, int stage, bool is_output = true,
                      std::vector<Stmt> *checks = nullptr);

/** The name of the runtime error of a ShiftInwards split whose extent is
 * below its factor; bounds inference finds these checks by it. */
inline const char *split_too_small_error() {
    return "loom_error_split_too_small";
}

/** The name of the LetStmt around the guard of a split that
 * TailStrategy::Auto rounds up (an update's pure Var): its value is the
 * split's extent modulo its factor. Bounds inference drops the guard where
 * that is provably zero and keeps it otherwise (Loom rounds an update up
 * only when that computes no extra points). */
inline const char *auto_round_up_marker() {
    return "loom.auto_round_up";
}

/** The loops and store of every stage of f, wrapped in "produce f" (for
 * an output, after the checks of its ShiftInwards splits). With
 * `outermost_loops`, each stage's nest sits in a loop of extent 1 named
 * "<f>.s<k>.__outermost", where Funcs computed or stored at
 * Var::outermost() go. */
Stmt build_produce(const Function &f, bool is_output = true, bool outermost_loops = false);

/** The pure variables that stage `stage` of f loops over (all args for the
 * pure definition; for updates, the args that appear as a bare Var in their place). */
std::vector<std::string> stage_pure_vars(const Function &f, int stage);

} // namespace Internal
} // namespace loom

#endif
