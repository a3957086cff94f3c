#ifndef LOOM_CODEGEN_LLVM_CODEGEN_H
#define LOOM_CODEGEN_LLVM_CODEGEN_H

// LoweredFunc -> llvm::Module for a CPU target (see LoweredFunc.h for the
// entry points generated).

#include <memory>

#include "loom/Target.h"
#include "lower/LoweredFunc.h"

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
} // namespace llvm

namespace loom {
namespace Internal {

/** A TargetMachine for t (host CPU name and features for "host"). */
std::unique_ptr<llvm::TargetMachine> make_target_machine(const Target &t);

/** Generate the module: NAME_with_context, NAME, NAME_argv, NAME_metadata. */
std::unique_ptr<llvm::Module> codegen_llvm(const LoweredFunc &f, const Target &t,
                                           llvm::LLVMContext &ctx, llvm::TargetMachine &tm);

/** Run LLVM's optimization pipeline (O3-like, tuned for compile speed) on m. */
void optimize_module(llvm::Module &m, llvm::TargetMachine &tm);

} // namespace Internal
} // namespace loom

#endif
