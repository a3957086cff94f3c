#ifndef LOOM_REDUCTION_H
#define LOOM_REDUCTION_H

/** \file Internal::ReductionDomain: the shared state behind an RDom (its
 * variables, their ranges and its where() predicates). RVar Variables in
 * expressions point at it, which is how an update definition finds its RDom. */

#include <string>
#include <vector>

#include "loom/Expr.h"
#include "loom/IntrusivePtr.h"

namespace loom {
namespace Internal {

/** One dimension of a reduction domain: var runs over [min, min + extent). */
struct ReductionVariable {
    std::string var;
    Expr min, extent;
};

struct ReductionDomainContents : RefCounted {
    std::vector<ReductionVariable> domain;
    /** where() conditions, ANDed. Their RVar Variables carry no domain
     * pointer (that would be a reference cycle); names identify them. */
    std::vector<Expr> predicates;
    /** Set once an update definition uses the domain: where() is then closed. */
    bool frozen = false;
};

/** A handle to a reduction domain; two handles to the same domain compare equal. */
class ReductionDomain {
    IntrusivePtr<ReductionDomainContents> contents_;

public:
    ReductionDomain() = default;
    explicit ReductionDomain(std::vector<ReductionVariable> domain);

    bool defined() const { return contents_.defined(); }
    bool same_as(const ReductionDomain &o) const { return contents_.get() == o.contents_.get(); }
    const std::vector<ReductionVariable> &domain() const { return contents_->domain; }
    const std::vector<Expr> &predicates() const { return contents_->predicates; }
    /** Add a where() condition (stripped of domain pointers). */
    void where(const Expr &predicate);
    bool frozen() const { return contents_->frozen; }
    void freeze() { contents_->frozen = true; }
};

} // namespace Internal
} // namespace loom

#endif
