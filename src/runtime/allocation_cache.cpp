#include "allocation_cache.h"

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <strings.h>

#include "RuntimeFunctions.h"
#include "byte_count.h"

namespace loom_runtime {
namespace {

// Smaller blocks stay in malloc's own free lists, which keep them anyway;
// caching them would only add a lock to every row buffer of a parallel loop.
constexpr size_t smallest_cached_block = size_t(64) << 10;
constexpr int64_t default_budget = int64_t(512) << 20;
constexpr int slot_count = 16;

struct Slot {
    void *block = nullptr;
    size_t capacity = 0;
    uint64_t given_at = 0; // the cache's clock when it was given back
};

struct Cache {
    std::mutex mutex;
    Slot slots[slot_count];
    size_t cached_bytes = 0;
    uint64_t clock = 0;
    int64_t budget = -1; // -1: not read from the environment yet
};

// Never destroyed: pipelines may still run from other static destructors.
Cache &the_cache() {
    static Cache *cache = new Cache;
    return *cache;
}

// LOOM_ALLOCATION_CACHE: off/0 (no cache) or a byte budget with an optional
// k/m/g suffix. Anything else: the default.
int64_t budget_from_environment() {
    const char *env = std::getenv("LOOM_ALLOCATION_CACHE");
    if (!env || !*env) return default_budget;
    if (strcasecmp(env, "off") == 0 || strcasecmp(env, "never") == 0) return 0;
    int64_t bytes = 0;
    return parse_byte_count(env, &bytes) ? bytes : default_budget;
}

int64_t budget(Cache &cache) {
    if (cache.budget < 0) cache.budget = budget_from_environment();
    return cache.budget;
}

void empty_slot(Cache &cache, Slot &slot) {
    cache.cached_bytes -= slot.capacity;
    slot = Slot();
}

} // namespace

void *take_cached_block(size_t bytes, size_t *capacity) {
    // No lock for the row buffers that are never kept.
    if (bytes < smallest_cached_block) return nullptr;
    Cache &cache = the_cache();
    std::lock_guard<std::mutex> lock(cache.mutex);
    Slot *best = nullptr;
    for (Slot &slot : cache.slots)
        if (slot.block && slot.capacity >= bytes && slot.capacity / 2 <= bytes &&
            (!best || slot.capacity < best->capacity))
            best = &slot;
    if (!best) return nullptr;
    void *block = best->block;
    *capacity = best->capacity;
    empty_slot(cache, *best);
    return block;
}

bool give_block_to_cache(void *block, size_t capacity) {
    if (capacity < smallest_cached_block) return false;
    Cache &cache = the_cache();
    std::lock_guard<std::mutex> lock(cache.mutex);
    int64_t limit = budget(cache);
    if (int64_t(capacity) > limit) return false;
    // Oldest first out, until the block and a free slot fit.
    for (;;) {
        Slot *free_slot = nullptr, *oldest = nullptr;
        for (Slot &slot : cache.slots) {
            if (!slot.block)
                free_slot = &slot;
            else if (!oldest || slot.given_at < oldest->given_at)
                oldest = &slot;
        }
        if (free_slot && int64_t(cache.cached_bytes + capacity) <= limit) {
            free_slot->block = block;
            free_slot->capacity = capacity;
            free_slot->given_at = ++cache.clock;
            cache.cached_bytes += capacity;
            return true;
        }
        std::free(oldest->block);
        empty_slot(cache, *oldest);
    }
}

void release_cached_blocks() {
    Cache &cache = the_cache();
    std::lock_guard<std::mutex> lock(cache.mutex);
    for (Slot &slot : cache.slots)
        if (slot.block) {
            std::free(slot.block);
            empty_slot(cache, slot);
        }
    cache.budget = -1;
}

} // namespace loom_runtime

extern "C" {

void loom_release_allocation_cache(void) {
    loom_runtime::release_cached_blocks();
}

int64_t loom_allocation_cache_bytes(void) {
    loom_runtime::Cache &cache = loom_runtime::the_cache();
    std::lock_guard<std::mutex> lock(cache.mutex);
    return int64_t(cache.cached_bytes);
}

} // extern "C"
