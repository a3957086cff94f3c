#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "ir/IREquality.h"
#include "ir/IROperator.h"
#include "ir/IRPrinter.h"

using namespace loom;
using namespace loom::Internal;

namespace {
Expr var(const std::string &name, Type t = Int(32)) {
    return Variable::make(t, name);
}
} // namespace

TEST_CASE("equal: structure, not identity", "[ir]") {
    Expr x = var("x"), y = var("y");
    CHECK(equal(Add::make(x, 1), Add::make(var("x"), 1)));
    CHECK_FALSE(equal(Add::make(x, 1), Add::make(y, 1)));
    CHECK_FALSE(equal(Add::make(x, 1), Sub::make(x, 1)));
    CHECK_FALSE(equal(Add::make(x, 1), Add::make(x, 2)));
    CHECK_FALSE(equal(Expr(1), make_const(Int(64), 1)));
    CHECK_FALSE(equal(var("x"), var("x", Int(16))));
    CHECK_FALSE(equal(Ramp::make(x, 1, 4), Ramp::make(x, 1, 8)));
    CHECK_FALSE(equal(Broadcast::make(x, 4), Broadcast::make(x, 8)));
    CHECK(equal(Expr(), Expr()));
    CHECK_FALSE(equal(Expr(), x));
    CHECK_FALSE(equal(Call::make(Int(32), "f", {x}, Call::Extern),
                      Call::make(Int(32), "f", {x}, Call::PureExtern)));
    CHECK_FALSE(equal(Let::make("a", x, var("a")), Let::make("b", x, var("b"))));
    CHECK(equal(Load::make(Int(32), "b", x, Buffer<>(), Parameter()),
                Load::make(Int(32), "b", var("x"), Buffer<>(), Parameter())));
}

TEST_CASE("equal on statements", "[ir]") {
    Expr x = var("x");
    auto make = [&](int extent, ForType t) {
        return For::make("x", 0, extent, t, DeviceAPI::None,
                         Store::make("f", x, x, Buffer<>(), Parameter()));
    };
    CHECK(equal(make(10, ForType::Serial), make(10, ForType::Serial)));
    CHECK_FALSE(equal(make(10, ForType::Serial), make(11, ForType::Serial)));
    CHECK_FALSE(equal(make(10, ForType::Serial), make(10, ForType::Parallel)));
    Stmt a = Evaluate::make(1), b = Evaluate::make(2);
    CHECK(equal(IfThenElse::make(const_true(), a), IfThenElse::make(const_true(), a)));
    CHECK_FALSE(equal(IfThenElse::make(const_true(), a), IfThenElse::make(const_true(), a, b)));
    CHECK_FALSE(equal(Block::make(a, b), Block::make(b, a)));
}

TEST_CASE("compare is a deterministic total order", "[ir]") {
    Expr x = var("x"), y = var("y");
    std::vector<Expr> es = {Add::make(x, 1),
                            Add::make(x, 2),
                            Add::make(y, 1),
                            Mul::make(x, 1),
                            x,
                            y,
                            Expr(3),
                            Expr(-3),
                            Expr(1.5f),
                            Expr(1.5),
                            Select::make(LT::make(x, y), x, y),
                            Call::make(Int(32), "f", {x}, Call::PureExtern),
                            Call::make(Int(32), "f", {y}, Call::PureExtern),
                            Ramp::make(x, 1, 4)};
    for (const Expr &a : es) {
        CHECK(compare(a, a) == 0);
        for (const Expr &b : es) {
            CHECK(compare(a, b) == -compare(b, a));
            if (!a.same_as(b)) CHECK(compare(a, b) != 0);
            for (const Expr &c : es) {
                if (compare(a, b) < 0 && compare(b, c) < 0) CHECK(compare(a, c) < 0);
            }
        }
    }
    // Structurally equal expressions collapse to one map key.
    std::map<Expr, int, ExprStructuralLess> m;
    m[Add::make(x, 1)] = 1;
    m[Add::make(var("x"), 1)] = 2;
    CHECK(m.size() == 1);
    CHECK(m.begin()->second == 2);

    // The order does not depend on node addresses.
    std::vector<Expr> sorted1 = es, sorted2(es.rbegin(), es.rend());
    std::sort(sorted1.begin(), sorted1.end(), ExprStructuralLess());
    std::sort(sorted2.begin(), sorted2.end(), ExprStructuralLess());
    for (size_t i = 0; i < es.size(); i++) CHECK(sorted1[i].same_as(sorted2[i]));
}
