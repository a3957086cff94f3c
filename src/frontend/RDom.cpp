// RDom, RVar and the ReductionDomain they share.

#include "loom/RDom.h"

#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IRMutator.h"
#include "ir/IRUtil.h"

namespace loom {

using namespace Internal;

namespace Internal {

ReductionDomain::ReductionDomain(std::vector<ReductionVariable> domain) {
    contents_ = new ReductionDomainContents;
    contents_->domain = std::move(domain);
}

namespace {

/** Plain Variables in place of RVar Variables: a predicate kept inside its
 * own domain must not point back at it. */
class StripDomains : public IRMutator {
protected:
    using IRMutator::visit;
    Expr visit(const Variable *op) override {
        if (!op->reduction_domain.defined()) return op;
        return Variable::make(op->type, op->name);
    }
};

} // namespace

void ReductionDomain::where(const Expr &predicate) {
    contents_->predicates.push_back(StripDomains().mutate(predicate));
}

} // namespace Internal

namespace {

const char *const dim_names[] = {"x", "y", "z", "w"};

std::string dim_name(size_t i) {
    return i < 4 ? std::string(dim_names[i]) : std::to_string(i);
}

Expr int32_expr(const Expr &e, const char *what, size_t dim) {
    if (!e.defined())
        user_error("RDom: the " << what << " of dimension " << dim << " is undefined");
    Type t = e.type();
    if (!(t.is_int() || t.is_uint()) || t.is_bool() || t.is_vector())
        user_error("RDom: the " << what << " of dimension " << dim << " has type "
                                << type_to_string(t) << "; it must be an integer");
    bool free_var = false;
    std::string which;
    visit_all(e, [&](const IRNode *n) {
        if (n->node_type != IRNodeType::Variable) return;
        const auto *v = static_cast<const Variable *>(n);
        if (v->param.defined() || v->image.defined()) return;
        free_var = true;
        which = v->name;
    });
    if (free_var)
        user_error("RDom: the " << what << " of dimension " << dim << " uses " << which
                                << "; the bounds of a reduction domain may use only constants, "
                                   "Params and buffer sizes");
    return t == Int(32) ? e : Cast::make(Int(32), e);
}

} // namespace

RVar::RVar() : name_(unique_name("rv")) {}

RVar::RVar(const ReductionDomain &domain, int index)
    : name_(domain.domain().at(size_t(index)).var), domain_(domain), index_(index) {}

Expr RVar::min() const {
    return domain_.defined() ? domain_.domain()[size_t(index_)].min : Expr();
}

Expr RVar::extent() const {
    return domain_.defined() ? domain_.domain()[size_t(index_)].extent : Expr();
}

RVar::operator Expr() const {
    if (!domain_.defined()) return Variable::make(Int(32), name_);
    return Variable::make(Int(32), name_, domain_);
}

Region RDom::pairs(const std::vector<Expr> &flat) {
    Region out;
    for (size_t i = 0; i + 1 < flat.size(); i += 2) out.emplace_back(flat[i], flat[i + 1]);
    return out;
}

RDom::RDom(const Region &ranges, const std::string &name) {
    if (ranges.empty())
        user_error("RDom" << (name.empty() ? "" : " " + name) << " has no dimensions");
    std::string base = name.empty() ? unique_name("r") : name;
    std::vector<ReductionVariable> vars;
    for (size_t i = 0; i < ranges.size(); i++) {
        ReductionVariable v;
        v.var = base + "$" + dim_name(i);
        v.min = int32_expr(ranges[i].min, "min", i);
        v.extent = int32_expr(ranges[i].extent, "extent", i);
        vars.push_back(v);
    }
    dom_ = ReductionDomain(vars);
    init_vars();
}

RDom::RDom(const Buffer<> &b) {
    if (!b.defined()) user_error("RDom of an undefined Buffer");
    Region ranges;
    for (int i = 0; i < b.dimensions(); i++) ranges.emplace_back(b.dim(i).min(), b.dim(i).extent());
    *this = RDom(ranges, unique_name(b.name()));
}

RDom::RDom(const OutputImageParam &p) {
    Region ranges;
    for (int i = 0; i < p.dimensions(); i++) ranges.emplace_back(p.dim(i).min(), p.dim(i).extent());
    *this = RDom(ranges, unique_name(p.name()));
}

RDom::RDom(const ReductionDomain &d) : dom_(d) {
    init_vars();
}

void RDom::init_vars() {
    RVar *slots[] = {&x, &y, &z, &w};
    for (int i = 0; i < 4; i++) *slots[i] = i < dimensions() ? RVar(dom_, i) : RVar(std::string());
}

int RDom::dimensions() const {
    return dom_.defined() ? int(dom_.domain().size()) : 0;
}

RVar RDom::operator[](int i) const {
    if (i < 0 || i >= dimensions())
        user_error("RDom has " << dimensions() << " dimensions; there is no dimension " << i);
    return RVar(dom_, i);
}

RDom &RDom::where(const Expr &predicate) {
    if (!defined()) user_error("where() on an undefined RDom");
    if (!predicate.defined())
        user_error("where() on RDom " << x.name() << " with an undefined condition");
    if (!predicate.type().is_bool() || predicate.type().is_vector())
        user_error("where() on the RDom of " << x.name() << " has a condition of type "
                                             << type_to_string(predicate.type())
                                             << "; the condition must be a scalar bool");
    if (dom_.frozen())
        user_error("where() on the RDom of " << x.name()
                                             << " comes after an update definition used the RDom; "
                                                "add predicates before using it");
    dom_.where(predicate);
    return *this;
}

RDom::operator RVar() const {
    if (dimensions() != 1)
        user_error("An RDom of " << dimensions()
                                 << " dimensions cannot be used as a single RVar; use .x, .y, ...");
    return x;
}

RDom::operator Expr() const {
    return Expr(RVar(*this));
}

} // namespace loom
