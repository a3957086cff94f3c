#pragma once
// Full unrolling of short reduction loops over register accumulators (see
// ShortLoopUnroll.cpp).

#include <llvm/IR/PassManager.h>

namespace llvm {
class Function;
}

namespace loom {
namespace Internal {

/** The most constant trips of a loop the pass below unrolls. */
constexpr unsigned short_loop_max_trips = 8;

/** Appends to fpm a pass that fully unrolls innermost loops of a few constant
 * trips whose accumulators live in vector registers (a convolution's taps)
 * and marks the functions where it did (see was_short_loop_unrolled). */
void add_short_loop_unrolling(llvm::FunctionPassManager &fpm);

/** Did add_short_loop_unrolling's pass unroll a loop of f? */
bool was_short_loop_unrolled(const llvm::Function &f);

} // namespace Internal
} // namespace loom
