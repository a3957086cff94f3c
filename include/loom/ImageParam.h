#ifndef LOOM_IMAGE_PARAM_H
#define LOOM_IMAGE_PARAM_H

/** \file ImageParam: a buffer argument of a pipeline, bound at run time;
 * OutputImageParam: the view of an output buffer's constraints. */

#include <string>
#include <type_traits>
#include <vector>

#include "loom/Buffer.h"
#include "loom/Dimension.h"
#include "loom/Expr.h"
#include "loom/Function.h"
#include "loom/Parameter.h"

namespace loom {

class Func;
class Var;

/** The shape of a buffer argument: name, type, dimensions and constraints. */
class OutputImageParam {
protected:
    Internal::Parameter param_;

public:
    OutputImageParam() = default;
    explicit OutputImageParam(const Internal::Parameter &p) : param_(p) {}

    bool defined() const { return param_.defined(); }
    const std::string &name() const;
    Type type() const;
    int dimensions() const;
    Dimension dim(int i) const;
    /** Estimated {min, extent} of every dimension, for auto-schedulers
     * (Dimension::set_estimate for each). */
    OutputImageParam &set_estimates(const Region &estimates);

    Expr width() const { return dim(0).extent(); }
    Expr height() const { return dim(1).extent(); }
    Expr channels() const { return dim(2).extent(); }
    Expr left() const { return dim(0).min(); }
    Expr right() const { return dim(0).max(); }
    Expr top() const { return dim(1).min(); }
    Expr bottom() const { return dim(1).max(); }

    const Internal::Parameter &parameter() const { return param_; }
};

/** An input image of a pipeline: read it like a Func, bind it with set(). */
class ImageParam : public OutputImageParam {
    Internal::Function func_; // the image as a Func (operator Func)

public:
    ImageParam() = default;
    /** dims dimensions of element type t; an empty name picks a unique one. */
    ImageParam(Type t, int dims, const std::string &name = "");

    /** Bind the buffer the next realization reads. */
    void set(const Buffer<> &b);
    Buffer<> get() const;
    /** Unbind the buffer. */
    void reset();

    /** Trace every load from this image (event load, parent the pipeline's
     * id) to the custom trace handler, as Func::trace_loads does for a Func.
     * Compiled pipelines that read it compile again. */
    ImageParam &trace_loads();

    /** The image as a Func (named "<name>_im", defined by reading it at
     * every coordinate); the same Func each time, so it can be scheduled. */
    operator Func() const; // NOLINT: implicit, as in Halide

    /** Wrappers of the image's reads (as Func::in): a Func
     * `<name>_im_in_g(_) = image(_)` that g reads instead of the image, so
     * the reads can be scheduled (staged into a tile or GPU shared memory). */
    Func in(const Func &f);
    Func in(const std::vector<Func> &fs);
    /** The global wrapper: every reader without its own wrapper reads it. */
    Func in();

    /** A read of the image at the given coordinates (`_` expands to the
     * remaining dimensions). */
    Expr operator()(const std::vector<Expr> &coords) const;
    /** The same with Vars; a template so that a braced list (`in({x, y})`)
     * still means the Expr form. */
    template <typename V, typename = std::enable_if_t<std::is_same_v<V, Var>>>
    Expr operator()(const std::vector<V> &coords) const {
        return (*this)(std::vector<Expr>(coords.begin(), coords.end()));
    }
    template <typename... Args,
              typename = std::enable_if_t<(std::is_convertible_v<Args, Expr> && ...)>>
    Expr operator()(const Args &...coords) const {
        return (*this)(std::vector<Expr>{Expr(coords)...});
    }
};

} // namespace loom

#endif
