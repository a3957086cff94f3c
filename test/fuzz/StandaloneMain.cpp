// A main() for the fuzz harnesses that needs no libFuzzer: it feeds
// LLVMFuzzerTestOneInput byte strings from a seeded PRNG (or the files it is
// given, e.g. inputs libFuzzer saved) and fails when any was a finding.
//
//   fuzz_pipelines [--runs N] [--seed S] [--max-len L] [--only I] [--verbose] [FILE...]
//
// Execution I of a run is the same byte string for the same seed and
// max-len, so `--seed S --only I` replays a finding (and prints its program).

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

#include "FuzzInput.h"
#include "FuzzReport.h"

namespace {

volatile long current_execution = -1;
unsigned long long current_seed = 0;
size_t current_max_len = 256;

// A crash is a finding too: say which execution to replay.
void on_fatal_signal(int sig) {
    char msg[160];
    int n = std::snprintf(msg, sizeof msg,
                          "\n=== FINDING (signal %d) at execution %ld; replay with --seed %llu "
                          "--max-len %zu --only %ld ===\n",
                          sig, current_execution, current_seed, current_max_len, current_execution);
    if (n > 0) {
        ssize_t ignored = write(2, msg, size_t(n));
        (void)ignored;
    }
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

std::vector<uint8_t> bytes_of_execution(unsigned long long seed, long i, size_t max_len) {
    loom_fuzz::SplitMix rng(seed * 1000003ull + uint64_t(i));
    size_t len = size_t(rng.next() % (max_len + 1));
    std::vector<uint8_t> bytes(len);
    for (auto &b : bytes) b = uint8_t(rng.next());
    return bytes;
}

} // namespace

int main(int argc, char **argv) {
    long runs = 1000, only = -1, slowest = -1;
    double slowest_seconds = 0;
    size_t &max_len = current_max_len;
    std::vector<std::string> files;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto next = [&]() -> const char * {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--runs") {
            runs = std::strtol(next(), nullptr, 10);
        } else if (a == "--seed") {
            current_seed = std::strtoull(next(), nullptr, 10);
        } else if (a == "--max-len") {
            max_len = size_t(std::strtoul(next(), nullptr, 10));
        } else if (a == "--only") {
            only = std::strtol(next(), nullptr, 10);
            loom_fuzz::set_verbose(true);
        } else if (a == "--verbose") {
            loom_fuzz::set_verbose(true);
        } else if (a == "--help" || a == "-h") {
            std::printf("usage: %s [--runs N] [--seed S] [--max-len L] [--only I] [--verbose] "
                        "[FILE...]\n",
                        argv[0]);
            return 0;
        } else if (!a.empty() && a[0] == '-') {
            std::fprintf(stderr, "unknown flag %s\n", a.c_str());
            return 2;
        } else {
            files.push_back(a);
        }
    }
    loom_fuzz::set_abort_on_finding(false);
    for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) std::signal(sig, on_fatal_signal);

    if (!files.empty()) {
        for (const std::string &f : files) {
            std::ifstream file(f, std::ios::binary);
            std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                                       std::istreambuf_iterator<char>());
            std::printf("running %s (%zu bytes)\n", f.c_str(), bytes.size());
            LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
        }
    } else {
        for (long i = only >= 0 ? only : 0; i < (only >= 0 ? only + 1 : runs); i++) {
            current_execution = i;
            long before = loom_fuzz::stats().findings;
            std::vector<uint8_t> bytes = bytes_of_execution(current_seed, i, max_len);
            auto start = std::chrono::steady_clock::now();
            LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
            double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (seconds > slowest_seconds) {
                slowest_seconds = seconds;
                slowest = i;
            }
            if (loom_fuzz::stats().findings != before)
                std::fprintf(stderr,
                             "(execution %ld; replay with --seed %llu --max-len %zu --only %ld)\n",
                             i, current_seed, max_len, i);
        }
    }
    loom_fuzz::print_stats(argv[0]);
    // A compile-time blow-up shows here first (no timing is asserted).
    if (slowest >= 0) std::printf("  slowest execution: %ld (%.2f s)\n", slowest, slowest_seconds);
    return loom_fuzz::stats().findings ? 1 : 0;
}
