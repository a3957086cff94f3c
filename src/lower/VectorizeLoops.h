#ifndef LOOM_LOWER_VECTORIZE_LOOPS_H
#define LOOM_LOWER_VECTORIZE_LOOPS_H

// Replaces every For of ForType::Vectorized (constant extent) by its body
// with the loop variable replaced by Ramp(min, 1, extent), widening every
// expression that depends on it. Lane-dependent ifs become predicated loads
// and stores; what cannot be widened (impure calls, lane-dependent loop
// bounds, asserts, stores of lane-varying values to one address) runs once
// per lane instead. Runs after unroll_loops, before simplification and CSE.

#include "ir/IR.h"

namespace loom {
namespace Internal {

Stmt vectorize_loops(const Stmt &s);

} // namespace Internal
} // namespace loom

#endif
