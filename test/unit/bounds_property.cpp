// Property test: values of random expressions at random points inside the
// variables' intervals lie within the bounds that bounds_of_expr_in_scope
// computes. Samples with undefined behaviour are skipped.

#include <catch2/catch.hpp>

#include "analysis/Bounds.h"
#include "ir/IRPrinter.h"
#include "simplify_test_util.h"

using namespace loom;
using namespace loom::Internal;
using namespace loom::Internal::test_ir;

namespace {

struct VarRange {
    std::string name;
    Type type;
    int lo, hi;
};

double value_of(const Expr &bound) {
    if (auto i = as_const_int(bound)) return double(*i);
    if (auto u = as_const_uint(bound)) return double(*u);
    return *as_const_float(bound);
}

} // namespace

TEST_CASE("bounds contain every value of random expressions", "[bounds]") {
    const uint32_t seed = test_seed();
    CAPTURE(seed);
    RandomExprs gen(seed);
    IRInterpreter interp;
    const int expressions = 10000, samples = 5;
    int checked = 0, bounded = 0;
    for (int n = 0; n < expressions; n++) {
        // Random intervals for every variable.
        std::vector<VarRange> ranges;
        Scope<Interval> scope;
        for (Type t : gen.types) {
            for (auto &base : gen.names) {
                int lo, hi;
                if (t.is_uint()) {
                    lo = gen.uniform(0, 200), hi = std::min(255, lo + gen.uniform(0, 80));
                } else if (t.is_float()) {
                    lo = gen.uniform(-10, 10), hi = lo + gen.uniform(0, 10);
                } else {
                    lo = gen.uniform(-60, 60), hi = lo + gen.uniform(0, 60);
                }
                std::string name = RandomExprs::var_name(base, t);
                ranges.push_back({name, t, lo, hi});
                scope.push(name, Interval(make_const(t, lo), make_const(t, hi)));
            }
        }
        Type t = n % 5 == 4 ? Bool() : gen.random_type();
        Expr e = gen.gen(t, gen.uniform(1, 4));
        Interval b = bounds_of_expr_in_scope(e, scope);
        if (b.min.defined() && !is_const(b.min)) {
            INFO(e << ": lower bound " << b.min << " is not a constant");
            CHECK(false);
            continue;
        }
        if (b.max.defined() && !is_const(b.max)) {
            INFO(e << ": upper bound " << b.max << " is not a constant");
            CHECK(false);
            continue;
        }
        if (b.is_bounded()) bounded++;
        for (int k = 0; k < samples; k++) {
            for (auto &r : ranges) {
                ScalarValue v = gen.random_value(r.type, r.lo, r.hi);
                if (r.type.is_float() && v.f > r.hi) v = ScalarValue::make_float(r.type, r.hi);
                if (r.type.is_float() && v.f < r.lo) v = ScalarValue::make_float(r.type, r.lo);
                interp.set(r.name, v);
            }
            interp.reset_undefined_behavior();
            ScalarValue v = interp.eval(e);
            if (interp.undefined_behavior()) continue;
            checked++;
            double x = v.as_double();
            bool ok = (!b.min.defined() || value_of(b.min) <= x) &&
                      (!b.max.defined() || x <= value_of(b.max));
            if (!ok) {
                INFO("expression #" << n << ": " << e);
                INFO("bounds [" << (b.min.defined() ? to_string(b.min) : "-inf") << ", "
                                << (b.max.defined() ? to_string(b.max) : "+inf") << "], value "
                                << v.to_string());
                CHECK(false);
                break;
            }
        }
    }
    CHECK(checked > expressions * samples / 2);
    // The bounds must be useful, not just everything.
    CHECK(bounded > expressions / 2);
}
