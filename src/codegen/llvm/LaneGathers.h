#pragma once
// Gathers as one load per lane where that runs faster (see LaneGathers.cpp).

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace loom {
namespace Internal {

/** Rewrites the unmasked llvm.masked.gather calls of m (a buffer's base plus
 * a vector of indices) as one scalar load per lane: always where the target
 * has no gather instruction, and otherwise while the module has few. */
void lower_gathers(llvm::Module &m, llvm::TargetMachine &tm);

} // namespace Internal
} // namespace loom
