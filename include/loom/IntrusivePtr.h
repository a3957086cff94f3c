#ifndef LOOM_INTRUSIVE_PTR_H
#define LOOM_INTRUSIVE_PTR_H

/** \file A reference-counted pointer for objects that carry their own count. */

#include <atomic>
#include <cstddef>
#include <utility>

namespace loom {
namespace Internal {

/** Base for objects owned through IntrusivePtr. */
struct RefCounted {
    mutable std::atomic<int> ref_count{0};
    RefCounted() = default;
    RefCounted(const RefCounted &) : ref_count(0) {}
    RefCounted &operator=(const RefCounted &) { return *this; }
    virtual ~RefCounted() = default;
};

/** Deletes p, whose count has reached zero. Objects it releases in turn are
 * deleted one after another rather than from inside its destructor, so
 * destroying a chain of a million nested Exprs needs no deep stack. */
void intrusive_destroy(const RefCounted *p);

inline void intrusive_incref(const RefCounted *p) {
    p->ref_count.fetch_add(1, std::memory_order_relaxed);
}
inline void intrusive_decref(const RefCounted *p) {
    if (p->ref_count.fetch_sub(1, std::memory_order_acq_rel) == 1) intrusive_destroy(p);
}

template <typename T> class IntrusivePtr {
public:
    T *ptr = nullptr;

    IntrusivePtr() = default;
    IntrusivePtr(T *p) : ptr(p) {
        if (ptr) intrusive_incref(ptr);
    }
    IntrusivePtr(const IntrusivePtr &o) : ptr(o.ptr) {
        if (ptr) intrusive_incref(ptr);
    }
    IntrusivePtr(IntrusivePtr &&o) noexcept : ptr(o.ptr) { o.ptr = nullptr; }
    template <typename U> IntrusivePtr(const IntrusivePtr<U> &o) : ptr(o.ptr) {
        if (ptr) intrusive_incref(ptr);
    }
    ~IntrusivePtr() {
        if (ptr) intrusive_decref(ptr);
    }
    IntrusivePtr &operator=(const IntrusivePtr &o) {
        IntrusivePtr tmp(o);
        std::swap(ptr, tmp.ptr);
        return *this;
    }
    IntrusivePtr &operator=(IntrusivePtr &&o) noexcept {
        std::swap(ptr, o.ptr);
        return *this;
    }

    T *get() const { return ptr; }
    T &operator*() const { return *ptr; }
    T *operator->() const { return ptr; }
    bool defined() const { return ptr != nullptr; }
    bool same_as(const IntrusivePtr &o) const { return ptr == o.ptr; }
    bool operator<(const IntrusivePtr &o) const { return ptr < o.ptr; }
};

} // namespace Internal
} // namespace loom

#endif
