// optimize_module(): a short, hand-picked LLVM pass pipeline.
//
// Loom's IR reaches LLVM already simplified, CSE'd and with its loops
// vectorized and unrolled exactly as the schedule says, so most of LLVM's O2
// pipeline (inlining, loop rotation/unswitching/deletion, induction variable
// rewriting, the loop vectorizer and unroller, ...) only costs JIT compile
// time. What is left to do is local clean-up of the code generator's output
// and hoisting loop-invariant address arithmetic out of inner loops (plus,
// where a Func has a stack buffer, fully unrolling the short constant loops
// over it so that it lives in registers, and short reduction loops over
// register accumulators: ShortLoopUnroll.cpp). Measured
// on a pointwise pipeline this pipeline takes well under half the time of O2,
// and the blur and unsharp benchmarks (test/performance) run as fast.
//
// Loop strength reduction runs here, on innermost loops only, instead of in
// the code generator (InnermostLSR.cpp).
//
// LOOM_LLVM_PIPELINE=O2 selects LLVM's O2 pipeline instead (loop vectorizer and
// unroller still off; strength reduction on every loop, as the code generator
// does it), to check whether a slowdown comes from a missing pass.

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/IR/PassTimingInfo.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/StandardInstrumentations.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/LICM.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/LoopUnrollPass.h>
#include <llvm/Transforms/Scalar/Reassociate.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Vectorize/SLPVectorizer.h>

#include "codegen/llvm/CodeGen_LLVM.h"
#include "codegen/llvm/InnermostLSR.h"
#include "codegen/llvm/ShortLoopUnroll.h"

namespace loom {
namespace Internal {

namespace {

bool use_default_pipeline() {
    const char *p = std::getenv("LOOM_LLVM_PIPELINE");
    return p && std::strcmp(p, "O2") == 0;
}

// Does any instruction of f produce a vector? Then the schedule vectorized
// that loop nest and the SLP vectorizer has nothing worth its compile time
// left to do there.
bool has_vector_code(const llvm::Function &f) {
    for (const llvm::BasicBlock &b : f)
        for (const llvm::Instruction &i : b)
            if (i.getType()->isVectorTy()) return true;
    return false;
}

// Does m allocate an array or vector on the stack (a Func's buffer; the
// closures of parallel loops are structs)?
bool has_stack_buffers(const llvm::Module &m) {
    for (const llvm::Function &f : m)
        for (const llvm::BasicBlock &b : f)
            for (const llvm::Instruction &i : b)
                if (auto *a = llvm::dyn_cast<llvm::AllocaInst>(&i))
                    if (a->isArrayAllocation() || a->getAllocatedType()->isArrayTy() ||
                        a->getAllocatedType()->isVectorTy())
                        return true;
    return false;
}

// The most instructions in one basic block of f. LLVM's SLP vectorizer takes
// time quadratic in a block's length (a chain of 2,000 selects: 0.5 s, of
// 4,000: 2.6 s), and scalar blocks that long are generated expressions, not
// the short lane-parallel code it is for.
size_t largest_block(const llvm::Function &f) {
    size_t largest = 0;
    for (const llvm::BasicBlock &b : f) largest = std::max(largest, b.size());
    return largest;
}

constexpr size_t max_slp_block = 2000;

// Marks the functions where the SLP vectorizer packed something.
constexpr const char *slp_packed_attribute = "loom-slp-packed";

// The SLP vectorizer, on the functions where it can pay: loop nests the
// schedule left scalar (an unrolled histogram's lumas, a scalar pipeline),
// not ones it vectorized, and no block too long for it. Per function, so a
// pipeline with one vectorized stage still packs its scalar unrolled ones.
// Reassociation first puts the operands of each unrolled copy's sums in one
// order (InstCombine leaves them as they came), so that the packer sees the
// same tree in every lane.
struct ScalarCodeSLP : llvm::PassInfoMixin<ScalarCodeSLP> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &am) {
        if (has_vector_code(f) || largest_block(f) > max_slp_block)
            return llvm::PreservedAnalyses::all();
        llvm::PreservedAnalyses kept = reassociate.run(f, am);
        am.invalidate(f, kept);
        llvm::PreservedAnalyses packed = slp.run(f, am);
        if (!packed.areAllPreserved()) f.addFnAttr(slp_packed_attribute);
        kept.intersect(std::move(packed));
        return kept;
    }
    llvm::ReassociatePass reassociate;
    llvm::SLPVectorizerPass slp;
};

// InstCombine and SimplifyCFG once more, on the functions whose code the
// SLP vectorizer or short-loop unrolling rewrote (elsewhere the earlier
// runs left nothing for them: skipping them saves 5-10% of the IR time).
struct CleanUpRewritten : llvm::PassInfoMixin<CleanUpRewritten> {
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &am) {
        if (!f.hasFnAttribute(slp_packed_attribute) && !was_short_loop_unrolled(f))
            return llvm::PreservedAnalyses::all();
        llvm::PreservedAnalyses kept = combine.run(f, am);
        am.invalidate(f, kept);
        kept.intersect(simplify_cfg.run(f, am));
        return kept;
    }
    llvm::InstCombinePass combine;
    llvm::SimplifyCFGPass simplify_cfg;
};

llvm::ModulePassManager lean_pipeline(bool stack_buffers) {
    llvm::FunctionPassManager fpm;
    // Entry allocas of small buffers become registers where possible.
    fpm.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
    fpm.addPass(llvm::EarlyCSEPass(/*UseMemorySSA=*/false));
    fpm.addPass(llvm::InstCombinePass());
    fpm.addPass(llvm::SimplifyCFGPass());
    if (stack_buffers) {
        // A Func computed per tile into a small stack buffer (a reduction's
        // accumulators) is initialized and read by short loops of a constant
        // trip count that the schedule did not unroll. Unrolled, every access
        // has a constant offset and SROA turns the whole buffer into
        // registers (as LLVM's O2 pipeline does for Halide).
        llvm::LoopPassManager unroll;
        unroll.addPass(llvm::LoopFullUnrollPass(/*OptLevel=*/2));
        fpm.addPass(llvm::createFunctionToLoopPassAdaptor(std::move(unroll)));
        fpm.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
        fpm.addPass(llvm::InstCombinePass());
    }
    // Row offsets, buffer fields and broadcasts computed inside a loop body
    // move to its preheader; with the TBAA tags of CodeGen_LLVM_Memory.cpp,
    // loads of inputs move too and a reduction's accumulators stay in
    // registers for the whole loop (scalar promotion).
    llvm::LoopPassManager lpm;
    lpm.addPass(llvm::LICMPass(llvm::LICMOptions()));
    fpm.addPass(llvm::createFunctionToLoopPassAdaptor(std::move(lpm), /*UseMemorySSA=*/true));
    // With MemorySSA (and the TBAA tags), a load repeated after a store to
    // another buffer is reused: an unrolled loop over channels reads its
    // inputs and tables once, not once per channel it writes. It also merges
    // the copies of one address LICM hoisted for each unrolled iteration,
    // which the SLP vectorizer needs to see consecutive loads.
    fpm.addPass(llvm::EarlyCSEPass(/*UseMemorySSA=*/true));
    // Now that loop bodies have their final size: short reduction loops over
    // register accumulators, unrolled (ShortLoopUnroll.cpp).
    add_short_loop_unrolling(fpm);
    fpm.addPass(ScalarCodeSLP());
    fpm.addPass(CleanUpRewritten());
    // Last, as in the code generator (whose own run is off): InstCombine
    // would fold its pointer increments back into indexing.
    add_loop_strength_reduction(fpm, /*all_loops=*/false);
    llvm::ModulePassManager mpm;
    mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(fpm)));
    return mpm;
}

} // namespace

void optimize_module(llvm::Module &m, llvm::TargetMachine &tm) {
    llvm::PipelineTuningOptions tuning;
    tuning.LoopVectorization = false;
    tuning.LoopInterleaving = false;
    tuning.SLPVectorization = true;
    // Schedules unroll explicitly; LLVM's own (runtime) unrolling roughly
    // doubled the machine code to compile for little gain.
    tuning.LoopUnrolling = false;

    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    // Passes skip functions marked optnone (a pipeline's entry function:
    // checks and calls, its loop nests outlined).
    llvm::PassInstrumentationCallbacks instrumentation;
    llvm::OptNoneInstrumentation skip_optnone(false);
    skip_optnone.registerCallbacks(instrumentation);
    // LOOM_LLVM_ARGS=-time-passes times these passes too (the code
    // generator's legacy pass manager times itself).
    llvm::TimePassesHandler time_passes(llvm::TimePassesIsEnabled);
    time_passes.registerCallbacks(instrumentation);
    llvm::PassBuilder pb(&tm, tuning, std::nullopt, &instrumentation);
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);

    llvm::ModulePassManager mpm;
    if (use_default_pipeline()) {
        mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
        // What the code generator would have done, on every loop.
        llvm::FunctionPassManager lsr;
        add_loop_strength_reduction(lsr, /*all_loops=*/true);
        mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(lsr)));
    } else {
        mpm = lean_pipeline(has_stack_buffers(m));
    }
    mpm.run(m, mam);
}

} // namespace Internal
} // namespace loom
