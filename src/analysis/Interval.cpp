// Unions and intersections of symbolic intervals; unions of boxes.

#include "analysis/Interval.h"

#include "analysis/Simplify.h"
#include "ir/IREquality.h"
#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

namespace {

/** min(a, b) or max(a, b), simplified while small. The union of N regions
 * is a chain of N mins; simplifying it again at each step would cost N^2
 * (the simplifier rewrites all of it), for little: its terms seldom cancel. */
Expr union_end(bool is_min, const Expr &a, const Expr &b) {
    constexpr int small = 64;
    if (equal(a, b)) return a;
    Expr e = is_min ? Min::make(a, b) : Max::make(a, b);
    return count_nodes(a, small) <= small ? simplify(e) : e;
}

} // namespace

Interval Interval::make_union(const Interval &a, const Interval &b) {
    Interval r;
    if (a.min.defined() && b.min.defined()) r.min = union_end(true, a.min, b.min);
    if (a.max.defined() && b.max.defined()) r.max = union_end(false, a.max, b.max);
    return r;
}

Interval Interval::make_intersection(const Interval &a, const Interval &b) {
    Interval r;
    if (a.min.defined() && b.min.defined()) {
        r.min = simplify(Max::make(a.min, b.min));
    } else {
        r.min = a.min.defined() ? a.min : b.min;
    }
    if (a.max.defined() && b.max.defined()) {
        r.max = simplify(Min::make(a.max, b.max));
    } else {
        r.max = a.max.defined() ? a.max : b.max;
    }
    return r;
}

Box box_union(const Box &a, const Box &b) {
    if (a.empty()) return b;
    if (b.empty()) return a;
    Box r(std::max(a.size(), b.size()));
    for (size_t i = 0; i < r.size(); i++) {
        // A dimension one box lacks is unknown there, so the union is unbounded.
        if (i < a.size() && i < b.size()) r[i] = Interval::make_union(a[i], b[i]);
    }
    if (a.used.defined() && b.used.defined()) r.used = simplify(Or::make(a.used, b.used));
    return r;
}

} // namespace Internal
} // namespace loom
