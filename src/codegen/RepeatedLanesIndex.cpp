#include "codegen/RepeatedLanesIndex.h"

#include "ir/IROperator.h"

namespace loom {
namespace Internal {

namespace {

// The scalar a Broadcast repeats, or undefined.
Expr broadcast_value(const Expr &e) {
    const Broadcast *b = e.as<Broadcast>();
    return b && b->value.type().is_scalar() ? b->value : Expr();
}

// Invariant terms around the division are few (a buffer's min, a row
// offset); a longer chain is some other kind of index.
constexpr int max_terms = 16;

std::optional<RepeatedLanesIndex>
match(const Expr &index, const std::function<Expr(const Expr &)> &resolve, int depth) {
    if (depth > max_terms) return std::nullopt;
    Expr e = resolve(index);
    if (const Div *d = e.as<Div>()) {
        const Ramp *r = resolve(d->a).as<Ramp>();
        auto factor = as_const_int(resolve(d->b));
        if (!r || !r->base.type().is_scalar() || !is_const(r->stride, 1) || !factor ||
            *factor < 2 || *factor > max_repeated_lanes_factor)
            return std::nullopt;
        return RepeatedLanesIndex{r->base, int(*factor), make_zero(r->base.type()), r->lanes};
    }
    // index = inner + broadcast, broadcast + inner or inner - broadcast.
    Expr inner, added;
    bool subtract = false;
    if (const Add *a = e.as<Add>()) {
        if (Expr v = broadcast_value(resolve(a->b)); v.defined()) {
            inner = a->a;
            added = v;
        } else if (Expr w = broadcast_value(resolve(a->a)); w.defined()) {
            inner = a->b;
            added = w;
        }
    } else if (const Sub *s = e.as<Sub>()) {
        if (Expr v = broadcast_value(resolve(s->b)); v.defined()) {
            inner = s->a;
            added = v;
            subtract = true;
        }
    }
    if (!inner.defined()) return std::nullopt;
    auto found = match(inner, resolve, depth + 1);
    if (!found) return std::nullopt;
    Expr &offset = found->offset;
    if (subtract) {
        offset = is_const_zero(offset) ? Sub::make(make_zero(added.type()), added)
                                       : Sub::make(offset, added);
    } else {
        offset = is_const_zero(offset) ? added : Add::make(offset, added);
    }
    return found;
}

} // namespace

std::optional<RepeatedLanesIndex>
match_repeated_lanes_index(const Expr &index, const std::function<Expr(const Expr &)> &resolve) {
    if (!index.type().is_vector() || !index.type().is_int()) return std::nullopt;
    return match(index, resolve, 0);
}

} // namespace Internal
} // namespace loom
