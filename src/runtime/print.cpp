// print()/print_when() output from generated code.

#include <cstdio>

#include "RuntimeFunctions.h"

extern "C" void loom_print(void *, const char *message) {
    // One fputs per line so lines from parallel loops do not interleave.
    std::fprintf(stderr, "%s\n", message ? message : "");
}
