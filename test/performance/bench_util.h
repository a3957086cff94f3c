// Timing helpers shared by the perf_* programs: clocks, medians, and one
// benchmarked "side" (a Loom, Halide or library implementation of the same
// computation) whose runs alternate with the other sides' runs so that all of
// them see the same machine load.

#ifndef LOOM_TEST_PERFORMANCE_BENCH_UTIL_H
#define LOOM_TEST_PERFORMANCE_BENCH_UTIL_H

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <thread>
#include <vector>

namespace bench {

using Clock = std::chrono::steady_clock;

inline double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Thread CPU time beside wall time: on a loaded machine it still shows what
// a compile itself costs (the JIT compiles on the calling thread).
inline double thread_cpu_ms() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

// Process CPU time (all threads): on a loaded machine the wall time of a
// parallel run depends on what else runs; the work done does not.
inline double process_cpu_ms() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

inline double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

inline double minimum(const std::vector<double> &v) {
    return v.empty() ? 0 : *std::min_element(v.begin(), v.end());
}

/** One implementation under test: set up (compiled, checked) once, then run
 *  by time_runs(). A side whose set-up or run threw is not ok and says why. */
struct Side {
    std::string name;
    bool ok = false;
    std::string error;
    double compile_ms = 0, compile_cpu_ms = 0;
    std::function<void()> run;            // one run of the prepared computation
    std::vector<double> times, cpu_times; // wall and process CPU ms per run

    double median_ms() const { return median(times); }
    double min_ms() const { return minimum(times); }
    double median_cpu_ms() const { return median(cpu_times); }
};

/** Runs the ok sides in turn, `runs` times each (side 1, side 2, ..., side 1,
 *  ...), recording wall and process CPU time; a side that throws stops. Each
 *  run starts after a short pause: a thread pool that spins after its job
 *  (Halide's, OpenBLAS's) would otherwise still hold cores while the next
 *  side runs, and its CPU time would be counted there. */
inline void time_runs(const std::vector<Side *> &sides, int runs) {
    for (int i = 0; i < runs; i++)
        for (Side *s : sides) {
            if (!s->ok) continue;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            try {
                double c0 = process_cpu_ms();
                auto t0 = Clock::now();
                s->run();
                s->times.push_back(ms_since(t0));
                s->cpu_times.push_back(process_cpu_ms() - c0);
            } catch (const std::exception &e) {
                s->ok = false;
                s->error = e.what();
            }
        }
}

/** n zero-initialized values of T starting on a 64-byte boundary, as
 *  loom::Buffer and Halide::Buffer allocate theirs. A large std::vector comes
 *  from mmap and starts 16 bytes past a page boundary, so no row of an image
 *  in it is 64-byte aligned and every 64-byte vector store splits a line. */
template <typename T> class AlignedArray {
public:
    explicit AlignedArray(size_t n) : n(n) {
        size_t bytes = (std::max<size_t>(n, 1) * sizeof(T) + 63) / 64 * 64;
        void *p = std::aligned_alloc(64, bytes);
        if (!p) throw std::bad_alloc();
        std::fill_n(static_cast<unsigned char *>(p), bytes, 0);
        memory.reset(static_cast<T *>(p));
    }
    T *data() { return memory.get(); }
    const T *data() const { return memory.get(); }
    size_t size() const { return n; }
    T &operator[](size_t i) { return memory.get()[i]; }
    const T &operator[](size_t i) const { return memory.get()[i]; }
    T *begin() { return data(); }
    T *end() { return data() + n; }

private:
    struct Free {
        void operator()(T *p) const { std::free(p); }
    };
    std::unique_ptr<T, Free> memory;
    size_t n;
};

} // namespace bench

#endif
