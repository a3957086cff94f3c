// Boundary conditions: each wraps a source in a Func whose coordinates are
// remapped into the bounds (and clamped, so bounds inference sees that the
// source is read only inside them).

#include "loom/BoundaryConditions.h"

#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IRUtil.h"
#include "loom/IROperator.h"
#include "loom/Tuple.h"

namespace loom {
namespace BoundaryConditions {

using namespace Internal;

namespace {

enum class Kind { RepeatEdge, ConstantExterior, RepeatImage, MirrorImage, MirrorInterior };

const char *kind_name(Kind k) {
    switch (k) {
    case Kind::RepeatEdge:
        return "repeat_edge";
    case Kind::ConstantExterior:
        return "constant_exterior";
    case Kind::RepeatImage:
        return "repeat_image";
    case Kind::MirrorImage:
        return "mirror_image";
    case Kind::MirrorInterior:
        return "mirror_interior";
    }
    return "boundary_condition";
}

/** The source coordinate for coordinate x of a dimension with bounds [m, m + e). */
Expr remap(Kind kind, const Expr &x, const Expr &m, const Expr &e) {
    Expr last = m + e - 1;
    Expr coord;
    switch (kind) {
    case Kind::RepeatEdge:
    case Kind::ConstantExterior:
        coord = x;
        break;
    case Kind::RepeatImage:
        coord = m + (x - m) % e;
        break;
    case Kind::MirrorImage: {
        Expr t = (x - m) % (2 * e);
        coord = m + select(t < e, t, 2 * e - 1 - t);
        break;
    }
    case Kind::MirrorInterior: {
        Expr period = max(2 * e - 2, 1);
        Expr t = (x - m) % period;
        coord = m + select(t < e, t, period - t);
        break;
    }
    }
    // likely() marks the in-bounds case, so loop partitioning can drop the
    // clamp (and the remapping) from the steady state.
    Expr in_bounds = clamp(likely(x), m, last);
    if (kind == Kind::RepeatEdge || kind == Kind::ConstantExterior) return in_bounds;
    return select(likely(x >= m && x <= last), in_bounds, clamp(coord, m, last));
}

/** `exterior`: constant_exterior's value, one Expr per value of the source. */
Func apply(Kind kind, const Func &source, const Region &bounds,
           const std::vector<Expr> &exterior = {}) {
    const char *what = kind_name(kind);
    if (!source.defined())
        user_error(what << " of Func " << source.name() << ", which has no definition");
    int dims = source.dimensions();
    if (int(bounds.size()) != dims)
        user_error(what << " of Func " << source.name() << " of " << dims
                        << " dimensions was given bounds for " << bounds.size() << " dimensions");
    std::vector<Var> args;
    std::vector<Expr> coords;
    Expr outside;
    for (int i = 0; i < dims; i++) {
        args.emplace_back(unique_name(source.name() + "_" + what + "_x" + std::to_string(i)));
        Expr x = args.back();
        const Expr &m = bounds[size_t(i)].min, &e = bounds[size_t(i)].extent;
        if (m.defined() != e.defined())
            user_error(what << " of Func " << source.name() << ": dimension " << i
                            << " has only one of min and extent defined");
        if (!m.defined()) {
            coords.push_back(x);
            continue;
        }
        Expr mi = cast(Int(32), m), ei = cast(Int(32), e);
        coords.push_back(remap(kind, x, mi, ei));
        if (kind == Kind::ConstantExterior) {
            Expr out = x < mi || x > mi + ei - 1;
            outside = outside.defined() ? (outside || out) : out;
        }
    }
    Func result(unique_name(source.name() + "_" + what));
    std::vector<Expr> values = Tuple(source(coords)).as_vector();
    if (kind == Kind::ConstantExterior && exterior.size() != values.size()) {
        user_error("constant_exterior of Func "
                   << source.name() << ", which has " << values.size()
                   << " value(s), was given an exterior value of " << exterior.size()
                   << " element(s); give a Tuple of " << values.size() << " Exprs");
    }
    if (kind == Kind::ConstantExterior && outside.defined()) {
        for (size_t i = 0; i < values.size(); i++) {
            if (!exterior[i].defined())
                user_error("constant_exterior of Func " << source.name()
                                                        << " with an undefined value");
            values[i] = select(likely(!outside), values[i], cast(values[i].type(), exterior[i]));
        }
    }
    if (values.size() == 1)
        result(args) = values[0];
    else
        result(args) = Tuple(values);
    return result;
}

Region buffer_bounds(const Buffer<> &b, const Region &given) {
    if (!given.empty()) return given;
    Region r;
    for (int i = 0; i < b.dimensions(); i++) r.emplace_back(b.dim(i).min(), b.dim(i).extent());
    return r;
}

Region param_bounds(const ImageParam &p, const Region &given) {
    if (!given.empty()) return given;
    Region r;
    for (int i = 0; i < p.dimensions(); i++) r.emplace_back(p.dim(i).min(), p.dim(i).extent());
    return r;
}

Func wrap(const Buffer<> &b) {
    if (!b.defined()) user_error("A boundary condition of an undefined Buffer");
    Func f(unique_name(b.name() + "_im"));
    std::vector<Var> args;
    std::vector<Expr> coords;
    for (int i = 0; i < b.dimensions(); i++) {
        args.emplace_back(unique_name(b.name() + "_x" + std::to_string(i)));
        coords.push_back(args.back());
    }
    f(args) = buffer_call(b, coords);
    return f;
}

Func wrap(const ImageParam &p) {
    if (!p.defined()) user_error("A boundary condition of an undefined ImageParam");
    Func f(unique_name(p.name() + "_im"));
    std::vector<Var> args;
    std::vector<Expr> coords;
    for (int i = 0; i < p.dimensions(); i++) {
        args.emplace_back(unique_name(p.name() + "_x" + std::to_string(i)));
        coords.push_back(args.back());
    }
    f(args) = p(coords);
    return f;
}

} // namespace

#define LOOM_BOUNDARY_CONDITION(NAME, KIND)                                                        \
    Func NAME(const Func &source, const Region &bounds) {                                          \
        return apply(KIND, source, bounds);                                                        \
    }                                                                                              \
    Func NAME(const Buffer<> &source, const Region &bounds) {                                      \
        return apply(KIND, wrap(source), buffer_bounds(source, bounds));                           \
    }                                                                                              \
    Func NAME(const ImageParam &source, const Region &bounds) {                                    \
        return apply(KIND, wrap(source), param_bounds(source, bounds));                            \
    }
LOOM_BOUNDARY_CONDITION(repeat_edge, Kind::RepeatEdge)
LOOM_BOUNDARY_CONDITION(repeat_image, Kind::RepeatImage)
LOOM_BOUNDARY_CONDITION(mirror_image, Kind::MirrorImage)
LOOM_BOUNDARY_CONDITION(mirror_interior, Kind::MirrorInterior)
#undef LOOM_BOUNDARY_CONDITION

Func constant_exterior(const Func &source, const Tuple &value, const Region &bounds) {
    return apply(Kind::ConstantExterior, source, bounds, value.as_vector());
}
Func constant_exterior(const Buffer<> &source, const Tuple &value, const Region &bounds) {
    return apply(Kind::ConstantExterior, wrap(source), buffer_bounds(source, bounds),
                 value.as_vector());
}
Func constant_exterior(const ImageParam &source, const Tuple &value, const Region &bounds) {
    return apply(Kind::ConstantExterior, wrap(source), param_bounds(source, bounds),
                 value.as_vector());
}
Func constant_exterior(const Func &source, Expr value, const Region &bounds) {
    return apply(Kind::ConstantExterior, source, bounds, {value});
}
Func constant_exterior(const Buffer<> &source, Expr value, const Region &bounds) {
    return apply(Kind::ConstantExterior, wrap(source), buffer_bounds(source, bounds), {value});
}
Func constant_exterior(const ImageParam &source, Expr value, const Region &bounds) {
    return apply(Kind::ConstantExterior, wrap(source), param_bounds(source, bounds), {value});
}

} // namespace BoundaryConditions
} // namespace loom
