#ifndef LOOM_TEST_GPU_KERNEL_TEXT_UTIL_H
#define LOOM_TEST_GPU_KERNEL_TEXT_UTIL_H

// Reading printed device programs (OpenCL C, CUDA C) in the printers' tests:
// the text of one kernel and how often something occurs in it.

#include <catch2/catch.hpp>

#include <string>

namespace loom_test {

/** The text of one kernel, from its name to its closing brace: "void name("
 * or, where attributes stand between the two (CUDA's __launch_bounds__),
 * ") name(". The test fails when the program has no such kernel. */
inline std::string kernel_text(const std::string &program, const std::string &name) {
    size_t begin = program.find(" void " + name + "(");
    if (begin == std::string::npos) begin = program.find(") " + name + "(");
    INFO(program);
    REQUIRE(begin != std::string::npos);
    return program.substr(begin, program.find("\n}\n", begin) - begin);
}

/** How many times `what` occurs in `text` (overlapping ones too). */
inline int count(const std::string &text, const std::string &what) {
    int n = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) n++;
    return n;
}

} // namespace loom_test

#endif
