// A cache of large heap blocks that loom_free hands back and loom_malloc
// takes again (memory.cpp), so a pipeline that allocates the same large
// intermediate on every call reuses it instead of returning it to the
// system and faulting its pages in again (glibc gives freed large blocks
// back with munmap or by trimming the heap: max_filter spent more than half
// of each run in page faults).

#ifndef LOOM_RUNTIME_ALLOCATION_CACHE_H
#define LOOM_RUNTIME_ALLOCATION_CACHE_H

#include <cstddef>

namespace loom_runtime {

/** A block of at least `bytes` (and at most twice that) that was given
 * back earlier, with its size in *capacity; null when there is none. */
void *take_cached_block(size_t bytes, size_t *capacity);

/** Keeps a malloc'ed block of `capacity` bytes for later, or returns false
 * (then the caller frees it): blocks smaller than the cache's lower limit
 * or larger than its byte budget are not kept. Older blocks are freed to
 * make room. */
bool give_block_to_cache(void *block, size_t capacity);

/** Frees every cached block. */
void release_cached_blocks();

} // namespace loom_runtime

#endif
