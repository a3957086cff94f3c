#pragma once
// Loop strength reduction on innermost loops only (see InnermostLSR.cpp).

#include <llvm/IR/PassManager.h>

namespace loom {
namespace Internal {

/** Appends LLVM's loop strength reduction to fpm, for innermost loops only
 * (all loops when all_loops is set). The code generator's own run of it is
 * turned off in make_target_machine(). */
void add_loop_strength_reduction(llvm::FunctionPassManager &fpm, bool all_loops);

/** Turns off the code generator's loop strength reduction (once per
 * process; a user's own -disable-lsr setting wins). */
void disable_codegen_loop_strength_reduction();

} // namespace Internal
} // namespace loom
