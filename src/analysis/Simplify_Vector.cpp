// Vector forms: operations on broadcasts happen on the scalar, and integer
// ramps absorb additions, subtractions and scalings by broadcasts.

#include "analysis/Simplify_Internal.h"

namespace loom {
namespace Internal {

Expr Simplifier::vector_binary(IRNodeType op, const Expr &a, const Expr &b) {
    if (a.type().is_scalar()) return Expr();
    auto *ba = a.as<Broadcast>(), *bb = b.as<Broadcast>();
    if (ba && bb && ba->lanes == bb->lanes) {
        return Broadcast::make(resimplify(make_binary(op, ba->value, bb->value)), ba->lanes);
    }
    Type t = a.type();
    if (!(t.is_int() || t.is_uint()) || t.is_bool()) return Expr();
    auto *ra = a.as<Ramp>(), *rb = b.as<Ramp>();
    auto ramp = [&](const Expr &base, const Expr &stride, int lanes) {
        return resimplify(Ramp::make(base, stride, lanes));
    };
    switch (op) {
    case IRNodeType::Add:
        if (ra && bb) return ramp(Add::make(ra->base, bb->value), ra->stride, ra->lanes);
        if (ba && rb) return ramp(Add::make(ba->value, rb->base), rb->stride, rb->lanes);
        if (ra && rb) {
            return ramp(Add::make(ra->base, rb->base), Add::make(ra->stride, rb->stride),
                        ra->lanes);
        }
        return Expr();
    case IRNodeType::Sub:
        if (ra && bb) return ramp(Sub::make(ra->base, bb->value), ra->stride, ra->lanes);
        if (ba && rb) {
            return ramp(Sub::make(ba->value, rb->base),
                        Sub::make(make_zero(rb->stride.type()), rb->stride), rb->lanes);
        }
        if (ra && rb) {
            return ramp(Sub::make(ra->base, rb->base), Sub::make(ra->stride, rb->stride),
                        ra->lanes);
        }
        return Expr();
    case IRNodeType::Mul:
        if (ra && bb) {
            return ramp(Mul::make(ra->base, bb->value), Mul::make(ra->stride, bb->value),
                        ra->lanes);
        }
        if (ba && rb) {
            return ramp(Mul::make(rb->base, ba->value), Mul::make(rb->stride, ba->value),
                        rb->lanes);
        }
        return Expr();
    default:
        return Expr();
    }
}

Expr Simplifier::visit(const Ramp *op) {
    Expr base = mutate(op->base), stride = mutate(op->stride);
    if (is_const_zero(stride)) return Broadcast::make(base, op->lanes);
    if (base.same_as(op->base) && stride.same_as(op->stride)) return op;
    return Ramp::make(base, stride, op->lanes);
}

Expr Simplifier::visit(const Broadcast *op) {
    Expr value = mutate(op->value);
    if (value.same_as(op->value)) return op;
    return Broadcast::make(value, op->lanes);
}

} // namespace Internal
} // namespace loom
