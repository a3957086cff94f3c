// unroll_loops: copies of the body per iteration, the error for symbolic
// extents, and results through the JIT.

#include <catch2/catch.hpp>

#include "codegen_test_util.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"
#include "loom/Error.h"
#include "lower/UnrollLoops.h"
#include "lower/VectorizeLoops.h"

using namespace loom;
using namespace loom::Internal;
using namespace loom::test;

namespace {

int count_nodes(const Stmt &s, IRNodeType t) {
    int n = 0;
    visit_all(s, [&](const IRNode *node) { n += node->node_type == t; });
    return n;
}

Stmt store_f(const Expr &value, const Expr &coord) {
    return Store::make("f", value, Sub::make(coord, var("f.min.0")), Buffer<>(), Parameter());
}

LoweredFunc make_func(const std::string &name, const Stmt &loops) {
    LoweredFunc f;
    f.name = name;
    f.args = {buffer_arg("f", Int(32), 1, true)};
    f.body = bind_buffer("f", 1, loops);
    return f;
}

Buffer<int> run(const LoweredFunc &f, int extent) {
    Buffer<int> out(extent);
    out.fill(-1);
    void *argv[] = {nullptr, out.raw_buffer()};
    REQUIRE(JITModule::compile(f, get_host_target()).argv_function()(argv) == 0);
    return out;
}

} // namespace

TEST_CASE("unroll: constant extent becomes a block of copies", "[unroll]") {
    Stmt s = For::make("f.s0.x", var("f.min.0"), Expr(4), ForType::Unrolled, DeviceAPI::None,
                       store_f(Mul::make(var("f.s0.x"), Expr(2)), var("f.s0.x")));
    Stmt u = unroll_loops(s);
    CHECK(count_nodes(u, IRNodeType::For) == 0);
    CHECK(count_nodes(u, IRNodeType::Store) == 4);
    CHECK_FALSE(stmt_uses_var(u, "f.s0.x"));
}

TEST_CASE("unroll: symbolic min is bound once", "[unroll]") {
    Expr min = Add::make(var("f.min.0"), Expr(1));
    Stmt s = For::make("x", min, Expr(3), ForType::Unrolled, DeviceAPI::None,
                       store_f(var("x"), var("x")));
    Stmt u = unroll_loops(s);
    REQUIRE(u.as<LetStmt>());
    CHECK(count_nodes(u, IRNodeType::Store) == 3);
}

TEST_CASE("unroll: extent zero leaves nothing to run", "[unroll]") {
    Stmt s = For::make("x", Expr(0), Expr(0), ForType::Unrolled, DeviceAPI::None,
                       store_f(Expr(1), var("x")));
    Stmt u = unroll_loops(s);
    CHECK(count_nodes(u, IRNodeType::Store) == 0);
}

TEST_CASE("unroll: non-constant extent is a CompileError naming the loop", "[unroll]") {
    Stmt s = For::make("f.s0.x.xi", Expr(0), var("n"), ForType::Unrolled, DeviceAPI::None,
                       store_f(Expr(1), var("f.s0.x.xi")));
    try {
        unroll_loops(s);
        FAIL("expected a CompileError");
    } catch (const CompileError &e) {
        std::string msg = e.what();
        CHECK(msg.find("Func f: cannot unroll loop xi") != std::string::npos);
        CHECK(msg.find("not a compile-time constant") != std::string::npos);
        CHECK(msg.find("n") != std::string::npos);
    }
}

TEST_CASE("unroll: serial and other loops are left alone", "[unroll]") {
    Stmt s = For::make("x", Expr(0), var("n"), ForType::Serial, DeviceAPI::None,
                       store_f(Expr(1), var("x")));
    CHECK(unroll_loops(s).same_as(s));
}

TEST_CASE("unroll: JIT results of split, nested and vectorized unrolling", "[unroll][jit]") {
    Expr xo = var("xo"), xi = var("xi"), y = var("y");
    SECTION("split by 4 with unrolled inner loop") {
        Stmt inner = For::make(
            "xi", Expr(0), Expr(4), ForType::Unrolled, DeviceAPI::None,
            LetStmt::make("f.s0.x",
                          Add::make(Add::make(var("f.min.0"), Mul::make(xo, Expr(4))), xi),
                          store_f(Mul::make(var("f.s0.x"), var("f.s0.x")), var("f.s0.x"))));
        Stmt loops = For::make("xo", Expr(0), Div::make(var("f.extent.0"), Expr(4)),
                               ForType::Serial, DeviceAPI::None, inner);
        Buffer<int> out = run(make_func("unroll_split", unroll_loops(loops)), 24);
        for (int i = 0; i < 24; i++) REQUIRE(out(i) == i * i);
    }
    SECTION("nested unrolled loops") {
        // f(4 * y + xi) = 10 * y + xi for y < 3, xi < 4
        Stmt body =
            store_f(Add::make(Mul::make(y, Expr(10)), xi), Add::make(Mul::make(y, Expr(4)), xi));
        Stmt loops =
            For::make("y", Expr(0), Expr(3), ForType::Unrolled, DeviceAPI::None,
                      For::make("xi", Expr(0), Expr(4), ForType::Unrolled, DeviceAPI::None, body));
        Stmt u = unroll_loops(loops);
        CHECK(count_nodes(u, IRNodeType::Store) == 12);
        Buffer<int> out = run(make_func("unroll_nested", u), 12);
        for (int i = 0; i < 12; i++) REQUIRE(out(i) == (i / 4) * 10 + i % 4);
    }
    SECTION("unrolled outer loop around a vectorized one") {
        Stmt body =
            store_f(Add::make(Mul::make(y, Expr(100)), xi), Add::make(Mul::make(y, Expr(8)), xi));
        Stmt loops = For::make(
            "y", Expr(0), Expr(2), ForType::Unrolled, DeviceAPI::None,
            For::make("xi", Expr(0), Expr(8), ForType::Vectorized, DeviceAPI::None, body));
        Stmt u = vectorize_loops(unroll_loops(loops));
        CHECK(count_nodes(u, IRNodeType::For) == 0);
        Buffer<int> out = run(make_func("unroll_vectorized", u), 16);
        for (int i = 0; i < 16; i++) REQUIRE(out(i) == (i / 8) * 100 + i % 8);
    }
}
