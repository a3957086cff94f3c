#ifndef LOOM_LOWER_WRAP_CALLS_H
#define LOOM_LOWER_WRAP_CALLS_H

// Func::in() and friends: calls to a wrapped Func or image become calls to
// its wrappers before a pipeline is walked.

#include <vector>

#include "loom/Function.h"

namespace loom {
namespace Internal {

/** Rewrite, in place, the definitions of every Func the outputs reach so that
 * each call of a Func or image that has a wrapper for the caller (Func::in,
 * clone_in, ImageParam::in) calls the wrapper instead. The rewrite follows
 * the wrappers made so far and is idempotent: a Func made to call a global
 * wrapper calls its own wrapper once one is made for it. Changed Funcs get a
 * new version (compiled pipelines recompile). Nothing to do, and no walk,
 * while the process has made no wrapper. */
void wrap_calls(const std::vector<Function> &outputs);

/** Remember that a wrapper exists somewhere (wrap_calls has work to do). */
void note_wrapper_made();

} // namespace Internal
} // namespace loom

#endif
