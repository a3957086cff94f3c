// Memory that faults one element past an array: tests of loads that must
// never read beyond what the scalar code reads (strided and upsampling
// vector loads) put their input here, flush against an inaccessible page.
#pragma once

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <sys/mman.h>
#include <unistd.h>

namespace loom_test {

/** n elements of T next to a page that faults when touched: flush against
 * the page after them, or (at_start) against the page before them. The
 * elements are filled with a pattern of small distinct values. */
template <typename T> class GuardedArray {
public:
    GuardedArray(size_t n, bool at_start) : n(n) {
        size_t page = size_t(sysconf(_SC_PAGESIZE));
        size_t data_pages = (n * sizeof(T) + page - 1) / page;
        bytes = (data_pages + 2) * page;
        void *m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        REQUIRE(m != MAP_FAILED);
        mapping = static_cast<uint8_t *>(m);
        REQUIRE(mprotect(mapping, page, PROT_NONE) == 0);
        REQUIRE(mprotect(mapping + (data_pages + 1) * page, page, PROT_NONE) == 0);
        uint8_t *first =
            at_start ? mapping + page : mapping + (data_pages + 1) * page - n * sizeof(T);
        data = reinterpret_cast<T *>(first);
        for (size_t i = 0; i < n; i++) data[i] = T((i * 37 + 11) % 251);
    }
    ~GuardedArray() { munmap(mapping, bytes); }
    GuardedArray(const GuardedArray &) = delete;
    GuardedArray &operator=(const GuardedArray &) = delete;

    T *data;
    size_t n;

private:
    uint8_t *mapping;
    size_t bytes;
};

} // namespace loom_test
