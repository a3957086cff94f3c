// Inline reductions: an anonymous Func over the free Vars of the
// expression, with a pure definition (the identity) and one update over
// the RDom.

#include "loom/InlineReductions.h"

#include <algorithm>

#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"
#include "loom/Func.h"
#include "loom/IROperator.h"

namespace loom {

using namespace Internal;

namespace {

struct Analysis {
    std::vector<Expr> vars; // free pure Vars, in order of first appearance
    RDom rdom;
};

Analysis analyze(const Expr &e, const RDom &given, const std::string &what) {
    if (!e.defined()) user_error(what << " of an undefined expression");
    if (e.type().is_vector()) user_error(what << " of a vector expression");
    Analysis a;
    std::vector<std::string> seen;
    ReductionDomain dom = given.domain();
    visit_all(e, [&](const IRNode *n) {
        if (n->node_type != IRNodeType::Variable) return;
        const auto *v = static_cast<const Variable *>(n);
        if (v->param.defined() || v->image.defined()) return;
        if (v->reduction_domain.defined()) {
            if (!dom.defined())
                dom = v->reduction_domain;
            else if (!dom.same_as(v->reduction_domain))
                user_error(what << " of an expression that uses RVars of two different RDoms ("
                                << dom.domain()[0].var << ", " << v->name
                                << "); an inline reduction runs over one RDom");
            return;
        }
        if (std::find(seen.begin(), seen.end(), v->name) != seen.end()) return;
        seen.push_back(v->name);
        a.vars.push_back(Variable::make(Int(32), v->name));
    });
    if (!dom.defined())
        user_error(what << " of an expression that uses no RVar: an inline reduction needs an "
                        << "RDom to run over (e.g. sum(f(x + r)) with RDom r(0, 3))");
    a.rdom = RDom(dom);
    return a;
}

enum class Op { Sum, Product, Maximum, Minimum };

Expr reduce(const RDom &r, const Expr &e, const std::string &name, Op op, const char *what) {
    Analysis a = analyze(e, r, what);
    Func f(unique_name(name));
    Type t = e.type();
    Expr init = op == Op::Sum       ? make_zero(t)
                : op == Op::Product ? make_one(t)
                : op == Op::Maximum ? type_min(t)
                                    : type_max(t);
    f(a.vars) = init;
    Expr self = f(a.vars);
    Expr value = op == Op::Sum       ? Add::make(self, e)
                 : op == Op::Product ? Mul::make(self, e)
                 : op == Op::Maximum ? Max::make(self, e)
                                     : Min::make(self, e);
    // An RDom passed explicitly but unused by e still drives the loops.
    if (r.defined()) value = Internal::Let::make(r.x.name() + ".unused", Expr(r.x), value);
    f(a.vars) = value;
    return f(a.vars);
}

Tuple arg_reduce(const RDom &r, const Expr &e, const std::string &name, bool is_max,
                 const char *what) {
    Analysis a = analyze(e, r, what);
    Func f(unique_name(name));
    Type t = e.type();
    std::vector<Expr> init, update;
    const RDom &d = a.rdom;
    for (int i = 0; i < d.dimensions(); i++) init.push_back(d[i].min());
    init.push_back(is_max ? type_min(t) : type_max(t));
    f(a.vars) = Tuple(init);
    FuncRef self = f(a.vars);
    Expr best = self[d.dimensions()];
    // Strictly better: ties keep the first point in loop order. The start
    // value (the first point, the identity) is right even when nothing beats it.
    Expr take = is_max ? GT::make(e, best) : LT::make(e, best);
    for (int i = 0; i < d.dimensions(); i++)
        update.push_back(Select::make(take, Expr(d[i]), self[i]));
    update.push_back(Select::make(take, e, best));
    f(a.vars) = Tuple(update);
    return Tuple(f(a.vars));
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
