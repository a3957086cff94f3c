#ifndef LOOM_AOT_EMIT_MODULE_H
#define LOOM_AOT_EMIT_MODULE_H

// The LLVM side of src/aot shared by its files (includes LLVM: never include
// it from the front end).

#include <string>
#include <vector>

#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include "aot/AOTOutputs.h"

namespace loom {
namespace Internal {

/** Make every definition of m internal except the exported names (so two
 * generated libraries link into one program without clashes). */
void internalize_helpers(llvm::Module &m, const std::vector<std::string> &exported);

/** The optimized module m as an object file, assembly, bitcode or LLVM
 * assembly for t. */
std::string emit_module(llvm::Module &m, llvm::TargetMachine &tm, MachineCodeKind kind,
                        const Target &t);

} // namespace Internal
} // namespace loom

#endif
