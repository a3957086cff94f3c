#ifndef LOOM_FRONTEND_FUNC_WRAPPERS_H
#define LOOM_FRONTEND_FUNC_WRAPPERS_H

// The wrapper registry behind Func::in, clone_in and ImageParam::in, for
// schedules as values (which make wrappers again by name).

#include <string>
#include <vector>

#include "loom/Function.h"

namespace loom {
namespace Internal {

/** The wrapper of owner for the callers of these names (for every other
 * caller when global), made, named and recorded if it does not exist yet:
 * Func::in, clone_in and ImageParam::in. Throws CompileError on misuse. */
Function get_wrapper(Function owner, const std::vector<std::string> &callers, bool global,
                     bool clone);

/** The wrapper that the callers of these names read instead of the Buffer
 * (Buffer::in), made and recorded in each caller if none of them has one. */
Function get_buffer_wrapper(const Buffer<> &buffer, const std::vector<Function> &callers);

/** The callers a wrapper was made for ("" for every other caller) and
 * whether it is a clone; empty when w wraps nothing. */
std::vector<std::string> wrapper_callers(const Function &w, bool *clone = nullptr);

} // namespace Internal
} // namespace loom

#endif
