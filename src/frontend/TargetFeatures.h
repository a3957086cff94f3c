#ifndef LOOM_FRONTEND_TARGET_FEATURES_H
#define LOOM_FRONTEND_TARGET_FEATURES_H

// The instruction-set side of Target features, shared by the LLVM target
// machine and the C backend's compiler flags.

#include <string>
#include <vector>

#include "loom/Target.h"

namespace loom {
namespace Internal {

/** Does f select x86 instructions (sse41, avx2, avx512_skylake, ...)? */
bool is_x86_isa_feature(Target::Feature f);

/** The x86 instruction-set extensions t enables, named as LLVM and GCC name
 * them ("sse4.1", "avx2", "avx512bw", ...), each AVX-512 generation with the
 * ones before it; empty for other architectures. */
std::vector<std::string> x86_isa_extensions(const Target &t);

/** A CompileError naming `what` (e.g. "pipeline f") and t unless Loom
 * generates code for t's architecture and OS (Target::can_generate_code). */
void check_can_generate_code(const Target &t, const std::string &what);

} // namespace Internal
} // namespace loom

#endif
