#include <cstdlib>

#include "loom/IntrusivePtr.h"

namespace loom {
namespace Internal {

namespace {

/** Objects released while another is being deleted on this thread, waiting
 * for their turn. Plain data, so that it needs no destructor at thread exit. */
struct PendingDeletes {
    static constexpr size_t inline_capacity = 16;
    const RefCounted *inline_items[inline_capacity];
    const RefCounted **items;
    size_t size;
    size_t capacity;
    bool deleting;
};

thread_local PendingDeletes pending;

/** False when there is no memory to queue p. */
bool push(PendingDeletes &q, const RefCounted *p) {
    if (!q.items) {
        q.items = q.inline_items;
        q.capacity = PendingDeletes::inline_capacity;
    }
    if (q.size == q.capacity) {
        size_t grown = q.capacity * 2;
        auto *bigger =
            static_cast<const RefCounted **>(std::malloc(grown * sizeof(const RefCounted *)));
        if (!bigger) return false;
        for (size_t i = 0; i < q.size; i++) bigger[i] = q.items[i];
        if (q.items != q.inline_items) std::free(q.items);
        q.items = bigger;
        q.capacity = grown;
    }
    q.items[q.size++] = p;
    return true;
}

} // namespace

void intrusive_destroy(const RefCounted *p) {
    PendingDeletes &q = pending;
    if (q.deleting) {
        // Without memory for the queue, recursing is the only way left.
        if (!push(q, p)) delete p;
        return;
    }
    q.deleting = true;
    delete p;
    while (q.size > 0) delete q.items[--q.size];
    if (q.items != q.inline_items) std::free(q.items);
    q.items = nullptr;
    q.capacity = 0;
    q.deleting = false;
}

} // namespace Internal
} // namespace loom
