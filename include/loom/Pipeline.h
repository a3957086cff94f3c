#ifndef LOOM_PIPELINE_H
#define LOOM_PIPELINE_H

/** \file Pipeline: one or more output Funcs compiled and run together. */

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "loom/Argument.h"
#include "loom/AutoSchedule.h"
#include "loom/Buffer.h"
#include "loom/Callable.h"
#include "loom/Function.h"
#include "loom/JITHandlers.h"
#include "loom/Module.h"
#include "loom/OutputFileType.h"
#include "loom/Realization.h"
#include "loom/Target.h"

namespace loom {

class Func;

/** The format of compile_to_lowered_stmt. */
enum StmtOutputFormat { Text, HTML };

class Pipeline;

namespace Internal {
struct PipelineContents;
/** target, with the trace_pipeline feature added where p.trace_pipeline()
 * was called (every compile of p lowers for this target). */
Target pipeline_target(const Pipeline &p, const Target &target);
} // namespace Internal

class Pipeline {
    std::shared_ptr<Internal::PipelineContents> contents;
    friend Target Internal::pipeline_target(const Pipeline &, const Target &);

public:
    Pipeline() = default;
    Pipeline(const Func &output);
    Pipeline(const std::vector<Func> &outputs);

    bool defined() const { return contents != nullptr; }
    std::vector<Func> outputs() const;

    /** Allocate outputs of the given sizes (mins at zero), run, return them.
     * A default Target() means get_jit_target_from_environment(). */
    Realization realize(std::vector<int> sizes = {},
                        const Target &target = get_jit_target_from_environment());
    /** Run over the given outputs (their mins and extents define the domain). */
    void realize(Realization outputs, const Target &target = get_jit_target_from_environment());
    /** As above, with per-call handlers (JITHandlers.h). */
    Realization realize(JITUserContext *context, std::vector<int> sizes = {},
                        const Target &target = get_jit_target_from_environment());
    void realize(JITUserContext *context, Realization outputs,
                 const Target &target = get_jit_target_from_environment());

    /** Schedule every Func the user has not scheduled with the named
     * auto-scheduler ("Loom", the built-in heuristic one, by default) and
     * return what it chose. Sizes come from set_estimate(s) on the outputs;
     * where an output has none, the choice waits for the first realize of
     * this Pipeline, which uses the real output sizes (results then has no
     * output_sizes; autoscheduler_results() gives the final ones). */
    AutoSchedulerResults
    apply_autoscheduler(const Target &target = get_target_from_environment(),
                        const AutoschedulerParams &params = AutoschedulerParams("Loom"));
    /** As apply_autoscheduler, for outputs of these sizes (one list per
     * output dimension, as realize takes them). */
    AutoSchedulerResults
    apply_autoscheduler(const std::vector<int> &output_sizes, const Target &target,
                        const AutoschedulerParams &params = AutoschedulerParams("Loom"));
    /** Halide 14's forms. */
    AutoSchedulerResults auto_schedule(const std::string &autoscheduler_name, const Target &target,
                                       const MachineParams &machine = MachineParams::generic());
    AutoSchedulerResults auto_schedule(const Target &target,
                                       const MachineParams &machine = MachineParams::generic());
    /** The results of the last apply_autoscheduler, completed by the first
     * realize when the choice waited for it. */
    const AutoSchedulerResults &autoscheduler_results() const;
    /** Register an auto-scheduler under a name, and choose the default one. */
    static void add_autoscheduler(const std::string &name, const AutoSchedulerFn &autoscheduler);
    static void set_default_autoscheduler_name(const std::string &name);
    static std::string get_default_autoscheduler_name();

    /** Compile for the JIT now (realize does so on first use). The compiled
     * code is kept and reused until the target, a definition or schedule
     * of a Func, or a constraint of a Param or ImageParam changes. */
    void compile_jit(const Target &target = get_jit_target_from_environment());
    /** Drop the compiled code, so that the next realize compiles again. */
    void invalidate_cache();

    /** Emit begin_pipeline and end_pipeline trace events around every run
     * of this Pipeline (JIT and ahead-of-time code), as the target feature
     * trace_pipeline does for every pipeline; compiled code compiles again. */
    void trace_pipeline();

    /** Find the region of each ImageParam with no Buffer bound that
     * realizing over outputs of these sizes (or over these output buffers)
     * reads, honouring the constraints set with dim(i).set_min/set_extent/
     * set_bounds, and bind each such ImageParam to a new zeroed Buffer of
     * that region (ImageParam::get() returns it). Nothing is computed. */
    void infer_input_bounds(const std::vector<int> &sizes,
                            const Target &target = get_jit_target_from_environment());
    void infer_input_bounds(Realization outputs,
                            const Target &target = get_jit_target_from_environment());
    void infer_input_bounds(JITUserContext *context, const std::vector<int> &sizes,
                            const Target &target = get_jit_target_from_environment());
    void infer_input_bounds(JITUserContext *context, Realization outputs,
                            const Target &target = get_jit_target_from_environment());

    /** The ImageParams and Params the pipeline reads: buffers first, then
     * scalars, each group by name (concrete Buffers it reads are not
     * arguments: compiled code embeds them). */
    std::vector<Argument> infer_arguments();

    /** Compile once for a fixed argument list: the Callable takes these
     * arguments, in order, then the output buffers (see Callable.h). */
    Callable compile_to_callable(const std::vector<Argument> &args,
                                 const Target &target = get_jit_target_from_environment());

    /** Handlers every JIT call of this pipeline uses, unless the call's
     * JITUserContext names its own. */
    JITHandlers &jit_handlers();
    /** Shorthands for jit_handlers().custom_error and .custom_print. */
    void set_error_handler(void (*handler)(JITUserContext *, const char *));
    void set_custom_print(void (*handler)(JITUserContext *, const char *));
    /** Shorthands for jit_handlers().custom_malloc/custom_free,
     * .custom_do_task, .custom_do_par_for and .custom_trace. */
    void set_custom_allocator(void *(*malloc_fn)(JITUserContext *, size_t),
                              void (*free_fn)(JITUserContext *, void *));
    void set_custom_do_task(int (*do_task)(JITUserContext *,
                                           int (*)(JITUserContext *, int, uint8_t *), int,
                                           uint8_t *));
    void set_custom_do_par_for(int (*do_par_for)(JITUserContext *,
                                                 int (*)(JITUserContext *, int, uint8_t *), int,
                                                 int, uint8_t *));
    void set_custom_trace(int32_t (*trace)(JITUserContext *, const loom_trace_event_t *));

    /** Write the lowered loop IR as text or HTML. */
    void compile_to_lowered_stmt(const std::string &filename,
                                 const std::vector<Argument> &args = {},
                                 StmtOutputFormat format = StmtOutputFormat::Text,
                                 const Target &target = get_target_from_environment());
    /** Write the lowered statement before device and host lowering: GPU
     * loops still in place, before kernels are outlined and host<->device
     * copies are added (Halide's conceptual statement), as text or HTML. */
    void compile_to_conceptual_stmt(const std::string &filename,
                                    const std::vector<Argument> &args = {},
                                    StmtOutputFormat format = StmtOutputFormat::Text,
                                    const Target &target = get_target_from_environment());
    /** Write the device source of every GPU kernel of the pipeline (OpenCL C
     * for an opencl target): what the runtime compiles, as text. */
    void compile_to_device_source(const std::string &filename,
                                  const std::vector<Argument> &args = {},
                                  const Target &target = get_target_from_environment());
    /** The same device source, returned as a string. */
    std::string device_source(const std::vector<Argument> &args = {},
                              const Target &target = get_target_from_environment());
    /** Write the optimized LLVM IR of the pipeline with entry point fn_name. */
    void compile_to_llvm_assembly(const std::string &filename,
                                  const std::vector<Argument> &args = {},
                                  const std::string &fn_name = "",
                                  const Target &target = get_target_from_environment());
    void compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                  const Target &target) {
        compile_to_llvm_assembly(filename, args, "", target);
    }

    // ---- Ahead-of-time outputs (implemented in src/frontend/PipelineAOT.cpp).
    // fn_name defaults to the name of the first output Func; args give the
    // order of the entry point's arguments (Params, ImageParams); outputs
    // follow them.

    /** Write filename_prefix.a (object with the runtime-free code) and
     * filename_prefix.h. */
    void compile_to_static_library(const std::string &filename_prefix,
                                   const std::vector<Argument> &args,
                                   const std::string &fn_name = "",
                                   const Target &target = get_target_from_environment());
    /** Write one object file (ELF for Linux targets). */
    void compile_to_object(const std::string &filename, const std::vector<Argument> &args,
                           const std::string &fn_name = "",
                           const Target &target = get_target_from_environment());
    void compile_to_object(const std::string &filename, const std::vector<Argument> &args,
                           const Target &target) {
        compile_to_object(filename, args, "", target);
    }
    /** Write the C header declaring the entry points. */
    void compile_to_header(const std::string &filename, const std::vector<Argument> &args,
                           const std::string &fn_name = "",
                           const Target &target = get_target_from_environment());
    /** Write the target's assembly. */
    void compile_to_assembly(const std::string &filename, const std::vector<Argument> &args,
                             const std::string &fn_name = "",
                             const Target &target = get_target_from_environment());
    void compile_to_assembly(const std::string &filename, const std::vector<Argument> &args,
                             const Target &target) {
        compile_to_assembly(filename, args, "", target);
    }
    /** Write the optimized LLVM module of the entry point as LLVM bitcode
     * (what compile_to_object would turn into machine code). */
    void compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args,
                            const std::string &fn_name = "",
                            const Target &target = get_target_from_environment());
    void compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args,
                            const Target &target) {
        compile_to_bitcode(filename, args, "", target);
    }
    /** Lower the pipeline once into the entry point fn_name (default: the
     * first output's name) for target: the Module writes any of
     * compile_to's outputs from that lowering (Module::compile). */
    Module compile_to_module(const std::vector<Argument> &args, const std::string &fn_name = "",
                             const Target &target = get_target_from_environment());
    /** Write several outputs from one lowering: each entry names a kind of
     * file and its file name (see OutputFileType for the kinds Loom
     * writes; the others are a CompileError). */
    void compile_to(const std::map<OutputFileType, std::string> &output_files,
                    const std::vector<Argument> &args, const std::string &fn_name,
                    const Target &target = get_target_from_environment());
    /** One static library (filename_prefix.a) and header holding the
     * pipeline compiled for every target in targets, with an entry point
     * that picks, at its first call, the first target whose x86 extensions
     * the running CPU has; the last target is the fallback and every target
     * must name the same architecture, bit width and OS. */
    void compile_to_multitarget_static_library(const std::string &filename_prefix,
                                               const std::vector<Argument> &args,
                                               const std::vector<Target> &targets);
    /** As compile_to_multitarget_static_library, as separate object files:
     * filename_prefix-<suffix>.o per target (the suffixes default to the
     * target strings), filename_prefix_wrapper.o with the dispatching entry
     * points, and filename_prefix.h. */
    void compile_to_multitarget_object_files(const std::string &filename_prefix,
                                             const std::vector<Argument> &args,
                                             const std::vector<Target> &targets,
                                             const std::vector<std::string> &suffixes = {});
    /** Write portable C source with the same entry points as the object. */
    void compile_to_c(const std::string &filename, const std::vector<Argument> &args,
                      const std::string &fn_name = "",
                      const Target &target = get_target_from_environment());
    /** Write filename_prefix.o and filename_prefix.h. */
    void compile_to_file(const std::string &filename_prefix, const std::vector<Argument> &args,
                         const std::string &fn_name = "",
                         const Target &target = get_target_from_environment());

    /** Print the loop nest the schedule produces to stdout. */
    void print_loop_nest();
    /** The loop nest as text. */
    std::string loop_nest() const;
};

} // namespace loom

#endif
