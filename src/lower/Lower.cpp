#include "lower/Lower.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>

#include "analysis/CSE.h"
#include "analysis/Simplify.h"
#include "frontend/TargetFeatures.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"
#include "ir/StackGuard.h"
#include "lower/AddImageChecks.h"
#include "lower/BoundsInference.h"
#include "lower/CanonicalGPUNames.h"
#include "lower/CheckVectorExtents.h"
#include "lower/EmbedDeviceSource.h"
#include "lower/EmulateFloat16Math.h"
#include "lower/FindEnvironment.h"
#include "lower/FuseGPUThreadLoops.h"
#include "lower/GroupInvariantIndexTerms.h"
#include "lower/InferArguments.h"
#include "lower/InjectDeviceBuffers.h"
#include "lower/InjectEarlyFrees.h"
#include "lower/InjectHostDeviceCopies.h"
#include "lower/InjectTracing.h"
#include "lower/InlineFunctions.h"
#include "lower/LowerTargetQueries.h"
#include "lower/LowerUtil.h"
#include "lower/LowerWarpShuffles.h"
#include "lower/OutlineGPUKernels.h"
#include "lower/PartitionLoops.h"
#include "lower/PrefetchStridedLoads.h"
#include "lower/RemoveDeadLets.h"
#include "lower/ScheduleFunctions.h"
#include "lower/SelectGPUAPI.h"
#include "lower/SlidingWindow.h"
#include "lower/SplitFactorChecks.h"
#include "lower/StorageFlattening.h"
#include "lower/StorageFolding.h"
#include "lower/StreamingStores.h"
#include "lower/UnpackBuffers.h"
#include "lower/UnrollLoops.h"
#include "lower/ValidateGPULoops.h"
#include "lower/VectorizeLoops.h"

namespace loom {
namespace Internal {

namespace {

/** With LOOM_DEBUG >= 1, how long each pass took (one line per lowering);
 * with LOOM_DEBUG >= 2 also the IR after each pass. */
struct PassLog {
    bool timing = debug_level() >= 1;
    std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
    std::string report;

    void operator()(const char *pass, const Stmt &s) {
        if (timing) {
            auto now = std::chrono::steady_clock::now();
            char text[96];
            std::snprintf(text, sizeof(text), " %s %.2f ms", pass,
                          std::chrono::duration<double, std::milli>(now - last).count());
            report += text;
            last = now;
        }
        if (debug_level() >= 2 && s.defined())
            std::cerr << "Lowering after " << pass << ":\n" << s << "\n";
    }
    void print(const std::string &name) const {
        if (timing) std::cerr << "loom: lower " << name << ":" << report << "\n";
    }
};

void log_kernels(const char *pass, const std::vector<DeviceKernel> &kernels) {
    if (debug_level() < 2) return;
    for (const auto &k : kernels)
        std::cerr << "Kernel " << k.name << " after " << pass << ":\n" << k.body << "\n";
}

} // namespace

namespace {

/** Device code indexes with 32-bit offsets: large_buffers' 64-bit flat
 * indices are not carried into the OpenCL and CUDA printers. */
void check_no_gpu_loops_with_large_buffers(const Stmt &s, const std::string &pipeline,
                                           const Target &target) {
    if (!target.has_feature(Target::LargeBuffers)) return;
    std::string gpu_loop;
    visit_all(s, [&](const IRNode *n) {
        if (!gpu_loop.empty() || n->node_type != IRNodeType::For) return;
        const auto *loop = static_cast<const For *>(n);
        if (loop->for_type == ForType::GPUBlock || loop->for_type == ForType::GPUThread ||
            loop->for_type == ForType::GPULane)
            gpu_loop = loop->name;
    });
    if (!gpu_loop.empty())
        user_error("Pipeline " << pipeline << " has the GPU loop " << gpu_loop
                               << ", but the target has the large_buffers feature, which GPU "
                                  "kernels do not support: remove large_buffers from the target, "
                                  "or schedule the pipeline on the CPU");
}

LoweredFunc lower_on_this_stack(const std::vector<Function> &outputs, const std::string &name,
                                const Target &target, const std::vector<Argument> &listed,
                                const std::string &pipeline_name) {
    check_can_generate_code(target, "pipeline " + name);
    PassLog log_pass;
    Environment env = find_environment(outputs);
    std::vector<std::string> realization = realization_order(outputs, env);
    log_pass("find_environment, realization_order", Stmt());

    Stmt s = schedule_functions(outputs, realization, env);
    log_pass("schedule_functions", s);

    s = validate_gpu_loops(s, target);
    log_pass("validate_gpu_loops", s);
    check_no_gpu_loops_with_large_buffers(s, name, target);

    s = select_gpu_api(s, target);
    log_pass("select_gpu_api", s);

    s = inline_functions(s, outputs);
    log_pass("inline_functions", s);

    s = lower_target_queries(s, target);
    log_pass("lower_target_queries", s);

    s = bounds_inference(s, outputs, realization, env);
    log_pass("bounds_inference", s);

    // After bounds inference, while Funcs are multi-dimensional, as in
    // Halide: events name the Func and carry its coordinates and bounds.
    s = inject_tracing(s, pipeline_name.empty() ? name : pipeline_name, outputs, env, target);
    log_pass("inject_tracing", s);

    s = check_vector_extents(s);
    log_pass("check_vector_extents", s);

    s = sliding_window(s, env);
    log_pass("sliding_window", s);

    s = storage_folding(s, env);
    log_pass("storage_folding", s);

    std::vector<LoweredArgument> args = infer_arguments(s, outputs, listed);
    log_pass("infer_arguments", s);

    s = storage_flattening(s, outputs, env, target);
    log_pass("storage_flattening", s);

    s = partition_loops(s);
    log_pass("partition_loops", s);

    s = unroll_loops(s);
    log_pass("unroll_loops", s);

    s = vectorize_loops(s);
    log_pass("vectorize_loops", s);

    s = emulate_float16_math(s);
    log_pass("emulate_float16_math", s);

    s = unpack_buffers(s, args);
    log_pass("unpack_buffers", s);

    s = add_image_checks(s, args, outputs, image_readers(realization, env), target,
                         split_factor_checks(outputs, env, args));
    log_pass("add_image_checks", s);

    s = simplify(s);
    log_pass("simplify", s);

    // After unrolling (register indices are constants), before the
    // expressions are shared by CSE and the thread loops fused.
    s = lower_warp_shuffles(s);
    log_pass("lower_warp_shuffles", s);

    s = group_invariant_index_terms(s);
    log_pass("group_invariant_index_terms", s);

    s = common_subexpression_elimination(s);
    log_pass("common_subexpression_elimination", s);

    s = remove_dead_lets(s);
    log_pass("remove_dead_lets", s);

    // Device lowering: kernels leave the host code here, so the host-only
    // passes below never see device code.
    std::vector<DeviceKernel> kernels;
    Stmt conceptual_body = s;
    s = canonical_gpu_names(s);
    log_pass("canonical_gpu_names", s);

    s = fuse_gpu_thread_loops(s);
    log_pass("fuse_gpu_thread_loops", s);

    s = outline_gpu_kernels(s, kernels);
    log_pass("outline_gpu_kernels", s);
    log_kernels("outline_gpu_kernels", kernels);

    s = inject_device_buffers(s, kernels);
    log_pass("inject_device_buffers", s);

    s = inject_host_device_copies(s, kernels);
    log_pass("inject_host_device_copies", s);

    s = streaming_stores(s, args, target);
    log_pass("streaming_stores", s);

    s = prefetch_strided_loads(s, target);
    log_pass("prefetch_strided_loads", s);

    s = bind_host_pointers(s, args);
    log_pass("bind_host_pointers", s);

    s = inject_early_frees(s);
    log_pass("inject_early_frees", s);

    // Listed arguments the pipeline never reads: no checks, no unpacking.
    std::map<DeviceAPI, std::string> device_sources;
    s = embed_device_source(s, kernels, target, device_sources);
    log_pass("embed_device_source", s);
    log_pass.print(name);
    return LoweredFunc{
        name, add_unread_arguments(args, listed), s, {}, kernels, device_sources, conceptual_body};
}

} // namespace

LoweredFunc lower(const std::vector<Function> &outputs, const std::string &name,
                  const Target &target, const std::vector<Argument> &listed,
                  const std::string &pipeline_name) {
    // Deep pipelines recurse deeply in every pass; the retargeting flag is
    // thread-local, so it is carried over to the deep-stack thread.
    bool as_cuda = opencl_lowered_as_cuda();
    LoweredFunc result;
    run_on_deep_stack([&] {
        std::optional<ScopedOpenCLAsCUDA> retarget;
        if (as_cuda) retarget.emplace();
        result = lower_on_this_stack(outputs, name, target, listed, pipeline_name);
    });
    return result;
}

} // namespace Internal
} // namespace loom
