// Heap memory for Allocate nodes that are too large or dynamic for the stack,
// from the runtime's aligned allocator or from the call's malloc_handler
// (loom_call_context_t; JIT: JITHandlers::custom_malloc/custom_free).

#include <cstdint>
#include <cstdlib>

#include "RuntimeFunctions.h"

namespace {

constexpr size_t alignment = 64;

loom_call_context_t *custom_memory(void *uc) {
    auto *context = static_cast<loom_call_context_t *>(uc);
    return context && context->malloc_handler ? context : nullptr;
}

} // namespace

extern "C" {

void *loom_malloc(void *uc, size_t bytes) {
    // aligned_alloc needs a size that is a multiple of the alignment; the
    // extra tail also keeps vector loads past the last element in bounds.
    if (bytes > SIZE_MAX - 2 * alignment) return nullptr;
    size_t rounded = (bytes + alignment - 1) / alignment * alignment;
    if (rounded == 0) rounded = alignment;
    if (loom_call_context_t *context = custom_memory(uc)) {
        // A custom allocator promises no alignment: ask for room to align
        // and to keep what it returned just below the result.
        void *raw = context->malloc_handler(context, rounded + 2 * alignment);
        if (!raw) return nullptr;
        uintptr_t start = reinterpret_cast<uintptr_t>(raw) + sizeof(void *);
        auto *aligned = reinterpret_cast<void **>((start + alignment - 1) & ~(alignment - 1));
        aligned[-1] = raw;
        return aligned;
    }
    return std::aligned_alloc(alignment, rounded);
}

void loom_free(void *uc, void *ptr) {
    if (loom_call_context_t *context = custom_memory(uc)) {
        if (!ptr) return;
        void *raw = static_cast<void **>(ptr)[-1];
        if (context->free_handler)
            context->free_handler(context, raw);
        else
            std::free(raw);
        return;
    }
    std::free(ptr);
}

} // extern "C"
