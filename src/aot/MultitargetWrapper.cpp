// compile_multitarget_wrapper(): the entry points of a multitarget library,
// which pick one of its variants (the same pipeline compiled for several
// targets) by the running CPU's extensions and forward every call to it.
//
// The wrapper starts as the baseline's own module, so the entry points keep
// their exact LLVM signatures and the metadata describes the baseline; their
// bodies are then replaced by forwarding calls and everything else they used
// is optimized away.

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include "aot/AOTOutputs.h"
#include "aot/EmitModule.h"
#include "codegen/llvm/CodeGen_LLVM.h"
#include "ir/Error.h"

namespace loom {
namespace Internal {

namespace {

// int choose_variant(): the index of the first variant the CPU can run, found
// once (a benign race: every thread computes the same value) and kept in a
// global.
llvm::Function *define_variant_chooser(llvm::Module &m,
                                       const std::vector<std::string> &cpu_features) {
    llvm::LLVMContext &context = m.getContext();
    llvm::Type *i32 = llvm::Type::getInt32Ty(context);
    llvm::Type *ptr = llvm::PointerType::get(context, 0);
    auto *chosen = new llvm::GlobalVariable(m, i32, false, llvm::GlobalValue::InternalLinkage,
                                            llvm::ConstantInt::get(i32, -1),
                                            "loom_multitarget_chosen_variant");
    chosen->setAlignment(llvm::Align(4));
    llvm::FunctionCallee can_use = m.getOrInsertFunction(
        "loom_can_use_cpu_features", llvm::FunctionType::get(i32, {ptr}, false));
    auto *fn = llvm::Function::Create(llvm::FunctionType::get(i32, {}, false),
                                      llvm::GlobalValue::InternalLinkage,
                                      "loom_multitarget_choose_variant", &m);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", fn));
    llvm::LoadInst *known = b.CreateLoad(i32, chosen);
    known->setAtomic(llvm::AtomicOrdering::Monotonic);
    known->setAlignment(llvm::Align(4));
    auto *search = llvm::BasicBlock::Create(context, "search", fn);
    auto *done = llvm::BasicBlock::Create(context, "known", fn);
    b.CreateCondBr(b.CreateICmpSGE(known, llvm::ConstantInt::get(i32, 0)), done, search);
    b.SetInsertPoint(done);
    b.CreateRet(known);

    auto *found = llvm::BasicBlock::Create(context, "found", fn);
    b.SetInsertPoint(found);
    llvm::PHINode *index = b.CreatePHI(i32, unsigned(cpu_features.size()));
    llvm::StoreInst *store = b.CreateStore(index, chosen);
    store->setAtomic(llvm::AtomicOrdering::Monotonic);
    store->setAlignment(llvm::Align(4));
    b.CreateRet(index);

    b.SetInsertPoint(search);
    for (size_t i = 0; i + 1 < cpu_features.size(); i++) {
        llvm::Value *ok = b.CreateCall(can_use, {b.CreateGlobalStringPtr(cpu_features[i])});
        auto *next = llvm::BasicBlock::Create(context, "try" + std::to_string(i + 1), fn);
        index->addIncoming(llvm::ConstantInt::get(i32, int(i)), b.GetInsertBlock());
        b.CreateCondBr(b.CreateICmpNE(ok, llvm::ConstantInt::get(i32, 0)), found, next);
        b.SetInsertPoint(next);
    }
    // The last variant is the fallback.
    index->addIncoming(llvm::ConstantInt::get(i32, int(cpu_features.size() - 1)),
                       b.GetInsertBlock());
    b.CreateBr(found);
    return fn;
}

// Replace the body of entry point `fn` by a call of the same symbol of the
// chosen variant (name: variant name + suffix).
void forward_to_variants(llvm::Function &fn, const std::string &suffix,
                         const std::vector<std::string> &variant_names, llvm::Function *chooser) {
    llvm::Module &m = *fn.getParent();
    llvm::LLVMContext &context = m.getContext();
    llvm::AttributeList attributes = fn.getAttributes();
    fn.deleteBody();
    fn.setAttributes(attributes);
    fn.setLinkage(llvm::GlobalValue::ExternalLinkage);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", &fn));
    std::vector<llvm::Value *> args;
    for (llvm::Argument &a : fn.args()) args.push_back(&a);
    llvm::Value *choice = b.CreateCall(chooser);
    auto *fallback = llvm::BasicBlock::Create(context, "variant_fallback", &fn);
    llvm::SwitchInst *sw = b.CreateSwitch(choice, fallback, unsigned(variant_names.size()));
    for (size_t i = 0; i < variant_names.size(); i++) {
        llvm::BasicBlock *block =
            i + 1 == variant_names.size()
                ? fallback
                : llvm::BasicBlock::Create(context, "variant" + std::to_string(i), &fn);
        if (i + 1 < variant_names.size())
            sw->addCase(llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), int(i)), block);
        b.SetInsertPoint(block);
        llvm::FunctionCallee callee =
            m.getOrInsertFunction(variant_names[i] + suffix, fn.getFunctionType());
        // The same parameter attributes (zext of bools) as the variant's
        // definition, so that arguments pass exactly as it expects.
        if (auto *declared = llvm::dyn_cast<llvm::Function>(callee.getCallee()))
            declared->setAttributes(attributes);
        llvm::CallInst *call = b.CreateCall(callee, args);
        call->setAttributes(attributes);
        call->setTailCall();
        if (fn.getReturnType()->isVoidTy())
            b.CreateRetVoid();
        else
            b.CreateRet(call);
    }
}

} // namespace

std::string compile_multitarget_wrapper(const LoweredFunc &f,
                                        const std::vector<std::string> &variant_names,
                                        const std::vector<std::string> &cpu_features,
                                        const Target &t) {
    internal_assert(!variant_names.empty() && variant_names.size() == cpu_features.size(),
                    "a multitarget wrapper needs one feature list per variant");
    std::unique_ptr<llvm::TargetMachine> tm = make_target_machine(t);
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module = codegen_llvm(f, t, context, *tm);
    module->setPICLevel(llvm::PICLevel::BigPIC);
    llvm::Function *chooser = define_variant_chooser(*module, cpu_features);
    // The metadata stays the baseline's; the callable entry points forward.
    for (const char *suffix : {"", "_argv", "_with_context"}) {
        llvm::Function *fn = module->getFunction(f.name + suffix);
        internal_assert(fn, "the entry point " << f.name << suffix << " was not generated");
        forward_to_variants(*fn, suffix, variant_names, chooser);
    }
    internalize_helpers(*module, exported_symbols(f));

    std::string problems;
    llvm::raw_string_ostream problems_stream(problems);
    if (llvm::verifyModule(*module, &problems_stream))
        internal_error("generated an invalid multitarget wrapper for " << f.name << ":\n"
                                                                       << problems);
    optimize_module(*module, *tm);
    return emit_module(*module, *tm, MachineCodeKind::Object, t);
}

} // namespace Internal
} // namespace loom
