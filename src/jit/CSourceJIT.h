#ifndef LOOM_JIT_C_SOURCE_JIT_H
#define LOOM_JIT_C_SOURCE_JIT_H

// JIT through the C source backend, for testing it: LOOM_JIT_BACKEND=c makes
// JITModule::compile write codegen_c's source to a temporary folder, compile
// it with the system C compiler ($CC, else cc) into a shared object and load
// it with dlopen. The generated code's runtime calls bind to the runtime
// already in the process (libloom's), so the thread pool and the error
// handler are the ones the rest of Loom uses.

#include <memory>

#include "loom/Target.h"
#include "lower/LoweredFunc.h"

namespace loom {
namespace Internal {

/** True when LOOM_JIT_BACKEND is "c"; a CompileError when it is set to
 * anything other than "c", "llvm" or nothing. */
bool use_c_source_jit();

struct CSourceModule {
    int (*argv)(void **argv) = nullptr;
    const loom_pipeline_metadata_t *(*metadata)() = nullptr;
    /** Keeps the shared object loaded; dlclose'd when the last copy goes. */
    std::shared_ptr<void> library;
};

/** Generate C for f, compile and load it. LOOM_DEBUG keeps the temporary
 * folder (and prints its path); LOOM_INCLUDE_DIR overrides where
 * LoomRuntime.h is found. */
CSourceModule compile_c_source_module(const LoweredFunc &f, const Target &target);

} // namespace Internal
} // namespace loom

#endif
