// Parallel loops end to end: outlined into tasks, run on the thread pool,
// compared with plain C++; nested parallel loops, allocations inside tasks,
// errors raised inside a task, and a pool of one thread.

#include <catch2/catch.hpp>

#include "codegen_test_util.h"
#include "loom/Func.h"
#include "loom/IROperator.h"
#include "lower/LowerUtil.h"
#include "parallel_test_util.h"
#include "runtime/RuntimeFunctions.h"

using namespace loom;
using namespace par_test;

namespace {

int reference(int x, int y) {
    return x * 3 + y * y - (x ^ y);
}

Func make_pointwise(const std::string &name) {
    Var x("x"), y("y");
    Func f(name);
    f(x, y) = x * 3 + y * y - (x ^ y);
    return f;
}

void check(const Buffer<int> &out) {
    for (int y = 0; y < out.dim(1).extent(); y++)
        for (int x = 0; x < out.dim(0).extent(); x++) REQUIRE(out(x, y) == reference(x, y));
}

struct PoolSize {
    int previous;
    explicit PoolSize(int n) : previous(loom_set_num_threads(n)) {}
    ~PoolSize() { loom_set_num_threads(previous); }
};

void capture(loom_call_context_t *context, const char *message) {
    *static_cast<std::string *>(context->user_data) += message;
}

} // namespace

TEST_CASE("parallel: outer loop in parallel matches C++", "[parallel]") {
    Func f = make_pointwise("par_outer");
    schedule(f, {}, {{"x", ForType::Serial}, {"y", ForType::Parallel}});
    Buffer<int> out = f.realize({37, 53});
    check(out);
    REQUIRE(contains(llvm_ir_of(f), "loom_do_par_for"));
}

TEST_CASE("parallel: nested parallel loops, split and vectorized", "[parallel]") {
    SECTION("x parallel inside parallel y.o") {
        Func f = make_pointwise("par_nested");
        schedule(f, {{"y", 4}},
                 {{"x", ForType::Parallel}, {"y.i", ForType::Serial}, {"y.o", ForType::Parallel}});
        check(f.realize({29, 41}));
    }
    SECTION("vectorized inner loop inside a parallel one") {
        Func f = make_pointwise("par_vec");
        schedule(
            f, {{"x", 8}},
            {{"x.i", ForType::Vectorized}, {"x.o", ForType::Serial}, {"y", ForType::Parallel}});
        check(f.realize({37, 19}));
    }
    SECTION("a compute_root producer and its consumer both parallel") {
        Var x("x"), y("y");
        Func g = make_pointwise("par_producer");
        Func f("par_consumer");
        f(x, y) = g(x + 1, y) - g(x, y);
        compute_root(g);
        schedule(g, {}, {{"x", ForType::Serial}, {"y", ForType::Parallel}});
        schedule(f, {{"y", 3}},
                 {{"x", ForType::Serial}, {"y.i", ForType::Parallel}, {"y.o", ForType::Parallel}});
        Buffer<int> out = f.realize({23, 31});
        for (int yy = 0; yy < 31; yy++)
            for (int xx = 0; xx < 23; xx++)
                REQUIRE(out(xx, yy) == reference(xx + 1, yy) - reference(xx, yy));
    }
}

TEST_CASE("parallel: a pool of one thread runs parallel loops serially", "[parallel]") {
    PoolSize size(1);
    Func f = make_pointwise("par_one_thread");
    schedule(f, {{"y", 2}},
             {{"x", ForType::Parallel}, {"y.i", ForType::Serial}, {"y.o", ForType::Parallel}});
    check(f.realize({17, 21}));
}

namespace {

using namespace loom::test;

// for y in parallel [0, out.extent.0): body; out is 1-D.
LoweredFunc parallel_rows(const std::string &name, Stmt body) {
    Stmt loop = For::make("y", Expr(0), var("out.extent.0"), ForType::Parallel, DeviceAPI::None,
                          std::move(body));
    LoweredFunc f;
    f.name = name;
    f.args.push_back(buffer_arg("out", Int(32), 1, true));
    f.body = bind_buffer("out", 1, loop);
    return f;
}

Stmt store_out(Expr value, Expr index) {
    return Store::make("out", std::move(value), std::move(index), Buffer<>(), Parameter());
}

} // namespace

TEST_CASE("parallel: allocations inside a task are private to it", "[parallel]") {
    // Each task fills its own scratch (on the stack, and on the heap with a
    // size only known at run time) with y-dependent values and sums it.
    auto scratch_sum = [](const std::string &tmp, Expr size) {
        Expr i = var("i");
        Stmt fill = For::make("i", Expr(0), size, ForType::Serial, DeviceAPI::None,
                              Store::make(tmp, Add::make(var("y"), i), i, Buffer<>(), Parameter()));
        Stmt sum = For::make(
            "i", Expr(0), size, ForType::Serial, DeviceAPI::None,
            store_out(Add::make(Load::make(Int(32), "out", var("y"), Buffer<>(), Parameter()),
                                Load::make(Int(32), tmp, i, Buffer<>(), Parameter())),
                      var("y")));
        return Block::make({store_out(Expr(0), var("y")), fill, sum});
    };
    Stmt stack = Allocate::make("stack_tmp", Int(32), MemoryType::Auto, {Expr(16)}, const_true(),
                                scratch_sum("stack_tmp", Expr(16)));
    Expr n = Add::make(Mod::make(var("y"), Expr(5)), Expr(100));
    Stmt heap = Allocate::make("heap_tmp", Int(32), MemoryType::Heap, {n}, const_true(),
                               scratch_sum("heap_tmp", n));
    for (bool on_heap : {false, true}) {
        LoweredFunc f = parallel_rows(on_heap ? "par_heap_scratch" : "par_stack_scratch",
                                      on_heap ? heap : stack);
        Buffer<int> out(200);
        void *argv[] = {nullptr, out.raw_buffer()};
        JITModule m = JITModule::compile(f, get_host_target());
        REQUIRE(m.argv_function()(argv) == 0);
        for (int y = 0; y < 200; y++) {
            int size = on_heap ? y % 5 + 100 : 16;
            REQUIRE(out(y) == size * y + size * (size - 1) / 2);
        }
    }
}

TEST_CASE("parallel: an assert failing inside a task returns its error to the caller",
          "[parallel]") {
    Expr message = Call::make(Int(32), "loom_error_message",
                              {user_context_var(), StringImm::make("row 37 is bad")}, Call::Extern);
    Stmt body = Block::make(AssertStmt::make(NE::make(var("y"), Expr(37)), message),
                            store_out(Mul::make(var("y"), Expr(2)), var("y")));
    LoweredFunc f = parallel_rows("par_assert", body);
    JITModule m = JITModule::compile(f, get_host_target());
    for (int threads : {1, 4}) {
        PoolSize size(threads);
        std::string captured;
        loom_call_context_t context{capture, &captured, nullptr, nullptr,
                                    nullptr, nullptr,   nullptr};
        Buffer<int> out(100);
        void *argv[] = {&context, out.raw_buffer()};
        REQUIRE(m.argv_function()(argv) == loom_error_code_generic);
        REQUIRE(captured == "row 37 is bad");
        Buffer<int> small(30);
        void *ok_argv[] = {&context, small.raw_buffer()};
        captured.clear();
        REQUIRE(m.argv_function()(ok_argv) == 0);
        REQUIRE(captured.empty());
        for (int y = 0; y < 30; y++) REQUIRE(small(y) == 2 * y);
    }
}
