#ifndef LOOM_FRONTEND_CALLABLE_CONTENTS_H
#define LOOM_FRONTEND_CALLABLE_CONTENTS_H

// What a Callable holds: the compiled code and how its arguments map onto
// the entry point's (made by Pipeline::compile_to_callable).

#include <string>
#include <vector>

#include "jit/JITModule.h"
#include "loom/Argument.h"
#include "loom/JITHandlers.h"
#include "lower/LoweredFunc.h"

namespace loom {
namespace Internal {

struct CallableContents {
    std::string name; // the first output's, for messages
    LoweredFunc lowered;
    JITModule module;
    /** What a call passes: the listed arguments, then the outputs. */
    std::vector<Argument> arguments;
    /** For each argument of `lowered`: the index in `arguments` of its
     * value, or -1 for a concrete Buffer the pipeline reads (passed itself). */
    std::vector<int> source;
    /** The Pipeline's jit_handlers() when the Callable was made. */
    JITHandlers handlers;
    /** What `lowered` is compiled for. */
    Target target;
};

/** Compile `outputs` for a Callable taking `args` (then the outputs). */
CallableContents make_callable_contents(const std::vector<Function> &outputs,
                                        const std::vector<Argument> &args, const Target &target,
                                        const JITHandlers &handlers);

/** make_callable_contents in two halves, so that several pipelines compile
 * at once (loom::autotune): lower_callable lowers and maps the arguments
 * (it reads the Funcs' schedules, so nothing may change them meanwhile);
 * compile_callable makes the machine code, on any thread. */
CallableContents lower_callable(const std::vector<Function> &outputs,
                                const std::vector<Argument> &args, const Target &target,
                                const JITHandlers &handlers);
void compile_callable(CallableContents &c);

} // namespace Internal
} // namespace loom

#endif
