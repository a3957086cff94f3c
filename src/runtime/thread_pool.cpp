// The thread pool behind parallel loops: loom_do_par_for runs task(index) for
// every index of [min, min + extent) on a lazily created set of workers.
//
// Design (why it cannot deadlock): every call pushes a job onto a shared list
// and the calling thread claims indices of its own job like any worker. When
// nothing is left to claim it only waits for the indices of its job that other
// threads are running right now. Those tasks are running, not queued, so they
// finish (a nested call inside one of them works the same way, one level
// deeper), and no thread ever waits for a worker to become free.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

#include "RuntimeFunctions.h"

namespace {

struct Job {
    int (*task)(void *, int, uint8_t *);
    void *user_context;
    uint8_t *closure;
    int next, end;   // indices [next, end) are unclaimed
    int running = 0; // claimed and not finished
    int result = 0;  // first nonzero task result
    Job *link = nullptr;
};

struct Pool {
    std::mutex mutex;
    std::condition_variable work_ready; // a job with unclaimed indices appeared
    std::condition_variable job_done;   // some job's running count dropped
    Job *jobs = nullptr;                // jobs with unclaimed indices, newest first
    // Counts the jobs ever pushed: an idle worker polls it, without the lock,
    // before it sleeps.
    std::atomic<unsigned> jobs_pushed{0};
    std::vector<std::thread> workers;
    int desired_threads = 0; // 0: not decided yet
    bool started = false;
    // Workers of an older generation exit (loom_set_num_threads resizes).
    int generation = 0;
};

Pool &pool() {
    // Never destroyed: workers may still be parked when the process exits.
    static Pool *p = new Pool;
    return *p;
}

int default_thread_count() {
    if (const char *env = std::getenv("LOOM_NUM_THREADS")) {
        int n = std::atoi(env);
        if (n > 0) return n;
    }
    int n = int(std::thread::hardware_concurrency());
    return n > 0 ? n : 1;
}

void unlink_job(Pool &p, Job *job) {
    for (Job **j = &p.jobs; *j; j = &(*j)->link) {
        if (*j == job) {
            *j = job->link;
            return;
        }
    }
}

// Runs one claimed index of job with the lock released; returns locked.
void run_one(Pool &p, Job *job, std::unique_lock<std::mutex> &lock) {
    int index = job->next++;
    job->running++;
    if (job->next >= job->end) unlink_job(p, job);
    lock.unlock();
    int r = job->task(job->user_context, index, job->closure);
    lock.lock();
    job->running--;
    if (r != 0 && job->result == 0) {
        job->result = r;
        // Skip what is not claimed yet: the caller gets the error soon.
        if (job->next < job->end) unlink_job(p, job);
        job->next = job->end;
    }
    if (job->running == 0) p.job_done.notify_all();
}

// How long an idle worker polls for a new job before it sleeps. A pipeline
// whose parallel loop sits inside a serial one (depthwise_separable_conv: a
// loop over rows per image, 4 images) starts a job every few hundred
// microseconds; a sleeping worker takes tens of microseconds to wake, which
// cost it 5-10% with 2 threads (Halide's workers spin a while too).
constexpr std::chrono::microseconds idle_poll_time{100};

// Waits, with the lock released, until a job is pushed or idle_poll_time
// passes; returns locked.
void poll_for_job(Pool &p, std::unique_lock<std::mutex> &lock) {
    unsigned seen = p.jobs_pushed.load(std::memory_order_relaxed);
    lock.unlock();
    auto deadline = std::chrono::steady_clock::now() + idle_poll_time;
    for (int i = 0; p.jobs_pushed.load(std::memory_order_acquire) == seen; i++) {
        if ((i & 63) == 63 && std::chrono::steady_clock::now() > deadline) break;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    lock.lock();
}

void worker_main(Pool *p, int generation) {
    std::unique_lock<std::mutex> lock(p->mutex);
    bool polled = false;
    while (p->generation == generation) {
        if (!p->jobs) {
            if (!polled) {
                poll_for_job(*p, lock);
                polled = true;
            } else {
                p->work_ready.wait(lock);
            }
            continue;
        }
        polled = false;
        // Newest job first: inner (nested) loops finish before outer ones
        // queue more of them.
        run_one(*p, p->jobs, lock);
    }
}

// Called with the lock held.
void start_workers(Pool &p) {
    if (p.started) return;
    if (p.desired_threads <= 0) p.desired_threads = default_thread_count();
    for (int i = 1; i < p.desired_threads; i++)
        p.workers.emplace_back(worker_main, &p, p.generation);
    p.started = true;
}

} // namespace

extern "C" {

int loom_do_par_for(void *user_context, int (*task)(void *, int, uint8_t *), int min, int extent,
                    uint8_t *closure) {
    auto *context = static_cast<loom_call_context_t *>(user_context);
    if (context && context->do_par_for_handler) {
        if (extent <= 0) return 0;
        return context->do_par_for_handler(context, task, min, extent, closure);
    }
    return loom_default_do_par_for(user_context, task, min, extent, closure);
}

int loom_default_do_par_for(void *user_context, int (*task)(void *, int, uint8_t *), int min,
                            int extent, uint8_t *closure) {
    if (extent <= 0) return 0;
    Pool &p = pool();
    std::unique_lock<std::mutex> lock(p.mutex);
    start_workers(p);
    if (extent == 1 || p.workers.empty()) {
        lock.unlock();
        for (int i = min; i < min + extent; i++) {
            int r = task(user_context, i, closure);
            if (r != 0) return r;
        }
        return 0;
    }
    Job job{task, user_context, closure, min, min + extent};
    job.link = p.jobs;
    p.jobs = &job;
    p.jobs_pushed.fetch_add(1, std::memory_order_release);
    p.work_ready.notify_all();
    while (job.next < job.end) run_one(p, &job, lock);
    while (job.running > 0) p.job_done.wait(lock);
    return job.result;
}

int loom_get_num_threads(void) {
    Pool &p = pool();
    std::lock_guard<std::mutex> lock(p.mutex);
    if (p.desired_threads <= 0) p.desired_threads = default_thread_count();
    return p.desired_threads;
}

int loom_set_num_threads(int n) {
    Pool &p = pool();
    std::vector<std::thread> old;
    int previous;
    {
        std::lock_guard<std::mutex> lock(p.mutex);
        previous = p.desired_threads > 0 ? p.desired_threads : default_thread_count();
        if (n <= 0) n = default_thread_count();
        if (n == previous && (p.started || p.desired_threads > 0)) {
            p.desired_threads = n;
            return previous;
        }
        p.desired_threads = n;
        p.generation++;
        old.swap(p.workers);
        p.started = false;
        p.work_ready.notify_all();
    }
    for (std::thread &t : old) t.join();
    return previous;
}

} // extern "C"
