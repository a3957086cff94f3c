#ifndef LOOM_BOUNDARY_CONDITIONS_H
#define LOOM_BOUNDARY_CONDITIONS_H

/** \file Boundary conditions: Funcs defined everywhere that read a source
 * only inside its bounds. The bounds default to the buffer's own for a
 * Buffer or ImageParam; a Func needs them given, as {{min, extent}, ...}.
 * A {min, extent} pair of undefined Exprs leaves that dimension unbounded. */

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "loom/Buffer.h"
#include "loom/Expr.h"
#include "loom/Func.h"
#include "loom/ImageParam.h"
#include "loom/Tuple.h"

namespace loom {
namespace BoundaryConditions {

/** {min, extent} per dimension: loom::Region, as Halide's boundary
 * conditions take Halide::Region. */
using Region = loom::Region;

/** Coordinates outside the bounds read the nearest edge. */
Func repeat_edge(const Func &source, const Region &bounds);
Func repeat_edge(const Buffer<> &source, const Region &bounds = {});
Func repeat_edge(const ImageParam &source, const Region &bounds = {});

/** Coordinates outside the bounds read `value` (converted to the source's
 * type). A Func of several values takes a Tuple of as many. */
Func constant_exterior(const Func &source, Expr value, const Region &bounds);
Func constant_exterior(const Buffer<> &source, Expr value, const Region &bounds = {});
Func constant_exterior(const ImageParam &source, Expr value, const Region &bounds = {});
Func constant_exterior(const Func &source, const Tuple &value, const Region &bounds);
Func constant_exterior(const Buffer<> &source, const Tuple &value, const Region &bounds = {});
Func constant_exterior(const ImageParam &source, const Tuple &value, const Region &bounds = {});

/** The source tiles the plane. */
Func repeat_image(const Func &source, const Region &bounds);
Func repeat_image(const Buffer<> &source, const Region &bounds = {});
Func repeat_image(const ImageParam &source, const Region &bounds = {});

/** Reflection that repeats the edge pixel: ... 1 0 | 0 1 2 ... */
Func mirror_image(const Func &source, const Region &bounds);
Func mirror_image(const Buffer<> &source, const Region &bounds = {});
Func mirror_image(const ImageParam &source, const Region &bounds = {});

/** Reflection about the edge pixel: ... 2 1 | 0 1 2 ... */
Func mirror_interior(const Func &source, const Region &bounds);
Func mirror_interior(const Buffer<> &source, const Region &bounds = {});
Func mirror_interior(const ImageParam &source, const Region &bounds = {});

namespace detail {
inline void collect_bounds(Region &) {}
template <typename... Rest>
void collect_bounds(Region &r, const Expr &min, const Expr &extent, const Rest &...rest) {
    r.emplace_back(min, extent);
    collect_bounds(r, rest...);
}
template <typename... Bounds>
inline constexpr bool are_bounds_v = sizeof...(Bounds) % 2 == 0 &&
                                     (std::is_convertible_v<Bounds, Expr> && ...);
template <typename... Bounds> Region make_region(const Bounds &...bounds) {
    Region r;
    collect_bounds(r, bounds...);
    return r;
}
} // namespace detail

/** Halide's variadic forms: the bounds as min0, extent0, min1, extent1, ...
 * after the source (a Func, Buffer or ImageParam), for each of the above.
 * An undefined Expr() pair leaves that dimension unbounded. */
template <typename T, typename... Bounds,
          typename = std::enable_if_t<detail::are_bounds_v<Bounds...>>>
Func repeat_edge(const T &source, const Expr &min0, const Expr &extent0, const Bounds &...rest) {
    return repeat_edge(source, detail::make_region(min0, extent0, rest...));
}
template <typename T, typename... Bounds,
          typename = std::enable_if_t<detail::are_bounds_v<Bounds...>>>
Func constant_exterior(const T &source, const Expr &value, const Expr &min0, const Expr &extent0,
                       const Bounds &...rest) {
    return constant_exterior(source, value, detail::make_region(min0, extent0, rest...));
}
template <typename T, typename... Bounds,
          typename = std::enable_if_t<detail::are_bounds_v<Bounds...>>>
Func constant_exterior(const T &source, const Tuple &value, const Expr &min0, const Expr &extent0,
                       const Bounds &...rest) {
    return constant_exterior(source, value, detail::make_region(min0, extent0, rest...));
}
template <typename T, typename... Bounds,
          typename = std::enable_if_t<detail::are_bounds_v<Bounds...>>>
Func repeat_image(const T &source, const Expr &min0, const Expr &extent0, const Bounds &...rest) {
    return repeat_image(source, detail::make_region(min0, extent0, rest...));
}
template <typename T, typename... Bounds,
          typename = std::enable_if_t<detail::are_bounds_v<Bounds...>>>
Func mirror_image(const T &source, const Expr &min0, const Expr &extent0, const Bounds &...rest) {
    return mirror_image(source, detail::make_region(min0, extent0, rest...));
}
template <typename T, typename... Bounds,
          typename = std::enable_if_t<detail::are_bounds_v<Bounds...>>>
Func mirror_interior(const T &source, const Expr &min0, const Expr &extent0,
                     const Bounds &...rest) {
    return mirror_interior(source, detail::make_region(min0, extent0, rest...));
}

} // namespace BoundaryConditions
} // namespace loom

#endif
