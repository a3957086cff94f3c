#ifndef LOOM_CODEGEN_ARGV_MESSAGES_H
#define LOOM_CODEGEN_ARGV_MESSAGES_H

// The messages of the NAME_argv entry point's own checks, the same in both
// backends: argv itself NULL, or a NULL pointer where a scalar argument's
// value belongs (buffers are checked by the pipeline's entry checks).

#include <string>

#include "lower/LoweredFunc.h"

namespace loom {
namespace Internal {

/** NAME_argv was called with argv == NULL. */
std::string argv_null_message(const LoweredFunc &f);
/** argv[i + 1], the pointer to the value of scalar argument i, is NULL. */
std::string argv_slot_null_message(const LoweredFunc &f, size_t i);

} // namespace Internal
} // namespace loom

#endif
