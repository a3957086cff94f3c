// Func, FuncRef and Expr in Halide's shapes: definitions return Stages,
// f(x)[i] = e updates element i, values() is a Tuple, Funcs with required
// types, Funcs of Buffers and ImageParams, implicit Vars, Expr compound
// assignment, printing, and the compile_to_* overloads.

#include "Loom.h"
namespace Halide = loom;

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "common/ScratchFile.h"

using namespace Halide;
using Catch::Matchers::Contains;

TEST_CASE("compat funcs: definitions return the Stage they define", "[compat][funcs]") {
    Func f("f"), g("g");
    Var x("x"), xo("xo"), xi("xi");
    RDom r(0, 10);
    Stage pure = (g(x) = x * 3);
    g.compute_root();
    pure.vectorize(x, 4);
    CHECK(pure.name() == "g");
    Stage init = (f(x) = g(x));
    CHECK(init.name() == "f");
    Stage update = (f(x) += g(x) * 2);
    CHECK(update.name() == "f.update(0)");
    update.split(x, xo, xi, 4, TailStrategy::GuardWithIf).vectorize(xi);
    Stage second = (f(r) = f(r) - r);
    CHECK(second.name() == "f.update(1)");
    Stage times_two = (f(x) *= 2);
    CHECK(times_two.name() == "f.update(2)");
    Stage as_stage = f;
    CHECK(as_stage.name() == "f");
    Buffer<int> out = f.realize({20});
    for (int i = 0; i < 20; i++) {
        int v = i * 3 + i * 3 * 2;
        if (i < 10) v -= i;
        CHECK(out(i) == v * 2);
    }
}

TEST_CASE("compat funcs: f(x)[i] = e updates element i only", "[compat][funcs]") {
    Func f("f");
    Var x("x");
    RDom r(0, 5);
    f(x) = Tuple(x, x * 2, cast<float>(x));
    f(x)[1] = f(x)[1] + 10;                 // only element 1
    f(x)[0] += 3;                           // only element 0
    f(r * 2)[2] = cast<float>(f(r * 2)[0]); // a scatter into element 2
    f(x)[1] = f(x)[0] * f(x)[1];
    Tuple values = f.values();
    CHECK(values.size() == 3);
    CHECK(f.num_update_definitions() == 4);
    Realization out = f.realize({12});
    Buffer<int> a = out[0], b = out[1];
    Buffer<float> c = out[2];
    for (int i = 0; i < 12; i++) {
        int e0 = i + 3, e1 = i * 2 + 10;
        float e2 = (i % 2 == 0 && i < 10) ? float(e0) : float(i);
        e1 = e0 * e1;
        CHECK(a(i) == e0);
        CHECK(b(i) == e1);
        CHECK(c(i) == e2);
    }
}

TEST_CASE("compat funcs: a Func can require its type and dimensions", "[compat][funcs]") {
    Var x, y;
    Func f(Int(32), 2, "declared");
    CHECK(f.name() == "declared");
    CHECK(f.dimensions() == 2);
    CHECK(f.type() == Int(32));
    CHECK(f.output_types().size() == 1);
    f(x, y) = x + y;
    CHECK(f.defined());

    Func wrong_type(Float(32), 1, "wrong_type");
    CHECK_THROWS_WITH(wrong_type(x) = x, Contains("wrong_type") &&
                                             Contains("declared with type (float32)") &&
                                             Contains("defined with (int32)"));
    Func wrong_dims(Int(32), 2, "wrong_dims");
    CHECK_THROWS_WITH(wrong_dims(x) = x, Contains("wrong_dims") &&
                                             Contains("declared with 2 dimensions") &&
                                             Contains("defined with 1"));
    Func pair({Int(32), Float(32)}, 1, "pair");
    CHECK(pair.types().size() == 2);
    pair(x) = Tuple(x, cast<float>(x));
}

TEST_CASE("compat funcs: Func(Buffer) and ImageParams work as Funcs", "[compat][funcs]") {
    Buffer<int> b(5, 4, "b");
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 5; x++) b(x, y) = x * 10 + y;
    Func fb(b);
    CHECK(fb.dimensions() == 2);
    Buffer<int> copy = fb.realize({5, 4});
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 5; x++) CHECK(copy(x, y) == b(x, y));

    ImageParam in(Int(32), 2, "in");
    Func in_f = in; // the ImageParam's own Func
    CHECK(in_f.dimensions() == 2);
    Var x("x"), y("y");
    Func g("g");
    g(x, y) = in_f(x, y) * 2 + Func(in)(x, y);
    Func(in).compute_root(); // the same Func each time, so the schedule holds
    in.set(b);
    Buffer<int> out = g.realize({5, 4});
    for (int yy = 0; yy < 4; yy++)
        for (int xx = 0; xx < 5; xx++) CHECK(out(xx, yy) == b(xx, yy) * 3);
}

TEST_CASE("compat funcs: the placeholder _ stands for implicit Vars", "[compat][funcs]") {
    Var x("x"), y("y");
    Func f("f"), g("g"), h("h"), k("k");
    f(x, y) = x + y * 100;
    g(_) = f(_) * 3;
    CHECK(g.dimensions() == 2);
    h(x, _) = f(x, _) + x;
    CHECK(h.dimensions() == 2);
    Buffer<int> b(4, 3);
    b.fill(7);
    k(_) = b(_) + g(_);
    Buffer<int> gk = k.realize({4, 3});
    Buffer<int> hh = h.realize({4, 3});
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < 4; i++) {
            CHECK(gk(i, j) == 7 + (i + j * 100) * 3);
            CHECK(hh(i, j) == i + j * 100 + i);
        }
    }
    // Schedules name the implicit Vars _0, _1, ...
    Func s("s");
    s(_) = f(_) + 1;
    s.vectorize(_0, 4).parallel(_1);
    Buffer<int> sb = s.realize({8, 2});
    CHECK(sb(5, 1) == 5 + 100 + 1);
    CHECK(Var::implicit(3).name() == "_3");
    CHECK(_2.is_implicit());
    CHECK(_.is_placeholder());
    CHECK(Var::implicit_index("_12") == 12);
    CHECK(Var::implicit_index("x") == -1);
}

TEST_CASE("compat funcs: implicit Vars need a placeholder on the left", "[compat][funcs]") {
    Var x("x"), y("y");
    Func f("f"), g("g"), two("two");
    f(x, y) = x + y;
    CHECK_THROWS_WITH(g(x) = f(_), Contains("Func g") && Contains("implicit Var _0") &&
                                       Contains("placeholder '_'"));
    CHECK_THROWS_WITH(two(_, _) = f(x, y),
                      Contains("Only one implicit placeholder") && Contains("Func two"));
}

TEST_CASE("compat funcs: Expr compound assignment keeps the Expr's type", "[compat][funcs]") {
    Var x("x");
    Expr e = x;
    e += 2;
    e *= 3;
    e -= 1;
    e /= 2;
    Expr u = cast<uint8_t>(x);
    u += 300; // 300 becomes uint8 (44) first, as in Halide
    CHECK(u.type() == UInt(8));
    Expr fl = cast<float>(x);
    fl /= 4;
    CHECK(fl.type() == Float(32));
    Func f;
    f(x) = Tuple(e, u, fl);
    Realization r = f.realize({50});
    Buffer<int> a = r[0];
    Buffer<uint8_t> b = r[1];
    Buffer<float> c = r[2];
    for (int i = 0; i < 50; i++) {
        CHECK(a(i) == ((i + 2) * 3 - 1) / 2);
        CHECK(b(i) == uint8_t(uint8_t(i) + uint8_t(300 % 256)));
        CHECK(c(i) == float(i) / 4.0f);
    }
}

TEST_CASE("compat funcs: Exprs, Funcs, Types and Targets print with <<", "[compat][funcs]") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x + y * 2;
    f(x, 0) += 1;
    std::ostringstream e, fs, t;
    e << (x + 1);
    CHECK(e.str() == "(x + 1)");
    fs << f;
    CHECK_THAT(fs.str(), Contains("f(x, y) = (x + (y * 2))") && Contains("\nf(x, 0) = "));
    t << Int(32) << " " << Target("x86-64-linux-avx2");
    CHECK(t.str() == "int32 x86-64-linux-avx2");
}

TEST_CASE("compat funcs: compile_to_* takes a Target with or without a function name",
          "[compat][funcs]") {
    ImageParam in(Float(32), 1, "in");
    Param<float> k("k");
    Var x("x");
    Func f("scaled");
    f(x) = in(x)*k;
    Target t("x86-64-linux");
    loom_test::ScratchFile obj("compat", "scaled.o"), s("compat", "scaled.s"),
        ll("compat", "scaled.ll"), h("compat", "named.h"), s2("compat", "named.s");
    f.compile_to_object(obj.path, {in, k}, t);
    f.compile_to_assembly(s.path, {in, k}, t);
    f.compile_to_llvm_assembly(ll.path, {in, k}, t);
    f.compile_to_header(h.path, {in, k}, "my_scale", t);
    f.compile_to_assembly(s2.path, {in, k}, "my_scale");
    CHECK(std::ifstream(obj.path).good());
    CHECK_THAT(loom_test::read_text(s.path), Contains("scaled"));
    CHECK_THAT(loom_test::read_text(ll.path), Contains("@scaled"));
    CHECK_THAT(loom_test::read_text(h.path), Contains("my_scale("));
    CHECK_THAT(loom_test::read_text(s2.path), Contains("my_scale"));

    Pipeline p(f);
    loom_test::ScratchFile pobj("compat", "pipeline.o");
    p.compile_to_object(pobj.path, {in, k}, t);
    CHECK(std::ifstream(pobj.path).good());
}

TEST_CASE("compat funcs: RDom(min, extent, name) and its multi-dimensional forms",
          "[compat][funcs]") {
    RDom r1(2, 5, "r1");
    RDom r2(0, 3, 1, 4, "r2");
    RDom r3(0, 2, 0, 3, 1, 2, "r3");
    RDom r4(0, 2, 0, 2, 0, 2, 1, 3, "r4");
    CHECK(r1.dimensions() == 1);
    CHECK(r2.dimensions() == 2);
    CHECK(r3.dimensions() == 3);
    CHECK(r4.dimensions() == 4);
    CHECK(r1.x.name() == "r1$x");
    CHECK(r2.y.name() == "r2$y");
    Var x("x");
    Func s1("rdom_named_1"), s2("rdom_named_2"), s3("rdom_named_3"), s4("rdom_named_4");
    s1(x) = 0;
    s1(x) += r1 * (x + 1);
    s2(x) = 0;
    s2(x) += r2.x * r2.y + x;
    s3(x) = 0;
    s3(x) += r3.x + r3.y * r3.z;
    s4(x) = 0;
    s4(x) += r4.x + r4.y + r4.z * r4.w;
    int e1 = 0, e2 = 0, e3 = 0, e4 = 0;
    for (int i = 2; i < 7; i++) e1 += i * 2; // x = 1
    for (int b = 1; b < 5; b++)
        for (int a = 0; a < 3; a++) e2 += a * b + 1;
    for (int c = 1; c < 3; c++)
        for (int b = 0; b < 3; b++)
            for (int a = 0; a < 2; a++) e3 += a + b * c;
    for (int d = 1; d < 4; d++)
        for (int c = 0; c < 2; c++)
            for (int b = 0; b < 2; b++)
                for (int a = 0; a < 2; a++) e4 += a + b + c * d;
    Buffer<int> o1 = s1.realize({2}), o2 = s2.realize({2}), o3 = s3.realize({1}),
                o4 = s4.realize({1});
    CHECK(o1(1) == e1);
    CHECK(o2(1) == e2);
    CHECK(o3(0) == e3);
    CHECK(o4(0) == e4);
}
