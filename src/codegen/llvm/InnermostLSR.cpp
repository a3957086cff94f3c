// Loop strength reduction (LSR) where it pays.
//
// LLVM's code generator runs LSR on every loop, and on Loom's pipelines it
// took 35-85% of the machine code time (nl_means: 85%, nearly all of it in
// SCEVExpander reusing the min/max loop bounds of partitioned loops). Outer
// loops are where it costs: each one counts the address arithmetic of every
// loop nested in it as users of its induction variable. What it buys at run
// time is in innermost loops: one pointer increment per stream of loads
// instead of an index multiply-add per access (with LSR off everywhere,
// unsharp and lens_blur ran 15-20% slower). An outer loop's addressing runs
// once per inner loop, so its strength reduction is worth little. Here it
// runs at the end of the IR pipeline, on innermost loops only, and the code
// generator's own run is off.

#include "codegen/llvm/InnermostLSR.h"

#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/LoopStrengthReduce.h>

namespace loom {
namespace Internal {

namespace {

class InnermostLSRPass : public llvm::PassInfoMixin<InnermostLSRPass> {
    bool all_loops;

public:
    explicit InnermostLSRPass(bool all) : all_loops(all) {}
    llvm::PreservedAnalyses run(llvm::Loop &loop, llvm::LoopAnalysisManager &lam,
                                llvm::LoopStandardAnalysisResults &results,
                                llvm::LPMUpdater &updater) {
        if (!all_loops && !loop.isInnermost()) return llvm::PreservedAnalyses::all();
        return llvm::LoopStrengthReducePass().run(loop, lam, results, updater);
    }
};

} // namespace

void add_loop_strength_reduction(llvm::FunctionPassManager &fpm, bool all_loops) {
    llvm::LoopPassManager lpm;
    lpm.addPass(InnermostLSRPass(all_loops));
    fpm.addPass(llvm::createFunctionToLoopPassAdaptor(std::move(lpm)));
}

void disable_codegen_loop_strength_reduction() {
    auto &options = llvm::cl::getRegisteredOptions();
    auto it = options.find("disable-lsr");
    if (it != options.end() && it->second->getNumOccurrences() == 0)
        it->second->addOccurrence(0, it->first(), "true");
}

} // namespace Internal
} // namespace loom
