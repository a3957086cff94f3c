#ifndef LOOM_LOWER_SLIDING_WINDOW_H
#define LOOM_LOWER_SLIDING_WINDOW_H

// Sliding window: when a Func is stored outside a serial loop but computed
// inside it, and the region each iteration needs moves monotonically forward
// in one dimension, every iteration after the first computes only the part
// that the previous iteration did not (its min becomes the previous max + 1).
// Runs right after bounds inference, on the "f.s<k>.<var>.min/max" lets that
// bounds inference places above each produce.

#include "lower/LowerUtil.h"

namespace loom {
namespace Internal {

Stmt sliding_window(const Stmt &s, const Environment &env);

} // namespace Internal
} // namespace loom

#endif
