// Schedule directives Loom has only for Halide compatibility: hexagon()
// (refused: Loom has no Hexagon backend), unscheduled(), and the scalar
// schedule of evaluate_may_gpu.

#include "ir/Error.h"
#include "loom/Evaluate.h"
#include "loom/Func.h"
#include "loom/Stage.h"
#include "loom/Target.h"

namespace loom {

using namespace Internal;

namespace {

[[noreturn]] void refuse_hexagon(const std::string &stage, const std::string &loop) {
    user_error("hexagon(" << loop << ") of " << stage
                          << ": Loom has no Hexagon backend, so no loop can be offloaded to a "
                             "Hexagon DSP; schedule it for the CPU (vectorize, parallel) or a GPU "
                             "(gpu_tile) instead");
}

} // namespace

Stage &Stage::hexagon() {
    refuse_hexagon(description(), "");
}

Stage &Stage::hexagon(const VarOrRVar &x) {
    refuse_hexagon(description(), x.name());
}

Stage &Stage::unscheduled() {
    if (schedule().touched)
        user_error("unscheduled() of " << description()
                                       << ": the stage has schedule directives already (or "
                                          "unscheduled() was called twice); it declares that the "
                                          "stage is deliberately left unscheduled");
    modify();
    return *this;
}

Func &Func::hexagon() {
    Stage(function(), 0).hexagon();
    return *this;
}

Func &Func::hexagon(const VarOrRVar &x) {
    Stage(function(), 0).hexagon(x);
    return *this;
}

namespace Internal {

void schedule_scalar(Func f) {
    if (get_jit_target_from_environment().has_gpu_feature()) f.gpu_single_thread();
}

} // namespace Internal
} // namespace loom
