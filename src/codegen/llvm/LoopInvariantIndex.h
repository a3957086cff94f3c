#ifndef LOOM_CODEGEN_LLVM_LOOPINVARIANTINDEX_H
#define LOOM_CODEGEN_LLVM_LOOPINVARIANTINDEX_H

// The parts of an address index that do not change in the innermost loop
// being generated, summed and frozen.
//
// Loop strength reduction (InnermostLSR.cpp) searches, for each address in
// a loop, the ways of splitting its sum into registers: every symbolic term
// (a buffer's min, a row offset that depends on an outer loop, a consumer's
// bound) multiplies the formulae it weighs. An address of a stencil's tap
// has five or six such terms, and LSR spent 3-6 ms on a steady-state loop
// of seven loads (most of a pipeline's IR optimization time). With the
// invariant terms summed behind a `freeze`, ScalarEvolution sees one opaque
// value per address, plus the loop's own stride: LSR's search shrinks about
// fourfold, LICM still hoists the sum, and the loop's code is the same.

#include <unordered_map>
#include <vector>

#include <llvm/IR/IRBuilder.h>

namespace loom {
namespace Internal {

class LoopInvariantIndex {
public:
    /** A serial loop starts: `index` is its variable (a PHI in its header).
     * `few_trips`: a loop of a few constant trips, which the IR pipeline
     * may unroll into the loop around it (ShortLoopUnroll.cpp); its
     * addresses are left whole, so that strength reduction still sees how
     * they step in that loop. */
    void enter_loop(llvm::PHINode *index, bool few_trips);
    /** A function of its own starts (a task, an outlined loop nest): no
     * loop around the code until the next enter_loop. */
    void enter_function();
    /** Ends the innermost enter_loop or enter_function. */
    void leave();

    /** An index split as invariant + variant + constant (each null when
     * absent; invariant frozen). Inside no loop, or where nothing splits
     * off, only `variant` is set (to `index`). */
    struct Parts {
        llvm::Value *invariant = nullptr, *variant = nullptr, *constant = nullptr;
    };
    Parts split(llvm::IRBuilder<> &b, llvm::Value *index);

private:
    struct Level {
        llvm::PHINode *index = nullptr; // null: a function with no loop yet
        bool few_trips = false;
        std::unordered_map<const llvm::Value *, bool> varies;
        std::unordered_map<const llvm::BasicBlock *, bool> inside;
    };
    std::vector<Level> levels;

    bool varies(const llvm::Value *v, int depth);
    bool inside_loop(const llvm::BasicBlock *b);
};

} // namespace Internal
} // namespace loom

#endif
