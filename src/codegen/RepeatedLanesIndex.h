#ifndef LOOM_CODEGEN_REPEATED_LANES_INDEX_H
#define LOOM_CODEGEN_REPEATED_LANES_INDEX_H

// Vector indices that repeat each element `factor` times: an upsampling
// access f(x / k) with x vectorized reaches code generation as
// Ramp(base, 1, lanes) / k, plus loop-invariant terms (broadcasts) that
// storage flattening and the simplifier add around it. Lane j reads
// element (base + j) / k + offset, so the lanes read only
// about lanes / k + 1 consecutive elements: a code generator loads those
// densely and repeats each one, instead of gathering lane by lane.

#include <functional>
#include <optional>

#include "ir/IR.h"

namespace loom {
namespace Internal {

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
 * or nullopt. `resolve` maps a vector Variable to the value of the let
 * that binds it (or returns the Variable itself), so that the parts of an
 * index CSE named are seen through. */
std::optional<RepeatedLanesIndex>
match_repeated_lanes_index(const Expr &index, const std::function<Expr(const Expr &)> &resolve);

} // namespace Internal
} // namespace loom

#endif
