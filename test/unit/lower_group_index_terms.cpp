#include <catch2/catch.hpp>

#include "Loom.h"
#include "ir/IR.h"
#include "ir/IRUtil.h"
#include "lower/GroupInvariantIndexTerms.h"

// group_invariant_index_terms: a data-dependent index inside a loop gets its
// loop-invariant terms gathered into one subexpression; other indices stay.

using namespace loom;
using namespace loom::Internal;

namespace {

Expr ivar(const std::string &n) {
    return Variable::make(Int(32), n);
}

Expr load(const std::string &buf, const Expr &index) {
    return Load::make(UInt(8), buf, index, Buffer<>(), Parameter());
}

Stmt store(const Expr &index) {
    return Store::make("hist", Expr(1), index, Buffer<>(), Parameter());
}

/** The index of the only Store in s. */
Expr store_index(const Stmt &s) {
    Expr index;
    visit_all(s, [&](const IRNode *n) {
        if (n->node_type == IRNodeType::Store) index = static_cast<const Store *>(n)->index;
    });
    return index;
}

} // namespace

TEST_CASE("loop-invariant terms of a scatter index form one subexpression", "[unit][lower]") {
    // hist[(int32(in[x]) - m) + e * u + 3] in a loop over x.
    Expr bin = Cast::make(Int(32), load("in", ivar("x")));
    Expr index =
        Add::make(Add::make(Sub::make(bin, ivar("m")), Mul::make(ivar("e"), ivar("u"))), Expr(3));
    Stmt loop = For::make("x", Expr(0), Expr(10), ForType::Serial, DeviceAPI::None, store(index));
    Expr out = store_index(group_invariant_index_terms(loop));
    // (bin + (e * u - m)) + 3: the constant stays outermost for the address.
    const auto *outer = out.as<Add>();
    REQUIRE(outer);
    CHECK(outer->b.as<IntImm>());
    const auto *grouped = outer->a.as<Add>();
    REQUIRE(grouped);
    CHECK(grouped->a.same_as(bin));
    CHECK_FALSE(expr_uses_var(grouped->b, "x"));
    CHECK(expr_uses_var(grouped->b, "m"));
    CHECK(expr_uses_var(grouped->b, "u"));
}

TEST_CASE("affine indices and indices outside loops are left alone", "[unit][lower]") {
    Expr affine = Add::make(Sub::make(ivar("x"), ivar("m")), Mul::make(ivar("e"), ivar("u")));
    Stmt loop = For::make("x", Expr(0), Expr(10), ForType::Serial, DeviceAPI::None, store(affine));
    CHECK(store_index(group_invariant_index_terms(loop)).same_as(affine));

    Expr bin = Cast::make(Int(32), load("in", ivar("k")));
    Expr scatter = Add::make(Sub::make(bin, ivar("m")), ivar("u"));
    CHECK(store_index(group_invariant_index_terms(store(scatter))).same_as(scatter));

    // A let bound inside the loop varies with it: it stays with the load.
    Stmt with_let =
        For::make("x", Expr(0), Expr(10), ForType::Serial, DeviceAPI::None,
                  LetStmt::make("t", Mul::make(ivar("x"), Expr(2)),
                                store(Add::make(Sub::make(bin, ivar("m")), ivar("t")))));
    Expr out = store_index(group_invariant_index_terms(with_let));
    const auto *sum = out.as<Add>();
    REQUIRE(sum);
    CHECK(expr_uses_var(sum->a, "t"));
    CHECK_FALSE(expr_uses_var(sum->b, "t"));
}
