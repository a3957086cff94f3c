#ifndef LOOM_IR_STACK_GUARD_H
#define LOOM_IR_STACK_GUARD_H

// Deeply nested IR (a chain of 100,000 additions, thousands of stages) makes
// every recursive pass recurse as deep. Two defences keep that from ever
// crashing the process:
//  - run_on_deep_stack() runs a compile step on a thread whose stack is large
//    enough for such inputs (lower() and the code generators use it);
//  - check_stack(), called on every IR node a visitor or mutator enters,
//    throws a CompileError when the stack is nearly used up, on any thread.

#include <cstdint>
#include <functional>
#include <vector>

#include "loom/Error.h"

namespace loom {
namespace Internal {

/** What check_stack() throws: a CompileError, told apart so that a step
 * can be tried again on a deep stack. */
struct StackExhausted : CompileError {
    using CompileError::CompileError;
};

/** What check_stack() throws once a compile step runs past the deadline a
 * ScopedCompileDeadline set (the autotuner's limit per candidate). */
struct CompileTimeLimit : CompileError {
    using CompileError::CompileError;
};

/** While alive, check_stack() on this thread (and in the steps it hands to
 * run_on_deep_stack) throws CompileTimeLimit once `seconds` have passed: a
 * lowering whose cost explodes (a schedule that makes bounds expressions
 * grow exponentially) stops at the next IR node. Checks take a slower path
 * meanwhile (a call, and the clock every 256 nodes). */
class ScopedCompileDeadline {
public:
    explicit ScopedCompileDeadline(double seconds);
    ~ScopedCompileDeadline();
    ScopedCompileDeadline(const ScopedCompileDeadline &) = delete;
    ScopedCompileDeadline &operator=(const ScopedCompileDeadline &) = delete;

private:
    int64_t previous_ns;
};

/** Below this address check_stack() stops the traversal; UINTPTR_MAX until
 * the thread's first check measures its stack. Initial-exec TLS keeps the
 * check to one load and one compare. */
extern thread_local uintptr_t stack_floor __attribute__((tls_model("initial-exec")));

/** Measures the stack on a thread's first check; throws a CompileError when
 * `here` is below the floor. */
void check_stack_slow(uintptr_t here);

inline void check_stack() {
    uintptr_t here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
    if (__builtin_expect(here < stack_floor, 0)) check_stack_slow(here);
}

/** Runs `step` on a thread with a large stack (or directly, when this
 * thread already is one) and rethrows whatever it throws. The caller waits,
 * so locks it holds protect the step as usual; thread-local state of the
 * caller is not visible to the step. The threads are kept for later steps
 * (a hand-over costs a few microseconds; starting one, a hundred). */
void run_on_deep_stack(const std::function<void()> &step);

/** Runs the steps at the same time, each on a deep stack (the first on
 * this thread when it is one), waits for all and rethrows the first
 * exception any threw. Steps must not share unsynchronized state. */
void run_on_deep_stacks_at_once(const std::vector<std::function<void()>> &steps);

/** Runs `step` here and, when the stack guard stops it, again on a deep
 * stack: for steps that change nothing until they finish and are usually
 * shallow (defining a Func), where a thread switch would cost more than the
 * step itself. */
void run_retrying_on_deep_stack(const std::function<void()> &step);

/** Whether this thread is a deep-stack thread made by run_on_deep_stack. */
bool on_deep_stack();

} // namespace Internal
} // namespace loom

#endif
