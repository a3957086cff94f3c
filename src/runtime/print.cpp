// print()/print_when() output from generated code.

#include <cstdio>
#include <string>

#include "RuntimeFunctions.h"

extern "C" void loom_print(void *user_context, const char *message) {
    auto *context = static_cast<loom_call_context_t *>(user_context);
    if (context && context->print_handler) {
        // The handler gets the whole line, newline included, as Halide's
        // custom print handlers do.
        std::string line = message ? message : "";
        line += '\n';
        context->print_handler(context, line.c_str());
        return;
    }
    // One fputs per line so lines from parallel loops do not interleave.
    std::fprintf(stderr, "%s\n", message ? message : "");
}
