#ifndef LOOM_RDOM_H
#define LOOM_RDOM_H

/** \file RDom and RVar: reduction domains. An update definition that uses an
 * RDom runs once for every point of the domain (for which its where()
 * predicates hold), in order, innermost dimension (x) fastest. */

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "loom/Buffer.h"
#include "loom/Expr.h"
#include "loom/ImageParam.h"
#include "loom/Reduction.h"

namespace loom {

/** One dimension of an RDom; usable wherever an Int(32) Expr is. A default
 * or named RVar without a domain only names a loop (for split, rfactor...). */
class RVar {
    std::string name_;
    Internal::ReductionDomain domain_;
    int index_ = -1;

public:
    /** A loop name with a unique automatic name and no domain. */
    RVar();
    /** A loop name with no domain (for naming the results of split and fuse). */
    explicit RVar(const std::string &name) : name_(name) {}
    RVar(const Internal::ReductionDomain &domain, int index);

    const std::string &name() const { return name_; }
    /** The first value and the number of values (undefined without a domain). */
    Expr min() const;
    Expr extent() const;
    const Internal::ReductionDomain &domain() const { return domain_; }

    /** The Int(32) Variable of this dimension, tagged with its domain. */
    operator Expr() const;
};

/** A multi-dimensional reduction domain. Dimensions are x, y, z, w (and
 * further ones through operator[]); a 1-D RDom converts to its RVar. */
class RDom {
    Internal::ReductionDomain dom_;
    void init_vars();

public:
    RVar x, y, z, w;

    RDom() = default;
    /** A domain over the given {min, extent} ranges (a Region, as in
     * Halide), dimension 0 innermost. */
    RDom(const Region &ranges, const std::string &name = "");
    /** RDom(min0, extent0, min1, extent1, ...). */
    template <typename... Args,
              typename = std::enable_if_t<(std::is_convertible_v<Args, Expr> && ...)>>
    RDom(const Expr &min, const Expr &extent, const Args &...rest)
        : RDom(pairs(std::vector<Expr>{min, extent, Expr(rest)...})) {}
    /** Halide's named forms: RDom(min, extent, name), and likewise with 2,
     * 3 or 4 (min, extent) pairs before the name. */
    RDom(const Expr &min, const Expr &extent, const std::string &name)
        : RDom({{min, extent}}, name) {}
    RDom(const Expr &min0, const Expr &extent0, const Expr &min1, const Expr &extent1,
         const std::string &name)
        : RDom({{min0, extent0}, {min1, extent1}}, name) {}
    RDom(const Expr &min0, const Expr &extent0, const Expr &min1, const Expr &extent1,
         const Expr &min2, const Expr &extent2, const std::string &name)
        : RDom({{min0, extent0}, {min1, extent1}, {min2, extent2}}, name) {}
    RDom(const Expr &min0, const Expr &extent0, const Expr &min1, const Expr &extent1,
         const Expr &min2, const Expr &extent2, const Expr &min3, const Expr &extent3,
         const std::string &name)
        : RDom({{min0, extent0}, {min1, extent1}, {min2, extent2}, {min3, extent3}}, name) {}
    /** A domain over every coordinate of a buffer. */
    template <typename T, int D> explicit RDom(const Buffer<T, D> &b) : RDom(Buffer<>(b)) {}
    explicit RDom(const Buffer<> &b);
    /** A domain over every coordinate of an ImageParam (sizes known at run time). */
    explicit RDom(const OutputImageParam &p);
    explicit RDom(const Internal::ReductionDomain &d);

    bool defined() const { return dom_.defined(); }
    bool same_as(const RDom &o) const { return dom_.same_as(o.dom_); }
    int dimensions() const;
    RVar operator[](int i) const;
    const Internal::ReductionDomain &domain() const { return dom_; }

    /** Restrict the domain to points where predicate holds (several calls
     * AND together). Must come before the RDom is used in an update. */
    RDom &where(const Expr &predicate);

    /** A 1-D RDom is its single RVar. */
    operator RVar() const;
    operator Expr() const;

private:
    static Region pairs(const std::vector<Expr> &flat);
};

} // namespace loom

#endif
