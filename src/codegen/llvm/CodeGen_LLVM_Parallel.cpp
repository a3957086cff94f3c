// Parallel loops: the body of a ForType::Parallel loop becomes an internal
// function `int task(void *uc, int index, uint8_t *closure)` and the loop a
// call to the runtime's loom_do_par_for, which runs the task for every index
// of [min, min + extent) on the thread pool.
//
// The closure is a struct (on the caller's stack) holding every value of the
// enclosing function the body refers to: lets, loop variables, buffer host
// pointers and fields, allocations, the user context.

#include <set>

#include <llvm/IR/Constants.h>

#include "codegen/llvm/CodeGen_LLVM_Visitor.h"
#include "ir/Error.h"
#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

void CodeGen_LLVM::codegen_parallel_for(const For *op) {
    llvm::Value *min = codegen(op->min);
    llvm::Value *extent = codegen(op->extent);

    // What the body needs from here, in a fixed (sorted) order.
    std::set<std::string> referenced = referenced_names(op->body);
    referenced.insert("__user_context");
    std::vector<std::string> names;
    std::vector<llvm::Value *> values;
    std::vector<llvm::Type *> types;
    for (const std::string &name : referenced) {
        if (name == op->name) continue;
        const auto *v = symbols.find(name);
        if (!v) continue;
        names.push_back(name);
        values.push_back(*v);
        types.push_back((*v)->getType());
    }
    llvm::StructType *closure_type =
        llvm::StructType::create(context, types, "closure." + op->name);
    llvm::Value *closure = create_entry_alloca(closure_type, nullptr, 16, op->name + ".closure");
    for (size_t i = 0; i < values.size(); i++) {
        builder->CreateStore(values[i],
                             builder->CreateStructGEP(closure_type, closure, unsigned(i)));
    }

    // The task function: generated with its own entry block, symbols and
    // heap allocations, then the builder returns here.
    auto *task_type = llvm::FunctionType::get(i32_t, {ptr_t, i32_t, ptr_t}, false);
    llvm::Function *task = llvm::Function::Create(task_type, llvm::GlobalValue::InternalLinkage,
                                                  "par_for." + op->name, module.get());
    set_function_attributes(task);
    task->addParamAttr(2, llvm::Attribute::NoAlias);
    task->getArg(0)->setName("__user_context");
    task->getArg(1)->setName(op->name);
    task->getArg(2)->setName("closure");

    llvm::Function *saved_function = function;
    llvm::BasicBlock *saved_entry = entry_block;
    llvm::BasicBlock *saved_block = builder->GetInsertBlock();
    std::vector<HeapRelease> saved_heap;
    saved_heap.swap(heap_allocations);
    // Vector lets of the enclosing function may refer to values the closure
    // does not carry: inside the task, loads use their captured value.
    Scope<Expr> saved_vector_lets;
    std::swap(saved_vector_lets, vector_lets);

    function = task;
    entry_block = llvm::BasicBlock::Create(context, "entry", task);
    builder->SetInsertPoint(entry_block);
    for (size_t i = 0; i < names.size(); i++) {
        llvm::Value *v = builder->CreateLoad(
            types[i], builder->CreateStructGEP(closure_type, task->getArg(2), unsigned(i)),
            names[i]);
        symbols.push(names[i], v);
    }
    // The runtime passes the loop variable itself; the task's own context
    // argument is the one errors inside it report through.
    symbols.push("__user_context", task->getArg(0));
    symbols.push(op->name, task->getArg(1));
    codegen_region(op->body);
    if (!builder->GetInsertBlock()->getTerminator())
        builder->CreateRet(llvm::ConstantInt::get(i32_t, 0));
    symbols.pop(op->name);
    symbols.pop("__user_context");
    for (const std::string &name : names) symbols.pop(name);

    function = saved_function;
    entry_block = saved_entry;
    heap_allocations.swap(saved_heap);
    std::swap(saved_vector_lets, vector_lets);
    builder->SetInsertPoint(saved_block);

    llvm::Value *result =
        call_c_function("loom_do_par_for", i32_t, {user_context(), task, min, extent, closure},
                        {Handle(), Handle(), Int(32), Int(32), Handle()});
    llvm::BasicBlock *failed = llvm::BasicBlock::Create(context, "par_for_failed", function);
    llvm::BasicBlock *done = llvm::BasicBlock::Create(context, op->name + ".par_done", function);
    builder->CreateCondBr(builder->CreateICmpNE(result, llvm::ConstantInt::get(i32_t, 0)), failed,
                          done);
    builder->SetInsertPoint(failed);
    return_with_cleanup(result);
    builder->SetInsertPoint(done);
}

} // namespace Internal
} // namespace loom
