// Rules for casts: constant folding, casts that change nothing, round trips
// through a wider type, and broadcasts. (Calls: Simplify_Call.cpp.)

#include "analysis/Simplify_Internal.h"

namespace loom {
namespace Internal {

Expr Simplifier::visit(const Cast *op) {
    Expr value = mutate(op->value);
    Type t = op->type;
    if (value.type() == t) return value;
    if (Expr f = fold_cast(t, value); f.defined()) return f;
    if (auto *b = value.as<Broadcast>()) {
        return resimplify(Broadcast::make(Cast::make(t.element_of(), b->value), b->lanes));
    }
    // t -> wider -> t round trips lose nothing (floats excluded: int -> float may round).
    if (auto *inner = value.as<Cast>()) {
        Type mid = inner->type;
        Type src = inner->value.type();
        if (src == t && !mid.is_float() && !src.is_float() && mid.can_represent(src)) {
            return inner->value;
        }
    }
    if (value.same_as(op->value)) return op;
    return Cast::make(t, value);
}

} // namespace Internal
} // namespace loom
