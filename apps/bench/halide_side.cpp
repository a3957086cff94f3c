// perf_apps' Halide side: the apps of app_list.inc built against Halide 14.
// Each generator header is included inside a namespace where `loom::` names
// are Halide's, so its `loom::` names and its Generator base are Halide's; the
// headers skip their own #include "Loom.h" under LOOM_APP_HALIDE_SIDE.

#include <memory>
#include <type_traits>

#include <Halide.h>

#include "bench_side.h"

namespace loom_apps_bench {
namespace {
namespace L = Halide;

/** Halide 14 keeps a generator's build_pipeline() and context set-up
 * protected (its own tools reach them); this subclass opens them. */
template <class G> class OpenGenerator : public G {
public:
    explicit OpenGenerator(const Halide::GeneratorContext &context) {
        this->init_from_context(context);
    }
    Halide::Pipeline build() { return this->build_pipeline(); }
};

template <class G> struct Built {
    std::unique_ptr<OpenGenerator<G>> generator;
    Halide::Pipeline pipeline;
};

template <class G> Built<G> build_generator() {
    Built<G> b;
    b.generator = std::make_unique<OpenGenerator<G>>(
        Halide::GeneratorContext(Halide::get_jit_target_from_environment()));
    b.pipeline = b.generator->build();
    return b;
}

/** A Halide 14 scalar Input has no setter: its Parameter is protected. */
struct InputParameters : Halide::Internal::GeneratorInputBase {
    static Halide::Internal::Parameter &of(Halide::Internal::GeneratorInputBase &input) {
        return (input.*(&InputParameters::parameters_)).at(0);
    }
};

template <typename In, typename B> void set_buffer(In &input, const B &buffer) {
    Halide::ImageParam(input).set(buffer);
}
template <typename In, typename T> void set_scalar(In &input, T value) {
    InputParameters::of(input).set_scalar(value);
}
void jit_compile(Halide::Pipeline &p) {
    p.compile_jit(Halide::get_jit_target_from_environment());
}
template <typename B> void realize(Halide::Pipeline &p, B &output) {
    p.realize(output, Halide::get_jit_target_from_environment());
}

// The generators, with `loom::` names meaning Halide's.
namespace loom {
using namespace Halide;
namespace BoundaryConditions {
using namespace Halide::BoundaryConditions;
/** Loom names the bounds of a boundary condition BoundaryConditions::Region;
 * Halide 14 takes Halide::Region, the same {min, extent} per dimension. */
using Region = Halide::Region;
} // namespace BoundaryConditions
} // namespace loom
/** Halide 14 has no using_autoscheduler(); these runs always use the
 * generators' own schedules. */
inline bool using_autoscheduler() {
    return false;
}

#define LOOM_APP_HALIDE_SIDE 1
#include "side_apps.inc"

} // namespace

Side halide_side() {
    return {Halide::get_jit_target_from_environment().to_string(), side_apps()};
}

} // namespace loom_apps_bench
