// compile_machine_code(): LoweredFunc -> optimized LLVM module -> object file
// or assembly, through the same code generator and optimization pipeline as
// the JIT, so AOT code runs as fast as JIT code for the same schedule.

#include <algorithm>

#include <llvm/ADT/SmallVector.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include "aot/AOTOutputs.h"
#include "aot/EmitModule.h"
#include "codegen/llvm/CodeGen_LLVM.h"
#include "ir/Error.h"
#include "ir/StackGuard.h"

namespace loom {
namespace Internal {

namespace {

// The kind of output, as error messages name it.
const char *kind_name(MachineCodeKind kind) {
    switch (kind) {
    case MachineCodeKind::Object:
        return "object files";
    case MachineCodeKind::Assembly:
        return "assembly";
    case MachineCodeKind::Bitcode:
        return "bitcode";
    case MachineCodeKind::LLVMAssembly:
        return "LLVM assembly";
    }
    return "output";
}

bool is_exported(const std::vector<std::string> &exported, llvm::StringRef name) {
    return std::find(exported.begin(), exported.end(), name.str()) != exported.end();
}

} // namespace

// Two generated libraries linked into one program must not clash, so every
// definition except the entry points becomes internal (declarations of
// runtime and libc functions stay external: the linker resolves them).
void internalize_helpers(llvm::Module &m, const std::vector<std::string> &exported) {
    for (llvm::Function &fn : m.functions()) {
        if (fn.isDeclaration() || is_exported(exported, fn.getName())) continue;
        fn.setLinkage(llvm::GlobalValue::InternalLinkage);
        fn.setVisibility(llvm::GlobalValue::DefaultVisibility);
    }
    for (llvm::GlobalVariable &g : m.globals()) {
        if (g.isDeclaration() || g.hasLocalLinkage()) continue;
        g.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

namespace {

// The "debug" feature keeps frame pointers everywhere so that debuggers and
// profilers walk the stack through generated code.
void apply_debug_feature(llvm::Module &m, const Target &t) {
    if (!t.has_feature(Target::Debug)) return;
    for (llvm::Function &fn : m.functions())
        if (!fn.isDeclaration()) fn.addFnAttr("frame-pointer", "all");
}

} // namespace

std::vector<std::string> exported_symbols(const LoweredFunc &f) {
    return {f.name, f.name + "_argv", f.name + "_metadata", f.name + "_with_context"};
}

namespace {

std::string compile_machine_code_on_this_stack(const LoweredFunc &f, const Target &t,
                                               MachineCodeKind kind) {
    std::unique_ptr<llvm::TargetMachine> tm = make_target_machine(t);
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module = codegen_llvm(f, t, context, *tm);
    module->setPICLevel(llvm::PICLevel::BigPIC);
    internalize_helpers(*module, exported_symbols(f));
    apply_debug_feature(*module, t);

    std::string problems;
    llvm::raw_string_ostream problems_stream(problems);
    if (llvm::verifyModule(*module, &problems_stream))
        internal_error("generated invalid LLVM IR for " << f.name << ":\n" << problems);
    optimize_module(*module, *tm);
    return emit_module(*module, *tm, kind, t);
}

} // namespace

std::string compile_machine_code(const LoweredFunc &f, const Target &t, MachineCodeKind kind) {
    // LLVM's passes and instruction selection recurse over deep expression
    // chains too, so machine code is made where codegen_llvm runs.
    std::string code;
    run_on_deep_stack([&] { code = compile_machine_code_on_this_stack(f, t, kind); });
    return code;
}

std::string emit_module(llvm::Module &module, llvm::TargetMachine &tm, MachineCodeKind kind,
                        const Target &t) {
    llvm::SmallVector<char, 0> bytes;
    llvm::raw_svector_ostream out(bytes);
    if (kind == MachineCodeKind::Bitcode) {
        llvm::WriteBitcodeToFile(module, out);
    } else if (kind == MachineCodeKind::LLVMAssembly) {
        module.print(out, nullptr);
    } else {
        llvm::legacy::PassManager passes;
        auto file_type = kind == MachineCodeKind::Object ? llvm::CodeGenFileType::ObjectFile
                                                         : llvm::CodeGenFileType::AssemblyFile;
        if (tm.addPassesToEmitFile(passes, out, nullptr, file_type))
            user_error("LLVM cannot emit " << kind_name(kind) << " for target " << t.to_string());
        passes.run(module);
    }
    return std::string(bytes.data(), bytes.size());
}

} // namespace Internal
} // namespace loom
