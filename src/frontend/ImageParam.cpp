// ImageParam, OutputImageParam and Dimension: buffer arguments, their
// symbolic shape, and the constraints users place on it.

#include "loom/ImageParam.h"

#include "frontend/ImplicitVars.h"
#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IRUtil.h"
#include "loom/Func.h"
#include "loom/IROperator.h"

namespace loom {

using namespace Internal;

Dimension::Dimension(const Parameter &param, int dim) : param_(param), dim_(dim) {
    if (dim < 0 || dim >= param.dimensions())
        user_error("Buffer " << param.name() << " has " << param.dimensions()
                             << " dimensions; there is no dimension " << dim);
}

namespace {
Expr field(const Parameter &p, const char *what, int dim) {
    return Variable::make(Int(32), p.name() + "." + what + "." + std::to_string(dim), p);
}

Expr checked_int(const Parameter &p, int dim, const char *what, Expr e) {
    if (!e.defined()) return e;
    if (!(e.type().is_int() || e.type().is_uint()) || e.type().is_bool())
        user_error("The " << what << " of dimension " << dim << " of buffer " << p.name()
                          << " must be an integer, not " << type_to_string(e.type()));
    return cast(Int(32), e);
}
} // namespace

Expr Dimension::min() const {
    return field(param_, "min", dim_);
}
Expr Dimension::extent() const {
    return field(param_, "extent", dim_);
}
Expr Dimension::stride() const {
    return field(param_, "stride", dim_);
}
Expr Dimension::max() const {
    return min() + extent() - 1;
}

Dimension Dimension::set_min(Expr min) {
    param_.constraint(dim_).min = checked_int(param_, dim_, "min", min);
    return *this;
}
Dimension Dimension::set_extent(Expr extent) {
    param_.constraint(dim_).extent = checked_int(param_, dim_, "extent", extent);
    return *this;
}
Dimension Dimension::set_stride(Expr stride) {
    // An undefined stride in dimension 0 lifts the default stride-1 constraint.
    if (dim_ == 0) param_.set_stride0_unconstrained(!stride.defined());
    param_.constraint(dim_).stride = checked_int(param_, dim_, "stride", stride);
    return *this;
}
Dimension Dimension::set_bounds(Expr min, Expr extent) {
    set_min(std::move(min));
    return set_extent(std::move(extent));
}

Dimension Dimension::set_estimate(Expr min, Expr extent) {
    if (!min.defined() || !extent.defined())
        user_error("The estimate of dimension " << dim_ << " of buffer " << param_.name()
                                                << " needs both a min and an extent");
    param_.constraint(dim_).min_estimate = checked_int(param_, dim_, "min estimate", min);
    param_.constraint(dim_).extent_estimate = checked_int(param_, dim_, "extent estimate", extent);
    return *this;
}

Expr Dimension::min_estimate() const {
    return param_.constraint(dim_).min_estimate;
}

Expr Dimension::extent_estimate() const {
    return param_.constraint(dim_).extent_estimate;
}

const std::string &OutputImageParam::name() const {
    return param_.name();
}
Type OutputImageParam::type() const {
    return param_.type();
}
int OutputImageParam::dimensions() const {
    return param_.dimensions();
}
Dimension OutputImageParam::dim(int i) const {
    return Dimension(param_, i);
}

OutputImageParam &OutputImageParam::set_estimates(const Region &estimates) {
    if (int(estimates.size()) != dimensions())
        user_error("set_estimates of buffer " << name() << " got " << estimates.size()
                                              << " ranges for its " << dimensions()
                                              << " dimensions");
    for (size_t i = 0; i < estimates.size(); i++)
        dim(int(i)).set_estimate(estimates[i].min, estimates[i].extent);
    return *this;
}

ImageParam::ImageParam(Type t, int dims, const std::string &name)
    : OutputImageParam(Parameter(t, true, dims, name.empty() ? unique_name("input") : name)) {
    if (dims < 0)
        user_error("ImageParam " << param_.name() << " with negative dimensions " << dims);
    // The Func of the image (operator Func): one per ImageParam, shared by
    // its copies, so that a schedule given to it holds wherever it is used.
    Func f(param_.name() + "_im");
    f(_) = (*this)(_);
    func_ = f.function();
    // Reads of the image find their in() wrappers through it.
    func_.get()->image = param_;
    param_.set_image_func(func_.get());
}

void ImageParam::set(const Buffer<> &b) {
    if (b.defined()) {
        if (b.type() != type())
            user_error("ImageParam " << name() << " of type " << type_to_string(type())
                                     << " cannot be bound to Buffer " << b.name() << " of type "
                                     << type_to_string(b.type()));
        if (b.dimensions() != dimensions())
            user_error("ImageParam " << name() << " of " << dimensions()
                                     << " dimensions cannot be bound to Buffer " << b.name()
                                     << " of " << b.dimensions() << " dimensions");
    }
    param_.set_buffer(b);
}

ImageParam::operator Func() const {
    if (!defined()) user_error("An undefined ImageParam is used as a Func");
    return Func(func_);
}

Buffer<> ImageParam::get() const {
    return param_.buffer();
}

void ImageParam::reset() {
    param_.set_buffer(Buffer<>());
}

Expr ImageParam::operator()(const std::vector<Expr> &given_coords) const {
    if (!defined()) user_error("An undefined ImageParam is read in an algorithm");
    std::vector<Expr> coords = given_coords;
    expand_implicit_placeholder(coords, dimensions(), "ImageParam " + name());
    if (int(coords.size()) != dimensions())
        user_error("ImageParam " << name() << " is accessed with " << coords.size() << " argument"
                                 << (coords.size() == 1 ? "" : "s") << " but has " << dimensions()
                                 << " dimension" << (dimensions() == 1 ? "" : "s"));
    std::vector<Expr> args;
    for (size_t i = 0; i < coords.size(); i++) {
        const Expr &a = coords[i];
        if (!a.defined())
            user_error("Argument " << i << " of a read of ImageParam " << name()
                                   << " is undefined");
        Type t = a.type();
        if (!(t.is_int() || t.is_uint()) || t.is_bool())
            user_error("Argument " << i << " of a read of ImageParam " << name() << " has type "
                                   << type_to_string(t) << "; coordinates must be integers");
        args.push_back(t == Int(32) ? a : Cast::make(Int(32), a));
    }
    return Call::make(param_, args);
}

ImageParam &ImageParam::trace_loads() {
    if (!defined()) user_error("trace_loads of an undefined ImageParam");
    param_.set_trace_loads(true);
    return *this;
}

} // namespace loom
