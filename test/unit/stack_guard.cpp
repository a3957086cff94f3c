// The stack guard of IR traversals (ir/StackGuard.h): deep IR on a thread
// with a small stack is a CompileError, never a crash; on the deep-stack
// thread the same IR is fine.

#include <catch2/catch.hpp>

#include <pthread.h>

#include <exception>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "Loom.h"
#include "analysis/Simplify.h"
#include "ir/IROperator.h"
#include "ir/StackGuard.h"
#include "loom/Error.h"

using namespace loom;
using namespace loom::Internal;

namespace {

/** Runs fn on a new thread with a stack of `bytes`; returns what it threw. */
std::exception_ptr run_with_stack(size_t bytes, const std::function<void()> &fn) {
    struct Job {
        const std::function<void()> *fn;
        std::exception_ptr error;
    } job{&fn, nullptr};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, bytes);
    pthread_t t;
    auto body = [](void *arg) -> void * {
        auto *j = static_cast<Job *>(arg);
        try {
            (*j->fn)();
        } catch (...) {
            j->error = std::current_exception();
        }
        return nullptr;
    };
    REQUIRE(pthread_create(&t, &attr, body, &job) == 0);
    pthread_attr_destroy(&attr);
    pthread_join(t, nullptr);
    return job.error;
}

Expr deep_sum(int terms) {
    Expr e = Variable::make(Int(32), "x");
    for (int i = 0; i < terms; i++) e = e + Variable::make(Int(32), "y");
    return e;
}

std::string message_of(std::exception_ptr error) {
    try {
        std::rethrow_exception(error);
    } catch (const CompileError &e) {
        return e.what();
    } catch (const std::exception &e) {
        return std::string("not a CompileError: ") + e.what();
    }
}

} // namespace

TEST_CASE("stack guard: deep IR on a small stack is a CompileError", "[unit][stack_guard]") {
    Expr e = deep_sum(50000);
    std::exception_ptr error = run_with_stack(512 * 1024, [&] { simplify(e); });
    REQUIRE(error);
    CHECK_THAT(message_of(error),
               Catch::Contains("nested too deeply to compile") && Catch::Contains("larger stack"));
    // The same thread is still usable for shallow IR afterwards.
    std::exception_ptr again = run_with_stack(512 * 1024, [&] {
        Expr small = simplify(deep_sum(10));
        if (!small.defined()) throw std::runtime_error("undefined");
    });
    CHECK_FALSE(again);
}

TEST_CASE("stack guard: the deep-stack thread takes the same IR", "[unit][stack_guard]") {
    Expr e = deep_sum(50000);
    Expr simplified;
    std::exception_ptr error = run_with_stack(512 * 1024, [&] {
        run_on_deep_stack([&] {
            CHECK(on_deep_stack());
            simplified = simplify(e);
        });
    });
    CHECK_FALSE(error);
    CHECK(simplified.defined());
    CHECK_FALSE(on_deep_stack());
}

TEST_CASE("stack guard: exceptions cross back from the deep-stack thread", "[unit][stack_guard]") {
    CHECK_THROWS_WITH(run_on_deep_stack([] { throw CompileError("from the deep stack"); }),
                      "from the deep stack");
    CHECK_THROWS_AS(run_on_deep_stack([] { throw RuntimeError("runtime"); }), RuntimeError);
}

TEST_CASE("stack guard: steps run at once, each on a deep stack of its own",
          "[unit][stack_guard]") {
    Expr e = deep_sum(50000);
    std::vector<Expr> simplified(3);
    std::vector<std::thread::id> threads(3);
    std::vector<std::function<void()>> steps;
    for (size_t i = 0; i < 3; i++) {
        steps.push_back([&, i] {
            CHECK(on_deep_stack());
            threads[i] = std::this_thread::get_id();
            simplified[i] = simplify(e);
        });
    }
    std::exception_ptr error =
        run_with_stack(512 * 1024, [&] { run_on_deep_stacks_at_once(steps); });
    CHECK_FALSE(error);
    for (const Expr &s : simplified) CHECK(s.defined());
    CHECK(threads[0] != threads[1]);
    CHECK(threads[1] != threads[2]);
    CHECK(threads[0] != threads[2]);
}

TEST_CASE("stack guard: the first exception of steps run at once crosses back",
          "[unit][stack_guard]") {
    int finished = 0;
    std::vector<std::function<void()>> steps{[] { throw CompileError("first step"); },
                                             [&] { finished++; },
                                             [] { throw RuntimeError("third step"); }};
    CHECK_THROWS_WITH(run_on_deep_stacks_at_once(steps), "first step");
    // Every step ran to its end before the call returned.
    CHECK(finished == 1);
}

TEST_CASE("compile deadline: a traversal past it stops with CompileTimeLimit, here and on the "
          "deep stack",
          "[unit][stack_guard]") {
    Expr e = deep_sum(20000);
    {
        ScopedCompileDeadline deadline(0);
        CHECK_THROWS_AS(simplify(e), CompileTimeLimit);
        // The deadline holds on the thread a step is handed to.
        CHECK_THROWS_WITH(run_on_deep_stack([&] { simplify(e); }),
                          Catch::Contains("longer than the time allowed"));
    }
    // Gone with its scope, here and on the deep stack.
    CHECK(simplify(deep_sum(300)).defined());
    Expr simplified;
    run_on_deep_stack([&] { simplified = simplify(e); });
    CHECK(simplified.defined());
    // A generous deadline lets the same work finish, and the stack guard
    // still works under one.
    {
        ScopedCompileDeadline deadline(600);
        CHECK(simplify(deep_sum(300)).defined());
        std::exception_ptr error = run_with_stack(512 * 1024, [&] {
            ScopedCompileDeadline inner(600);
            simplify(deep_sum(50000));
        });
        REQUIRE(error);
        CHECK_THAT(message_of(error), Catch::Contains("nested too deeply to compile"));
    }
}
