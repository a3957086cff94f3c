// loom_malloc/loom_free keep large freed blocks for the next call of the
// same size (runtime/allocation_cache.cpp), within LOOM_ALLOCATION_CACHE's
// budget, and never keep small blocks or blocks of a custom allocator.

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

#include "../common/ScopedEnv.h"
#include "runtime/RuntimeFunctions.h"

namespace {

/** Sets LOOM_ALLOCATION_CACHE for one scope, with an empty cache on entry
 * and on exit (the budget is read again after a release). */
struct CacheSetting {
    explicit CacheSetting(const char *value) : env("LOOM_ALLOCATION_CACHE", value) {
        loom_release_allocation_cache();
    }
    ~CacheSetting() { loom_release_allocation_cache(); }
    loom_test::ScopedEnv env;
};

constexpr size_t MiB = size_t(1) << 20;

/** Allocates, writes every byte, frees; the address it had. */
uintptr_t use_once(size_t bytes) {
    void *p = loom_malloc(nullptr, bytes);
    REQUIRE(p != nullptr);
    REQUIRE(reinterpret_cast<uintptr_t>(p) % 64 == 0);
    std::memset(p, 0x5a, bytes);
    loom_free(nullptr, p);
    return reinterpret_cast<uintptr_t>(p);
}

int custom_mallocs = 0, custom_frees = 0;
void *counting_malloc(loom_call_context_t *, size_t bytes) {
    custom_mallocs++;
    return std::malloc(bytes);
}
void counting_free(loom_call_context_t *, void *p) {
    custom_frees++;
    std::free(p);
}

} // namespace

TEST_CASE("allocation cache: a freed large block serves the next allocation",
          "[runtime][allocation_cache]") {
    CacheSetting setting(nullptr);
    uintptr_t first = use_once(4 * MiB);
    // The same size again, and a slightly smaller one (a strip at an edge).
    CHECK(use_once(4 * MiB) == first);
    CHECK(use_once(3 * MiB) == first);
    // Two blocks alive at once: the second is a new one.
    void *a = loom_malloc(nullptr, 4 * MiB);
    void *b = loom_malloc(nullptr, 4 * MiB);
    CHECK(reinterpret_cast<uintptr_t>(a) == first);
    CHECK(b != a);
    loom_free(nullptr, a);
    loom_free(nullptr, b);
    // Both are kept now; a request of twice the size or more takes neither.
    void *big = loom_malloc(nullptr, 9 * MiB);
    CHECK(big != a);
    CHECK(big != b);
    loom_free(nullptr, big);
}

TEST_CASE("allocation cache: a block more than twice the request is not used",
          "[runtime][allocation_cache]") {
    CacheSetting setting(nullptr);
    uintptr_t large = use_once(16 * MiB);
    void *small = loom_malloc(nullptr, 1 * MiB);
    CHECK(reinterpret_cast<uintptr_t>(small) != large);
    loom_free(nullptr, small);
}

TEST_CASE("allocation cache: off, or a budget smaller than the block, keeps nothing",
          "[runtime][allocation_cache]") {
    for (const char *value : {"off", "never", "0", "1m", "2048k"}) {
        CacheSetting setting(value);
        INFO("LOOM_ALLOCATION_CACHE=" << value);
        use_once(4 * MiB);
        CHECK(loom_allocation_cache_bytes() == 0);
    }
    // A malformed value means the default budget.
    CacheSetting setting("lots");
    use_once(4 * MiB);
    CHECK(loom_allocation_cache_bytes() >= int64_t(4 * MiB));
}

TEST_CASE("allocation cache: small blocks stay with malloc", "[runtime][allocation_cache]") {
    CacheSetting setting(nullptr);
    for (size_t bytes : {size_t(0), size_t(100), size_t(4000), size_t(60000)}) use_once(bytes);
    CHECK(loom_allocation_cache_bytes() == 0);
    use_once(MiB);
    CHECK(loom_allocation_cache_bytes() >= int64_t(MiB));
    loom_release_allocation_cache();
    CHECK(loom_allocation_cache_bytes() == 0);
}

TEST_CASE("allocation cache: the oldest blocks go first when the budget is full",
          "[runtime][allocation_cache]") {
    CacheSetting setting("10m");
    std::vector<void *> blocks;
    for (int i = 0; i < 3; i++) blocks.push_back(loom_malloc(nullptr, 4 * MiB));
    for (void *p : blocks) loom_free(nullptr, p);
    // Two 4 MiB blocks (and their alignment slack) fit in 10 MiB; the first
    // one freed was given back to malloc.
    int64_t kept = loom_allocation_cache_bytes();
    CHECK(kept > int64_t(8 * MiB));
    CHECK(kept <= int64_t(10 * MiB));
    void *again = loom_malloc(nullptr, 4 * MiB);
    CHECK((again == blocks[1] || again == blocks[2]));
    loom_free(nullptr, again);
}

TEST_CASE("allocation cache: blocks of a custom allocator go back to it",
          "[runtime][allocation_cache]") {
    CacheSetting setting(nullptr);
    loom_call_context_t context;
    std::memset(&context, 0, sizeof(context));
    context.malloc_handler = counting_malloc;
    context.free_handler = counting_free;
    custom_mallocs = custom_frees = 0;
    for (int i = 0; i < 3; i++) {
        void *p = loom_malloc(&context, 4 * MiB);
        REQUIRE(p != nullptr);
        loom_free(&context, p);
    }
    CHECK(custom_mallocs == 3);
    CHECK(custom_frees == 3);
}
