// How JIT compile time grows with the size of a pipeline, for four kinds of
// pipeline of size N: a chain of N compute_root Funcs, a chain of N inlined
// stages, a pipeline with N outputs and one Func whose value has N terms.
// Prints the CPU time of lowering and of the whole compile_jit for each N and
// the growth exponent (the slope of log time over log N) of each kind.
// Run on demand; asserts nothing.
//
//   perf_compile_scaling [max seconds per compile (default 60)] [kinds...]
//
// LOOM_SCALING_STACK_MB=n compiles on a thread with an n MiB stack: the
// lowering passes recurse once per stage or let, and with the default 8 MiB
// the deepest pipelines overflow it (issue 16, item 2) before their time
// can be measured.
//
// Each measurement runs in a child process (forked after a warm-up compile,
// so LLVM's start-up is not counted), so that one that takes too long is
// stopped and one that crashes is reported, and the others still run.

#include <Loom.h>

#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "lower/Lower.h"

using namespace loom;

namespace {

using Clock = std::chrono::steady_clock;

/** CPU time of this process: on a loaded machine it still shows what a
 * compile costs (the JIT compiles on the calling thread). */
double process_cpu_ms() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string cpu_model() {
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "unknown CPU";
}

/** A pipeline of size n, built fresh (nothing cached). */
using Builder = std::function<Pipeline(int n)>;

struct Kind {
    const char *name;
    const char *what;
    Builder build;
};

Pipeline root_chain(int n) {
    Var x("x");
    Func prev("root_0");
    prev(x) = x;
    prev.compute_root();
    for (int i = 1; i <= n; i++) {
        Func f("root_" + std::to_string(i));
        f(x) = prev(x) + prev(x + 1) * 3 + i;
        if (i < n) f.compute_root();
        prev = f;
    }
    return Pipeline(prev);
}

Pipeline inline_chain(int n) {
    Var x("x");
    Func prev("inl_0");
    prev(x) = x;
    for (int i = 1; i <= n; i++) {
        Func f("inl_" + std::to_string(i));
        f(x) = prev(x) * 3 + i;
        prev = f;
    }
    return Pipeline(prev);
}

Pipeline many_outputs(int n) {
    Var x("x");
    Func in("shared_in");
    in(x) = x * 2;
    in.compute_root();
    std::vector<Func> outs;
    for (int i = 0; i < n; i++) {
        Func g("out_" + std::to_string(i));
        g(x) = in(x) + in(x + 1) * i;
        outs.push_back(g);
    }
    return Pipeline(outs);
}

Pipeline expr_terms(int n) {
    Var x("x");
    ImageParam in(Int(32), 1, "in");
    Expr e = in(x);
    for (int i = 1; i < n; i++) e = e + in(x + (i % 7)) * (i + 1);
    Func f("terms");
    f(x) = e;
    return Pipeline(f);
}

struct Measurement {
    bool ok = false;
    std::string problem;
    double lower_ms = 0, compile_ms = 0;
};

/** Lower, then compile_jit (which lowers again), in this process. */
Measurement measure_here(const Kind &kind, int n) {
    Measurement m;
    Pipeline p = kind.build(n);
    std::vector<Internal::Function> outputs;
    for (const Func &f : p.outputs()) outputs.push_back(f.function());
    double t0 = process_cpu_ms();
    Internal::lower(outputs, "scaling", get_jit_target_from_environment());
    m.lower_ms = process_cpu_ms() - t0;
    Pipeline fresh = kind.build(n);
    t0 = process_cpu_ms();
    fresh.compile_jit();
    m.compile_ms = process_cpu_ms() - t0;
    m.ok = true;
    return m;
}

/** measure_here on a thread with a stack of stack_mb MiB (0: here). */
Measurement measure_with_stack(const Kind &kind, int n, size_t stack_mb) {
    if (stack_mb == 0) return measure_here(kind, n);
    struct Job {
        const Kind *kind;
        int n;
        Measurement m;
        std::string error;
    } job{&kind, n, {}, {}};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, stack_mb << 20);
    pthread_t thread;
    auto body = [](void *p) -> void * {
        auto *j = static_cast<Job *>(p);
        try {
            j->m = measure_here(*j->kind, j->n);
        } catch (const std::exception &e) {
            j->error = e.what();
        }
        return nullptr;
    };
    if (pthread_create(&thread, &attr, body, &job) != 0) return measure_here(kind, n);
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attr);
    if (!job.error.empty()) throw std::runtime_error(job.error);
    return job.m;
}

/** measure_here in a child process, stopped after max_seconds. */
Measurement measure(const Kind &kind, int n, double max_seconds, size_t stack_mb) {
    int fds[2];
    if (pipe(fds) != 0) return {false, "pipe failed", 0, 0};
    std::fflush(stdout);
    pid_t child = fork();
    if (child < 0) return {false, "fork failed", 0, 0};
    if (child == 0) {
        close(fds[0]);
        double result[2] = {-1, -1};
        try {
            Measurement m = measure_with_stack(kind, n, stack_mb);
            result[0] = m.lower_ms;
            result[1] = m.compile_ms;
        } catch (const std::exception &e) {
            std::fprintf(stderr, "%s N=%d: %s\n", kind.name, n, e.what());
        }
        ssize_t w = write(fds[1], result, sizeof(result));
        _exit(w == sizeof(result) ? 0 : 1);
    }
    close(fds[1]);
    auto t0 = Clock::now();
    int status = 0;
    bool done = false;
    while (!(done = waitpid(child, &status, WNOHANG) == child)) {
        if (ms_since(t0) > max_seconds * 1000) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    Measurement m;
    if (!done) {
        kill(child, SIGKILL);
        waitpid(child, &status, 0);
        close(fds[0]);
        m.problem = "over " + std::to_string(int(max_seconds)) + " s";
        return m;
    }
    double result[2] = {-1, -1};
    ssize_t r = read(fds[0], result, sizeof(result));
    close(fds[0]);
    if (WIFSIGNALED(status)) {
        m.problem = std::string("killed by ") + strsignal(WTERMSIG(status));
    } else if (r != sizeof(result) || result[1] < 0) {
        m.problem = "threw";
    } else {
        m.ok = true;
        m.lower_ms = result[0];
        m.compile_ms = result[1];
    }
    return m;
}

/** Least-squares slope of log(t) over log(n). */
double slope(const std::vector<int> &ns, const std::vector<double> &ts) {
    size_t k = ns.size();
    if (k < 2) return NAN;
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (size_t i = 0; i < k; i++) {
        double lx = std::log(double(ns[i])), ly = std::log(ts[i]);
        sx += lx;
        sy += ly;
        sxx += lx * lx;
        sxy += lx * ly;
    }
    return (double(k) * sxy - sx * sy) / (double(k) * sxx - sx * sx);
}

} // namespace

int main(int argc, char **argv) {
    double max_seconds = argc > 1 ? std::atof(argv[1]) : 60;
    if (max_seconds <= 0) max_seconds = 60;
    std::vector<Kind> kinds = {
        {"root_chain", "a chain of N compute_root Funcs", root_chain},
        {"inline_chain", "a chain of N inlined stages", inline_chain},
        {"many_outputs", "a Pipeline with N outputs", many_outputs},
        {"expr_terms", "one Func whose value has N terms", expr_terms},
    };
    std::vector<std::string> chosen(argv + std::min(argc, 2), argv + argc);
    const std::vector<int> sizes = {50, 100, 200, 500, 1000, 2000};

    const char *stack_env = std::getenv("LOOM_SCALING_STACK_MB");
    size_t stack_mb = stack_env ? size_t(std::max(0, std::atoi(stack_env))) : 0;
    std::printf("compile scaling: CPU %s, %u hardware threads; target %s\n", cpu_model().c_str(),
                std::thread::hardware_concurrency(),
                get_jit_target_from_environment().to_string().c_str());
    std::printf("(CPU ms of lower: Loom's lowering passes, and of compile: the whole compile_jit, "
                "lowering and LLVM; each in a fresh process, %.0f s at most)\n",
                max_seconds);
    if (stack_mb) std::printf("(compiling on a thread with a %zu MiB stack)\n", stack_mb);
    // Warm up LLVM and the JIT before the children fork.
    inline_chain(2).compile_jit();

    for (const Kind &kind : kinds) {
        if (!chosen.empty() && std::find(chosen.begin(), chosen.end(), kind.name) == chosen.end())
            continue;
        std::printf("\n%s: %s\n%8s %12s %12s\n", kind.name, kind.what, "N", "lower ms",
                    "compile ms");
        std::vector<int> ns;
        std::vector<double> lower_ts, compile_ts;
        for (int n : sizes) {
            // Skip a size the growth so far says would take far too long.
            if (compile_ts.size() >= 2) {
                double e = std::max(1.0, slope(ns, compile_ts));
                double predicted = compile_ts.back() * std::pow(double(n) / ns.back(), e);
                if (predicted > 2 * max_seconds * 1000) {
                    std::printf("%8d %12s %12s (predicted %.0f s)\n", n, "-", "skipped",
                                predicted / 1000);
                    continue;
                }
            }
            Measurement m = measure(kind, n, max_seconds, stack_mb);
            if (!m.ok) {
                std::printf("%8d %12s %12s (%s)\n", n, "-", "-", m.problem.c_str());
                break;
            }
            std::printf("%8d %12.1f %12.1f\n", n, m.lower_ms, m.compile_ms);
            std::fflush(stdout);
            ns.push_back(n);
            lower_ts.push_back(m.lower_ms);
            compile_ts.push_back(m.compile_ms);
        }
        if (ns.size() >= 2) {
            std::vector<int> last_ns(ns.end() - 2, ns.end());
            std::vector<double> last_ts(compile_ts.end() - 2, compile_ts.end());
            std::printf("growth exponent of %s: compile %.2f (last two sizes %.2f), lower %.2f\n",
                        kind.name, slope(ns, compile_ts), slope(last_ns, last_ts),
                        slope(ns, lower_ts));
        }
    }
    return 0;
}
