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

/** The target machines one part of a compile uses: the optimizing one for
 * its functions, the unoptimizing one (CodeGenOptLevel::None) for its
 * optnone functions. Neither is used by another part at the same time. */
struct MachinePair {
    llvm::TargetMachine &optimizing;
    llvm::TargetMachine &unoptimized;
};
using PartMachines = std::function<MachinePair(size_t part)>;

/** Optimizes m (optimize_module) and compiles it to object files, parts of
 * about equal cost on up to `threads` threads at once; machines_for(i)
 * compiles part i (called only for parts that are made), part 0 on this
 * thread and in m itself, the others in LLVMContexts of their own (handed
 * over as bitcode). m's optnone functions are compiled without optimization
 * (ModuleSplit.h), each part's in an object of its own. Returns no
 * objects and no parts, with m unchanged, when
 * m is too small to gain from it or one function is most of it. */
struct CompiledParts {
    std::vector<llvm::SmallVector<char, 0>> objects; // one or two per part
    int parts = 0;
};
CompiledParts compile_in_parts(llvm::Module &m, int threads, const PartMachines &machines_for);

} // namespace Internal
} // namespace loom

#endif
