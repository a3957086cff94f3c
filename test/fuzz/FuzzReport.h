// What the fuzz harnesses count and how they report a finding. A finding is
// anything Loom must never do: a crash, an InternalError, an exception other
// than CompileError/RuntimeError, a wrong result. The standalone driver counts
// findings and fails at the end; a libFuzzer build aborts, so that libFuzzer
// keeps the input.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace loom_fuzz {

struct Stats {
    long executions = 0;
    long succeeded = 0;        // ran and (pipelines) matched the reference
    long compile_errors = 0;   // refused with loom::CompileError
    long runtime_errors = 0;   // refused with loom::RuntimeError or an error code
    long c_backend_runs = 0;   // of the succeeded, also through the C backend
    long points_compared = 0;  // output values checked against the reference
    long points_undefined = 0; // skipped: the reference hit undefined behaviour
    long findings = 0;
    // Refusals by the start of their message, to see what the fuzzer hits.
    std::map<std::string, long> refusals;
};

Stats &stats();

/** False in the standalone driver (count and go on), true under libFuzzer. */
void set_abort_on_finding(bool abort_on_finding);

/** Print a finding (kind, details, the decoded program) and count it; aborts
 * under libFuzzer. */
void report_finding(const std::string &kind, const std::string &details,
                    const std::string &program);

/** Count a refusal and its message's first line (trimmed). */
void count_refusal(const std::string &prefix, const std::string &message);

/** Print the counters and the most common refusals. */
void print_stats(const char *harness);

/** Verbose mode (standalone --verbose / --only): print every decoded program. */
bool verbose();
void set_verbose(bool v);

} // namespace loom_fuzz

/** Each harness defines this (libFuzzer's entry point). */
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
