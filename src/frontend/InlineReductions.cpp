// Inline reductions: an anonymous Func over the free Vars of the
// expression, with a pure definition (the identity) and one update over
// the RDom.

#include "loom/InlineReductions.h"

#include <algorithm>

#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"
#include "loom/Func.h"
#include "loom/IROperator.h"

namespace loom {

using namespace Internal;

namespace {

struct Analysis {
    /** The anonymous Func's pure Vars, in order of first appearance, and the
     * arguments it is called with: the same Vars, or the RVars of other
     * RDoms (free in a reduction over an explicit RDom, as in Halide). */
    std::vector<Expr> vars, call_args;
    Expr value; // e, with those RVars replaced by the pure Vars
    RDom rdom;
};

/** Replaces the RVars of other RDoms by pure Vars of the same name. */
class FreeOtherRVars : public IRMutator {
    const ReductionDomain &dom;

protected:
    using IRMutator::visit;
    Expr visit(const Variable *op) override {
        if (!op->reduction_domain.defined() || op->reduction_domain.same_as(dom)) return op;
        return Variable::make(op->type, op->name);
    }

public:
    explicit FreeOtherRVars(const ReductionDomain &d) : dom(d) {}
};

Analysis analyze(const Expr &e, const RDom &given, const std::string &what) {
    if (!e.defined()) user_error(what << " of an undefined expression");
    if (e.type().is_vector()) user_error(what << " of a vector expression");
    Analysis a;
    std::vector<std::string> seen;
    ReductionDomain dom = given.domain();
    bool explicit_rdom = dom.defined();
    visit_all(e, [&](const IRNode *n) {
        if (n->node_type != IRNodeType::Variable) return;
        const auto *v = static_cast<const Variable *>(n);
        if (v->param.defined() || v->image.defined()) return;
        if (v->reduction_domain.defined()) {
            if (!dom.defined()) {
                dom = v->reduction_domain;
                return;
            }
            if (dom.same_as(v->reduction_domain)) return;
            if (!explicit_rdom)
                user_error(what << " of an expression that uses RVars of two different RDoms ("
                                << dom.domain()[0].var << ", " << v->name
                                << "); name the RDom to reduce over, e.g. " << what
                                << "(r, e): the other RDoms' RVars then stay free");
        }
        if (std::find(seen.begin(), seen.end(), v->name) != seen.end()) return;
        seen.push_back(v->name);
        a.vars.push_back(Variable::make(Int(32), v->name));
        a.call_args.push_back(Expr(v));
    });
    if (!dom.defined())
        user_error(what << " of an expression that uses no RVar: an inline reduction needs an "
                        << "RDom to run over (e.g. sum(f(x + r)) with RDom r(0, 3))");
    a.rdom = RDom(dom);
    a.value = FreeOtherRVars(dom).mutate(e);
    return a;
}

enum class Op { Sum, Product, Maximum, Minimum, SaturatingSum };

Expr reduce(const RDom &r, const Expr &e, const std::string &name, Op op, const char *what) {
    Analysis a = analyze(e, r, what);
    if (op == Op::SaturatingSum && (e.type().is_bool() || e.type().is_handle()))
        user_error(what << " of " << type_to_string(e.type()) << ": it needs numbers");
    Func f(unique_name(name));
    Type t = e.type();
    Expr init = op == Op::Product   ? make_one(t)
                : op == Op::Maximum ? type_min(t)
                : op == Op::Minimum ? type_max(t)
                                    : make_zero(t);
    f(a.vars) = init;
    Expr self = f(a.vars);
    const Expr &x = a.value;
    Expr value = op == Op::Sum             ? Add::make(self, x)
                 : op == Op::SaturatingSum ? saturating_add(self, x)
                 : op == Op::Product       ? Mul::make(self, x)
                 : op == Op::Maximum       ? Max::make(self, x)
                                           : Min::make(self, x);
    // An RDom passed explicitly but unused by e still drives the loops.
    if (r.defined()) value = Internal::Let::make(r.x.name() + ".unused", Expr(r.x), value);
    f(a.vars) = value;
    return f(a.call_args);
}

Tuple arg_reduce(const RDom &r, const Expr &e, const std::string &name, bool is_max,
                 const char *what) {
    Analysis a = analyze(e, r, what);
    Func f(unique_name(name));
    Type t = e.type();
    std::vector<Expr> init, update;
    const RDom &d = a.rdom;
    const Expr &e_free = a.value;
    for (int i = 0; i < d.dimensions(); i++) init.push_back(d[i].min());
    init.push_back(is_max ? type_min(t) : type_max(t));
    f(a.vars) = Tuple(init);
    FuncRef self = f(a.vars);
    Expr best = self[d.dimensions()];
    // Strictly better: ties keep the first point in loop order. The start
    // value (the first point, the identity) is right even when nothing beats it.
    Expr take = is_max ? GT::make(e_free, best) : LT::make(e_free, best);
    for (int i = 0; i < d.dimensions(); i++)
        update.push_back(Select::make(take, Expr(d[i]), self[i]));
    update.push_back(Select::make(take, e_free, best));
    f(a.vars) = Tuple(update);
    return Tuple(f(a.call_args));
}

} // namespace

Expr sum(const Expr &e, const std::string &name) {
    return reduce(RDom(), e, name, Op::Sum, "sum");
}
Expr product(const Expr &e, const std::string &name) {
    return reduce(RDom(), e, name, Op::Product, "product");
}
Expr maximum(const Expr &e, const std::string &name) {
    return reduce(RDom(), e, name, Op::Maximum, "maximum");
}
Expr minimum(const Expr &e, const std::string &name) {
    return reduce(RDom(), e, name, Op::Minimum, "minimum");
}
Expr saturating_sum(const Expr &e, const std::string &name) {
    return reduce(RDom(), e, name, Op::SaturatingSum, "saturating_sum");
}
Expr saturating_sum(const RDom &r, const Expr &e, const std::string &name) {
    return reduce(r, e, name, Op::SaturatingSum, "saturating_sum");
}
Tuple argmax(const Expr &e, const std::string &name) {
    return arg_reduce(RDom(), e, name, true, "argmax");
}
Tuple argmin(const Expr &e, const std::string &name) {
    return arg_reduce(RDom(), e, name, false, "argmin");
}
Expr sum(const RDom &r, const Expr &e, const std::string &name) {
    return reduce(r, e, name, Op::Sum, "sum");
}
Expr product(const RDom &r, const Expr &e, const std::string &name) {
    return reduce(r, e, name, Op::Product, "product");
}
Expr maximum(const RDom &r, const Expr &e, const std::string &name) {
    return reduce(r, e, name, Op::Maximum, "maximum");
}
Expr minimum(const RDom &r, const Expr &e, const std::string &name) {
    return reduce(r, e, name, Op::Minimum, "minimum");
}
Tuple argmax(const RDom &r, const Expr &e, const std::string &name) {
    return arg_reduce(r, e, name, true, "argmax");
}
Tuple argmin(const RDom &r, const Expr &e, const std::string &name) {
    return arg_reduce(r, e, name, false, "argmin");
}

} // namespace loom
