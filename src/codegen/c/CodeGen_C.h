#ifndef LOOM_CODEGEN_C_CODEGEN_C_H
#define LOOM_CODEGEN_C_CODEGEN_C_H

// LoweredFunc -> portable C source (C99 plus the GCC/Clang vector extension
// where the target has vectors). The source defines the same entry points as
// the LLVM backend (see LoweredFunc.h) and calls the same runtime functions
// (src/runtime/RuntimeFunctions.h), so it links against Loom::Runtime.

#include <string>

#include "loom/Target.h"
#include "lower/LoweredFunc.h"

namespace loom {
namespace Internal {

/** The C source of one entry point, self-contained apart from LoomRuntime.h
 * and the runtime library. */
std::string codegen_c(const LoweredFunc &f, const Target &t);

} // namespace Internal
} // namespace loom

#endif
