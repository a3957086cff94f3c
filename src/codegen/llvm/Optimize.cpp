// optimize_module(): LLVM's O2 pipeline without the loop vectorizer and the
// loop unroller. Loom vectorizes and unrolls exactly what the schedule says
// (as Halide does by default); LLVM's loop vectorizer would double the JIT
// compile time of a small pipeline for loops the user chose to keep scalar.

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Target/TargetMachine.h>

#include "codegen/llvm/CodeGen_LLVM.h"

namespace loom {
namespace Internal {

void optimize_module(llvm::Module &m, llvm::TargetMachine &tm) {
    llvm::PipelineTuningOptions tuning;
    tuning.LoopVectorization = false;
    tuning.LoopInterleaving = false;
    tuning.SLPVectorization = true;
    // Schedules unroll explicitly; LLVM's own (runtime) unrolling roughly
    // doubled the machine code to compile for little gain (measured: ~30% of
    // JIT compile time for a pointwise pipeline).
    tuning.LoopUnrolling = false;

    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb(&tm, tuning);
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);

    // O2 rather than O3: O3 added about a third to the JIT compile time of a
    // pointwise pipeline; the blur benchmark stays at parity with Halide.
    llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
    mpm.run(m, mam);
}

} // namespace Internal
} // namespace loom
