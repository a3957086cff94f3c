// Full unrolling of short reduction loops over register accumulators.
//
// A schedule that keeps a tile of sums in registers and reduces over a
// small constant domain inside (conv_layer's 3 taps along x, innermost under
// the channels) leaves a loop of 3 trips whose body is a few dozen vector
// multiply-adds. Halide's O3 pipeline fully unrolls it; Loom's lean one did
// not (its early full unroll sees the body before SROA and LICM shrink it,
// too big for the threshold), and the loop's compare, branch and index
// updates per 16 multiply-adds cost conv_layer 15-20% on AMD Zen 5.
// Here, after the body has its final size, an innermost loop of at most
// short_loop_max_trips constant trips that carries vector values (the accumulators,
// promoted to registers by LICM) and stays small when unrolled is marked
// llvm.loop.unroll.full and unrolled.

#include "codegen/llvm/ShortLoopUnroll.h"

#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/LoopUnrollPass.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

namespace loom {
namespace Internal {

namespace {

// Once a loop is unrolled, the loop around it is innermost and is looked at
// too: conv_layer's 3 trips over the unrolled taps (~600 instructions) would
// be unrolled at 800 and then spill (76 stack accesses in the loop).
constexpr size_t max_unrolled_instructions = 400;
constexpr const char *unrolled_attribute = "loom-short-loop-unrolled";

bool carries_vector(const llvm::Loop &loop) {
    for (const llvm::PHINode &phi : loop.getHeader()->phis())
        if (phi.getType()->isVectorTy()) return true;
    return false;
}

class MarkShortLoopsPass : public llvm::PassInfoMixin<MarkShortLoopsPass> {
public:
    llvm::PreservedAnalyses run(llvm::Loop &loop, llvm::LoopAnalysisManager &,
                                llvm::LoopStandardAnalysisResults &results, llvm::LPMUpdater &) {
        if (!loop.isInnermost() || !carries_vector(loop)) return llvm::PreservedAnalyses::all();
        unsigned trips = results.SE.getSmallConstantTripCount(&loop);
        if (trips < 2 || trips > short_loop_max_trips) return llvm::PreservedAnalyses::all();
        size_t size = 0;
        for (const llvm::BasicBlock *b : loop.blocks()) size += b->size();
        if (size * trips > max_unrolled_instructions) return llvm::PreservedAnalyses::all();
        llvm::addStringMetadataToLoop(&loop, "llvm.loop.unroll.full", 1);
        loop.getHeader()->getParent()->addFnAttr(unrolled_attribute);
        return llvm::PreservedAnalyses::all();
    }
};

} // namespace

void add_short_loop_unrolling(llvm::FunctionPassManager &fpm) {
    llvm::LoopPassManager lpm;
    lpm.addPass(MarkShortLoopsPass());
    // Only the marked loops: the pass's own thresholds stay as they are.
    lpm.addPass(llvm::LoopFullUnrollPass(/*OptLevel=*/2, /*OnlyWhenForced=*/true));
    fpm.addPass(llvm::createFunctionToLoopPassAdaptor(std::move(lpm)));
}

bool was_short_loop_unrolled(const llvm::Function &f) {
    return f.hasFnAttribute(unrolled_attribute);
}

} // namespace Internal
} // namespace loom
