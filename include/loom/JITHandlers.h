#ifndef LOOM_JIT_HANDLERS_H
#define LOOM_JIT_HANDLERS_H

/** \file JITHandlers and JITUserContext: hooks that replace what JIT-compiled
 * pipelines do with print() output, errors, heap memory and parallel loops,
 * for every call of a Pipeline (Pipeline::jit_handlers()) or for one call
 * (a JITUserContext passed to realize, infer_input_bounds or a Callable). */

#include <cstddef>
#include <cstdint>

#include "LoomRuntime.h"

namespace loom {

struct JITUserContext;

/** A trace event (Halide's halide_trace_event_t), defined in LoomRuntime.h. */
using ::loom_trace_event_t;

/** Replacements of the JIT runtime's hooks; a null member keeps the one
 * below it (the call's, then the Pipeline's, then the default). */
struct JITHandlers {
    /** Receives each line of print()/print_when() output (without the
     * newline). The default writes it to stderr. */
    void (*custom_print)(JITUserContext *context, const char *message) = nullptr;
    /** Heap memory of the pipeline's allocations (those too large or too
     * dynamic for the stack); the default is an aligned malloc. The result
     * need not be aligned: Loom asks for a little more and aligns it. What
     * custom_malloc returned goes back through custom_free (free() when
     * only custom_malloc is set). custom_free alone has no effect: memory
     * of the default allocator is freed by it. A null result makes the call
     * fail with an out-of-memory error. */
    void *(*custom_malloc)(JITUserContext *context, size_t bytes) = nullptr;
    void (*custom_free)(JITUserContext *context, void *ptr) = nullptr;
    /** Runs one iteration of a parallel loop: must call f(context, idx,
     * closure) and return its result. The default just calls it. Used by
     * the default custom_do_par_for (Loom's thread pool), once per index. */
    int (*custom_do_task)(JITUserContext *context, int (*f)(JITUserContext *, int, uint8_t *),
                          int idx, uint8_t *closure) = nullptr;
    /** Runs a whole parallel loop: must call f(context, i, closure) for every
     * i in [min, min + size), in any order and on any threads, and return 0
     * or a nonzero value one of them returned. The default runs it on Loom's
     * thread pool (through custom_do_task when that is set). */
    int (*custom_do_par_for)(JITUserContext *context, int (*f)(JITUserContext *, int, uint8_t *),
                             int min, int size, uint8_t *closure) = nullptr;
    /** Receives the message of an error in the call. The default makes the
     * call throw RuntimeError with it; with a custom handler, realize and
     * infer_input_bounds return normally and a Callable returns the
     * (negative) error code. */
    void (*custom_error)(JITUserContext *context, const char *message) = nullptr;
    /** Receives each trace event of the call (Func::trace_loads,
     * trace_stores, trace_realizations, add_trace_tag and the trace_*
     * target features) and returns an id; begin_pipeline,
     * begin_realization, produce and consume events pass theirs as
     * parent_id to the events inside them. The default prints one line per
     * event through custom_print (stderr), e.g. `Store f.0(3, 4) = 7`. */
    int32_t (*custom_trace)(JITUserContext *context, const loom_trace_event_t *event) = nullptr;
    /** Accepted for Halide source compatibility; no effect: Loom's JIT
     * resolves its runtime inside libloom and loads GPU drivers with
     * dlopen, not through these. */
    void *(*custom_get_symbol)(const char *name) = nullptr;
    void *(*custom_load_library)(const char *name) = nullptr;
    void *(*custom_get_library_symbol)(void *lib, const char *name) = nullptr;
};

/** Per-call state passed first to realize, infer_input_bounds or a
 * Callable. Derive from it to hand your own data to the handlers, which
 * receive the pointer passed in. */
struct JITUserContext {
    JITHandlers handlers;
};

} // namespace loom

#endif
