// Settings shared by the randomized schedule tests, read from the
// environment: the seed (LOOM_TEST_SEED, else the clock) and the number of
// schedules per pipeline (LOOM_RANDOM_SCHEDULES, else a default that is 10
// under the C backend, LOOM_JIT_BACKEND=c, whose gcc compiles are slower).
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace loom_test {

/** The environment variable `name` as a number, `fallback` when unset. */
inline uint64_t env_u64(const char *name, uint64_t fallback) {
    const char *v = std::getenv(name);
    return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

/** One seed per process, so every pipeline of a run can be replayed. */
inline uint64_t random_schedule_seed() {
    static const uint64_t seed = env_u64(
        "LOOM_TEST_SEED",
        uint64_t(std::chrono::system_clock::now().time_since_epoch().count()) % 1000000007u);
    return seed;
}

/** Schedules per pipeline. */
inline int random_schedule_count(int llvm_default) {
    const char *backend = std::getenv("LOOM_JIT_BACKEND");
    bool c_backend = backend && std::strcmp(backend, "c") == 0;
    return int(env_u64("LOOM_RANDOM_SCHEDULES", uint64_t(c_backend ? 10 : llvm_default)));
}

} // namespace loom_test
