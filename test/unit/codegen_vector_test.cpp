// Vector code: dense ramp stores and loads, gathers and scatters, reversed
// ramps, broadcasts, shuffles and predicated memory operations.

#include <catch2/catch.hpp>

#include <functional>

#include "codegen_test_util.h"

using namespace loom;
using namespace loom::Internal;
using namespace loom::test;

namespace {

const int lanes = 8;

// for v in [0, out.extent.0 / 8): body(v) with "base" = v * 8
LoweredFunc vector_loop(const std::string &name, const std::vector<LoweredArgument> &inputs,
                        Type out_type, const std::function<Stmt(Expr base)> &body_of) {
    Expr base = Mul::make(var("v"), Expr(lanes));
    Stmt body = For::make("v", Expr(0), Div::make(var("out.extent.0"), Expr(lanes)),
                          ForType::Serial, DeviceAPI::None, body_of(base));
    body = bind_buffer("out", 1, body);
    LoweredFunc f;
    f.name = name;
    for (const auto &a : inputs) {
        if (a.is_buffer()) body = bind_buffer(a.name, a.dimensions, body);
        f.args.push_back(a);
    }
    f.args.push_back(buffer_arg("out", out_type, 1, true));
    f.body = body;
    return f;
}

Stmt store(const std::string &b, Expr value, Expr index, Expr predicate = Expr()) {
    return Store::make(b, std::move(value), std::move(index), Buffer<>(), Parameter(),
                       std::move(predicate));
}

Expr vload(Type t, const std::string &b, Expr index, Expr predicate = Expr()) {
    return Load::make(t, b, std::move(index), Buffer<>(), Parameter(), std::move(predicate));
}

} // namespace

TEST_CASE("codegen: dense vector store of a ramp expression", "[codegen][jit]") {
    LoweredFunc f = vector_loop("cg_vec_ramp", {}, Int(32), [](Expr base) {
        Expr ramp = Ramp::make(base, Expr(1), lanes);
        return store("out",
                     Add::make(Mul::make(ramp, Broadcast::make(Expr(3), lanes)),
                               Broadcast::make(Expr(1), lanes)),
                     ramp);
    });
    Buffer<int> out(64);
    void *argv[] = {nullptr, out.raw_buffer()};
    JITModule m = JITModule::compile(f, get_host_target(), true);
    REQUIRE(m.argv_function()(argv) == 0);
    for (int i = 0; i < 64; i++) REQUIRE(out(i) == i * 3 + 1);
    REQUIRE(m.llvm_assembly().find("<8 x i32>") != std::string::npos);
}

TEST_CASE("codegen: gathers, reversed loads and scatters", "[codegen][jit]") {
    Buffer<float> in(200);
    for (int i = 0; i < 200; i++) in(i) = float(i) * 0.5f;
    SECTION("stride-2 gather") {
        LoweredFunc f = vector_loop(
            "cg_vec_gather", {buffer_arg("in", Float(32), 1, false)}, Float(32), [](Expr base) {
                Expr idx = Ramp::make(Mul::make(base, Expr(2)), Expr(2), lanes);
                return store("out", vload(Float(32, lanes), "in", idx),
                             Ramp::make(base, Expr(1), lanes));
            });
        Buffer<float> out(64);
        void *argv[] = {nullptr, in.raw_buffer(), out.raw_buffer()};
        REQUIRE(JITModule::compile(f, get_host_target()).argv_function()(argv) == 0);
        for (int i = 0; i < 64; i++) REQUIRE(out(i) == in(2 * i));
    }
    SECTION("reversed ramp load") {
        LoweredFunc f = vector_loop(
            "cg_vec_reverse", {buffer_arg("in", Float(32), 1, false)}, Float(32), [](Expr base) {
                Expr idx = Ramp::make(Sub::make(Expr(100), base), Expr(-1), lanes);
                return store("out", vload(Float(32, lanes), "in", idx),
                             Ramp::make(base, Expr(1), lanes));
            });
        Buffer<float> out(64);
        void *argv[] = {nullptr, in.raw_buffer(), out.raw_buffer()};
        REQUIRE(JITModule::compile(f, get_host_target()).argv_function()(argv) == 0);
        for (int i = 0; i < 64; i++) REQUIRE(out(i) == in(100 - i));
    }
    SECTION("scatter with stride 2 and a broadcast load") {
        LoweredFunc f = vector_loop(
            "cg_vec_scatter", {buffer_arg("in", Float(32), 1, false)}, Float(32), [](Expr base) {
                Expr value =
                    Add::make(vload(Float(32, lanes), "in", Broadcast::make(Expr(3), lanes)),
                              Cast::make(Float(32, lanes), Ramp::make(base, Expr(1), lanes)));
                // out has 64 elements; write the even ones of the first 64 positions only for v
                // < 4.
                Stmt s = store("out", value, Ramp::make(Mul::make(base, Expr(2)), Expr(2), lanes));
                return IfThenElse::make(LT::make(var("v"), Expr(4)), s);
            });
        Buffer<float> out(64);
        void *argv[] = {nullptr, in.raw_buffer(), out.raw_buffer()};
        REQUIRE(JITModule::compile(f, get_host_target()).argv_function()(argv) == 0);
        for (int i = 0; i < 32; i++) {
            REQUIRE(out(2 * i) == in(3) + float(i));
            REQUIRE(out(2 * i + 1) == 0.0f);
        }
    }
}

TEST_CASE("codegen: predicated loads and stores touch only enabled lanes", "[codegen][jit]") {
    // out[i] = in[i] + 1 only where i < limit, vectorized; other lanes keep their old value.
    LoweredFunc f = vector_loop(
        "cg_vec_predicated", {buffer_arg("in", Int(32), 1, false), scalar_arg("limit", Int(32))},
        Int(32), [](Expr base) {
            Expr ramp = Ramp::make(base, Expr(1), lanes);
            Expr mask = LT::make(ramp, Broadcast::make(var("limit"), lanes));
            Expr v =
                Add::make(vload(Int(32, lanes), "in", ramp, mask), Broadcast::make(Expr(1), lanes));
            return store("out", v, ramp, mask);
        });
    Buffer<int> in(64), out(64);
    for (int i = 0; i < 64; i++) in(i) = i * 10, out(i) = -1;
    int limit = 13;
    void *argv[] = {nullptr, in.raw_buffer(), &limit, out.raw_buffer()};
    REQUIRE(JITModule::compile(f, get_host_target()).argv_function()(argv) == 0);
    for (int i = 0; i < 64; i++) REQUIRE(out(i) == (i < 13 ? i * 10 + 1 : -1));
}

TEST_CASE("codegen: shuffles interleave and slice vectors", "[codegen][jit]") {
    // out[8v .. 8v+7] = interleave(ramp(8v, 1, 4) * 10, ramp(8v, 1, 4) * 10 + 1), then reversed
    // slice checks.
    LoweredFunc f = vector_loop("cg_vec_shuffle", {}, Int(32), [](Expr base) {
        Expr r = Mul::make(Ramp::make(base, Expr(1), 4), Broadcast::make(Expr(10), 4));
        Expr s = Add::make(r, Broadcast::make(Expr(1), 4));
        Expr inter = Shuffle::make_interleave({r, s});
        return store("out", inter, Ramp::make(base, Expr(1), lanes));
    });
    Buffer<int> out(32);
    void *argv[] = {nullptr, out.raw_buffer()};
    REQUIRE(JITModule::compile(f, get_host_target()).argv_function()(argv) == 0);
    for (int v = 0; v < 4; v++) {
        for (int k = 0; k < 4; k++) {
            REQUIRE(out(8 * v + 2 * k) == (8 * v + k) * 10);
            REQUIRE(out(8 * v + 2 * k + 1) == (8 * v + k) * 10 + 1);
        }
    }
}
