// Gathers as one load per lane.
//
// A vector load at computed indices (resize's row pass reads the input at
// each output column's first tap) is emitted as llvm.masked.gather. Where the
// target has no gather instruction (AVX2 on AMD Zen), LLVM would split it
// into lanes from a vector of 64-bit pointers made with vector shifts and
// adds; one extracted 32-bit index per lane lets each load scale it in its
// address instead. Where it has one (AVX-512), the instruction is still
// slower than the loads for 512-bit gathers: on AMD Zen 5, resize ran
// 13.2-13.5 ms with vgatherdps zmm and 12.2-12.4 ms with a load per lane
// (Halide 14, which never emits gathers on x86: 12.4 ms). A load per lane is
// about 3 instructions against 1, though, and local_laplacian has 1,200
// gathers of 16 lanes: lane by lane doubled its compile time (1.7 -> 3.4 s).
// So with a gather instruction, a module whose 512-bit gathers read at most
// max_lane_loads lanes in all gets loads, and one with more keeps the
// instruction. Masked gathers (a predicated load) stay as they are.

#include "codegen/llvm/LaneGathers.h"

#include <vector>

#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Utils/Local.h>

namespace loom {
namespace Internal {

namespace {

constexpr unsigned max_lane_loads = 512;
// Narrower gathers keep the instruction (bilateral_grid's 8 x float ran as
// fast with it, and compiled 20-30% faster).
constexpr uint64_t min_lane_loads_bits = 512;

/** An unmasked gather from base + a vector of indices, its lanes and the
 * alignment of each element. */
struct Gather {
    llvm::CallInst *call;
    llvm::GetElementPtrInst *address;
    unsigned lanes;
    llvm::Align align;
};

bool all_true(const llvm::Value *mask) {
    auto *c = llvm::dyn_cast<llvm::Constant>(mask);
    return c && c->isAllOnesValue();
}

std::vector<Gather> unmasked_gathers(llvm::Function &f) {
    std::vector<Gather> found;
    for (llvm::BasicBlock &b : f)
        for (llvm::Instruction &i : b) {
            auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&i);
            if (!call || call->getIntrinsicID() != llvm::Intrinsic::masked_gather) continue;
            auto *address = llvm::dyn_cast<llvm::GetElementPtrInst>(call->getArgOperand(0));
            if (!address || address->getNumIndices() != 1 ||
                address->getPointerOperand()->getType()->isVectorTy() ||
                !all_true(call->getArgOperand(2)))
                continue;
            auto *type = llvm::cast<llvm::FixedVectorType>(call->getType());
            llvm::Align align =
                llvm::cast<llvm::ConstantInt>(call->getArgOperand(1))->getAlignValue();
            found.push_back({call, address, type->getNumElements(), align});
        }
    return found;
}

void load_lane_by_lane(const Gather &g) {
    llvm::IRBuilder<> builder(g.call);
    llvm::Type *elem = g.address->getSourceElementType();
    llvm::Value *base = g.address->getPointerOperand();
    llvm::Value *indices = g.address->getOperand(1);
    // Extract the narrow index and widen each lane, not the whole vector.
    llvm::Type *index_type = nullptr;
    if (auto *widened = llvm::dyn_cast<llvm::SExtInst>(indices)) {
        index_type = widened->getType()->getScalarType();
        indices = widened->getOperand(0);
    }
    llvm::MDNode *tbaa = g.call->getMetadata(llvm::LLVMContext::MD_tbaa);
    llvm::Value *result = llvm::PoisonValue::get(g.call->getType());
    for (unsigned lane = 0; lane < g.lanes; lane++) {
        llvm::Value *index = builder.CreateExtractElement(indices, uint64_t(lane));
        if (index_type) index = builder.CreateSExt(index, index_type);
        llvm::Value *ptr = builder.CreateGEP(elem, base, index);
        // (Named so that tests can tell such a gather from dense loads.)
        llvm::LoadInst *load = builder.CreateAlignedLoad(elem, ptr, g.align, "gathered_lane");
        if (tbaa) load->setMetadata(llvm::LLVMContext::MD_tbaa, tbaa);
        result = builder.CreateInsertElement(result, load, uint64_t(lane));
    }
    g.call->replaceAllUsesWith(result);
    llvm::RecursivelyDeleteTriviallyDeadInstructions(g.call);
}

} // namespace

void lower_gathers(llvm::Module &m, llvm::TargetMachine &tm) {
    std::vector<Gather> wide;
    unsigned wide_lanes = 0;
    for (llvm::Function &f : m) {
        if (f.isDeclaration()) continue;
        const llvm::TargetTransformInfo tti = tm.getTargetTransformInfo(f);
        for (const Gather &g : unmasked_gathers(f)) {
            if (!tti.isLegalMaskedGather(g.call->getType(), g.align)) {
                load_lane_by_lane(g);
            } else if (g.call->getType()->getPrimitiveSizeInBits() >= min_lane_loads_bits) {
                wide.push_back(g);
                wide_lanes += g.lanes;
            }
        }
    }
    if (wide_lanes <= max_lane_loads)
        for (const Gather &g : wide) load_lane_by_lane(g);
    // Declarations of the gathers no call is left to.
    for (auto f = m.begin(); f != m.end();) {
        llvm::Function &declared = *f++;
        if (declared.getIntrinsicID() == llvm::Intrinsic::masked_gather && declared.use_empty())
            declared.eraseFromParent();
    }
}

} // namespace Internal
} // namespace loom
