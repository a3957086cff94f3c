#include "FuzzReport.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace loom_fuzz {

namespace {
bool abort_flag = true;
bool verbose_flag = false;
} // namespace

Stats &stats() {
    static Stats s;
    return s;
}

void set_abort_on_finding(bool abort_on_finding) {
    abort_flag = abort_on_finding;
}

bool verbose() {
    return verbose_flag;
}

void set_verbose(bool v) {
    verbose_flag = v;
}

void report_finding(const std::string &kind, const std::string &details,
                    const std::string &program) {
    stats().findings++;
    std::fprintf(stderr, "\n=== FINDING (%s) ===\n%s\n--- program ---\n%s\n=== end ===\n",
                 kind.c_str(), details.c_str(), program.c_str());
    std::fflush(stderr);
    if (abort_flag) std::abort();
}

void count_refusal(const std::string &prefix, const std::string &message) {
    std::string line = message.substr(0, message.find('\n'));
    // Names of Funcs and numbers vary; the first words say what kind it is.
    if (line.size() > 70) line = line.substr(0, 70);
    stats().refusals[prefix + line]++;
}

void print_stats(const char *harness) {
    const Stats &s = stats();
    std::printf("%s: %ld executions: %ld succeeded, %ld CompileError, %ld RuntimeError/error "
                "code, %ld findings\n",
                harness, s.executions, s.succeeded, s.compile_errors, s.runtime_errors, s.findings);
    if (s.points_compared || s.points_undefined)
        std::printf("  %ld output values compared (%ld skipped: undefined behaviour in the "
                    "reference), %ld runs also through the C backend\n",
                    s.points_compared, s.points_undefined, s.c_backend_runs);
    std::vector<std::pair<long, std::string>> top;
    for (const auto &[msg, n] : s.refusals) top.emplace_back(n, msg);
    std::sort(top.rbegin(), top.rend());
    size_t shown = std::min<size_t>(top.size(), verbose_flag ? top.size() : 12);
    if (shown) std::printf("  most common refusals:\n");
    for (size_t i = 0; i < shown; i++)
        std::printf("  %6ld  %s\n", top[i].first, top[i].second.c_str());
    std::fflush(stdout);
}

} // namespace loom_fuzz
