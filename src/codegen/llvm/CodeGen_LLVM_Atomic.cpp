// Atomic read-modify-write of one buffer element (the atomic_update
// intrinsic made by storage flattening for atomic() update stages): an LLVM
// atomicrmw when the new value is `old op e` for an operation LLVM has,
// otherwise a compare-and-swap loop that recomputes the new value.

#include <llvm/IR/Constants.h>

#include "codegen/llvm/CodeGen_LLVM_Visitor.h"
#include "ir/Error.h"

namespace loom {
namespace Internal {

namespace {

/** LLVM's atomicrmw for a matched read-modify-write of type t, if it has one. */
bool llvm_rmw(AtomicRMWOp op, Type t, llvm::AtomicRMWInst::BinOp *result) {
    using B = llvm::AtomicRMWInst;
    bool f = t.is_float(), s = t.is_int();
    switch (op) {
    case AtomicRMWOp::Add:
        *result = f ? B::FAdd : B::Add;
        return true;
    case AtomicRMWOp::Sub:
        *result = f ? B::FSub : B::Sub;
        return true;
    case AtomicRMWOp::Min:
        *result = f ? B::FMin : s ? B::Min : B::UMin;
        return true;
    case AtomicRMWOp::Max:
        *result = f ? B::FMax : s ? B::Max : B::UMax;
        return true;
    case AtomicRMWOp::And:
        *result = B::And;
        return !f;
    case AtomicRMWOp::Or:
        *result = B::Or;
        return !f;
    case AtomicRMWOp::Xor:
        *result = B::Xor;
        return !f;
    }
    return false;
}

} // namespace

llvm::Value *CodeGen_LLVM::codegen_atomic_update(const Call *op) {
    internal_assert(op->args.size() == 4, "atomic_update takes 4 arguments");
    const auto *name = op->args[0].as<StringImm>();
    const auto *old = op->args[2].as<StringImm>();
    internal_assert(name && old, "atomic_update needs a buffer name and an old-value name");
    Type t = op->type;
    internal_assert(t.is_scalar(), "atomic_update of a vector");
    llvm::Type *elem = llvm_memory_type_of(t);
    llvm::Value *ptr = element_pointer(name->value, elem, codegen(op->args[1]));
    const Expr &value = op->args[3];
    unsigned bytes = std::max(1u, unsigned(t.bits) / 8);
    llvm::Align align(bytes);

    AtomicRMWOp matched;
    llvm::AtomicRMWInst::BinOp rmw;
    Expr operand;
    if (!t.is_bool() && match_atomic_rmw(value, old->value, &matched, &operand) &&
        llvm_rmw(matched, t, &rmw)) {
        llvm::Value *v = to_memory(codegen(operand), t);
        builder->CreateAtomicRMW(rmw, ptr, v, align, llvm::AtomicOrdering::Monotonic);
        return llvm::Constant::getNullValue(llvm_type_of(t));
    }

    // Compare-and-swap on the element's bits.
    llvm::Type *bits_t = llvm::IntegerType::get(context, bytes * 8);
    llvm::BasicBlock *before = builder->GetInsertBlock();
    llvm::BasicBlock *loop = llvm::BasicBlock::Create(context, "atomic_cas", function);
    llvm::BasicBlock *done = llvm::BasicBlock::Create(context, "atomic_cas_done", function);
    llvm::LoadInst *first = builder->CreateAlignedLoad(bits_t, ptr, align);
    first->setAtomic(llvm::AtomicOrdering::Monotonic);
    builder->CreateBr(loop);
    builder->SetInsertPoint(loop);
    llvm::PHINode *current = builder->CreatePHI(bits_t, 2);
    current->addIncoming(first, before);
    llvm::Value *old_value = from_memory(builder->CreateBitCast(current, elem), t);
    llvm::Value *next;
    {
        ScopedBinding<llvm::Value *> bind(symbols, old->value, old_value);
        next = codegen(value);
    }
    llvm::Value *next_bits = builder->CreateBitCast(to_memory(next, t), bits_t);
    llvm::Value *pair = builder->CreateAtomicCmpXchg(ptr, current, next_bits, align,
                                                     llvm::AtomicOrdering::Monotonic,
                                                     llvm::AtomicOrdering::Monotonic);
    llvm::Value *seen = builder->CreateExtractValue(pair, 0);
    llvm::Value *ok = builder->CreateExtractValue(pair, 1);
    current->addIncoming(seen, builder->GetInsertBlock());
    builder->CreateCondBr(ok, done, loop);
    builder->SetInsertPoint(done);
    return llvm::Constant::getNullValue(llvm_type_of(t));
}

} // namespace Internal
} // namespace loom
