// Asserts, allocations, branches and lets.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "codegen_test_util.h"

using namespace loom;
using namespace loom::Internal;
using namespace loom::test;

namespace {

std::vector<std::string> messages;

void capture(loom_call_context_t *, const char *message) {
    messages.push_back(message);
}

Expr user_context() {
    return var("__user_context", Handle());
}

// assert(p < 10, loom_error_param_too_large_i64(uc, "p", p, 9))
Stmt assert_p_small() {
    Expr message = Call::make(
        Int(32), "loom_error_param_too_large_i64",
        {user_context(), StringImm::make("p"), Cast::make(Int(64), var("p")), Expr(int64_t(9))},
        Call::Extern);
    return AssertStmt::make(LT::make(var("p"), Expr(10)), message);
}

} // namespace

TEST_CASE("codegen: a failing assert returns its code and reports through the context",
          "[codegen][jit]") {
    Stmt body = Block::make(assert_p_small(),
                            loop_over("out", "x",
                                      Store::make("out", var("p"), flat_index("out", var("x")),
                                                  Buffer<>(), Parameter())));
    LoweredFunc f;
    f.name = "cg_assert";
    f.args = {scalar_arg("p", Int(32)), buffer_arg("out", Int(32), 1, true)};
    f.body = bind_buffer("out", 1, body);
    JITModule m = JITModule::compile(f, get_host_target());

    Buffer<int> out(4);
    loom_call_context_t context{&capture, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
    int p = 12;
    void *argv[] = {&context, &p, out.raw_buffer()};
    messages.clear();
    REQUIRE(m.argv_function()(argv) == loom_error_code_param_out_of_range);
    REQUIRE(messages == std::vector<std::string>{"Parameter p is 12 but must be at most 9"});
    REQUIRE(out(0) == 0);

    p = 5;
    messages.clear();
    REQUIRE(m.argv_function()(argv) == 0);
    REQUIRE(messages.empty());
    REQUIRE(out(3) == 5);
}

TEST_CASE("codegen: heap and stack allocations hold intermediate values", "[codegen][jit]") {
    for (bool heap : {true, false}) {
        // tmp[x - min] = x * x; out[x] = tmp[x - min] + 1
        Expr local = Sub::make(var("x"), var("out.min.0"));
        Stmt produce = loop_over(
            "out", "x",
            Store::make("tmp", Mul::make(var("x"), var("x")), local, Buffer<>(), Parameter()));
        Stmt consume = loop_over(
            "out", "x",
            Store::make(
                "out",
                Add::make(Load::make(Int(32), "tmp", local, Buffer<>(), Parameter()), Expr(1)),
                flat_index("out", var("x")), Buffer<>(), Parameter()));
        Expr extent = heap ? var("out.extent.0") : Expr(16);
        Stmt alloc =
            Allocate::make("tmp", Int(32), heap ? MemoryType::Heap : MemoryType::Stack, {extent},
                           const_true(), Block::make({produce, consume, Free::make("tmp")}));
        LoweredFunc f;
        f.name = heap ? "cg_alloc_heap" : "cg_alloc_stack";
        f.args = {buffer_arg("out", Int(32), 1, true)};
        f.body = bind_buffer("out", 1, alloc);
        JITModule m = JITModule::compile(f, get_host_target(), true);
        REQUIRE((m.llvm_assembly().find("loom_malloc") != std::string::npos) == heap);
        Buffer<int> out(16);
        out.set_min(-3);
        void *argv[] = {nullptr, out.raw_buffer()};
        REQUIRE(m.argv_function()(argv) == 0);
        for (int x = -3; x < 13; x++) REQUIRE(out(x) == x * x + 1);
    }
}

TEST_CASE("codegen: an assert inside a heap allocation returns its code", "[codegen][jit]") {
    Stmt inner =
        Block::make(assert_p_small(),
                    loop_over("out", "x",
                              Store::make("tmp", var("x"), Sub::make(var("x"), var("out.min.0")),
                                          Buffer<>(), Parameter())));
    Stmt alloc = Allocate::make("tmp", Int(32), MemoryType::Heap, {var("out.extent.0")},
                                const_true(), inner);
    LoweredFunc f;
    f.name = "cg_assert_in_alloc";
    f.args = {scalar_arg("p", Int(32)), buffer_arg("out", Int(32), 1, true)};
    f.body = bind_buffer("out", 1, alloc);
    JITModule m = JITModule::compile(f, get_host_target(), true);
    // The failure path frees the allocation before returning.
    const std::string &ir = m.llvm_assembly();
    size_t frees = 0;
    for (size_t pos = ir.find("call void @loom_free"); pos != std::string::npos;
         pos = ir.find("call void @loom_free", pos + 1))
        frees++;
    REQUIRE(frees >= 2);
    Buffer<int> out(8);
    loom_call_context_t context{&capture, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
    int p = 50;
    void *argv[] = {&context, &p, out.raw_buffer()};
    messages.clear();
    REQUIRE(m.argv_function()(argv) == loom_error_code_param_out_of_range);
    REQUIRE(messages.size() == 1);
}

TEST_CASE("codegen: if/else, select, lets and if_then_else", "[codegen][jit]") {
    // let y = x * 3 in (if x % 2 == 0 then out = y else out = -y) and a lazy if_then_else guarding
    // a division.
    Expr y = var("y");
    Stmt even = Store::make("out", y, flat_index("out", var("x")), Buffer<>(), Parameter());
    Stmt odd = Store::make("out", Sub::make(Expr(0), y), flat_index("out", var("x")), Buffer<>(),
                           Parameter());
    Stmt branch = IfThenElse::make(EQ::make(Mod::make(var("x"), Expr(2)), Expr(0)), even, odd);
    Stmt body = loop_over("out", "x", LetStmt::make("y", Mul::make(var("x"), Expr(3)), branch));
    LoweredFunc f;
    f.name = "cg_branches";
    f.args = {buffer_arg("out", Int(32), 1, true)};
    f.body = bind_buffer("out", 1, body);
    Buffer<int> out(10);
    void *argv[] = {nullptr, out.raw_buffer()};
    REQUIRE(JITModule::compile(f, get_host_target()).argv_function()(argv) == 0);
    for (int x = 0; x < 10; x++) REQUIRE(out(x) == (x % 2 == 0 ? 3 * x : -3 * x));

    Expr lazy = Call::make(Int(32), Intrinsic::if_then_else,
                           {GT::make(var("x"), Expr(0)),
                            Let::make("q", Div::make(Expr(100), var("x")), var("q")), Expr(-1)});
    LoweredFunc g = pointwise("cg_if_then_else", Int(32), {}, lazy);
    Buffer<int> out2(5);
    out2.set_min(-2);
    void *argv2[] = {nullptr, out2.raw_buffer()};
    REQUIRE(JITModule::compile(g, get_host_target()).argv_function()(argv2) == 0);
    REQUIRE(out2(-2) == -1);
    REQUIRE(out2(0) == -1);
    REQUIRE(out2(1) == 100);
    REQUIRE(out2(2) == 50);
}

TEST_CASE("codegen: buffer type and dimension fields", "[codegen][jit]") {
    // out(x) = dimensions * 1000 + type_code * 100 + type_bits, of the input buffer.
    auto field = [](Intrinsic op) {
        return Cast::make(
            Int(32), Call::make(Int(32), op, {var("in.buffer", Handle())}, Call::PureIntrinsic));
    };
    Expr v = Add::make(Add::make(Mul::make(field(Intrinsic::buffer_get_dimensions), Expr(1000)),
                                 Mul::make(field(Intrinsic::buffer_get_type_code), Expr(100))),
                       field(Intrinsic::buffer_get_type_bits));
    LoweredFunc f = pointwise("cg_fields", Int(32), {buffer_arg("in", Float(64), 3, false)}, v);
    Buffer<double> in(2, 3, 4);
    Buffer<int> out(1);
    void *argv[] = {nullptr, in.raw_buffer(), out.raw_buffer()};
    REQUIRE(JITModule::compile(f, get_host_target()).argv_function()(argv) == 0);
    REQUIRE(out(0) == 3000 + 200 + 64);
}

TEST_CASE("codegen: debug_print prints its arguments and returns the first", "[codegen][jit]") {
    Expr printed = Call::make(
        Int(32), Intrinsic::debug_print,
        {var("x"), StringImm::make("squared is"), Mul::make(var("x"), var("x"))}, Call::Intrinsic);
    LoweredFunc f = pointwise("cg_debug_print", Int(32), {}, Add::make(printed, Expr(1)));
    Buffer<int> out(3);
    void *argv[] = {nullptr, out.raw_buffer()};
    REQUIRE(JITModule::compile(f, get_host_target()).argv_function()(argv) == 0);
    for (int x = 0; x < 3; x++) REQUIRE(out(x) == x + 1);
}
