// Atomic read-modify-write of one buffer element (the atomic_update
// intrinsic made by storage flattening for atomic() update stages): an LLVM
// atomicrmw when the new value is `old op e` for an operation LLVM has,
// otherwise a compare-and-swap loop that recomputes the new value.

#include <llvm/IR/Constants.h>

#include "codegen/llvm/CodeGen_LLVM_Visitor.h"
#include "ir/Error.h"
#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

namespace {

bool uses_name(const Expr &e, const std::string &name) {
    bool found = false;
    visit_all(e, [&](const IRNode *n) {
        if (n->node_type == IRNodeType::Variable && static_cast<const Variable *>(n)->name == name)
            found = true;
    });
    return found;
}

bool is_var(const Expr &e, const std::string &name) {
    const auto *v = e.as<Variable>();
    return v && v->name == name;
}

/** For value == old op e (or e op old, op commutative), the operation and e. */
bool match_rmw(const Expr &value, const std::string &old, Type t, llvm::AtomicRMWInst::BinOp *op,
               Expr *operand) {
    bool is_float = t.is_float();
    bool is_signed = t.is_int();
    auto commutative = [&](const Expr &a, const Expr &b, llvm::AtomicRMWInst::BinOp o) {
        if (is_var(a, old) && !uses_name(b, old)) {
            *op = o;
            *operand = b;
            return true;
        }
        if (is_var(b, old) && !uses_name(a, old)) {
            *op = o;
            *operand = a;
            return true;
        }
        return false;
    };
    using B = llvm::AtomicRMWInst;
    if (const auto *a = value.as<Add>())
        return commutative(a->a, a->b, is_float ? B::FAdd : B::Add);
    if (const auto *s = value.as<Sub>()) {
        if (!is_var(s->a, old) || uses_name(s->b, old)) return false;
        *op = is_float ? B::FSub : B::Sub;
        *operand = s->b;
        return true;
    }
    if (const auto *m = value.as<Min>())
        return commutative(m->a, m->b, is_float ? B::FMin : is_signed ? B::Min : B::UMin);
    if (const auto *m = value.as<Max>())
        return commutative(m->a, m->b, is_float ? B::FMax : is_signed ? B::Max : B::UMax);
    if (const auto *c = value.as<Call>(); c && c->args.size() == 2 && !is_float) {
        if (c->is_intrinsic(Intrinsic::bitwise_and))
            return commutative(c->args[0], c->args[1], B::And);
        if (c->is_intrinsic(Intrinsic::bitwise_or))
            return commutative(c->args[0], c->args[1], B::Or);
        if (c->is_intrinsic(Intrinsic::bitwise_xor))
            return commutative(c->args[0], c->args[1], B::Xor);
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

    llvm::AtomicRMWInst::BinOp rmw;
    Expr operand;
    if (!t.is_bool() && match_rmw(value, old->value, t, &rmw, &operand)) {
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
