// Malformed algorithms and bad buffers: each raises the right exception with
// a message naming the Func, buffer or Var involved.

#include <catch2/catch.hpp>

#include "Loom.h"

using namespace loom;
using Catch::Contains;

TEST_CASE("calling a Func with the wrong number of arguments", "[error]") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x + y;
    Func g("g");
    CHECK_THROWS_WITH(g(x) = f(x),
                      "Func f is called with 1 argument but was defined with 2 (x, y)");
    CHECK_THROWS_AS(g(x) = f(x, y, x), CompileError);
}

TEST_CASE("using an undefined Func", "[error]") {
    Var x("x");
    Func never("never_defined"), user("user");
    CHECK_THROWS_WITH(user(x) = never(x) + 1, Contains("never_defined"));
    CHECK_THROWS_WITH(never.realize({4}), Contains("never_defined"));
    CHECK_THROWS_AS(never.type(), CompileError);
}

TEST_CASE("redefining a Func", "[error]") {
    Var x("x"), y("y");
    Func f("twice");
    f(x) = x;
    // A second definition is an update (as in Halide); it must match the first.
    CHECK_NOTHROW(f(x) = x + 1);
    CHECK_THROWS_WITH(f(x, y) = x + 1, Contains("twice"));
}

TEST_CASE("a pure definition with a non-Var argument", "[error]") {
    Var x("x");
    Func f("non_var_arg");
    CHECK_THROWS_WITH(f(x + 1) = x, Contains("non_var_arg"));
    Func g("repeated_arg");
    CHECK_THROWS_WITH(g(x, x) = x, Contains("x"));
}

TEST_CASE("a free Var on the right-hand side", "[error]") {
    Var x("x"), z("zfree");
    Func f("free_user");
    try {
        f(x) = x + z;
        FAIL("expected a CompileError");
    } catch (const CompileError &e) {
        std::string msg = e.what();
        CHECK_THAT(msg, Contains("zfree"));
        CHECK_THAT(msg, Contains("free_user"));
    }
}

TEST_CASE("incompatible types", "[error]") {
    Var x("x");
    Func f("typed");
    Expr handle = reinterpret(Handle(), cast<uint64_t>(x));
    try {
        f(x) = handle + x;
        FAIL("expected a CompileError");
    } catch (const CompileError &e) {
        std::string msg = e.what();
        CHECK_THAT(msg, Contains("+"));
        CHECK_THAT(msg, Contains("handle"));
        CHECK_THAT(msg, Contains("int32"));
    }
    CHECK_THROWS_WITH((x > 0) + (x < 3), Contains("bool"));
    Buffer<uint8_t> in(4);
    CHECK_THROWS_WITH(in(x) + 256, Contains("uint8"));
    CHECK_THROWS_WITH(in(cast<float>(x)), Contains(in.name()));
}

TEST_CASE("an ImageParam that is not bound", "[error]") {
    ImageParam unbound(Int(32), 1, "unbound_input");
    Var x("x");
    Func f("reads_unbound");
    f(x) = unbound(x);
    CHECK_THROWS_AS(f.realize({4}), RuntimeError);
    CHECK_THROWS_WITH(f.realize({4}), Contains("unbound_input"));
}

TEST_CASE("an ImageParam bound to a buffer of the wrong type or dimensions", "[error]") {
    ImageParam p(Int(32), 2, "typed_param");
    Buffer<float> wrong_type(4, 4);
    Buffer<int> wrong_dims(4);
    CHECK_THROWS_WITH(p.set(wrong_type), Contains("typed_param"));
    CHECK_THROWS_WITH(p.set(wrong_dims), Contains("typed_param"));
    CHECK_THROWS_WITH(p(Var("x")), Contains("typed_param"));
}

TEST_CASE("an output buffer of the wrong type", "[error]") {
    Var x("x");
    Func f("int_output");
    f(x) = x;
    Buffer<float> out(4);
    out.set_name("float_out");
    try {
        f.realize(out);
        FAIL("expected a RuntimeError");
    } catch (const RuntimeError &e) {
        std::string msg = e.what();
        CHECK_THAT(msg, Contains("float_out"));
        CHECK_THAT(msg, Contains("int_output"));
        CHECK_THAT(msg, Contains("float32"));
        CHECK_THAT(msg, Contains("int32"));
    }
}

TEST_CASE("an output buffer of the wrong dimensionality", "[error]") {
    Var x("x"), y("y");
    Func f("two_dims");
    f(x, y) = x;
    Buffer<int> out(4);
    out.set_name("one_dim_out");
    CHECK_THROWS_WITH(f.realize(out), Contains("one_dim_out") && Contains("two_dims"));
    CHECK_THROWS_WITH(f.realize({4}), Contains("two_dims"));
}

TEST_CASE("an input buffer too small for the region the Func reads", "[error]") {
    Buffer<int> small(10);
    small.set_name("small_input");
    Var x("x");
    Func f("reader");
    f(x) = small(x + 5);
    try {
        f.realize({10});
        FAIL("expected a RuntimeError");
    } catch (const RuntimeError &e) {
        std::string msg = e.what();
        INFO(msg);
        CHECK_THAT(msg, Contains("small_input"));
        CHECK_THAT(msg, Contains("reader"));
        CHECK_THAT(msg, Contains("0"));  // the dimension
        CHECK_THAT(msg, Contains("14")); // the required max
        CHECK_THAT(msg, Contains("9"));  // the actual max
    }
}
