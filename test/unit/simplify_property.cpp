// Property test: the simplified form of a random expression evaluates equal
// to the original for random variable values. Samples where the original hits
// undefined behaviour (Int(32) overflow, out-of-range float->int casts) are
// skipped: the simplifier may assume those never happen.

#include <catch2/catch.hpp>

#include "analysis/Simplify.h"
#include "ir/IRPrinter.h"
#include "simplify_test_util.h"

using namespace loom;
using namespace loom::Internal;
using namespace loom::Internal::test_ir;

TEST_CASE("simplify preserves the value of random expressions", "[simplify]") {
    const uint32_t seed = test_seed();
    CAPTURE(seed);
    RandomExprs gen(seed);
    IRInterpreter interp;
    const int expressions = 10000, samples = 4;
    int compared = 0;
    for (int n = 0; n < expressions; n++) {
        Type t = n % 5 == 4 ? Bool() : gen.random_type();
        Expr e = gen.gen(t, gen.uniform(1, 4));
        Expr s = simplify(e);
        REQUIRE(s.type() == e.type());
        for (int k = 0; k < samples; k++) {
            gen.bind_all(interp);
            interp.reset_undefined_behavior();
            ScalarValue expected = interp.eval(e);
            if (interp.undefined_behavior()) continue;
            ScalarValue actual = interp.eval(s);
            compared++;
            if (!expected.same_as(actual)) {
                INFO("expression #" << n << ": " << e);
                INFO("simplified: " << s);
                INFO("expected " << expected.to_string() << ", got " << actual.to_string());
                CHECK(false);
                break;
            }
        }
    }
    // Most samples must be defined, or the test checks little.
    CHECK(compared > expressions * samples / 2);
}

TEST_CASE("simplify preserves the value of random int32 expressions over two variables",
          "[simplify]") {
    // Fewer variables and types make rewrite patterns (x + c, min(x, x + c), ...) common.
    const uint32_t seed = test_seed();
    CAPTURE(seed);
    RandomExprs gen(seed + 2);
    gen.types = {Int(32)};
    gen.names = {"x", "y", "x"};
    IRInterpreter interp;
    for (int n = 0; n < 20000; n++) {
        Type t = n % 3 == 2 ? Bool() : Int(32);
        Expr e = gen.gen(t, gen.uniform(2, 4));
        Expr s = simplify(e);
        for (int k = 0; k < 3; k++) {
            gen.bind_all(interp);
            interp.reset_undefined_behavior();
            ScalarValue expected = interp.eval(e);
            if (interp.undefined_behavior()) continue;
            ScalarValue actual = interp.eval(s);
            if (!expected.same_as(actual)) {
                INFO("expression #" << n << ": " << e);
                INFO("simplified: " << s);
                INFO("expected " << expected.to_string() << ", got " << actual.to_string());
                CHECK(false);
                break;
            }
        }
    }
}

TEST_CASE("simplify of vector expressions matches lane by lane", "[simplify]") {
    const uint32_t seed = test_seed();
    CAPTURE(seed);
    RandomExprs gen(seed + 1);
    IRInterpreter interp;
    Expr x = var("x_int32"), y = var("y_int32");
    for (int n = 0; n < 500; n++) {
        Expr base = gen.gen(Int(32), 2), stride = gen.gen(Int(32), 1), other = gen.gen(Int(32), 2);
        const int lanes = 4;
        Expr r = Ramp::make(base, stride, lanes), b = Broadcast::make(other, lanes);
        Expr e;
        switch (n % 5) {
        case 0:
            e = Add::make(r, b);
            break;
        case 1:
            e = Sub::make(b, r);
            break;
        case 2:
            e = Mul::make(r, Broadcast::make(make_const(Int(32), gen.uniform(-3, 3)), lanes));
            break;
        case 3:
            e = Min::make(Broadcast::make(base, lanes), b);
            break;
        default:
            e = Select::make(LT::make(r, b), r, b);
            break;
        }
        Expr s = simplify(e);
        gen.bind_all(interp);
        for (int lane = 0; lane < lanes; lane++) {
            interp.reset_undefined_behavior();
            ScalarValue expected = interp.eval(e, lane);
            if (interp.undefined_behavior()) continue;
            ScalarValue actual = interp.eval(s, lane);
            if (!expected.same_as(actual)) {
                INFO(e << " simplified to " << s << " at lane " << lane);
                CHECK(false);
            }
        }
    }
}
