#ifndef LOOM_LOWER_LOWER_TARGET_QUERIES_H
#define LOOM_LOWER_LOWER_TARGET_QUERIES_H

// target_arch_is, target_os_is, target_has_feature, target_bits and
// target_natural_vector_size (loom/IROperator.h) become constants of the
// target being compiled for. Runs once every Func is in the loop nest
// (after inlining), before bounds inference, so that bounds and the
// simplifier see the constants.

#include "ir/IR.h"
#include "loom/Target.h"

namespace loom {
namespace Internal {

Stmt lower_target_queries(const Stmt &s, const Target &target);

/** The lanes of one native vector register of `target` for elements of t. */
int natural_vector_size(const Target &target, Type t);

} // namespace Internal
} // namespace loom

#endif
