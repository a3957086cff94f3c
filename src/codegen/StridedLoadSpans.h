#ifndef LOOM_CODEGEN_STRIDED_LOAD_SPANS_H
#define LOOM_CODEGEN_STRIDED_LOAD_SPANS_H

// Which memory a straight-line stretch of code is known to read, so that a
// strided vector load (index Ramp(base, s, lanes), s = 2..4) may become one
// dense load of s * lanes elements and a shuffle of every s-th lane. The
// dense load reads up to s - 1 elements past the last lane (or, shifted, before
// the first): that is only safe where other loads of the same buffer, which
// always run with it, read elements at least that far out. Since the memory
// of a buffer or allocation is one block, every element between two elements
// that are read lies inside it too.
//
// As Halide's "load both and share": f(2x) and f(2x + 1) in one statement
// read [2x, 2x + 2 lanes - 1] together, so each can load that span densely,
// and both loads are then one load that LLVM shares.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/IR.h"

namespace loom {
namespace Internal {

/** index as symbolic + constant (symbolic undefined for a constant index). */
std::pair<Expr, int64_t> split_constant_offset(const Expr &index);

class StridedLoadSpans {
public:
    StridedLoadSpans() = default;
    /** The loads that `region` always runs when it runs: its straight-line
     * statements and expressions, not the bodies of its loops, branches,
     * allocations, or the lazy arms of if_then_else and require, and no
     * predicated loads. `bound_outside(name)` tells whether a name is
     * already bound where the region starts: a let of the region that
     * rebinds one (or a name bound twice in it) could make two equal-looking
     * indices differ, so such a region knows nothing. */
    template <typename BoundOutside>
    StridedLoadSpans(const Stmt &region, const BoundOutside &bound_outside) {
        collect(region);
        if (spans.empty()) return;
        for (const std::string &name : bound_names) {
            if (bound_outside(name)) {
                spans.clear();
                return;
            }
        }
    }

    /** For a load of `buffer` at Ramp(base, stride, lanes) in the region:
     * the shift r in [0, stride) such that the stride * lanes elements from
     * base - r are all known to be inside the buffer (the load's lanes are
     * then elements r, r + stride, ...), or nullopt when no such span is
     * known. Among the valid shifts it prefers the one that starts where
     * the other loads of the group start, so that their dense loads are
     * the same load. */
    std::optional<int> dense_load_shift(const std::string &buffer, const Expr &base, int stride,
                                        int lanes) const;

private:
    /** Constant offsets [lo, hi] from `symbolic` (undefined: from zero)
     * that loads of `buffer` read, with every element between. */
    struct Span {
        std::string buffer;
        Expr symbolic;
        int64_t lo, hi;
    };
    std::vector<Span> spans;
    std::vector<std::string> bound_names;

    void collect(const Stmt &region);
    friend class StridedLoadCollector;
    void add(const std::string &buffer, const Expr &index);
    const Span *find(const std::string &buffer, const Expr &symbolic) const;
};

} // namespace Internal
} // namespace loom

#endif
