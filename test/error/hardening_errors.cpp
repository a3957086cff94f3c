// Bad or extreme inputs found by trying Loom as a new user would (issue 16):
// each once crashed, hung or gave a wrong answer; each must now raise a
// clear error naming what is wrong.

#include <catch2/catch.hpp>

#include <climits>
#include <cstdint>
#include <vector>

#include "Loom.h"
#include "common/ScopedEnv.h"

using namespace loom;
using Catch::Contains;

TEST_CASE("hardening: the JIT refuses targets it cannot run on this host", "[error][hardening]") {
    for (const char *t :
         {"x86-32-linux", "x86-64-osx", "arm-64-linux", "riscv-64-linux", "x86-64-windows"}) {
        INFO(t);
        Var x("x");
        Func f("foreign");
        f(x) = x * 2;
        CHECK_THROWS_WITH(f.realize({8}, Target(t)),
                          Contains("cannot be JIT-compiled for target " + std::string(t)));
        CHECK_THROWS_AS(f.realize({8}, Target(t)), CompileError);
        // Its LLVM IR is text only: no machine code is made (this once hung).
        CHECK_NOTHROW(f.compile_to_llvm_assembly("/tmp/loom_foreign_target.ll", {}, "", Target(t)));
    }
}

TEST_CASE("hardening: an unknown LOOM_JIT_BACKEND is an error naming the allowed values",
          "[error][hardening]") {
    loom_test::ScopedEnv env("LOOM_JIT_BACKEND", "bogus");
    Var x("x");
    Func f("bogus_backend");
    f(x) = x;
    CHECK_THROWS_WITH(f.realize({4}), Contains("LOOM_JIT_BACKEND=bogus is not a JIT backend") &&
                                          Contains("\"llvm\"") && Contains("\"c\""));
    CHECK_THROWS_AS(f.realize({4}), CompileError);
    loom_test::ScopedEnv llvm("LOOM_JIT_BACKEND", "llvm");
    Buffer<int> r = f.realize({4});
    CHECK(r(3) == 3);
}

TEST_CASE("hardening: a split factor Param that is not positive at run time",
          "[error][hardening]") {
    Param<int> factor("factor");
    Var x("x"), xo("xo"), xi("xi");
    Func f("param_split");
    f(x) = x * 3;
    f.split(x, xo, xi, factor);
    factor.set(4);
    Buffer<int> ok = f.realize({10});
    for (int i = 0; i < 10; i++) CHECK(ok(i) == i * 3);
    for (int bad : {0, -2}) {
        factor.set(bad);
        CHECK_THROWS_WITH(
            f.realize({10}),
            Contains("Parameter factor (the split factor of x in Func param_split) is " +
                     std::to_string(bad) + " but must be at least 1"));
        CHECK_THROWS_AS(f.realize({10}), RuntimeError);
    }
}

TEST_CASE("hardening: a run-time split factor is checked only where its schedule runs",
          "[error][hardening]") {
    Param<int> factor("tile");
    Var x("x"), xo("xo"), xi("xi");
    Func f("specialized_split");
    f(x) = x + 1;
    // Split by the Param only when it is positive; the general schedule has no split.
    f.specialize(factor > 0).split(x, xo, xi, factor);
    for (int t : {3, 0, -5}) {
        factor.set(t);
        Buffer<int> out = f.realize({10});
        for (int i = 0; i < 10; i++) CHECK(out(i) == i + 1);
    }
}

TEST_CASE("hardening: odd and invalid types are CompileErrors", "[error][hardening]") {
    Var x("x");
    Func f("odd_cast");
    CHECK_THROWS_WITH(f(x) = cast(Int(7), x),
                      "cast to a value of type int7, which generated code cannot hold; Int(n) "
                      "takes n = 8, 16, 32 or 64");
    CHECK_THROWS_AS(cast(Int(7), x), CompileError);
    CHECK_THROWS_WITH(cast(Float(8), x),
                      Contains("type float8") && Contains("Float(n) takes n = 16, 32 or 64"));
    CHECK_THROWS_WITH(cast(UInt(32, 65536), x), Contains("a type with 0 lanes"));
    CHECK_THROWS_WITH(cast(UInt(32, 2048), x), Contains("a type with 2048 lanes"));
    CHECK_THROWS_WITH(cast(Type(), x), Contains("the void type Type()"));
    CHECK_THROWS_WITH(reinterpret(Int(7), x), Contains("int7"));
    CHECK_THROWS_WITH(Buffer<>(Int(256), {4}), Contains("Buffer of a type with 0 bits"));
    CHECK_THROWS_AS(Buffer<>(Int(256), {4}), CompileError);
    CHECK_THROWS_WITH(Buffer<>(Float(8), {4}), Contains("Buffer of type float8"));
    // The legal types still work.
    Func ok("legal_casts");
    ok(x) = cast<int8_t>(x) + cast(Int(8), cast(Float(16), x)) + cast(Int(8), cast(Bool(), x));
    Buffer<int8_t> r = ok.realize({4});
    CHECK(r(3) == 3 + 3 + 1);
}

TEST_CASE("hardening: vectorize by a huge factor is a CompileError", "[error][hardening]") {
    Var x("x");
    Func f("wide");
    f(x) = x;
    f.vectorize(x, 65536);
    CHECK_THROWS_WITH(f.realize({8}), "Func wide: cannot vectorize loop x_vi of extent 65536; a "
                                      "vector has at most 1024 lanes, so use vectorize(x_vi, "
                                      "factor) with a smaller factor");
    CHECK_THROWS_AS(f.realize({8}), CompileError);
}

TEST_CASE("hardening: a Tuple Func realized into buffers of different sizes",
          "[error][hardening]") {
    Var x("x");
    Func f("pair");
    f(x) = Tuple(x, x * 2);
    Buffer<int> a(10), b(5);
    CHECK_THROWS_WITH(f.realize(Realization({a, b})),
                      Contains("The output buffers of Tuple Func pair differ in size") &&
                          Contains("covers 0 to 9 in dimension 0") && Contains("covers 0 to 4"));
    Buffer<int> c(10);
    f.realize(Realization({a, c}));
    CHECK(c(9) == 18);
}

TEST_CASE("hardening: output buffers with a negative extent or a min near INT_MAX",
          "[error][hardening]") {
    Var x("x");
    Func f("edge_out");
    f(x) = x;
    std::vector<int> data(16, -1);
    loom_dimension_t negative{0, -3, 1, 0};
    CHECK_THROWS_WITH(f.realize(Buffer<int>(data.data(), 1, &negative)),
                      Contains("of Func edge_out has min 0 and extent -3 in dimension 0; an "
                               "extent must be at least 0"));
    CHECK(data[0] == -1);
    Buffer<int> high(10);
    high.set_min(INT_MAX - 5);
    CHECK_THROWS_WITH(f.realize(high), Contains("of Func edge_out has min 2147483642 and extent 10 "
                                                "in dimension 0, which reaches past the largest "
                                                "coordinate 2147483647"));
    CHECK_THROWS_WITH(f.realize(std::vector<int>{-1}),
                      Contains("Func edge_out cannot be realized with sizes {-1}"));
}

TEST_CASE("hardening: a null data pointer with a shape makes an unallocated buffer",
          "[error][hardening]") {
    std::vector<loom_dimension_t> shape{{0, 1000, 1, 0}, {0, 1000, 1000, 0}};
    Buffer<> b(Int(32), nullptr, shape);
    CHECK(b.dimensions() == 2);
    CHECK(b.dim(1).extent() == 1000);
    CHECK(b.data() == nullptr);

    // As a JIT input it is an error naming the buffer (a bounds query only
    // through infer_input_bounds).
    ImageParam in(Int(32), 2, "in");
    Var x("x"), y("y");
    Func f("reads_null");
    f(x, y) = in(x, y) + 1;
    Buffer<> none(Int(32), nullptr, shape, "no_host");
    in.set(none);
    CHECK_THROWS_WITH(f.realize({10, 10}), Contains("Input buffer no_host (of in) has no memory") &&
                                               Contains("infer_input_bounds"));
    // infer_input_bounds still takes an unbound ImageParam as a bounds query.
    ImageParam in2(Int(32), 2, "in2");
    Func g("bounds_of_null");
    g(x, y) = in2(x + 1, y);
    g.infer_input_bounds({10, 10});
    CHECK(in2.get().dim(0).min() == 1);
    CHECK(in2.get().dim(0).extent() == 10);
}

TEST_CASE("hardening: an index overflowing int32 at run time fails the region check",
          "[error][hardening]") {
    ImageParam in(Int(32), 1, "in");
    Param<int> p("p");
    Var x("x");
    Func f("far_index");
    f(x) = in(x + p);
    Buffer<int> input(16);
    input.fill(1);
    in.set(input);
    p.set(INT_MAX - 4);
    CHECK_THROWS_WITH(f.realize({10}),
                      "Input buffer in is accessed at 2147483643 to 2147483652 in dimension 0 by "
                      "Func far_index, but the buffer only covers 0 to 15");
    Func g("far_below");
    g(x) = in(x - p);
    p.set(-INT_MAX);
    CHECK_THROWS_WITH(g.realize({10}), Contains("accessed at 2147483647 to 2147483656"));
    p.set(3);
    Buffer<int> fine = f.realize({10});
    CHECK(fine(9) == 1);
}

TEST_CASE("hardening: an input whose byte offsets pass 2^31 needs large_buffers",
          "[error][hardening]") {
    ImageParam in(UInt(8), 2, "huge_stride");
    Var x("x"), y("y");
    Func f("strided_read");
    f(x, y) = in(x, y);
    std::vector<uint8_t> data(16, 7);
    // Rows 2^30 bytes apart: row 2 starts at byte 2^31. Only rows 0 and 1
    // are read below, but the buffer's extent says three rows.
    loom_dimension_t shape[2] = {{0, 4, 1, 0}, {0, 3, 1 << 30, 0}};
    Buffer<uint8_t> input(data.data(), 2, shape);
    in.set(input);
    CHECK_THROWS_WITH(f.realize({4, 1}), Contains("Buffer huge_stride spans 2147483652 elements") &&
                                             Contains("add the large_buffers target feature"));
    CHECK_THROWS_AS(f.realize({4, 1}), RuntimeError);
}

TEST_CASE("hardening: Buffer refuses sizes whose byte count overflows size_t",
          "[error][hardening]") {
    // (2^31 - 1)^2 elements of 8 bytes: 2^65 bytes, which once wrapped to a
    // small allocation.
    CHECK_THROWS_WITH((Runtime::Buffer<int64_t>(INT32_MAX, INT32_MAX)),
                      Contains("cannot allocate sizes {2147483647, 2147483647}") &&
                          Contains("8-byte int64 elements") && Contains("overflows size_t"));
    CHECK_THROWS_AS((Runtime::Buffer<int64_t>(INT32_MAX, INT32_MAX)), Runtime::BufferError);
    // Through loom::Buffer: a RuntimeError.
    std::vector<int> sizes = {INT32_MAX, INT32_MAX};
    CHECK_THROWS_WITH(Buffer<int64_t>(sizes),
                      Contains("cannot allocate sizes {2147483647, 2147483647}") &&
                          Contains("overflows size_t"));
    CHECK_THROWS_AS(Buffer<int64_t>(sizes), RuntimeError);
    // Explicit strides whose span overflows 64 bits.
    std::vector<loom_dimension_t> shape = {
        {0, INT32_MAX, INT32_MAX, 0}, {0, INT32_MAX, INT32_MAX, 0}, {0, INT32_MAX, INT32_MAX, 0}};
    Runtime::Buffer<uint8_t> wide(nullptr, shape);
    CHECK_THROWS_WITH(wide.allocate(), Contains("strides {2147483647, 2147483647, 2147483647}") &&
                                           Contains("overflows size_t"));
}

TEST_CASE("hardening: huge outputs are RuntimeErrors naming the Func and the sizes",
          "[error][hardening]") {
    Var x("x"), y("y");
    Func f("too_big");
    f(x, y) = x + y;
    CHECK_THROWS_WITH(f.realize({100000, 100000}),
                      "Func too_big cannot be realized with sizes {100000, 100000}: an output "
                      "holds at most 2^31 - 1 elements (buffer offsets are 32-bit; add the "
                      "large_buffers target feature for 64-bit ones)");
    CHECK_THROWS_AS(f.realize({100000, 100000}), RuntimeError);

    // A Buffer made directly names its sizes.
    CHECK_THROWS_WITH(Buffer<int>(100000, 100000, 3),
                      Contains("sizes {100000, 100000, 3} need a stride of 10000000000 elements"));
}

TEST_CASE("hardening: an empty output of a vectorized Func", "[error][hardening]") {
    Var x("x");
    Func f("empty_vec");
    f(x) = x;
    f.vectorize(x, 8);
    Buffer<int> out = f.realize(std::vector<int>{0});
    CHECK(out.dim(0).extent() == 0);
    Func g("empty_vec_2d");
    Var y("y");
    g(x, y) = x + y;
    g.vectorize(x, 8).parallel(y);
    Buffer<int> none = g.realize({0, 5});
    CHECK(none.dim(1).extent() == 5);
    Buffer<int> rows = g.realize({16, 0});
    CHECK(rows.dim(0).extent() == 16);
}

TEST_CASE("hardening: unrolling past the copy limit is a CompileError", "[error][hardening]") {
    Var x("x"), y("y");
    {
        Func f("huge_unroll");
        f(x) = x;
        f.bound(x, 0, 1 << 14).unroll(x);
        CHECK_THROWS_WITH(f.realize({1 << 14}),
                          Contains("Func huge_unroll: cannot unroll loop x of extent 16384") &&
                              Contains("at most 4096 can be unrolled") &&
                              Contains("unroll(x, factor)"));
    }
    {
        // Nested unrolled loops multiply: 128 x 64 copies.
        Func g("nested_unroll");
        g(x, y) = x + y;
        g.bound(x, 0, 128).bound(y, 0, 64).unroll(x).unroll(y);
        CHECK_THROWS_WITH(g.realize({128, 64}),
                          Contains("Func nested_unroll: cannot unroll loop") &&
                              Contains("inside other unrolled loops") && Contains("8192 copies"));
        CHECK_THROWS_AS(g.realize({128, 64}), CompileError);
    }
}
