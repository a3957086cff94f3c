// A random pipeline and schedule decoded from a fuzzer's bytes: an input
// image behind a boundary condition, 1-6 stages of random expressions (with an
// optional update over an RDom), a schedule for each, and for every stage the
// same definition with Func calls replaced by variables, which
// test/common/IRInterpreter evaluates as the reference (Reference.h).
#pragma once

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "FuzzInput.h"
#include "Loom.h"

namespace loom_fuzz {

enum class Boundary {
    None,
    RepeatEdge,
    ConstantExterior,
    MirrorImage,
    MirrorInterior,
    RepeatImage
};

/** A call to stage `stage` inside a definition: its coordinates as reference
 * expressions, and the variable that stands for its value. */
struct CallSite {
    int stage;
    loom::Expr x, y;
    std::string var;
};

/** One definition: the Expr given to Loom and the reference Expr in which
 * each call is the variable of its CallSite (listed in evaluation order). */
struct Definition {
    loom::Expr real, ref;
    std::vector<CallSite> calls;
};

enum class UpdateKind { None, Pointwise, ScanX, ScanY };

struct Stage {
    loom::Func func;
    loom::Type type;
    Definition pure;
    UpdateKind update = UpdateKind::None;
    Definition upd; // reads its own old value through the variable "self"
    int rmin = 0, rext = 0;
    std::string rvar; // the RDom variable's name
    // An update whose RDom appears nowhere in it runs once (as in Halide).
    bool update_uses_rdom = false;
};

struct Program {
    loom::Type in_type;
    int in_w = 1, in_h = 1, in_min_x = 0, in_min_y = 0;
    Boundary boundary = Boundary::None;
    loom::Expr exterior; // constant_exterior's value (of the input type)
    loom::Buffer<> input;
    // stages[0] is the input behind its boundary condition (no definition).
    std::vector<Stage> stages;
    int out_w = 1, out_h = 1, out_min_x = 0, out_min_y = 0;
    bool c_backend = false;
    std::ostringstream text; // the program as pseudo-C++, for reports
};

/** Decode an algorithm (stages, input, output size) from `in` into `p`.
 * Throws loom::CompileError when Loom refuses a definition. */
void decode_algorithm(FuzzInput &in, Program &p);

/** Decode and apply a schedule for every stage. Throws loom::CompileError
 * when Loom refuses a scheduling call. */
void decode_schedule(FuzzInput &in, Program &p);

} // namespace loom_fuzz
