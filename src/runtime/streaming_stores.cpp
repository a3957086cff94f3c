// The output size from which generated code writes pipeline outputs with
// streaming (non-temporal) stores (lower/StreamingStores.cpp). Streaming
// stores skip the read-for-ownership of every line they write, which saves
// memory bandwidth when the output is too large to stay in cache anyway, and
// costs a trip to memory when the output would have stayed in cache.

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <strings.h>
#include <unistd.h>

#include "RuntimeFunctions.h"
#include "byte_count.h"

namespace {

constexpr int64_t never = INT64_MAX;
constexpr int64_t unknown_cache_fallback = 16 * 1024 * 1024;

// -1: not read yet. Races only compute the same value twice.
std::atomic<int64_t> cached_threshold{-1};

int64_t cache_bytes(int name) {
    long v = sysconf(name);
    return v > 0 ? int64_t(v) : 0;
}

// Half the last-level cache: an output larger than that evicts its own
// lines (and the inputs') before anyone reads them again.
int64_t default_threshold() {
    int64_t llc = 0;
#ifdef _SC_LEVEL3_CACHE_SIZE
    llc = cache_bytes(_SC_LEVEL3_CACHE_SIZE);
#endif
#ifdef _SC_LEVEL2_CACHE_SIZE
    if (llc == 0) llc = cache_bytes(_SC_LEVEL2_CACHE_SIZE);
#endif
    if (llc == 0) return unknown_cache_fallback;
    return llc / 2;
}

// LOOM_STREAMING_STORES: 0/off, 1/on/always, or a byte count with an
// optional k/m/g suffix (powers of 1024). Anything else: the default.
int64_t threshold_from_environment() {
    const char *env = std::getenv("LOOM_STREAMING_STORES");
    if (!env || !*env) return default_threshold();
    if (strcasecmp(env, "off") == 0 || strcasecmp(env, "never") == 0) return never;
    if (strcasecmp(env, "on") == 0 || strcasecmp(env, "always") == 0) return 1;
    int64_t bytes = 0;
    if (!loom_runtime::parse_byte_count(env, &bytes)) return default_threshold();
    return bytes == 0 ? never : bytes;
}

} // namespace

extern "C" {

int64_t loom_streaming_store_threshold(void *) {
    int64_t t = cached_threshold.load(std::memory_order_relaxed);
    if (t >= 0) return t;
    t = threshold_from_environment();
    cached_threshold.store(t, std::memory_order_relaxed);
    return t;
}

void loom_reset_streaming_store_threshold(void) {
    cached_threshold.store(-1, std::memory_order_relaxed);
}

} // extern "C"
