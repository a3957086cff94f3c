#include "jit/ModuleSplit.h"

#include <set>

#include <llvm/IR/LegacyPassManager.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include "ir/Error.h"

namespace loom {
namespace Internal {

std::unique_ptr<llvm::Module> split_off_functions(llvm::Module &m,
                                                  const std::set<const llvm::Function *> &moved) {
    // Anything either part may define and the other use is named and
    // external; constants are simply defined in both.
    auto share = [](llvm::GlobalValue &gv) {
        if (!gv.hasLocalLinkage()) return;
        gv.setLinkage(llvm::GlobalValue::ExternalLinkage);
        gv.setVisibility(llvm::GlobalValue::DefaultVisibility);
        if (!gv.hasName()) gv.setName("loom.shared");
    };
    for (llvm::Function &f : m)
        if (!f.isDeclaration()) share(f);
    for (llvm::GlobalVariable &g : m.globals())
        if (!g.isConstant()) share(g);

    llvm::ValueToValueMapTy map;
    std::unique_ptr<llvm::Module> part =
        llvm::CloneModule(m, map, [&](const llvm::GlobalValue *gv) {
            if (const auto *f = llvm::dyn_cast<llvm::Function>(gv)) return moved.count(f) > 0;
            const auto *g = llvm::dyn_cast<llvm::GlobalVariable>(gv);
            return g && g->isConstant() && g->hasLocalLinkage();
        });
    for (llvm::Function &f : m) {
        if (!moved.count(&f)) continue;
        f.deleteBody();
        f.setLinkage(llvm::GlobalValue::ExternalLinkage);
    }
    // What one part uses of another's is not known to be near it: the JIT may
    // place the parts' code more than 2 GB apart (it did under ASan), out of
    // reach of a 32-bit PC-relative reference (a task's address passed to
    // the thread pool). Not dso_local, such references go through a GOT
    // entry or PLT stub that the linker puts next to the user. A function's
    // calls within its own part stay direct.
    auto far = [](llvm::Module &module) {
        for (llvm::Function &f : module)
            if (f.isDeclaration() && !f.isIntrinsic()) f.setDSOLocal(false);
        for (llvm::GlobalVariable &g : module.globals())
            if (g.isDeclaration()) g.setDSOLocal(false);
    };
    far(m);
    far(*part);
    return part;
}

std::unique_ptr<llvm::Module> split_off_optnone_functions(llvm::Module &m) {
    std::set<const llvm::Function *> optnone;
    for (llvm::Function &f : m)
        if (!f.isDeclaration() && f.hasFnAttribute(llvm::Attribute::OptimizeNone))
            optnone.insert(&f);
    if (optnone.empty()) return nullptr;
    return split_off_functions(m, optnone);
}

llvm::SmallVector<char, 0> emit_object_file(llvm::Module &m, llvm::TargetMachine &tm) {
    llvm::SmallVector<char, 0> object;
    llvm::raw_svector_ostream os(object);
    llvm::legacy::PassManager passes;
    if (tm.addPassesToEmitFile(passes, os, nullptr, llvm::CodeGenFileType::ObjectFile))
        internal_error("the LLVM target machine cannot write object files");
    passes.run(m);
    return object;
}

} // namespace Internal
} // namespace loom
