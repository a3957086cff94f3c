#ifndef LOOM_JIT_PARALLELCOMPILE_H
#define LOOM_JIT_PARALLELCOMPILE_H

// LLVM's optimization and code generation of one module on several threads:
// the module's functions go to parts of about equal size, each part is
// optimized and compiled to an object file of its own, at the same time.
// Halide compiles a pipeline on one thread; most of a JIT compile is LLVM's,
// so on two cores this about halves it where no one function dominates.

#include <functional>
#include <vector>

#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

namespace loom {
namespace Internal {

/** The threads one compile may use: one per core, or LOOM_COMPILE_THREADS
 * when set (1: no compile in parts). */
int max_compile_threads();

/** How many threads a compile starting now may use (1 when every core is
 * already compiling: the autotuner compiles several candidates at once). */
class CompileThreads {
public:
    explicit CompileThreads(int wanted);
    ~CompileThreads();
    CompileThreads(const CompileThreads &) = delete;
    CompileThreads &operator=(const CompileThreads &) = delete;
    int count() const { return taken; }

private:
    int taken;
};

/** Optimizes m (optimize_module) and compiles it to object files, one per
 * part, on up to `threads` threads at once; machine_for(i) compiles part i
 * (called only for parts that are made), part 0 on this thread and in m
 * itself, the others in LLVMContexts of their own (handed over as
 * bitcode). Returns nothing, with m unchanged, when m is too small to gain
 * from it or one function is most of it. */
std::vector<llvm::SmallVector<char, 0>>
compile_in_parts(llvm::Module &m, int threads,
                 const std::function<llvm::TargetMachine &(size_t part)> &machine_for);

} // namespace Internal
} // namespace loom

#endif
