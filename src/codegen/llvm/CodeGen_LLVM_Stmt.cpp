// Statements: bindings, control flow and asserts.

#include <llvm/IR/Constants.h>
#include <llvm/IR/MDBuilder.h>

#include "codegen/llvm/CodeGen_LLVM_Visitor.h"
#include "codegen/llvm/ShortLoopUnroll.h"
#include "ir/Error.h"
#include "ir/IROperator.h"

namespace loom {
namespace Internal {

void CodeGen_LLVM::visit(const LetStmt *op) {
    llvm::Value *v = codegen(op->value);
    if (!v->hasName() && !llvm::isa<llvm::Constant>(v)) v->setName(op->name);
    ScopedBinding<llvm::Value *> bind(symbols, op->name, v);
    if (op->value.type().is_vector()) {
        ScopedBinding<Expr> bind_expr(vector_lets, op->name, op->value);
        codegen(op->body);
        return;
    }
    if (op->value.type().is_handle()) {
        // A pointer let (a buffer's host pointer, or an alias of one) shadows
        // any memory root of the same name.
        ScopedBinding<std::string> root(memory_roots, op->name, memory_root_of(op->value));
        const char *release = release_function_for(op->value);
        if (release) heap_allocations.push_back({release, v});
        bool remat = push_rematerializable(op);
        codegen(op->body);
        if (remat) rematerializable.pop(op->name);
        if (release) heap_allocations.pop_back();
        return;
    }
    bool remat = push_rematerializable(op);
    codegen(op->body);
    if (remat) rematerializable.pop(op->name);
}

void CodeGen_LLVM::visit(const AssertStmt *op) {
    llvm::Value *cond = codegen(op->condition);
    llvm::BasicBlock *failed = llvm::BasicBlock::Create(context, "assert_failed", function);
    llvm::BasicBlock *passed = llvm::BasicBlock::Create(context, "assert_passed", function);
    // Asserts almost always pass: weight the branch so the failure path is cold.
    llvm::MDBuilder md(context);
    builder->CreateCondBr(cond, passed, failed, md.createLikelyBranchWeights());
    builder->SetInsertPoint(failed);
    llvm::Value *code = codegen(op->message);
    if (code->getType() != i32_t) code = builder->CreateSExtOrTrunc(code, i32_t);
    return_with_cleanup(code);
    builder->SetInsertPoint(passed);
}

void CodeGen_LLVM::visit(const ProducerConsumer *op) {
    codegen(op->body);
}

namespace {

// Does s compute on vectors? Such loops were vectorized by lowering already.
class HasVectorCode : public IRVisitor {
public:
    bool found = false;
    using IRVisitor::visit;
    void visit(const Store *op) override {
        if (op->value.type().is_vector()) found = true;
        if (!found) IRVisitor::visit(op);
    }
    void visit(const Load *op) override {
        if (op->type.is_vector()) found = true;
    }
};

bool has_vector_code(const Stmt &s) {
    HasVectorCode v;
    s.accept(&v);
    return v.found;
}

} // namespace

void CodeGen_LLVM::visit(const For *op) {
    if (op->for_type == ForType::Parallel) {
        codegen_parallel_for(op);
        return;
    }
    if (loop_depth == 0) {
        // A serial nest of the entry function: a function of its own, so
        // that the entry keeps only glue (CodeGen_LLVM.cpp).
        codegen_outlined_loop(op);
        return;
    }
    if (is_piece(op)) {
        std::map<const For *, LoopCodeSize> sizes;
        sizes.swap(loop_sizes); // nothing inside is split again
        codegen_outlined_loop(op);
        sizes.swap(loop_sizes);
        return;
    }
    // Vectorized/Unrolled loops are normally expanded by lowering; any that
    // reach here run serially.
    llvm::Value *min = codegen(op->min);
    llvm::Value *extent = codegen(op->extent);
    llvm::Value *end = builder->CreateAdd(min, extent, op->name + ".end");

    llvm::BasicBlock *preheader = builder->GetInsertBlock();
    llvm::BasicBlock *loop = llvm::BasicBlock::Create(context, op->name + ".loop", function);
    llvm::BasicBlock *after = llvm::BasicBlock::Create(context, op->name + ".after", function);
    builder->CreateCondBr(builder->CreateICmpSLT(min, end), loop, after);

    builder->SetInsertPoint(loop);
    llvm::PHINode *index = builder->CreatePHI(min->getType(), 2, op->name);
    index->addIncoming(min, preheader);
    {
        ScopedBinding<llvm::Value *> bind(symbols, op->name, index);
        loop_depth++;
        auto trips = as_const_int(op->extent);
        invariant_index.enter_loop(index, trips && *trips <= short_loop_max_trips);
        codegen_region(op->body);
        invariant_index.leave();
        loop_depth--;
    }
    llvm::Value *next =
        builder->CreateAdd(index, llvm::ConstantInt::get(min->getType(), 1), op->name + ".next",
                           /*HasNUW=*/false, /*HasNSW=*/true);
    index->addIncoming(next, builder->GetInsertBlock());
    llvm::BranchInst *back = builder->CreateCondBr(builder->CreateICmpSLT(next, end), loop, after);
    if (has_vector_code(op->body)) {
        // Already vectorized by the schedule: LLVM's loop vectorizer would
        // only spend compile time widening it again (or interleaving it).
        llvm::Metadata *off[] = {
            llvm::MDString::get(context, "llvm.loop.vectorize.enable"),
            llvm::ConstantAsMetadata::get(llvm::ConstantInt::getFalse(context))};
        llvm::Metadata *one[] = {llvm::MDString::get(context, "llvm.loop.interleave.count"),
                                 llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i32_t, 1))};
        llvm::MDNode *self = llvm::MDNode::getDistinct(context, {});
        llvm::Metadata *ops[] = {self, llvm::MDNode::get(context, off),
                                 llvm::MDNode::get(context, one)};
        llvm::MDNode *md = llvm::MDNode::getDistinct(context, ops);
        md->replaceOperandWith(0, md);
        back->setMetadata(llvm::LLVMContext::MD_loop, md);
    }
    builder->SetInsertPoint(after);
}

void CodeGen_LLVM::visit(const Provide *op) {
    internal_error("codegen: Provide to " << op->name
                                          << " should have been removed by storage flattening");
}

void CodeGen_LLVM::visit(const Realize *op) {
    internal_error("codegen: Realize of " << op->name
                                          << " should have been removed by storage flattening");
}

void CodeGen_LLVM::visit(const Block *op) {
    if (outline_loop_nests && loop_depth == 0) {
        codegen_block_outlining_parts(op);
        return;
    }
    codegen(op->first);
    codegen(op->rest);
}

void CodeGen_LLVM::visit(const IfThenElse *op) {
    llvm::Value *cond = codegen(op->condition);
    llvm::BasicBlock *then_block = llvm::BasicBlock::Create(context, "then", function);
    llvm::BasicBlock *after = llvm::BasicBlock::Create(context, "endif", function);
    llvm::BasicBlock *else_block =
        op->else_case.defined() ? llvm::BasicBlock::Create(context, "else", function) : after;
    builder->CreateCondBr(cond, then_block, else_block);
    builder->SetInsertPoint(then_block);
    codegen_branches(op, else_block, after);
    builder->SetInsertPoint(after);
}

void CodeGen_LLVM::visit(const Evaluate *op) {
    codegen(op->value);
}

} // namespace Internal
} // namespace loom
