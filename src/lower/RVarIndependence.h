#ifndef LOOM_LOWER_RVAR_INDEPENDENCE_H
#define LOOM_LOWER_RVAR_INDEPENDENCE_H

#include <string>

#include "loom/Function.h"

namespace loom {
namespace Internal {

/** Does every iteration of `rvar` in update definition `def` of `func` touch
 * only elements no other value of `rvar` touches? True when some coordinate
 * of the left-hand side is c * rvar + e with c a nonzero constant and e free
 * of every RVar (so equal coordinates mean equal rvar: the pure Vars sit
 * naked in the left-hand side), and every read of the Func itself is at the
 * left-hand side's coordinates. Iterations of such an RVar never conflict, so
 * its loop may run in parallel and be reordered with the others. */
bool rvar_is_independent(const Function &func, const Definition &def, const std::string &rvar);

} // namespace Internal
} // namespace loom

#endif
