// What integer expressions are known to be modulo a constant
// (analysis/ModulusRemainder.h), as the CUDA printer uses it to prove vector
// accesses aligned.

#include <catch2/catch.hpp>

#include "Loom.h"
#include "analysis/ModulusRemainder.h"
#include "ir/IROperator.h"
#include "ir/IRPrinter.h"

using namespace loom;
using namespace loom::Internal;

namespace {

Expr v(const std::string &name) {
    return Variable::make(Int(32), name);
}

void check(const Expr &e, int64_t modulus, int64_t remainder,
           const Scope<ModulusRemainder> &scope = Scope<ModulusRemainder>()) {
    ModulusRemainder m = modulus_remainder(e, scope);
    INFO(e);
    CHECK(m.modulus == modulus);
    CHECK(m.remainder == remainder);
}

} // namespace

TEST_CASE("modulus_remainder: arithmetic on unknowns and constants", "[analysis]") {
    check(Expr(12), 0, 12);
    check(v("x"), 1, 0);
    check(v("x") * 8, 8, 0);
    check(v("x") * 8 + 3, 8, 3);
    check(v("x") * 8 - 3, 8, 5);
    check(v("x") * 8 + v("y") * 12 + 4, 4, 0);
    check((v("x") * 4 + 2) * (v("y") * 6 + 3), 12, 6); // 24xy + 12x + 12y + 6
    check(v("x") * 8 + v("y"), 1, 0);
    check((v("x") * 16 + 8) / 4, 4, 2);
    check((v("x") * 6 + 1) / 4, 1, 0); // 6 is no multiple of 4: unknown
    check((v("x") * 8 + 5) % 4, 0, 1);
    check((v("x") * 6 + 5) % 4, 2, 1);
    check(min(v("x") * 8, v("y") * 16 + 8), 8, 0);
    check(max(v("x") * 8 + 2, Expr(7)), 1, 0);
    check(select(v("c") > 0, v("x") * 12 + 4, v("y") * 8 + 4), 4, 0);
    check(Let::make("t", v("x") * 4, v("t") * 2 + 1), 8, 1);
    check(cast<int64_t>(v("x") * 8 + 1), 8, 1);
    check(cast<int8_t>(v("x") * 8 + 1), 1, 0); // narrowing may wrap
}

TEST_CASE("modulus_remainder: variables bound in a scope, and multiples", "[analysis]") {
    Scope<ModulusRemainder> scope;
    scope.push("base", {16, 4});
    check(v("base") + 4, 16, 8, scope);
    check(v("base") * 2, 32, 8, scope);
    CHECK(modulus_remainder(v("base") + 12, scope).is_multiple_of(8));
    CHECK_FALSE(modulus_remainder(v("base"), scope).is_multiple_of(8));
    CHECK(modulus_remainder(Expr(24)).is_multiple_of(8));
    CHECK_FALSE(modulus_remainder(v("x")).is_multiple_of(2));
    CHECK(modulus_remainder(v("x")).is_multiple_of(1));
}
