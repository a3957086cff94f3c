// Heap memory for Allocate nodes that are too large or dynamic for the stack,
// from malloc (large blocks through allocation_cache.h) or from the call's
// malloc_handler (loom_call_context_t; JIT: JITHandlers::custom_malloc/
// custom_free), aligned here to 64 bytes.

#include <cstdint>
#include <cstdlib>

#include "RuntimeFunctions.h"
#include "allocation_cache.h"

namespace {

constexpr size_t alignment = 64;

loom_call_context_t *custom_memory(void *uc) {
    auto *context = static_cast<loom_call_context_t *>(uc);
    return context && context->malloc_handler ? context : nullptr;
}

// Below the aligned pointer: the block malloc returned and its size.
struct BlockHeader {
    void *block;
    size_t capacity;
};

BlockHeader &header_of(void *aligned) {
    return static_cast<BlockHeader *>(aligned)[-1];
}

} // namespace

extern "C" {

void *loom_malloc(void *uc, size_t bytes) {
    // A size that is a multiple of the alignment: the extra tail keeps
    // vector loads past the last element in bounds.
    if (bytes > SIZE_MAX - 2 * alignment) return nullptr;
    size_t rounded = (bytes + alignment - 1) / alignment * alignment;
    if (rounded == 0) rounded = alignment;
    // Room to align the block and to keep the header just below the
    // result. Not aligned_alloc: glibc's splits a larger block and frees
    // the pieces before and after the aligned one, and those small free
    // chunks make each following large malloc or free consolidate the heap
    // (a pipeline that allocates a row buffer per row spent an eighth of its
    // time there).
    size_t total = rounded + 2 * alignment;
    static_assert(sizeof(BlockHeader) <= alignment, "the header fits in the slack");
    loom_call_context_t *context = custom_memory(uc);
    size_t capacity = total;
    void *raw = nullptr;
    if (context)
        raw = context->malloc_handler(context, total);
    else if (!(raw = loom_runtime::take_cached_block(total, &capacity)))
        raw = std::malloc(total);
    if (!raw) return nullptr;
    uintptr_t start = reinterpret_cast<uintptr_t>(raw) + sizeof(BlockHeader);
    void *aligned = reinterpret_cast<void *>((start + alignment - 1) & ~(alignment - 1));
    header_of(aligned) = {raw, capacity};
    return aligned;
}

void loom_free(void *uc, void *ptr) {
    if (!ptr) return;
    BlockHeader header = header_of(ptr);
    loom_call_context_t *context = custom_memory(uc);
    if (context && context->free_handler)
        context->free_handler(context, header.block);
    else if (context || !loom_runtime::give_block_to_cache(header.block, header.capacity))
        std::free(header.block);
}

} // extern "C"
