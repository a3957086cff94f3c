#ifndef LOOM_ANALYSIS_ASSOCIATIVITY_H
#define LOOM_ANALYSIS_ASSOCIATIVITY_H

// Recognizes update definitions that combine the Func's old value with a
// new contribution through an associative, commutative operator, so that
// rfactor may split the reduction into partial results.

#include <string>
#include <vector>

#include "ir/IR.h"

namespace loom {
namespace Internal {

/** How an update combines old and new values. */
struct AssociativeOp {
    enum Kind { Add, Mul, Min, Max, And, Or, ArgMax, ArgMin };
    /** One kind per tuple element; ArgMax/ArgMin cover the whole tuple. */
    std::vector<Kind> kinds;
    /** The new contribution of each element (for ArgMax/ArgMin: the
     * selected values, the compared value last). */
    std::vector<Expr> operands;
    /** The neutral value of each element. */
    std::vector<Expr> identities;
    bool matched = false;
    std::string why_not; // when not matched: what was found instead
};

/** Match the values of an update of Func `func` whose left-hand side is
 * `args` (self-calls at exactly args are the old values). */
AssociativeOp find_associative_op(const std::string &func, const std::vector<Expr> &args,
                                  const std::vector<Expr> &values);

/** Combine old values (calls of the Func) with new ones through op. */
std::vector<Expr> combine(const AssociativeOp &op, const std::vector<Expr> &old_values,
                          const std::vector<Expr> &new_values);

} // namespace Internal
} // namespace loom

#endif
