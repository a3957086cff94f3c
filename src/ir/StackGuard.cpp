#include "ir/StackGuard.h"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <string>
#include <vector>

namespace loom {
namespace Internal {

thread_local uintptr_t stack_floor __attribute__((tls_model("initial-exec"))) = UINTPTR_MAX;

namespace {

thread_local bool deep_stack_thread __attribute__((tls_model("initial-exec"))) = false;

/** A ScopedCompileDeadline's end in steady-clock nanoseconds; 0: none. While
 * one is set, stack_floor is forced to always_slow (every check takes the
 * slow path) and the real floor waits in real_floor. */
thread_local int64_t deadline_ns = 0;
thread_local uintptr_t real_floor = UINTPTR_MAX;
thread_local unsigned checks_since_clock = 0;
constexpr uintptr_t always_slow = UINTPTR_MAX - 1;

int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/** Sets this thread's deadline (0: none) and returns the previous one. */
int64_t set_deadline(int64_t ns) {
    int64_t previous = deadline_ns;
    if (previous == 0 && ns != 0) {
        real_floor = stack_floor;
        stack_floor = always_slow;
    } else if (previous != 0 && ns == 0) {
        stack_floor = real_floor;
    }
    deadline_ns = ns;
    return previous;
}

/** The deep stacks are reserved, not committed: only the pages a compile
 * touches are backed by memory, and they are given back after each step. */
constexpr size_t deep_stack_bytes = size_t(1) << 30;
constexpr size_t fallback_stack_bytes = size_t(256) << 20;
/** What a worker keeps of its stack between steps. */
constexpr size_t kept_stack_bytes = size_t(8) << 20;
/** Idle workers kept for later steps; more are made when several threads
 * compile at once, and those past this number end after their step. */
constexpr size_t max_idle_workers = 8;

/** What a traversal may still use below the floor: the frames between two
 * checks, LLVM's own calls from a code generator, and the exception's unwind. */
size_t reserve_for(size_t stack_size) {
    return std::min<size_t>(size_t(1) << 20, stack_size / 4);
}

/** This thread's stack: lowest address and size, or {0, 0} when the system
 * cannot tell. */
std::pair<uintptr_t, size_t> this_stack() {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return {0, 0};
    void *low = nullptr;
    size_t size = 0;
    int got = pthread_attr_getstack(&attr, &low, &size);
    pthread_attr_destroy(&attr);
    if (got != 0 || !low) return {0, 0};
    return {reinterpret_cast<uintptr_t>(low), size};
}

/** Lowest usable address of this thread's stack plus its reserve; 0 (no
 * checks) when unknown. */
uintptr_t measure_floor() {
    auto [low, size] = this_stack();
    return size == 0 ? 0 : low + reserve_for(size);
}

/** A thread with a deep stack that runs steps handed to it, one at a time. */
struct Worker {
    std::mutex mutex;
    std::condition_variable wake;
    const std::function<void()> *step = nullptr;
    std::exception_ptr error;
    bool done = false;
    bool quit = false;
};

/** Idle workers. Never destroyed: workers may outlive static destruction. */
struct Pool {
    std::mutex mutex;
    std::vector<Worker *> idle;
};

Pool &pool() {
    static Pool *p = [] {
        auto *made = new Pool;
        // A child process has none of its parent's workers.
        pthread_atfork([] { pool().mutex.lock(); }, [] { pool().mutex.unlock(); },
                       [] {
                           pool().idle.clear();
                           pool().mutex.unlock();
                       });
        return made;
    }();
    return *p;
}

/** Gives the pages of this thread's stack far below the current frame back
 * to the system: a deep step touches hundreds of MiB that an idle worker
 * should not keep. */
void release_unused_stack(uintptr_t low) {
    if (low == 0) return;
    uintptr_t here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
    if (here < low + kept_stack_bytes) return;
    uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
    uintptr_t end = (here - kept_stack_bytes) & ~(page - 1);
    uintptr_t begin = (low + page - 1) & ~(page - 1);
    if (end > begin) madvise(reinterpret_cast<void *>(begin), end - begin, MADV_DONTNEED);
}

void *worker_main(void *arg) {
    auto *w = static_cast<Worker *>(arg);
    deep_stack_thread = true;
    stack_floor = measure_floor();
    uintptr_t stack_low = this_stack().first;
    std::unique_lock<std::mutex> lock(w->mutex);
    for (;;) {
        w->wake.wait(lock, [&] { return w->step != nullptr || w->quit; });
        if (w->quit) break;
        lock.unlock();
        std::exception_ptr error;
        try {
            (*w->step)();
        } catch (...) {
            error = std::current_exception();
        }
        release_unused_stack(stack_low);
        lock.lock();
        w->error = error;
        w->step = nullptr;
        w->done = true;
        w->wake.notify_all();
    }
    lock.unlock();
    delete w;
    return nullptr;
}

/** A new worker with the deepest stack the system gives; null if none. */
Worker *start_worker() {
    auto *w = new Worker;
    for (size_t bytes : {deep_stack_bytes, fallback_stack_bytes}) {
        pthread_attr_t attr;
        if (pthread_attr_init(&attr) != 0) break;
        pthread_t thread;
        bool started = pthread_attr_setstacksize(&attr, bytes) == 0 &&
                       pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0 &&
                       pthread_create(&thread, &attr, worker_main, w) == 0;
        pthread_attr_destroy(&attr);
        if (started) return w;
    }
    delete w;
    return nullptr;
}

Worker *take_worker() {
    {
        std::lock_guard<std::mutex> lock(pool().mutex);
        if (!pool().idle.empty()) {
            Worker *w = pool().idle.back();
            pool().idle.pop_back();
            return w;
        }
    }
    return start_worker();
}

void return_worker(Worker *w) {
    {
        std::lock_guard<std::mutex> lock(pool().mutex);
        if (pool().idle.size() < max_idle_workers) {
            pool().idle.push_back(w);
            return;
        }
    }
    std::lock_guard<std::mutex> lock(w->mutex);
    w->quit = true;
    w->wake.notify_all();
}

} // namespace

void check_stack_slow(uintptr_t here) {
    if (deadline_ns != 0) {
        if (++checks_since_clock >= 256) {
            checks_since_clock = 0;
            if (now_ns() > deadline_ns)
                throw CompileTimeLimit("Compiling took longer than the time allowed for it");
        }
        if (real_floor == UINTPTR_MAX) real_floor = measure_floor();
        if (here >= real_floor) return;
    } else if (stack_floor == UINTPTR_MAX) {
        stack_floor = measure_floor();
        if (here >= stack_floor) return;
    }
    throw StackExhausted(
        "The pipeline's expressions or statements are nested too deeply to compile: the "
        "compiler ran out of stack space. Split very long expressions across several Funcs, "
        "or compute_root some of a long chain of inlined Funcs" +
        std::string(deep_stack_thread ? "" : " (or compile on a thread with a larger stack)"));
}

bool on_deep_stack() {
    return deep_stack_thread;
}

ScopedCompileDeadline::ScopedCompileDeadline(double seconds) : previous_ns(deadline_ns) {
    int64_t end = now_ns() + int64_t(seconds * 1e9);
    // A nested deadline never extends an outer one.
    set_deadline(previous_ns != 0 ? std::min(previous_ns, end) : end);
}

ScopedCompileDeadline::~ScopedCompileDeadline() {
    set_deadline(previous_ns);
}

namespace {

/** Hands step to w, which starts it at once. */
void start_step(Worker *w, const std::function<void()> &step) {
    std::lock_guard<std::mutex> lock(w->mutex);
    w->step = &step;
    w->done = false;
    w->wake.notify_all();
}

/** Waits for w's step, returns w to the pool and what the step threw. */
std::exception_ptr finish_step(Worker *w) {
    std::exception_ptr error;
    {
        std::unique_lock<std::mutex> lock(w->mutex);
        w->wake.wait(lock, [&] { return w->done; });
        error = w->error;
        w->error = nullptr;
    }
    return_worker(w);
    return error;
}

} // namespace

void run_on_deep_stack(const std::function<void()> &step) {
    if (deep_stack_thread) {
        step();
        return;
    }
    Worker *w = take_worker();
    if (!w) {
        // No thread to be had: the checks still turn deep input into errors.
        step();
        return;
    }
    // The caller's deadline holds on the worker too.
    int64_t deadline = deadline_ns;
    std::function<void()> with_deadline = [&] {
        int64_t previous = set_deadline(deadline);
        try {
            step();
        } catch (...) {
            set_deadline(previous);
            throw;
        }
        set_deadline(previous);
    };
    start_step(w, deadline != 0 ? with_deadline : step);
    if (std::exception_ptr error = finish_step(w)) std::rethrow_exception(error);
}

void run_on_deep_stacks_at_once(const std::vector<std::function<void()>> &steps) {
    if (steps.empty()) return;
    // Every step but the first on a worker of its own; the first here (on a
    // deep stack too), so that the caller's thread works rather than waits.
    std::vector<Worker *> started;
    std::vector<size_t> here{0};
    for (size_t i = 1; i < steps.size(); i++) {
        Worker *w = take_worker();
        if (w) {
            start_step(w, steps[i]);
            started.push_back(w);
        } else {
            here.push_back(i);
        }
    }
    std::exception_ptr error;
    try {
        run_on_deep_stack([&] {
            for (size_t i : here) steps[i]();
        });
    } catch (...) {
        error = std::current_exception();
    }
    for (Worker *w : started) {
        std::exception_ptr e = finish_step(w);
        if (!error) error = e;
    }
    if (error) std::rethrow_exception(error);
}

void run_retrying_on_deep_stack(const std::function<void()> &step) {
    try {
        step();
    } catch (const StackExhausted &) {
        if (deep_stack_thread) throw;
        run_on_deep_stack(step);
    }
}

} // namespace Internal
} // namespace loom
