#include "analysis/ModulusRemainder.h"

#include <cstdlib>
#include <numeric>

namespace loom {
namespace Internal {

namespace {

// Past this magnitude the analysis gives up rather than risk overflow.
constexpr int64_t limit = int64_t(1) << 31;

const ModulusRemainder unknown{1, 0};

ModulusRemainder make(int64_t modulus, int64_t remainder) {
    if (modulus < 0) modulus = -modulus;
    if (modulus >= limit || remainder >= limit || remainder <= -limit) return unknown;
    if (modulus > 0) remainder = ((remainder % modulus) + modulus) % modulus;
    return {modulus, remainder};
}

// The facts both a and b satisfy (for min, max, select).
ModulusRemainder unify(const ModulusRemainder &a, const ModulusRemainder &b) {
    int64_t m = std::gcd(std::gcd(a.modulus, b.modulus), std::llabs(a.remainder - b.remainder));
    return make(m, a.remainder);
}

class Analysis {
public:
    explicit Analysis(const Scope<ModulusRemainder> &s) { scope.set_containing_scope(&s); }

    ModulusRemainder of(const Expr &e) {
        if (!e.defined() || !e.type().is_scalar() || !(e.type().is_int() || e.type().is_uint()))
            return unknown;
        if (const auto *i = e.as<IntImm>()) return make(0, i->value);
        if (const auto *u = e.as<UIntImm>())
            return u->value < uint64_t(limit) ? make(0, int64_t(u->value)) : unknown;
        if (const auto *v = e.as<Variable>()) {
            const ModulusRemainder *known = scope.find(v->name);
            return known ? *known : unknown;
        }
        if (const auto *a = e.as<Add>()) {
            ModulusRemainder x = of(a->a), y = of(a->b);
            return make(std::gcd(x.modulus, y.modulus), x.remainder + y.remainder);
        }
        if (const auto *s = e.as<Sub>()) {
            ModulusRemainder x = of(s->a), y = of(s->b);
            return make(std::gcd(x.modulus, y.modulus), x.remainder - y.remainder);
        }
        if (const auto *m = e.as<Mul>()) {
            ModulusRemainder x = of(m->a), y = of(m->b);
            if (x.modulus >= limit / 2 || y.modulus >= limit / 2) return unknown;
            int64_t g = std::gcd(std::gcd(x.modulus * y.modulus, x.modulus * y.remainder),
                                 y.modulus * x.remainder);
            return make(g, x.remainder * y.remainder);
        }
        if (const auto *d = e.as<Div>()) {
            // Floor division by a positive constant keeps a multiple of it.
            ModulusRemainder x = of(d->a), c = of(d->b);
            if (c.modulus != 0 || c.remainder <= 0) return unknown;
            if (x.modulus == 0) return make(0, floor_div(x.remainder, c.remainder));
            if (x.modulus % c.remainder != 0) return unknown;
            return make(x.modulus / c.remainder, floor_div(x.remainder, c.remainder));
        }
        if (const auto *md = e.as<Mod>()) {
            ModulusRemainder x = of(md->a), c = of(md->b);
            if (c.modulus != 0 || c.remainder <= 0) return unknown;
            int64_t g = std::gcd(x.modulus, c.remainder);
            return g == c.remainder ? make(0, x.remainder % g) : make(g, x.remainder);
        }
        if (const auto *m = e.as<Min>()) return unify(of(m->a), of(m->b));
        if (const auto *m = e.as<Max>()) return unify(of(m->a), of(m->b));
        if (const auto *s = e.as<Select>()) return unify(of(s->true_value), of(s->false_value));
        if (const auto *c = e.as<Cast>()) {
            Type from = c->value.type();
            // Widening keeps the value (and so its facts); narrowing may wrap.
            bool keeps = (from.is_int() || from.is_uint()) && from.bits <= c->type.bits &&
                         (from.is_int() == c->type.is_int() || from.bits < c->type.bits);
            return keeps ? of(c->value) : unknown;
        }
        if (const auto *l = e.as<Let>()) {
            ScopedBinding<ModulusRemainder> bind(scope, l->name, of(l->value));
            return of(l->body);
        }
        return unknown;
    }

private:
    Scope<ModulusRemainder> scope;

    static int64_t floor_div(int64_t a, int64_t b) {
        int64_t q = a / b;
        return (a % b != 0 && a < 0) ? q - 1 : q;
    }
};

} // namespace

bool ModulusRemainder::is_multiple_of(int64_t n) const {
    if (n <= 0) return false;
    return modulus % n == 0 && remainder % n == 0;
}

ModulusRemainder modulus_remainder(const Expr &e, const Scope<ModulusRemainder> &scope) {
    return Analysis(scope).of(e);
}

ModulusRemainder modulus_remainder(const Expr &e) {
    return modulus_remainder(e, Scope<ModulusRemainder>());
}

} // namespace Internal
} // namespace loom
