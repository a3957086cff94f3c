// perf_apps' Halide side: the apps of app_list.inc built against Halide 14.
// Each generator header is included inside a namespace where `loom::` names
// are Halide's, so its `loom::` names and its Generator base are Halide's; the
// headers skip their own #include "Loom.h" under LOOM_APP_HALIDE_SIDE.

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <set>
#include <type_traits>

#include <Halide.h>
#include <cpuid.h>

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

/** Does the CPU run AVX512-FP16 (CPUID leaf 7, EDX bit 23)? */
bool cpu_has_avx512_fp16() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (d & (1u << 23)) != 0;
}

/** Halide 14's JIT target. Its host detection takes AMD Zen 4 (AVX-512 with
 * BF16 and VNNI) for Sapphire Rapids, whose code uses AVX512-FP16 (vmovw)
 * that Zen 4 lacks: camera_pipe died of SIGILL. Unless HL_JIT_TARGET names
 * the target, that feature goes where the CPU has no FP16. */
Halide::Target halide_jit_target() {
    static const Halide::Target target = [] {
        Halide::Target t = Halide::get_jit_target_from_environment();
        if (!std::getenv("HL_JIT_TARGET") && t.has_feature(Halide::Target::AVX512_SapphireRapids) &&
            !cpu_has_avx512_fp16())
            t = t.without_feature(Halide::Target::AVX512_SapphireRapids);
        return t;
    }();
    return target;
}

template <class G> struct Built {
    std::unique_ptr<OpenGenerator<G>> generator;
    Halide::Pipeline pipeline;
    double choose_ms = 0;
};

/** What the generators' using_autoscheduler() answers while one is built:
 * Halide 14's generators have no such member, so the one they call is the
 * free function below. */
bool building_for_autoscheduler = false;

/** Halide 14 ships its auto-schedulers as plugins that register themselves
 * by name when loaded; loaded once each, from LOOM_HALIDE_PLUGIN_DIR (the
 * environment's, else the one found at configure time). */
void load_autoscheduler_plugin(const std::string &name) {
    static std::set<std::string> loaded;
    if (loaded.count(name)) return;
    std::string file;
    for (char c : name) file += char(std::tolower(static_cast<unsigned char>(c)));
    const char *dir = std::getenv("LOOM_HALIDE_PLUGIN_DIR");
    Halide::load_plugin(std::string(dir ? dir : LOOM_HALIDE_PLUGIN_DIR) + "/libautoschedule_" +
                        file + ".so");
    loaded.insert(name);
}

/** A Halide 14 build_pipeline() leaves auto-scheduling to its tools (they
 * call Pipeline::auto_schedule when the context asks for it), so it is
 * called here, timed, with the same machine description the context
 * carries. */
template <class G> Built<G> build_generator(const std::string &autoscheduler) {
    const Halide::Target target = halide_jit_target();
    const Halide::MachineParams machine = Halide::MachineParams::generic();
    Built<G> b;
    b.generator = std::make_unique<OpenGenerator<G>>(
        Halide::GeneratorContext(target, !autoscheduler.empty(), machine));
    building_for_autoscheduler = !autoscheduler.empty();
    try {
        b.pipeline = b.generator->build();
    } catch (...) {
        building_for_autoscheduler = false;
        throw;
    }
    building_for_autoscheduler = false;
    if (!autoscheduler.empty()) {
        load_autoscheduler_plugin(autoscheduler);
        auto t0 = std::chrono::steady_clock::now();
        b.pipeline.auto_schedule(autoscheduler, target, machine);
        b.choose_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
    }
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
    // LOOM_HALIDE_ASM=file writes the assembly Halide makes (for comparing
    // its inner loops with Loom's -e assembly); run one app at a time.
    if (const char *asm_file = std::getenv("LOOM_HALIDE_ASM"))
        p.compile_to_assembly(asm_file, p.infer_arguments(), "halide_side", halide_jit_target());
    p.compile_jit(halide_jit_target());
}
template <typename B> void realize(Halide::Pipeline &p, B &output) {
    p.realize(output, halide_jit_target());
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
/** Halide 14 has no using_autoscheduler(); this one says whether the
 * generator being built is for an auto-scheduler. */
inline bool using_autoscheduler() {
    return building_for_autoscheduler;
}

#define LOOM_APP_HALIDE_SIDE 1
/** Halide has no empirical tuner of this kind: the tuned row is Loom's alone. */
template <class G, typename B> void tune_if_asked(Built<G> &, B &, const std::string &) {}

#include "side_apps.inc"

} // namespace

Side halide_side() {
    return {halide_jit_target().to_string(), side_apps(), {"Mullapudi2016", "Adams2019"}};
}

} // namespace loom_apps_bench
