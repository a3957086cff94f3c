#ifndef LOOM_BOUNDARY_CONDITIONS_H
#define LOOM_BOUNDARY_CONDITIONS_H

/** \file Boundary conditions: Funcs defined everywhere that read a source
 * only inside its bounds. The bounds default to the buffer's own for a
 * Buffer or ImageParam; a Func needs them given, as {{min, extent}, ...}.
 * A {min, extent} pair of undefined Exprs leaves that dimension unbounded. */

#include <string>
#include <utility>
#include <vector>

#include "loom/Buffer.h"
#include "loom/Expr.h"
#include "loom/Func.h"
#include "loom/ImageParam.h"

namespace loom {
namespace BoundaryConditions {

/** {min, extent} per dimension. */
using Region = std::vector<std::pair<Expr, Expr>>;

/** Coordinates outside the bounds read the nearest edge. */
Func repeat_edge(const Func &source, const Region &bounds);
Func repeat_edge(const Buffer<> &source, const Region &bounds = {});
Func repeat_edge(const ImageParam &source, const Region &bounds = {});

/** Coordinates outside the bounds read `value` (converted to the source's type). */
Func constant_exterior(const Func &source, Expr value, const Region &bounds);
Func constant_exterior(const Buffer<> &source, Expr value, const Region &bounds = {});
Func constant_exterior(const ImageParam &source, Expr value, const Region &bounds = {});

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

} // namespace BoundaryConditions
} // namespace loom

#endif
