// perf_apps' Loom side: the apps of app_list.inc built against Loom.

#include <memory>
#include <type_traits>

#include "Loom.h"
#include "bench_side.h"

namespace loom_apps_bench {
namespace {
namespace L = loom;

template <class G> struct Built {
    std::unique_ptr<G> generator;
    loom::Pipeline pipeline;
    double choose_ms = 0;
};

/** The generator param "autoscheduler" makes schedule() step aside and
 * build_pipeline() run that auto-scheduler on the outputs' estimates; the
 * pipeline records the time it took. */
template <class G> Built<G> build_generator(const std::string &autoscheduler) {
    Built<G> b;
    b.generator = std::make_unique<G>();
    if (!autoscheduler.empty()) b.generator->set_generator_param("autoscheduler", autoscheduler);
    b.pipeline = b.generator->build_pipeline();
    if (!autoscheduler.empty()) b.choose_ms = b.pipeline.autoscheduler_results().seconds * 1000;
    return b;
}

template <typename In, typename B> void set_buffer(In &input, const B &buffer) {
    input.set(buffer);
}
template <typename In, typename T> void set_scalar(In &input, T value) {
    input.set(value);
}
void jit_compile(loom::Pipeline &p) {
    p.compile_jit();
}
template <typename B> void realize(loom::Pipeline &p, B &output) {
    p.realize(loom::Realization({output}));
}

#include "side_apps.inc"

} // namespace

Side loom_side() {
    return {loom::get_jit_target_from_environment().to_string(), side_apps(), {"Loom"}};
}

} // namespace loom_apps_bench
