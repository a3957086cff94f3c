#ifndef LOOM_CODEGEN_LOAD_INDEX_FORMS_H
#define LOOM_CODEGEN_LOAD_INDEX_FORMS_H

// Vector load indices that are not a Ramp but still read few, mostly
// consecutive elements, so that a code generator can load them without a
// gather. Both forms reach code generation with loop-invariant terms
// (broadcasts) that storage flattening and the simplifier add around them,
// and with parts that CSE named as vector lets.
//
// - Repeated lanes: an upsampling access f(x / k) with x vectorized is
//   Ramp(base, 1, lanes) / k. Lane j reads element (base + j) / k + offset:
//   about lanes / k + 1 consecutive elements, each repeated.
// - Clamped ramps: a boundary condition (repeat_edge) in a loop that
//   partitioning left unsplit (the edges) is clamp(Ramp(base, 1, lanes),
//   lo, hi). Lanes inside [lo, hi] are consecutive; a vector wholly past
//   one end reads one element.

#include <functional>
#include <optional>

#include "ir/IR.h"

namespace loom {
namespace Internal {

/** Maps a vector Variable to the value of the let that binds it (or returns
 * the Variable itself), so that the parts of an index CSE named are seen
 * through. */
using ResolveVectorLet = std::function<Expr(const Expr &)>;

/** Lane j of the index is (base + j) / factor + offset (Euclidean division,
 * factor > 0), for j in [0, lanes). base and offset are scalars of the
 * index's element type; offset is never undefined. */
struct RepeatedLanesIndex {
    Expr base;
    int factor = 0;
    Expr offset;
    int lanes = 0;
};

/** Factors this many and fewer are recognized (a wider repeat reads so
 * few elements that the gather it replaces costs little). */
constexpr int max_repeated_lanes_factor = 4;

/** index as a RepeatedLanesIndex with factor 2..max_repeated_lanes_factor,
 * or nullopt. */
std::optional<RepeatedLanesIndex> match_repeated_lanes_index(const Expr &index,
                                                             const ResolveVectorLet &resolve);

/** Lane j of the index is clamp(base + j) + offset, where clamp(v) is
 * max(min(v, hi), lo), or min(max(v, lo), hi) when `min_inside` is false.
 * base, lo, hi and offset are scalars of the index's element type; offset
 * is never undefined. */
struct ClampedRampIndex {
    Expr base, lo, hi;
    bool min_inside = true;
    Expr offset;
    int lanes = 0;

    /** clamp(v) + offset for a scalar v: the index of one lane. */
    Expr lane_index(const Expr &v) const;
};

/** index as a ClampedRampIndex, or nullopt. */
std::optional<ClampedRampIndex> match_clamped_ramp_index(const Expr &index,
                                                         const ResolveVectorLet &resolve);

} // namespace Internal
} // namespace loom

#endif
