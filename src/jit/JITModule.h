#ifndef LOOM_JIT_JIT_MODULE_H
#define LOOM_JIT_JIT_MODULE_H

// In-process compilation of a LoweredFunc through LLVM's ORC JIT. This header
// is LLVM-free; the engine lives in JITModule.cpp.

#include <memory>
#include <string>

#include "loom/Target.h"
#include "lower/LoweredFunc.h"

namespace loom {
namespace Internal {

class JITModule {
public:
    using ArgvFunction = int (*)(void **argv);
    using MetadataFunction = const loom_pipeline_metadata_t *(*)();

    /** Generate LLVM IR for f, optimize and compile it. Printing the IR
     * costs compile time, so llvm_assembly() is empty unless want_assembly.
     * With want_assembly and a target this host cannot run, only the text
     * is made (no entry points). */
    static JITModule compile(const LoweredFunc &f, const Target &target,
                             bool want_assembly = false);

    bool defined() const { return state != nullptr; }
    /** The NAME_argv entry point (see LoweredFunc.h for the argv layout). */
    ArgvFunction argv_function() const;
    /** The NAME_metadata entry point. */
    MetadataFunction metadata_function() const;
    /** The optimized LLVM IR of the module, as text (see compile()). */
    const std::string &llvm_assembly() const;
    /** How many parts LLVM optimized and compiled at once (1: the module
     * was compiled whole; see src/jit/ParallelCompile.h). */
    int parts() const;
    /** The threads one compile may use (one per core, or
     * LOOM_COMPILE_THREADS). */
    static int compile_threads();

private:
    static JITModule assembly_only(const LoweredFunc &f, const Target &target);
    static JITModule compile_on_this_stack(const LoweredFunc &f, const Target &target,
                                           bool want_assembly);
    struct State;
    std::shared_ptr<State> state;
};

} // namespace Internal
} // namespace loom

#endif
