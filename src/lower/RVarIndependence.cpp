#include "lower/RVarIndependence.h"

#include <optional>

#include "ir/IREquality.h"
#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

namespace {

/** c when e is c * var + (terms without var), by the shape of e alone. */
std::optional<int64_t> linear_coefficient(const Expr &e, const std::string &var) {
    if (!expr_uses_var(e, var)) return 0;
    if (const auto *v = e.as<Variable>()) return v->name == var ? std::optional<int64_t>(1) : 0;
    auto both = [&](const Expr &a, const Expr &b, int64_t sign) -> std::optional<int64_t> {
        std::optional<int64_t> ca = linear_coefficient(a, var), cb = linear_coefficient(b, var);
        int64_t sum;
        if (!ca || !cb || __builtin_add_overflow(*ca, sign * *cb, &sum)) return std::nullopt;
        return sum;
    };
    if (const auto *a = e.as<Add>()) return both(a->a, a->b, 1);
    if (const auto *s = e.as<Sub>()) return both(s->a, s->b, -1);
    if (const auto *m = e.as<Mul>()) {
        std::optional<int64_t> k;
        if (const auto *ib = m->b.as<IntImm>()) k = ib->value;
        if (const auto *ia = m->a.as<IntImm>()) k = ia->value;
        if (!k) return std::nullopt;
        std::optional<int64_t> c = linear_coefficient(m->a.as<IntImm>() ? m->b : m->a, var);
        int64_t product;
        if (!c || __builtin_mul_overflow(*c, *k, &product)) return std::nullopt;
        return product;
    }
    return std::nullopt;
}

/** Is this coordinate c * rvar + e with c != 0 and e free of every RVar? */
bool separates_iterations(const Expr &coordinate, const Definition &def, const std::string &rvar) {
    for (const ReductionVariable &rv : def.rvars) {
        if (rv.var == rvar) continue;
        if (expr_uses_var(coordinate, rv.var)) return false;
    }
    std::optional<int64_t> c = linear_coefficient(coordinate, rvar);
    return c && *c != 0;
}

/** Every read of the Func in the definition is at the left-hand side. */
bool reads_only_own_element(const Function &func, const Definition &def) {
    bool ok = true;
    auto check = [&](const Expr &e) {
        visit_all(e, [&](const IRNode *n) {
            if (n->node_type != IRNodeType::Call) return;
            const auto *c = static_cast<const Call *>(n);
            if (c->call_type != Call::Loom || c->name != func.name()) return;
            if (c->args.size() != def.args.size()) {
                ok = false;
                return;
            }
            for (size_t i = 0; i < c->args.size(); i++) {
                if (!equal(c->args[i], def.args[i])) ok = false;
            }
        });
    };
    for (const Expr &e : def.values) check(e);
    for (const Expr &e : def.args) check(e);
    return ok;
}

} // namespace

bool rvar_is_independent(const Function &func, const Definition &def, const std::string &rvar) {
    bool separated = false;
    for (const Expr &a : def.args) separated = separated || separates_iterations(a, def, rvar);
    return separated && reads_only_own_element(func, def);
}

} // namespace Internal
} // namespace loom
