// Outlined code. The body of a ForType::Parallel loop becomes an internal
// function `int task(void *uc, int index, uint8_t *closure)` and the loop a
// call to the runtime's loom_do_par_for, which runs the task for every index
// of [min, min + extent) on the thread pool. Each serial loop nest at the
// top level becomes `int nest(void *uc, uint8_t *closure)`, called once
// (in a pipeline with many, runs of a few nests and of checks share one):
// the entry function keeps only glue, compiled without optimization
// (CodeGen_LLVM.cpp), and LLVM's code generation, which costs more than
// linear time in the size of a function, stays linear in the length of a
// long pipeline.
//
// The closure is a struct (on the caller's stack) holding every value of the
// enclosing function the body refers to: lets, loop variables, buffer host
// pointers and fields, allocations, the user context.

#include <algorithm>
#include <set>

#include <llvm/IR/Constants.h>

#include "codegen/llvm/CodeGen_LLVM_Visitor.h"
#include "ir/Error.h"
#include "ir/IRUtil.h"
#include "ir/IRVisitor.h"

namespace loom {
namespace Internal {

CodeGen_LLVM::Outlined CodeGen_LLVM::outline(const Stmt &body, const std::string &name,
                                             const std::string &index) {
    // What the body needs from here, in a fixed (sorted) order.
    std::set<std::string> referenced = referenced_names(body);
    referenced.insert("__user_context");
    std::vector<std::string> names;
    std::vector<llvm::Value *> values;
    std::vector<llvm::Type *> types;
    for (const std::string &n : referenced) {
        if (n == index) continue;
        const auto *v = symbols.find(n);
        if (!v) continue;
        llvm::Value *value = rematerialized(n);
        if (!value) value = *v;
        names.push_back(n);
        values.push_back(value);
        types.push_back(value->getType());
    }
    llvm::StructType *closure_type = llvm::StructType::create(context, types, "closure." + name);
    // Aligned for its widest member (a vector let): the stores into it are
    // aligned accesses, which fault on less in unoptimized code.
    int align = std::max(16, int(module->getDataLayout().getPrefTypeAlign(closure_type).value()));
    llvm::Value *closure = create_entry_alloca(closure_type, nullptr, align, name + ".closure");
    for (size_t i = 0; i < values.size(); i++) {
        builder->CreateStore(values[i],
                             builder->CreateStructGEP(closure_type, closure, unsigned(i)));
    }

    // The function: generated with its own entry block, symbols and heap
    // allocations, then the builder returns here.
    std::vector<llvm::Type *> params{ptr_t};
    if (!index.empty()) params.push_back(i32_t);
    params.push_back(ptr_t);
    auto *type = llvm::FunctionType::get(i32_t, params, false);
    llvm::Function *fn =
        llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage, name, module.get());
    set_function_attributes(fn);
    llvm::Argument *closure_arg = fn->getArg(unsigned(params.size() - 1));
    closure_arg->addAttr(llvm::Attribute::NoAlias);
    closure_arg->setName("closure");
    fn->getArg(0)->setName("__user_context");
    if (!index.empty()) fn->getArg(1)->setName(index);

    llvm::Function *saved_function = function;
    llvm::BasicBlock *saved_entry = entry_block;
    llvm::BasicBlock *saved_block = builder->GetInsertBlock();
    std::vector<HeapRelease> saved_heap;
    saved_heap.swap(heap_allocations);
    // Vector lets of the enclosing function may refer to values the closure
    // does not carry: inside the function, loads use their captured value.
    Scope<Expr> saved_vector_lets;
    std::swap(saved_vector_lets, vector_lets);

    function = fn;
    entry_block = llvm::BasicBlock::Create(context, "entry", fn);
    builder->SetInsertPoint(entry_block);
    for (size_t i = 0; i < names.size(); i++) {
        llvm::Value *v = builder->CreateLoad(
            types[i], builder->CreateStructGEP(closure_type, closure_arg, unsigned(i)), names[i]);
        symbols.push(names[i], v);
    }
    // The function's own context argument is the one errors inside it
    // report through; a task gets the loop variable from the runtime.
    symbols.push("__user_context", fn->getArg(0));
    if (!index.empty()) symbols.push(index, fn->getArg(1));
    loop_depth++;
    invariant_index.enter_function();
    codegen_region(body);
    invariant_index.leave();
    loop_depth--;
    if (!builder->GetInsertBlock()->getTerminator())
        builder->CreateRet(llvm::ConstantInt::get(i32_t, 0));
    if (!index.empty()) symbols.pop(index);
    symbols.pop("__user_context");
    for (const std::string &n : names) symbols.pop(n);

    function = saved_function;
    entry_block = saved_entry;
    heap_allocations.swap(saved_heap);
    std::swap(saved_vector_lets, vector_lets);
    builder->SetInsertPoint(saved_block);
    return {fn, closure};
}

void CodeGen_LLVM::return_on_error(llvm::Value *result, const std::string &name) {
    llvm::BasicBlock *failed = llvm::BasicBlock::Create(context, name + ".failed", function);
    llvm::BasicBlock *done = llvm::BasicBlock::Create(context, name + ".done", function);
    builder->CreateCondBr(builder->CreateICmpNE(result, llvm::ConstantInt::get(i32_t, 0)), failed,
                          done);
    builder->SetInsertPoint(failed);
    return_with_cleanup(result);
    builder->SetInsertPoint(done);
}

void CodeGen_LLVM::codegen_parallel_for(const For *op) {
    llvm::Value *min = codegen(op->min);
    llvm::Value *extent = codegen(op->extent);
    PiecesScope pieces(*this, op->body, single_loop_nest && loop_depth == 0);
    Outlined task = outline(op->body, "par_for." + op->name, op->name);
    llvm::Value *result = call_c_function(
        "loom_do_par_for", i32_t, {user_context(), task.function, min, extent, task.closure},
        {Handle(), Handle(), Int(32), Int(32), Handle()});
    return_on_error(result, op->name + ".par_for");
}

namespace {

/** How a top-level statement of a function with outlined nests is grouped. */
enum class Part { Other, Checks, Nest };

/** Checks: asserts, and branches and calls with no loops, storage or memory
 * accesses inside. Nests: loops (with their producer/consumer markers) that
 * free no buffer of the caller. */
Part part_of(const Stmt &s) {
    class Finder : public IRVisitor {
    public:
        bool loops = false, storage = false, frees = false;
        using IRVisitor::visit;
        void visit(const For *op) override {
            loops = true;
            IRVisitor::visit(op);
        }
        void visit(const Allocate *op) override {
            storage = true;
            IRVisitor::visit(op);
        }
        void visit(const Free *) override { frees = true; }
        void visit(const Store *op) override {
            storage = true;
            IRVisitor::visit(op);
        }
        void visit(const Load *op) override {
            storage = true;
            IRVisitor::visit(op);
        }
        void visit(const Provide *op) override {
            storage = true;
            IRVisitor::visit(op);
        }
        void visit(const Realize *op) override {
            storage = true;
            IRVisitor::visit(op);
        }
        void visit(const ProducerConsumer *op) override {
            storage = true;
            IRVisitor::visit(op);
        }
    } finder;
    bool check_like = s.as<AssertStmt>() || s.as<IfThenElse>() || s.as<Evaluate>();
    // A consume node holds the rest of the pipeline: never walked here.
    const auto *pc = s.as<ProducerConsumer>();
    bool nest_like = s.as<For>() || (pc && pc->is_producer);
    if (!check_like && !nest_like) return Part::Other;
    s.accept(&finder);
    if (finder.frees) return Part::Other;
    if (check_like && !finder.loops && !finder.storage) return Part::Checks;
    return nest_like ? Part::Nest : Part::Other;
}

/** Statements per outlined function: small enough for LLVM to be cheap on,
 * large enough that the calling function stays small. */
constexpr size_t statements_per_function = 16;

} // namespace

void CodeGen_LLVM::codegen_block_outlining_parts(const Block *op) {
    std::vector<Stmt> stmts;
    Stmt s = op;
    while (const auto *b = s.as<Block>()) {
        stmts.push_back(b->first);
        s = b->rest;
    }
    stmts.push_back(s);
    std::vector<Stmt> run;
    Part run_part = Part::Other;
    auto flush = [&]() {
        for (size_t i = 0; i < run.size(); i += statements_per_function) {
            size_t end = std::min(run.size(), i + statements_per_function);
            if (end - i == 1 && run_part == Part::Nest) {
                codegen(run[i]); // a lone nest: its loops are outlined one by one
                continue;
            }
            Stmt body =
                Block::make(std::vector<Stmt>(run.begin() + long(i), run.begin() + long(end)));
            std::string name = (run_part == Part::Checks ? "checks." : "nests.") +
                               std::to_string(outlined_parts++);
            Outlined part = outline(body, name, "");
            part.function->addFnAttr(llvm::Attribute::NoInline);
            llvm::Value *result =
                builder->CreateCall(part.function, {user_context(), part.closure});
            return_on_error(result, name);
            note_field_writes(body);
        }
        run.clear();
    };
    for (const Stmt &st : stmts) {
        Part p = part_of(st);
        if (p != run_part) flush();
        run_part = p;
        if (p == Part::Other) {
            codegen(st);
        } else {
            run.push_back(st);
        }
    }
    flush();
}

void CodeGen_LLVM::codegen_outlined_loop(const For *op) {
    Outlined nest = outline(op, "loop_nest." + op->name, "");
    // Its own function, so that LLVM's cost stays that of one loop nest.
    nest.function->addFnAttr(llvm::Attribute::NoInline);
    llvm::Value *result = builder->CreateCall(nest.function, {user_context(), nest.closure});
    return_on_error(result, op->name + ".nest");
}

} // namespace Internal
} // namespace loom
