#ifndef LOOM_PARAMETER_H
#define LOOM_PARAMETER_H

/** \file Internal::Parameter: the shared state behind Param<T> and ImageParam. */

#include <string>
#include <vector>

#include "loom/Buffer.h"
#include "loom/Expr.h"

namespace loom {
namespace Internal {

struct FunctionContents;

/** Constraints a user placed on one dimension of an image parameter (or of an
 * output buffer); undefined Exprs mean unconstrained. */
struct BufferConstraint {
    Expr min, extent, stride;
    /** set_estimate(): expected min and extent, for auto-schedulers only. */
    Expr min_estimate, extent_estimate;
};

struct ParameterContents : RefCounted {
    std::string name;
    /** Was the name given by the user (not made up by Loom)? */
    bool explicit_name = false;
    Type type;
    int dimensions = 0;
    bool is_buffer = false;
    /** Scalar value bits (for scalar params), as stored by set(). */
    uint64_t scalar_bits = 0;
    /** Range of a scalar parameter, checked at entry; undefined if none. */
    Expr scalar_min, scalar_max;
    /** set_estimate() of a scalar parameter, for auto-schedulers only. */
    Expr scalar_estimate;
    /** The buffer bound to an image parameter (ImageParam::set). */
    Buffer<> buffer;
    std::vector<BufferConstraint> constraints;
    /** Buffer arguments default to stride 1 in dimension 0 (so vectorized
     * code loads densely); dim(0).set_stride(Expr()) sets this to lift it. */
    bool stride0_unconstrained = false;
    /** ImageParam::trace_loads: loads from the image are traced. */
    bool trace_loads = false;
    /** The ImageParam's Func, which holds the image's in() wrappers; not
     * owned (the Func reads this Parameter), cleared when the Func goes. */
    FunctionContents *image_func = nullptr;
};

/** A named scalar or buffer argument of a pipeline. */
class Parameter {
    IntrusivePtr<ParameterContents> contents;

public:
    Parameter() = default;
    Parameter(Type t, bool is_buffer, int dimensions, const std::string &name);

    bool defined() const { return contents.defined(); }
    const std::string &name() const { return contents->name; }
    bool is_explicit_name() const { return contents->explicit_name; }
    void set_explicit_name(bool b) { contents->explicit_name = b; }
    Type type() const { return contents->type; }
    int dimensions() const { return contents->dimensions; }
    bool is_buffer() const { return contents->is_buffer; }

    uint64_t scalar_bits() const { return contents->scalar_bits; }
    void set_scalar_bits(uint64_t bits) { contents->scalar_bits = bits; }
    /** The scalar's current value as a constant Expr of its type. */
    Expr scalar_expr() const;

    Expr estimate() const { return contents->scalar_estimate; }
    void set_estimate(Expr e) { contents->scalar_estimate = e; }

    Expr min_value() const { return contents->scalar_min; }
    Expr max_value() const { return contents->scalar_max; }
    void set_min_value(Expr e) { contents->scalar_min = e; }
    void set_max_value(Expr e) { contents->scalar_max = e; }

    const Buffer<> &buffer() const { return contents->buffer; }
    void set_buffer(const Buffer<> &b) { contents->buffer = b; }

    /** Per-dimension constraints (sized to dimensions()). */
    BufferConstraint &constraint(int dim) { return contents->constraints.at(size_t(dim)); }
    const BufferConstraint &constraint(int dim) const {
        return contents->constraints.at(size_t(dim));
    }

    bool stride0_unconstrained() const { return contents->stride0_unconstrained; }
    void set_stride0_unconstrained(bool b) { contents->stride0_unconstrained = b; }

    bool is_tracing_loads() const { return contents->trace_loads; }
    void set_trace_loads(bool b) { contents->trace_loads = b; }

    FunctionContents *image_func() const { return contents->image_func; }
    void set_image_func(FunctionContents *f) const { contents->image_func = f; }

    bool same_as(const Parameter &o) const { return contents.get() == o.contents.get(); }
    const ParameterContents *get() const { return contents.get(); }
};

} // namespace Internal
} // namespace loom

#endif
