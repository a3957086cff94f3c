#ifndef LOOM_FRONTEND_JIT_CALL_H
#define LOOM_FRONTEND_JIT_CALL_H

// One call of JIT-compiled code, shared by Pipeline::realize,
// Pipeline::infer_input_bounds and Callable: the per-call context the
// generated code reports to, which routes print() output and errors to the
// handlers in effect (the call's JITUserContext, then the Pipeline's, then
// the defaults) along with heap allocations and parallel loops when custom
// handlers take them, and the dirty flags of buffers only host code touches.

#include <mutex>
#include <string>
#include <vector>

#include "LoomRuntime.h"
#include "jit/JITModule.h"
#include "loom/JITHandlers.h"
#include "lower/LoweredFunc.h"

namespace loom {
namespace Internal {

class JITCall {
public:
    /** `pipeline` names the pipeline in messages without one of their own. */
    JITCall(JITUserContext *user, const JITHandlers &pipeline_handlers, std::string pipeline);
    JITCall(const JITCall &) = delete;
    JITCall &operator=(const JITCall &) = delete;

    /** argv[0] of the generated code. */
    void *context() { return &context_; }

    /** Runs fn over argv (argv[0] == context(), then one entry per argument
     * of f). Returns 0; on failure throws RuntimeError with the collected
     * message, or, with a custom error handler, returns the error code. */
    int run(const LoweredFunc &f, JITModule::ArgvFunction fn, std::vector<void *> &argv);

    /** An error found before the code runs (bad arguments), reported the
     * same way: RuntimeError, or the custom handler and `code`. */
    int fail(const std::string &message, int code = loom_error_code_generic);

    bool has_custom_error_handler() const { return handlers_.custom_error != nullptr; }

private:
    static void on_error(loom_call_context_t *context, const char *message);
    static void on_print(loom_call_context_t *context, const char *message);
    static int32_t on_trace(loom_call_context_t *context, const loom_trace_event_t *event);
    static void *on_malloc(loom_call_context_t *context, size_t bytes);
    static void on_free(loom_call_context_t *context, void *ptr);
    static int on_do_par_for(loom_call_context_t *context, int (*task)(void *, int, uint8_t *),
                             int min, int extent, uint8_t *closure);
    // A parallel loop handed to custom_do_par_for/custom_do_task: their f
    // runs the generated task with this call's context.
    struct Loop {
        JITCall *call;
        int (*task)(void *, int, uint8_t *);
        uint8_t *closure;
    };
    static int run_loop_body(JITUserContext *, int index, uint8_t *loop);
    static int run_through_do_task(void *, int index, uint8_t *loop);

    JITUserContext empty_; // handed to the handlers when the call has no context
    JITUserContext *user_;
    JITHandlers handlers_;
    std::string pipeline_;
    std::mutex mutex_; // tasks of a parallel loop may fail at the same time
    std::string message_;
    loom_call_context_t context_;
};

/** Target() (what Halide code passes for "the JIT target") becomes
 * get_jit_target_from_environment() with its features; a target the JIT
 * cannot run in this process (another architecture, OS or word size) is a
 * CompileError. */
Target resolve_jit_target(const Target &target, const std::string &pipeline);

} // namespace Internal
} // namespace loom

#endif
