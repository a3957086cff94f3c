#ifndef LOOM_APP_SCHEDULE_H
#define LOOM_APP_SCHEDULE_H

// Schedule steps that the apps' hand schedules share.

#ifndef LOOM_APP_HALIDE_SIDE
#include "Loom.h"
#endif

namespace loom_apps {

/** f's pure loops with its `channels` channels (c, bounded to them)
 * innermost and unrolled, x vectorized by vector_width, y outside. */
inline void channels_unrolled(loom::Func f, const loom::Var &x, const loom::Var &y,
                              const loom::Var &c, int channels, int vector_width) {
    f.bound(c, 0, channels).reorder(c, x, y).vectorize(x, vector_width).unroll(c);
}

/** An output of `channels` channels in strips of rows_per_task rows (yo,
 * one parallel task each), channels unrolled inside, x vectorized. */
inline void strips_of_rows(loom::Func f, const loom::Var &x, const loom::Var &y, const loom::Var &c,
                           const loom::Var &yo, const loom::Var &yi, int channels,
                           int rows_per_task, int vector_width) {
    f.bound(c, 0, channels)
        .split(y, yo, yi, rows_per_task)
        .reorder(c, x, yi, yo)
        .parallel(yo)
        .vectorize(x, vector_width)
        .unroll(c);
}

} // namespace loom_apps

#endif
