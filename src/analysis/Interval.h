#ifndef LOOM_ANALYSIS_INTERVAL_H
#define LOOM_ANALYSIS_INTERVAL_H

// Closed intervals [min, max] of symbolic expressions. An undefined min or max
// means unbounded on that side.

#include <map>
#include <string>
#include <vector>

#include "ir/IR.h"

namespace loom {
namespace Internal {

struct Interval {
    Expr min, max; // undefined = unbounded (-inf / +inf)

    Interval() = default;
    Interval(Expr lo, Expr hi) : min(std::move(lo)), max(std::move(hi)) {}
    static Interval everything() { return Interval(); }
    static Interval single_point(const Expr &e) { return Interval(e, e); }

    bool has_lower_bound() const { return min.defined(); }
    bool has_upper_bound() const { return max.defined(); }
    bool is_bounded() const { return has_lower_bound() && has_upper_bound(); }
    bool is_everything() const { return !has_lower_bound() && !has_upper_bound(); }
    bool is_single_point() const { return min.defined() && min.same_as(max); }

    /** The smallest interval containing both (symbolic min/max, simplified). */
    static Interval make_union(const Interval &a, const Interval &b);
    static Interval make_intersection(const Interval &a, const Interval &b);
    void include(const Interval &other) { *this = make_union(*this, other); }
    void include(const Expr &e) { include(single_point(e)); }
};

/** A multi-dimensional interval; `used` (if defined) says when the region is touched. */
struct Box {
    std::vector<Interval> bounds;
    Expr used;
    Box() = default;
    explicit Box(size_t n) : bounds(n) {}
    size_t size() const { return bounds.size(); }
    bool empty() const { return bounds.empty(); }
    Interval &operator[](size_t i) { return bounds[i]; }
    const Interval &operator[](size_t i) const { return bounds[i]; }
};

Box box_union(const Box &a, const Box &b);

} // namespace Internal
} // namespace loom

#endif
