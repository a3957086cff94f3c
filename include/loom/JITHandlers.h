#ifndef LOOM_JIT_HANDLERS_H
#define LOOM_JIT_HANDLERS_H

/** \file JITHandlers and JITUserContext: hooks that replace what JIT-compiled
 * pipelines do with print() output and with errors, for every call of a
 * Pipeline (Pipeline::jit_handlers()) or for one call (a JITUserContext
 * passed to realize, infer_input_bounds or a Callable). */

namespace loom {

struct JITUserContext;

/** Replacements of the JIT runtime's hooks; a null member keeps the one
 * below it (the call's, then the Pipeline's, then the default). */
struct JITHandlers {
    /** Receives each line of print()/print_when() output (without the
     * newline). The default writes it to stderr. */
    void (*custom_print)(JITUserContext *context, const char *message) = nullptr;
    /** Receives the message of an error in the call. The default makes the
     * call throw RuntimeError with it; with a custom handler, realize and
     * infer_input_bounds return normally and a Callable returns the
     * (negative) error code. */
    void (*custom_error)(JITUserContext *context, const char *message) = nullptr;
};

/** Per-call state passed first to realize, infer_input_bounds or a
 * Callable. Derive from it to hand your own data to the handlers, which
 * receive the pointer passed in. */
struct JITUserContext {
    JITHandlers handlers;
};

} // namespace loom

#endif
