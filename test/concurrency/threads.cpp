// Compiling and realizing from many threads at once: one Func not yet
// compiled, one Func already compiled, a Func recompiled while others run
// it, and separate Funcs (some sharing a producer). Every thread's result
// must equal plain C++. (Also the program for the TSan lane:
// docs/guide/threads.md.)

#include <catch2/catch.hpp>

#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "Loom.h"

using namespace loom;

namespace {

constexpr int kThreads = 8;
constexpr int kRounds = 4;
constexpr int kWidth = 67; // vectors with a tail
constexpr int kHeight = 23;

Buffer<int> input_image() {
    Buffer<int> in(kWidth + 1, kHeight);
    for (int j = 0; j < kHeight; j++)
        for (int i = 0; i <= kWidth; i++) in(i, j) = (i * 37 + j * 11) % 256;
    return in;
}

int reference(const Buffer<int> &in, int k, int i, int j) {
    auto f = [&](int x) { return in(x, j) * 3 + in(x + 1, j) - k; };
    return f(i) + 2 * f(i < kWidth - 1 ? i + 1 : i) + j * k;
}

/** g(x, y) = f(x) + 2 f(min(x + 1, w - 1)) + y k over f(x, y) = 3 in(x) +
 * in(x + 1) - k, with f computed at the root (or inlined) and g parallel
 * over rows and vectorized. */
Func make_pipeline(const Buffer<int> &in, int k, bool producer_at_root) {
    Var x("x"), y("y");
    Func f("f_" + std::to_string(k)), g("g_" + std::to_string(k));
    f(x, y) = in(x, y) * 3 + in(x + 1, y) - k;
    g(x, y) = f(x, y) + 2 * f(min(x + 1, kWidth - 1), y) + y * k;
    if (producer_at_root) f.compute_root();
    g.parallel(y).vectorize(x, 8);
    return g;
}

/** The first difference from the reference, or "". */
std::string compare(const Buffer<int> &out, const Buffer<int> &in, int k) {
    if (out.width() != kWidth || out.height() != kHeight) return "wrong output size";
    for (int j = 0; j < kHeight; j++)
        for (int i = 0; i < kWidth; i++)
            if (out(i, j) != reference(in, k, i, j))
                return "k=" + std::to_string(k) + " (" + std::to_string(i) + ", " +
                       std::to_string(j) + "): got " + std::to_string(out(i, j)) + ", want " +
                       std::to_string(reference(in, k, i, j));
    return "";
}

/** Run body(thread index) on kThreads threads released together; return
 * each thread's problem ("" when it had none; an exception's message
 * otherwise). */
std::vector<std::string> run_together(const std::function<std::string(int)> &body) {
    std::vector<std::string> problems(kThreads);
    std::atomic<int> waiting{kThreads};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
        threads.emplace_back([&, t] {
            waiting--;
            while (waiting.load() > 0) std::this_thread::yield();
            try {
                problems[size_t(t)] = body(t);
            } catch (const std::exception &e) {
                problems[size_t(t)] = std::string("exception: ") + e.what();
            } catch (...) {
                problems[size_t(t)] = "unknown exception";
            }
        });
    }
    for (auto &th : threads) th.join();
    return problems;
}

void require_no_problems(const std::vector<std::string> &problems) {
    for (size_t t = 0; t < problems.size(); t++) {
        INFO("thread " << t);
        REQUIRE(problems[t] == "");
    }
}

} // namespace

TEST_CASE("threads: one Func not yet compiled, realized from 8 threads at once", "[threads]") {
    Buffer<int> in = input_image();
    for (int round = 0; round < kRounds; round++) {
        INFO("round " << round);
        int k = round + 1;
        Func g = make_pipeline(in, k, round % 2 == 0);
        require_no_problems(run_together([&](int) {
            Buffer<int> out = g.realize({kWidth, kHeight});
            return compare(out, in, k);
        }));
    }
}

TEST_CASE("threads: one compiled Func realized from 8 threads, many times each", "[threads]") {
    Buffer<int> in = input_image();
    for (bool at_root : {true, false}) {
        int k = at_root ? 5 : 6;
        Func g = make_pipeline(in, k, at_root);
        g.compile_jit();
        require_no_problems(run_together([&](int) {
            for (int i = 0; i < 10; i++) {
                Buffer<int> out(kWidth, kHeight);
                g.realize(out);
                std::string problem = compare(out, in, k);
                if (!problem.empty()) return problem;
            }
            return std::string();
        }));
    }
}

TEST_CASE("threads: a Pipeline recompiled by one thread while the others realize it", "[threads]") {
    Buffer<int> in = input_image();
    Func g = make_pipeline(in, 7, true);
    Pipeline p(g);
    require_no_problems(run_together([&](int t) {
        for (int i = 0; i < 4; i++) {
            if (t == 0) {
                // Drop and rebuild the code the other threads are running.
                p.invalidate_cache();
                p.compile_jit();
            } else {
                Buffer<int> out = p.realize({kWidth, kHeight});
                std::string problem = compare(out, in, 7);
                if (!problem.empty()) return problem;
            }
        }
        return std::string();
    }));
}

TEST_CASE("threads: separate Funcs compiled and realized from 8 threads at once", "[threads]") {
    Buffer<int> in = input_image();
    for (int round = 0; round < kRounds / 2; round++) {
        INFO("round " << round);
        require_no_problems(run_together([&](int t) {
            int k = 10 + t;
            Func g = make_pipeline(in, k, t % 2 == 0);
            Buffer<int> out = g.realize({kWidth, kHeight});
            return compare(out, in, k);
        }));
    }
}

TEST_CASE("threads: separate Pipelines sharing a producer Func, compiled at once", "[threads]") {
    // Read through a const reference: Buffer's non-const operator() marks
    // the buffer dirty on the host, a write the running pipelines would race with.
    const Buffer<int> in = input_image();
    Var x("x"), y("y");
    Func shared("shared");
    shared(x, y) = in(x, y) * 3 + in(x + 1, y);
    shared.compute_root();
    require_no_problems(run_together([&](int t) {
        Func g("consumer_" + std::to_string(t));
        g(x, y) = shared(x, y) + t;
        g.vectorize(x, 4);
        Buffer<int> out = g.realize({kWidth, kHeight});
        for (int j = 0; j < kHeight; j++)
            for (int i = 0; i < kWidth; i++)
                if (out(i, j) != in(i, j) * 3 + in(i + 1, j) + t)
                    return "consumer " + std::to_string(t) + " differs at (" + std::to_string(i) +
                           ", " + std::to_string(j) + ")";
        return std::string();
    }));
}

TEST_CASE("threads: a Callable called from 8 threads", "[threads]") {
    Buffer<int> in = input_image();
    Func g = make_pipeline(in, 3, true);
    Callable c = g.compile_to_callable({});
    require_no_problems(run_together([&](int) {
        for (int i = 0; i < 5; i++) {
            Buffer<int> out(kWidth, kHeight);
            if (int r = c(out); r != 0) return "Callable returned " + std::to_string(r);
            std::string problem = compare(out, in, 3);
            if (!problem.empty()) return problem;
        }
        return std::string();
    }));
}

TEST_CASE("threads: an auto-schedule waiting for the first realize, from 8 threads", "[threads]") {
    Buffer<int> in = input_image();
    Var x("x"), y("y");
    Func f("as_f"), g("as_g");
    f(x, y) = in(x, y) * 3 + in(x + 1, y) - 4;
    g(x, y) = f(x, y) + 2 * f(min(x + 1, kWidth - 1), y) + y * 4;
    Pipeline p(g);
    p.apply_autoscheduler(get_jit_target_from_environment());
    require_no_problems(run_together([&](int) {
        Buffer<int> out = p.realize({kWidth, kHeight});
        return compare(out, in, 4);
    }));
    CHECK(p.autoscheduler_results().output_sizes.size() > 0);
}
