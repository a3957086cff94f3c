#ifndef LOOM_CODEGEN_LLVM_LOOPINVARIANTINDEX_H
#define LOOM_CODEGEN_LLVM_LOOPINVARIANTINDEX_H

// The parts of an address index that no loop around it changes, summed and
// frozen.
//
// Loop strength reduction (InnermostLSR.cpp) searches, for each address in
// a loop, the ways of splitting its sum into registers: every symbolic term
// (a buffer's min, a consumer's bound, a row offset) multiplies the formulae
// it weighs. An address of a stencil's tap has five or six such terms, and
// LSR spent 3-6 ms on a steady-state loop of seven loads (most of a
// pipeline's IR optimization time). With the terms that no loop of the
// function changes summed behind a `freeze`, ScalarEvolution sees one opaque
// value per address plus the loops' own steps: LSR's search shrinks (harris:
// 28 to 11 ms), LICM still hoists the sum, and the loops' code is the same.
// Terms that change only in outer loops stay visible: frozen too (LSR 6 ms),
// a scan down short rows recomputed its row addresses with multiplies each
// row instead of stepping them (iir_blur's automatic schedule 13.7 to 15.6 ms).

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

    /** An index split into parts (each null when absent): `invariant`, the
     * terms no loop of the function changes, summed and frozen; `outer`,
     * the terms that change only in loops around the innermost one (left
     * visible, so that their steps are strength-reduced there: a scan down
     * short rows steps its row pointers instead of multiplying them out);
     * `variant`, the terms the innermost loop changes; `constant`. Inside
     * no loop, or where nothing splits off, only `variant` is set (to
     * `index`). */
    struct Parts {
        llvm::Value *invariant = nullptr, *outer = nullptr, *variant = nullptr, *constant = nullptr;
    };
    Parts split(llvm::IRBuilder<> &b, llvm::Value *index);

private:
    /** What is known about values and blocks relative to one loop. */
    struct Scope {
        const llvm::BasicBlock *header = nullptr;
        std::unordered_map<const llvm::Value *, bool> varies;
        std::unordered_map<const llvm::BasicBlock *, bool> inside;
    };
    struct Level {
        llvm::PHINode *index = nullptr; // null: a function with no loop yet
        bool few_trips = false;
        Scope loop;
    };
    std::vector<Level> levels;

    static bool inside(Scope &scope, const llvm::BasicBlock *block);
    static bool varies(Scope &scope, const llvm::Value *v, int depth);
};

} // namespace Internal
} // namespace loom

#endif
