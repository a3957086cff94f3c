#include "codegen/LoadIndexForms.h"

#include "ir/IROperator.h"

namespace loom {
namespace Internal {

namespace {

// The scalar a Broadcast repeats, or undefined.
Expr broadcast_value(const Expr &e) {
    const Broadcast *b = e.as<Broadcast>();
    return b && b->value.type().is_scalar() ? b->value : Expr();
}

// Invariant terms around the core of an index are few (a buffer's min, a
// row offset); a longer chain is some other kind of index.
constexpr int max_terms = 16;

/** index = core + offset, where offset is a sum of broadcasts added or
 * subtracted around core: the core (resolved) and the offset as a scalar
 * (zero when there is none). */
std::pair<Expr, Expr> split_broadcast_terms(const Expr &index, const ResolveVectorLet &resolve) {
    Expr e = resolve(index);
    Expr offset = make_zero(e.type().element_of());
    auto add = [&](const Expr &v, bool subtract) {
        if (is_const_zero(offset)) {
            offset = subtract ? Sub::make(make_zero(v.type()), v) : v;
        } else {
            offset = subtract ? Sub::make(offset, v) : Add::make(offset, v);
        }
    };
    for (int depth = 0; depth < max_terms; depth++) {
        if (const Add *a = e.as<Add>()) {
            if (Expr v = broadcast_value(resolve(a->b)); v.defined()) {
                add(v, false);
                e = resolve(a->a);
                continue;
            }
            if (Expr w = broadcast_value(resolve(a->a)); w.defined()) {
                add(w, false);
                e = resolve(a->b);
                continue;
            }
        } else if (const Sub *s = e.as<Sub>()) {
            if (Expr v = broadcast_value(resolve(s->b)); v.defined()) {
                add(v, true);
                e = resolve(s->a);
                continue;
            }
        }
        break;
    }
    return {e, offset};
}

// A Ramp of stride 1 with a scalar base, or nullptr.
const Ramp *dense_ramp(const Expr &e) {
    const Ramp *r = e.as<Ramp>();
    return r && r->base.type().is_scalar() && is_const(r->stride, 1) ? r : nullptr;
}

} // namespace

std::optional<RepeatedLanesIndex> match_repeated_lanes_index(const Expr &index,
                                                             const ResolveVectorLet &resolve) {
    if (!index.type().is_vector() || !index.type().is_int()) return std::nullopt;
    auto [core, offset] = split_broadcast_terms(index, resolve);
    const Div *d = core.as<Div>();
    if (!d) return std::nullopt;
    const Ramp *r = dense_ramp(resolve(d->a));
    auto factor = as_const_int(resolve(d->b));
    if (!r || !factor || *factor < 2 || *factor > max_repeated_lanes_factor) return std::nullopt;
    return RepeatedLanesIndex{r->base, int(*factor), offset, r->lanes};
}

Expr ClampedRampIndex::lane_index(const Expr &v) const {
    Expr clamped = min_inside ? Max::make(Min::make(v, hi), lo) : Min::make(Max::make(v, lo), hi);
    return is_const_zero(offset) ? clamped : Add::make(clamped, offset);
}

std::optional<ClampedRampIndex> match_clamped_ramp_index(const Expr &index,
                                                         const ResolveVectorLet &resolve) {
    if (!index.type().is_vector() || !index.type().is_int()) return std::nullopt;
    auto [core, offset] = split_broadcast_terms(index, resolve);
    // max(min(ramp, hi), lo) or min(max(ramp, lo), hi); either operand order.
    auto operands = [&](const Expr &a, const Expr &b, Expr &inner, Expr &bound) {
        Expr ra = resolve(a), rb = resolve(b);
        if (Expr v = broadcast_value(rb); v.defined()) {
            inner = ra;
            bound = v;
            return true;
        }
        if (Expr w = broadcast_value(ra); w.defined()) {
            inner = rb;
            bound = w;
            return true;
        }
        return false;
    };
    Expr inner, outer_bound, ramp, inner_bound;
    bool min_inside;
    if (const Max *mx = core.as<Max>()) {
        const Min *mn = nullptr;
        if (!operands(mx->a, mx->b, inner, outer_bound) || !(mn = inner.as<Min>())) {
            return std::nullopt;
        }
        if (!operands(mn->a, mn->b, ramp, inner_bound)) return std::nullopt;
        min_inside = true;
    } else if (const Min *mn = core.as<Min>()) {
        const Max *mx2 = nullptr;
        if (!operands(mn->a, mn->b, inner, outer_bound) || !(mx2 = inner.as<Max>())) {
            return std::nullopt;
        }
        if (!operands(mx2->a, mx2->b, ramp, inner_bound)) return std::nullopt;
        min_inside = false;
    } else {
        return std::nullopt;
    }
    const Ramp *r = dense_ramp(ramp);
    if (!r) return std::nullopt;
    ClampedRampIndex c;
    c.base = r->base;
    c.lanes = r->lanes;
    c.min_inside = min_inside;
    c.lo = min_inside ? outer_bound : inner_bound;
    c.hi = min_inside ? inner_bound : outer_bound;
    c.offset = offset;
    return c;
}

} // namespace Internal
} // namespace loom
