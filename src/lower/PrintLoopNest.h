#ifndef LOOM_LOWER_PRINT_LOOP_NEST_H
#define LOOM_LOWER_PRINT_LOOP_NEST_H

// The loop structure a schedule produces, without bounds or arithmetic:
//   produce f:
//     for y:
//       vectorized x.xi in [0, 7]:
//         f(...) = ...

#include <string>
#include <vector>

#include "loom/Function.h"

namespace loom {
namespace Internal {

std::string print_loop_nest(const std::vector<Function> &outputs);

} // namespace Internal
} // namespace loom

#endif
