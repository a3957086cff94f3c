// Compound assignment of Exprs (a += b ...): Halide's shape, built on the
// operators and cast of loom/IROperator.h.

#include "ir/Error.h"
#include "loom/IROperator.h"

namespace loom {

namespace {

template <typename Op> Expr &compound(Expr &a, Expr b, const char *op_name, Op op) {
    if (!a.defined() || !b.defined())
        user_error("Expr " << op_name << " with an undefined " << (a.defined() ? "right" : "left")
                           << "-hand side");
    a = op(a, cast(a.type(), std::move(b)));
    return a;
}

} // namespace

Expr &operator+=(Expr &a, Expr b) {
    return compound(a, std::move(b), "+=", [](const Expr &x, const Expr &y) { return x + y; });
}

Expr &operator-=(Expr &a, Expr b) {
    return compound(a, std::move(b), "-=", [](const Expr &x, const Expr &y) { return x - y; });
}

Expr &operator*=(Expr &a, Expr b) {
    return compound(a, std::move(b), "*=", [](const Expr &x, const Expr &y) { return x * y; });
}

Expr &operator/=(Expr &a, Expr b) {
    return compound(a, std::move(b), "/=", [](const Expr &x, const Expr &y) { return x / y; });
}

} // namespace loom
