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
#include "codegen/llvm/ShortLoopUnroll.h"

#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/LoopStrengthReduce.h>

namespace loom {
namespace Internal {

namespace {

class InnermostLSRPass : public llvm::PassInfoMixin<InnermostLSRPass> {
    bool all_loops, only_after_short_unroll;

public:
    InnermostLSRPass(bool all, bool after_short_unroll)
        : all_loops(all), only_after_short_unroll(after_short_unroll) {}
    llvm::PreservedAnalyses run(llvm::Loop &loop, llvm::LoopAnalysisManager &lam,
                                llvm::LoopStandardAnalysisResults &results,
                                llvm::LPMUpdater &updater) {
        if (!all_loops && !loop.isInnermost()) return llvm::PreservedAnalyses::all();
        if (only_after_short_unroll && !was_short_loop_unrolled(*loop.getHeader()->getParent()))
            return llvm::PreservedAnalyses::all();
        return llvm::LoopStrengthReducePass().run(loop, lam, results, updater);
    }
};

void add_pass(llvm::FunctionPassManager &fpm, InnermostLSRPass pass) {
    llvm::LoopPassManager lpm;
    lpm.addPass(std::move(pass));
    fpm.addPass(llvm::createFunctionToLoopPassAdaptor(std::move(lpm)));
}

} // namespace

void add_loop_strength_reduction(llvm::FunctionPassManager &fpm, bool all_loops) {
    add_pass(fpm, InnermostLSRPass(all_loops, false));
    // A loop body that short-loop unrolling made long (conv_layer: 48
    // multiply-adds reading 8 filter rows and 6 input vectors) came out of
    // one run with most filter addresses recomputed from the outer index
    // every trip: their loads were then all scheduled first and 20 of the
    // vector registers spilled (45 ms against 31 ms). A second run starts
    // from the pointer increments of the first and finds the chained
    // addresses; it is cheap on innermost loops, and only runs there.
    add_pass(fpm, InnermostLSRPass(all_loops, true));
}

void disable_codegen_loop_strength_reduction() {
    auto &options = llvm::cl::getRegisteredOptions();
    auto it = options.find("disable-lsr");
    if (it != options.end() && it->second->getNumOccurrences() == 0)
        it->second->addOccurrence(0, it->first(), "true");
}

} // namespace Internal
} // namespace loom
