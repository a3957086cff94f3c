#ifndef LOOM_JIT_EXTERN_SYMBOLS_H
#define LOOM_JIT_EXTERN_SYMBOLS_H

// The C functions a JIT module calls (HalideExtern_N, the runtime, libm)
// are resolved in this process. One the process lacks is a CompileError
// naming it, checked before the module is added to the JIT (whose own
// failure names only the pipeline's symbols).

#include <string>

namespace llvm {
class Module;
}

namespace loom {
namespace Internal {

/** Throws a CompileError for the first function `module` declares but does
 * not define that the process has no symbol for. */
void check_extern_symbols(const llvm::Module &module, const std::string &pipeline);

} // namespace Internal
} // namespace loom

#endif
