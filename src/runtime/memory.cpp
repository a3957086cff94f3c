// Heap memory for Allocate nodes that are too large or dynamic for the stack.

#include <cstdint>
#include <cstdlib>

#include "RuntimeFunctions.h"

namespace {
constexpr size_t alignment = 64;
}

extern "C" {

void *loom_malloc(void *, size_t bytes) {
    // aligned_alloc needs a size that is a multiple of the alignment; the
    // extra tail also keeps vector loads past the last element in bounds.
    if (bytes > SIZE_MAX - alignment) return nullptr;
    size_t rounded = (bytes + alignment - 1) / alignment * alignment;
    if (rounded == 0) rounded = alignment;
    return std::aligned_alloc(alignment, rounded);
}

void loom_free(void *, void *ptr) {
    std::free(ptr);
}

} // extern "C"
