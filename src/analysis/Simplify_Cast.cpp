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
    // int64(ramp(b, s)) of an Int(32) ramp is ramp(int64(b), int64(s)):
    // Int(32) index arithmetic does not overflow (it is `nsw`), and large_buffers'
    // 64-bit flat indices stay dense ramps.
    if (auto *r = value.as<Ramp>(); r && t.element_of() == Int(64) && r->base.type() == Int(32)) {
        return resimplify(
            Ramp::make(Cast::make(Int(64), r->base), Cast::make(Int(64), r->stride), r->lanes));
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
