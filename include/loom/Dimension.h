#ifndef LOOM_DIMENSION_H
#define LOOM_DIMENSION_H

/** \file Dimension: one dimension of an ImageParam or output buffer, with its
 * symbolic min/extent/stride and user constraints on them. */

#include <string>

#include "loom/Expr.h"
#include "loom/Parameter.h"

namespace loom {

class Dimension {
    Internal::Parameter param_;
    int dim_;

public:
    Dimension(const Internal::Parameter &param, int dim);

    /** The symbolic values "<name>.min.<d>", "<name>.extent.<d>", "<name>.stride.<d>". */
    Expr min() const;
    Expr extent() const;
    Expr stride() const;
    /** min() + extent() - 1. */
    Expr max() const;

    /** Require the buffer to have this min / extent / stride (checked at run
     * time; lowering may also rely on it). */
    Dimension set_min(Expr min);
    Dimension set_extent(Expr extent);
    /** Like Halide, dimension 0 of every buffer argument must have stride 1
     * unless told otherwise: set_stride(Expr()) on dim(0) allows any stride
     * (for interleaved buffers), at the cost of gathers instead of dense
     * vector loads. */
    Dimension set_stride(Expr stride);
    Dimension set_bounds(Expr min, Expr extent);
    /** The expected min and extent, for auto-schedulers: stored only, never
     * checked or relied on. */
    Dimension set_estimate(Expr min, Expr extent);
    /** The estimates (undefined when none were set). */
    Expr min_estimate() const;
    Expr extent_estimate() const;

    int index() const { return dim_; }
};

} // namespace loom

#endif
