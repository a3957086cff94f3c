#include "codegen/llvm/LoopInvariantIndex.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

namespace loom {
namespace Internal {

namespace {

// Past these, an index is left as it is: sums that long or values that deep
// are generated expressions, not addresses worth the walk.
constexpr int max_terms = 16;
constexpr int max_depth = 48;

struct Term {
    llvm::Value *value;
    bool negated;
};

// The terms of a sum of nsw adds and subs (the widened index).
bool add_terms(llvm::Value *v, bool negated, std::vector<Term> &terms, int depth) {
    auto *op = llvm::dyn_cast<llvm::BinaryOperator>(v);
    bool opens =
        op && depth < 8 && op->hasNoSignedWrap() &&
        (op->getOpcode() == llvm::Instruction::Add || op->getOpcode() == llvm::Instruction::Sub);
    if (!opens) {
        terms.push_back({v, negated});
        return int(terms.size()) <= max_terms;
    }
    bool sub = op->getOpcode() == llvm::Instruction::Sub;
    return add_terms(op->getOperand(0), negated, terms, depth + 1) &&
           add_terms(op->getOperand(1), sub ? !negated : negated, terms, depth + 1);
}

llvm::Value *sum(llvm::IRBuilder<> &b, const std::vector<Term> &terms) {
    llvm::Value *total = nullptr;
    for (const Term &t : terms) {
        if (t.negated) continue;
        total = total ? b.CreateAdd(total, t.value, "", false, true) : t.value;
    }
    for (const Term &t : terms) {
        if (!t.negated) continue;
        total = total ? b.CreateSub(total, t.value, "", false, true)
                      : b.CreateNeg(t.value, "", /*HasNSW=*/true);
    }
    return total;
}

} // namespace

void LoopInvariantIndex::enter_loop(llvm::PHINode *index, bool few_trips) {
    Scope loop{index->getParent(), {}, {}};
    loop.inside.emplace(loop.header, true);
    levels.push_back(Level{index, few_trips, std::move(loop)});
}

void LoopInvariantIndex::enter_function() {
    levels.push_back(Level{});
}

void LoopInvariantIndex::leave() {
    levels.pop_back();
}

bool LoopInvariantIndex::inside(Scope &scope, const llvm::BasicBlock *block) {
    // A loop's blocks are its header and the blocks made since: the code
    // generator appends blocks to the function as it goes. Those made since
    // the last look are marked, walking back from the last one to the
    // header or to a block marked before; a block not marked then is older
    // than the header.
    auto known = scope.inside.find(block);
    if (known != scope.inside.end()) return known->second;
    const llvm::Function &f = *scope.header->getParent();
    if (block->getParent() != &f) return false;
    for (auto it = f.end(); it != f.begin();) {
        --it;
        if (&*it == scope.header || scope.inside.count(&*it)) break;
        scope.inside.emplace(&*it, true);
    }
    return scope.inside.emplace(block, false).first->second;
}

bool LoopInvariantIndex::varies(Scope &scope, const llvm::Value *v, int depth) {
    if (llvm::isa<llvm::Constant>(v) || llvm::isa<llvm::Argument>(v)) return false;
    const auto *inst = llvm::dyn_cast<llvm::Instruction>(v);
    if (!inst) return true;
    auto known = scope.varies.find(v);
    if (known != scope.varies.end()) return known->second;
    bool result;
    if (!inside(scope, inst->getParent())) {
        result = false;
    } else if (depth >= max_depth || llvm::isa<llvm::PHINode>(inst) ||
               inst->mayReadOrWriteMemory() ||
               (llvm::isa<llvm::CallInst>(inst) && !llvm::isa<llvm::IntrinsicInst>(inst))) {
        result = true;
    } else {
        result = false;
        for (const llvm::Value *operand : inst->operands())
            if ((result = varies(scope, operand, depth + 1))) break;
    }
    scope.varies.emplace(v, result);
    return result;
}

LoopInvariantIndex::Parts LoopInvariantIndex::split(llvm::IRBuilder<> &b, llvm::Value *index) {
    Parts parts;
    parts.variant = index;
    if (levels.empty() || !levels.back().index || levels.back().few_trips) return parts;
    // The outermost serial loop of the function being generated.
    size_t outermost = levels.size() - 1;
    while (outermost > 0 && levels[outermost - 1].index) outermost--;
    Scope &innermost_loop = levels.back().loop, &all_loops = levels[outermost].loop;
    std::vector<Term> terms, variant, outer, invariant, constant;
    if (!add_terms(index, false, terms, 0)) return parts;
    for (const Term &t : terms) {
        if (llvm::isa<llvm::Constant>(t.value)) {
            constant.push_back(t);
        } else if (varies(innermost_loop, t.value, 0)) {
            variant.push_back(t);
        } else if (varies(all_loops, t.value, 0)) {
            outer.push_back(t);
        } else {
            invariant.push_back(t);
        }
    }
    if (variant.empty() || invariant.empty()) return parts;
    // One invariant term that is already opaque to ScalarEvolution (an
    // argument, a load) gains nothing from a freeze.
    if (invariant.size() == 1 && !invariant[0].negated &&
        (llvm::isa<llvm::Argument>(invariant[0].value) ||
         llvm::isa<llvm::LoadInst>(invariant[0].value)))
        return parts;
    parts.invariant = b.CreateFreeze(sum(b, invariant));
    parts.outer = outer.empty() ? nullptr : sum(b, outer);
    parts.variant = sum(b, variant);
    parts.constant = constant.empty() ? nullptr : sum(b, constant);
    return parts;
}

} // namespace Internal
} // namespace loom
