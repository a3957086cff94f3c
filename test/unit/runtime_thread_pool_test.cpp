// The runtime's thread pool used directly: every index runs once, nested
// loops finish, the first error comes back, and any pool size works, also
// while idle workers poll for the next loop.

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "runtime/RuntimeFunctions.h"

namespace {

struct Counts {
    std::vector<std::atomic<int>> hits;
    explicit Counts(size_t n) : hits(n) {}
};

int count_task(void *, int index, uint8_t *closure) {
    auto *c = reinterpret_cast<Counts *>(closure);
    c->hits.at(size_t(index + 100))++;
    return 0;
}

struct Nested {
    std::atomic<long> sum{0};
    int inner_extent = 0;
};

int inner_task(void *, int index, uint8_t *closure) {
    reinterpret_cast<Nested *>(closure)->sum += index;
    return 0;
}

int outer_task(void *uc, int, uint8_t *closure) {
    auto *n = reinterpret_cast<Nested *>(closure);
    return loom_do_par_for(uc, inner_task, 0, n->inner_extent, closure);
}

int failing_task(void *uc, int index, uint8_t *closure) {
    reinterpret_cast<std::atomic<int> *>(closure)->fetch_add(1);
    if (index == 7) {
        loom_report_error(uc, "task 7 failed");
        return -42;
    }
    return 0;
}

void capture(loom_call_context_t *context, const char *message) {
    *static_cast<std::string *>(context->user_data) += message;
}

// Restores the default pool size however the test ends.
struct PoolSize {
    int previous;
    explicit PoolSize(int n) : previous(loom_set_num_threads(n)) {}
    ~PoolSize() { loom_set_num_threads(previous); }
};

} // namespace

TEST_CASE("thread pool: every index runs exactly once", "[parallel][runtime]") {
    for (int threads : {1, 2, 4, 16}) {
        PoolSize size(threads);
        REQUIRE(loom_get_num_threads() == threads);
        Counts c(1200);
        // A nonzero min: indices are [min, min + extent).
        REQUIRE(loom_do_par_for(nullptr, count_task, -100, 1000, reinterpret_cast<uint8_t *>(&c)) ==
                0);
        for (int i = 0; i < 1200; i++) REQUIRE(c.hits[size_t(i)] == (i < 1000 ? 1 : 0));
        REQUIRE(loom_do_par_for(nullptr, count_task, 0, 0, reinterpret_cast<uint8_t *>(&c)) == 0);
    }
}

TEST_CASE("thread pool: nested parallel loops do not deadlock", "[parallel][runtime]") {
    for (int threads : {1, 3, 8}) {
        PoolSize size(threads);
        Nested n;
        n.inner_extent = 50;
        REQUIRE(loom_do_par_for(nullptr, outer_task, 0, 64, reinterpret_cast<uint8_t *>(&n)) == 0);
        REQUIRE(n.sum == 64L * (49 * 50 / 2));
    }
}

TEST_CASE("thread pool: loops from several user threads at once", "[parallel][runtime]") {
    PoolSize size(4);
    std::vector<std::thread> users;
    std::atomic<int> failures{0};
    for (int t = 0; t < 4; t++) {
        users.emplace_back([&] {
            Nested n;
            n.inner_extent = 20;
            if (loom_do_par_for(nullptr, outer_task, 0, 30, reinterpret_cast<uint8_t *>(&n)) != 0 ||
                n.sum != 30L * 190)
                failures++;
        });
    }
    for (auto &u : users) u.join();
    REQUIRE(failures == 0);
}

TEST_CASE("thread pool: a failing task's code and message reach the caller",
          "[parallel][runtime]") {
    for (int threads : {1, 4}) {
        PoolSize size(threads);
        std::string message;
        loom_call_context_t context{capture, &message, nullptr, nullptr, nullptr, nullptr, nullptr};
        std::atomic<int> ran{0};
        int r =
            loom_do_par_for(&context, failing_task, 0, 100000, reinterpret_cast<uint8_t *>(&ran));
        REQUIRE(r == -42);
        REQUIRE(message == "task 7 failed");
        // Indices not started when the error came back are skipped.
        REQUIRE(ran < 100000);
    }
}

TEST_CASE("thread pool: loops back to back reach workers that poll or sleep, and the pool "
          "resizes under them",
          "[parallel][runtime]") {
    // Idle workers poll for a new job for a while before they sleep: start
    // loops right away, after a pause shorter than that and after a longer
    // one, and resize the pool between them.
    for (int threads : {2, 4, 3}) {
        PoolSize size(threads);
        for (int round = 0; round < 300; round++) {
            Counts c(1200);
            REQUIRE(loom_do_par_for(nullptr, count_task, -100, 7,
                                    reinterpret_cast<uint8_t *>(&c)) == 0);
            for (int i = 0; i < 7; i++) REQUIRE(c.hits[size_t(i)] == 1);
            if (round % 3 == 1) std::this_thread::sleep_for(std::chrono::microseconds(20));
            if (round % 50 == 2) std::this_thread::sleep_for(std::chrono::microseconds(500));
        }
    }
}
