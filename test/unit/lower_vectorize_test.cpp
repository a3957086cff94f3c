// vectorize_loops: structure of the widened IR, then results through the JIT
// against plain C++ for several vector widths, with and without a tail guard.

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>

#include "analysis/Simplify.h"
#include "codegen_test_util.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"
#include "loom/Error.h"
#include "lower/VectorizeLoops.h"

using namespace loom;
using namespace loom::Internal;
using namespace loom::test;

namespace {

const std::string x_name = "f.s0.x";

Expr x() {
    return var(x_name);
}

// Stride of dimension 0 is 1 for the dense buffers of these tests, as
// lowering assumes once it has checked it.
Expr out_index(const Expr &coord) {
    return Sub::make(coord, var("f.min.0"));
}
Expr in_index(const Expr &coord) {
    return Sub::make(coord, var("in.min.0"));
}
Expr load_in(Type t, const Expr &coord) {
    return Load::make(t, "in", in_index(coord), Buffer<>(), Parameter());
}
Stmt store_f(const Expr &value, const Expr &coord) {
    return Store::make("f", value, out_index(coord), Buffer<>(), Parameter());
}

/** for xo, vectorized xi in [0, lanes): let f.s0.x = f.min.0 + xo * lanes + xi; body.
 * With a guard (GuardWithIf), the body runs only where f.s0.x is inside f. */
Stmt split_loop(int lanes, bool guard, const Stmt &body) {
    Expr xo = var("f.s0.x.xo"), xi = var("f.s0.x.xi");
    Stmt inner = body;
    if (guard) {
        Expr end = Add::make(var("f.min.0"), var("f.extent.0"));
        inner = IfThenElse::make(likely(LT::make(x(), end)), inner);
    }
    inner = LetStmt::make(
        x_name, Add::make(Add::make(var("f.min.0"), Mul::make(xo, Expr(lanes))), xi), inner);
    inner =
        For::make("f.s0.x.xi", Expr(0), Expr(lanes), ForType::Vectorized, DeviceAPI::None, inner);
    Expr outer_extent = guard
                            ? Div::make(Add::make(var("f.extent.0"), Expr(lanes - 1)), Expr(lanes))
                            : Div::make(var("f.extent.0"), Expr(lanes));
    return For::make("f.s0.x.xo", Expr(0), outer_extent, ForType::Serial, DeviceAPI::None, inner);
}

LoweredFunc make_func(const std::string &name, Type out_type, Type in_type, const Stmt &loops) {
    Stmt body = bind_buffer("in", 1, bind_buffer("f", 1, vectorize_loops(loops)));
    LoweredFunc f;
    f.name = name;
    f.args = {buffer_arg("in", in_type, 1, false), buffer_arg("f", out_type, 1, true)};
    f.body = body;
    return f;
}

template <typename T> std::vector<const T *> nodes_of(const Stmt &s) {
    std::vector<const T *> out;
    visit_all(s, [&](const IRNode *n) {
        if (n->node_type == T::_node_type) out.push_back(static_cast<const T *>(n));
    });
    return out;
}

bool has_vectorized_for(const Stmt &s) {
    for (const For *f : nodes_of<For>(s)) {
        if (f->for_type == ForType::Vectorized) return true;
    }
    return false;
}

/** Run f(in) into an output of `extent` elements starting at `min`. */
template <typename Out, typename In>
Buffer<Out> run(const LoweredFunc &f, Buffer<In> &in, int min, int extent, Out fill = Out(-7)) {
    Buffer<Out> out(extent);
    out.set_min(min);
    out.fill(fill);
    void *argv[] = {nullptr, in.raw_buffer(), out.raw_buffer()};
    JITModule m = JITModule::compile(f, get_host_target());
    REQUIRE(m.argv_function()(argv) == 0);
    return out;
}

Buffer<int> int_input(int min, int extent) {
    Buffer<int> in(extent);
    in.set_min(min);
    for (int i = min; i < min + extent; i++) in(i) = i * 7 - 30;
    return in;
}

} // namespace

TEST_CASE("vectorize: dense loop becomes ramp loads and stores", "[vectorize]") {
    Stmt s = split_loop(8, false,
                        store_f(Add::make(load_in(Int(32), x()), Mul::make(x(), Expr(3))), x()));
    Stmt v = simplify(vectorize_loops(s));
    CHECK_FALSE(has_vectorized_for(v));
    auto stores = nodes_of<Store>(v);
    REQUIRE(stores.size() == 1);
    CHECK(stores[0]->value.type() == Int(32, 8));
    INFO(v);
    const Ramp *r = stores[0]->index.as<Ramp>();
    REQUIRE(r);
    CHECK(is_const_one(r->stride));
    auto loads = nodes_of<Load>(v);
    REQUIRE(loads.size() == 1);
    CHECK(loads[0]->index.as<Ramp>());
    // The split variable's let binds the scalar base of the ramp.
    bool scalar_base = false;
    for (const LetStmt *l : nodes_of<LetStmt>(v)) scalar_base |= l->value.type() == Int(32);
    CHECK(scalar_base);
}

TEST_CASE("vectorize: a non-linear let is rebound as a vector let", "[vectorize]") {
    Stmt body = LetStmt::make("t", Mod::make(x(), Expr(5)), store_f(var("t"), x()));
    Stmt v = vectorize_loops(split_loop(4, false, body));
    bool vector_let = false;
    for (const LetStmt *l : nodes_of<LetStmt>(v)) vector_let |= l->value.type() == Int(32, 4);
    CHECK(vector_let);
    CHECK(nodes_of<Store>(v)[0]->value.type() == Int(32, 4));
}

TEST_CASE("vectorize: lane-dependent if becomes predicated stores", "[vectorize]") {
    Stmt s = split_loop(4, true, store_f(load_in(Int(32), x()), x()));
    Stmt v = vectorize_loops(s);
    CHECK_FALSE(has_vectorized_for(v));
    CHECK(nodes_of<IfThenElse>(v).empty());
    auto stores = nodes_of<Store>(v);
    REQUIRE(stores.size() == 1);
    REQUIRE(stores[0]->predicate.defined());
    CHECK(stores[0]->predicate.type() == Bool(4));
    // The load is masked too, so the tail never reads past the input.
    auto loads = nodes_of<Load>(v);
    REQUIRE(loads.size() == 1);
    CHECK(loads[0]->predicate.defined());
}

TEST_CASE("vectorize: lane-independent if keeps its branch", "[vectorize]") {
    Stmt body = IfThenElse::make(GT::make(var("f.extent.0"), Expr(3)), store_f(x(), x()));
    Stmt v = vectorize_loops(split_loop(4, false, body));
    REQUIRE(nodes_of<IfThenElse>(v).size() == 1);
    CHECK(nodes_of<Store>(v)[0]->value.type() == Int(32, 4));
}

TEST_CASE("vectorize: loops with lane-dependent bounds are scalarized", "[vectorize]") {
    // for r in [0, x % 3): f[x] += 1
    Stmt inner = For::make(
        "r", Expr(0), Mod::make(x(), Expr(3)), ForType::Serial, DeviceAPI::None,
        store_f(
            Add::make(Load::make(Int(32), "f", out_index(x()), Buffer<>(), Parameter()), Expr(1)),
            x()));
    Stmt v = vectorize_loops(split_loop(4, false, Block::make(store_f(Expr(0), x()), inner)));
    CHECK_FALSE(has_vectorized_for(v));
    // One serial loop per lane.
    CHECK(nodes_of<For>(v).size() == 1 + 4);
}

TEST_CASE("vectorize: unsupported extent is an internal error", "[vectorize]") {
    Stmt s = For::make("f.s0.x", Expr(0), var("n"), ForType::Vectorized, DeviceAPI::None,
                       store_f(x(), x()));
    CHECK_THROWS_AS(vectorize_loops(s), InternalError);
}

TEST_CASE("vectorize: JIT results match C++ for widths 4, 8, 16", "[vectorize][jit]") {
    for (int lanes : {4, 8, 16}) {
        for (int extent : {lanes * 3, lanes * 3 + 1, lanes * 2 + lanes - 1, 3}) {
            bool guard = extent % lanes != 0;
            CAPTURE(lanes, extent);
            // f(x) = select(x % 2 == 0, in(x) * 3, in(x) / 4) + x
            Expr in_x = load_in(Int(32), x());
            Expr value = Add::make(Select::make(EQ::make(Mod::make(x(), Expr(2)), Expr(0)),
                                                Mul::make(in_x, Expr(3)), Div::make(in_x, Expr(4))),
                                   x());
            LoweredFunc f =
                make_func("vec_int_" + std::to_string(lanes) + "_" + std::to_string(extent),
                          Int(32), Int(32), split_loop(lanes, guard, store_f(value, x())));
            int min = -5;
            // The input covers exactly the output, so unmasked tail loads would read past it.
            Buffer<int> in = int_input(min, extent);
            Buffer<int> out = run<int>(f, in, min, extent);
            for (int i = min; i < min + extent; i++) {
                int v = in(i);
                int d = v >= 0 ? v / 4 : -((-v + 3) / 4);
                int expected = (((i % 2) + 2) % 2 == 0 ? v * 3 : d) + i;
                REQUIRE(out(i) == expected);
            }
        }
    }
}

TEST_CASE("vectorize: float math, casts and lets", "[vectorize][jit]") {
    for (int lanes : {4, 8, 16}) {
        int extent = lanes * 2 + 3;
        CAPTURE(lanes);
        // let t = float(in(x)) in f(x) = sqrt_f32(abs(t)) + float(x) * 0.5
        Expr t = Variable::make(Float(32), "t");
        Expr sq =
            Call::make(Float(32), "sqrt_f32",
                       {Call::make(Float(32), "abs_f32", {t}, Call::PureExtern)}, Call::PureExtern);
        Expr value = Let::make("t", Cast::make(Float(32), load_in(Int(32), x())),
                               Add::make(sq, Mul::make(Cast::make(Float(32), x()), Expr(0.5f))));
        LoweredFunc f = make_func("vec_float_" + std::to_string(lanes), Float(32), Int(32),
                                  split_loop(lanes, true, store_f(value, x())));
        Buffer<int> in = int_input(0, extent);
        Buffer<float> out = run<float>(f, in, 0, extent, -1.0f);
        for (int i = 0; i < extent; i++) {
            float expected = std::sqrt(std::fabs(float(in(i)))) + float(i) * 0.5f;
            REQUIRE(out(i) == Approx(expected));
        }
    }
}

TEST_CASE("vectorize: if/else on the lane, nested loops and allocations", "[vectorize][jit]") {
    const int lanes = 8, extent = 8 * 4 + 5;
    Buffer<int> in = int_input(0, extent + 2);
    Expr f_x = Load::make(Int(32), "f", out_index(x()), Buffer<>(), Parameter());

    SECTION("if/else whose condition varies by lane") {
        Stmt body = IfThenElse::make(EQ::make(Mod::make(x(), Expr(3)), Expr(0)),
                                     store_f(Expr(1), x()), store_f(load_in(Int(32), x()), x()));
        LoweredFunc f = make_func("vec_ifelse", Int(32), Int(32), split_loop(lanes, true, body));
        Buffer<int> out = run<int>(f, in, 0, extent);
        for (int i = 0; i < extent; i++) REQUIRE(out(i) == (i % 3 == 0 ? 1 : in(i)));
    }
    SECTION("serial loop with lane-independent bounds keeps a vector body") {
        // f(x) = 0; for r in [0, 3): f(x) += in(x + r)
        Stmt acc =
            For::make("r", Expr(0), Expr(3), ForType::Serial, DeviceAPI::None,
                      store_f(Add::make(f_x, load_in(Int(32), Add::make(x(), var("r")))), x()));
        Stmt loops = split_loop(lanes, false, Block::make(store_f(Expr(0), x()), acc));
        Stmt v = vectorize_loops(loops);
        bool vector_body = false;
        for (const For *l : nodes_of<For>(v)) {
            if (l->name == "r")
                vector_body = nodes_of<Store>(l->body)[0]->value.type().lanes == lanes;
        }
        CHECK(vector_body);
        LoweredFunc f = make_func("vec_nested", Int(32), Int(32), loops);
        Buffer<int> out = run<int>(f, in, 0, 32);
        for (int i = 0; i < 32; i++) REQUIRE(out(i) == in(i) + in(i + 1) + in(i + 2));
    }
    SECTION("serial loop whose extent depends on the lane is scalarized") {
        Stmt inner = For::make("r", Expr(0), Mod::make(x(), Expr(5)), ForType::Serial,
                               DeviceAPI::None, store_f(Add::make(f_x, Expr(2)), x()));
        LoweredFunc f = make_func("vec_lane_loop", Int(32), Int(32),
                                  split_loop(lanes, true, Block::make(store_f(x(), x()), inner)));
        Buffer<int> out = run<int>(f, in, 0, extent);
        for (int i = 0; i < extent; i++) REQUIRE(out(i) == i + 2 * (i % 5));
    }
    SECTION("allocation inside the loop gets one copy per lane") {
        // tmp[r] = in(x) * (r + 1) for r < 3; f(x) = tmp[0] + tmp[1] + tmp[2]
        Expr r = var("r");
        Stmt fill =
            For::make("r", Expr(0), Expr(3), ForType::Serial, DeviceAPI::None,
                      Store::make("tmp", Mul::make(load_in(Int(32), x()), Add::make(r, Expr(1))), r,
                                  Buffer<>(), Parameter()));
        auto tmp = [](int i) {
            return Load::make(Int(32), "tmp", Expr(i), Buffer<>(), Parameter());
        };
        Stmt use = store_f(Add::make(Add::make(tmp(0), tmp(1)), tmp(2)), x());
        Stmt body = Allocate::make("tmp", Int(32), MemoryType::Auto, {Expr(3)}, const_true(),
                                   Block::make(fill, use));
        LoweredFunc f = make_func("vec_alloc", Int(32), Int(32), split_loop(lanes, true, body));
        Buffer<int> out = run<int>(f, in, 0, extent);
        for (int i = 0; i < extent; i++) REQUIRE(out(i) == in(i)*6);
    }
    SECTION("lane-independent stores still run once per lane when they read themselves") {
        // f[0] = f[0] + 1 for every x, then f(x) is left alone elsewhere.
        Stmt body = Store::make(
            "f", Add::make(Load::make(Int(32), "f", Expr(0), Buffer<>(), Parameter()), Expr(1)),
            Expr(0), Buffer<>(), Parameter());
        LoweredFunc f =
            make_func("vec_self_read", Int(32), Int(32), split_loop(lanes, false, body));
        Buffer<int> out = run<int>(f, in, 0, 32, 0);
        REQUIRE(out(0) == 32);
        for (int i = 1; i < 32; i++) REQUIRE(out(i) == 0);
    }
    SECTION("a body that does not use the lane") {
        Stmt body = store_f(Expr(42), Expr(3));
        LoweredFunc f =
            make_func("vec_invariant", Int(32), Int(32), split_loop(lanes, false, body));
        Buffer<int> out = run<int>(f, in, 0, 16, 0);
        for (int i = 0; i < 16; i++) REQUIRE(out(i) == (i == 3 ? 42 : 0));
    }
    SECTION("every lane writing one address: the last lane wins") {
        Stmt body = store_f(x(), Expr(0));
        LoweredFunc f =
            make_func("vec_one_address", Int(32), Int(32), split_loop(lanes, false, body));
        Buffer<int> out = run<int>(f, in, 0, 16, 0);
        REQUIRE(out(0) == 15);
    }
    SECTION("lazy if_then_else only loads in the lanes that take it") {
        // f(x) = if_then_else(x < 20, in(x), -1): in covers only [0, 20).
        Buffer<int> small = int_input(0, 20);
        Expr value = Call::make(Int(32), Intrinsic::if_then_else,
                                {LT::make(x(), Expr(20)), load_in(Int(32), x()), Expr(-1)});
        LoweredFunc f =
            make_func("vec_lazy", Int(32), Int(32), split_loop(lanes, true, store_f(value, x())));
        Buffer<int> out = run<int>(f, small, 0, extent);
        for (int i = 0; i < extent; i++) REQUIRE(out(i) == (i < 20 ? small(i) : -1));
    }
}
