#ifndef LOOM_FRONTEND_JIT_STATS_H
#define LOOM_FRONTEND_JIT_STATS_H

// Counters of JIT work, so tests can check that compiled code is reused.

#include <cstdint>

namespace loom {
namespace Internal {

/** How many times any Pipeline has JIT-compiled in this process. */
uint64_t pipeline_jit_compilations();

} // namespace Internal
} // namespace loom

#endif
