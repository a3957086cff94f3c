// Pipeline: lowers its outputs, JIT-compiles them once per definition
// version and target, and runs the compiled code over user buffers.

#include "loom/Pipeline.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <climits>
#include <fstream>
#include <iostream>
#include <mutex>

#include "autoschedule/AutoScheduler.h"
#include "autoschedule/HeuristicScheduler.h"
#include "frontend/CallableContents.h"
#include "frontend/DeviceLimits.h"
#include "frontend/JITCall.h"
#include "frontend/JITStats.h"
#include "frontend/LoweredText.h"
#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"
#include "ir/StackGuard.h"
#include "jit/JITModule.h"
#include "loom/Func.h"
#include "lower/CUDACompileCheck.h"
#include "lower/EmbedDeviceSource.h"
#include "lower/Lower.h"
#include "lower/PrintLoopNest.h"
#include "lower/WrapCalls.h"

namespace loom {
namespace Internal {

namespace {
std::atomic<uint64_t> jit_compilations{0};
}

uint64_t pipeline_jit_compilations() {
    return jit_compilations.load();
}

/** What a compiled module was built from: every Function the outputs
 * reach with its version, and the range and shape constraints of every
 * Parameter they use (the generated checks depend on them). */
struct DefinitionStamp {
    std::vector<std::pair<Function, uint64_t>> funcs;
    std::vector<Parameter> params;
    std::vector<const void *> constraints;
};

/** One compile of a Pipeline. Immutable once made: a realize holds it
 * while it runs, so a recompile from another thread never pulls the code
 * out from under a running call. */
struct CompiledPipeline {
    std::string name;
    Target target;
    DefinitionStamp stamp;
    LoweredFunc lowered;
    JITModule module;
};

struct PipelineContents {
    std::vector<Function> outputs;
    JITHandlers handlers;

    /** Guards everything below: several threads may realize one Pipeline
     * (or one Func) at once, and the first of them compiles. Recursive, so
     * that an auto-scheduler run at the first realize may use the Pipeline. */
    std::recursive_mutex mutex;
    std::string name;
    std::shared_ptr<const CompiledPipeline> compiled;

    /** apply_autoscheduler with no sizes known: run it at the first realize. */
    bool autoschedule_pending = false;
    AutoSchedulerResults autoschedule_results;

    /** Pipeline::trace_pipeline: compile with the trace_pipeline feature. */
    bool trace_pipeline = false;
};

Target pipeline_target(const Pipeline &p, const Target &target) {
    if (p.contents && p.contents->trace_pipeline) return target.with_feature(Target::TracePipeline);
    return target;
}

namespace {

std::string entry_name(const std::vector<Function> &outputs) {
    static std::atomic<int> counter{0};
    std::string s = "loom_jit_";
    for (char c : outputs[0].name()) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return s + "_" + std::to_string(counter++);
}

void add_param(const Parameter &p, DefinitionStamp &stamp) {
    for (const auto &q : stamp.params)
        if (q.same_as(p)) return;
    stamp.params.push_back(p);
}

void add_reachable(const Function &f, DefinitionStamp &stamp) {
    for (const auto &s : stamp.funcs)
        if (s.first.same_as(f)) return;
    stamp.funcs.emplace_back(f, f.version());
    auto visit = [&](const Expr &e) {
        if (!e.defined()) return;
        std::vector<Function> called;
        visit_all(e, [&](const IRNode *n) {
            if (n->node_type == IRNodeType::Variable) {
                const auto *v = static_cast<const Variable *>(n);
                if (v->param.defined()) add_param(v->param, stamp);
            } else if (n->node_type == IRNodeType::Call) {
                const auto *c = static_cast<const Call *>(n);
                if (c->call_type == Call::Loom && c->func.defined()) called.push_back(c->func);
                if (c->param.defined()) add_param(c->param, stamp);
            }
        });
        for (const auto &g : called) add_reachable(g, stamp);
    };
    auto visit_definition = [&](const Definition &d) {
        for (const auto &e : d.values) visit(e);
        for (const auto &e : d.args) visit(e);
    };
    visit_definition(f.definition());
    for (const auto &u : f.updates()) visit_definition(u);
}

DefinitionStamp stamp_of(const std::vector<Function> &outputs) {
    wrap_calls(outputs); // calls to wrappers, as compiling them would find them
    DefinitionStamp stamp;
    for (const auto &f : outputs) {
        add_reachable(f, stamp);
        for (const auto &p : f.output_buffers()) add_param(p, stamp);
    }
    // Exprs are immutable, so node identity tells whether a constraint changed.
    for (const auto &p : stamp.params) {
        stamp.constraints.push_back(p.min_value().get());
        stamp.constraints.push_back(p.max_value().get());
        for (int d = 0; d < p.dimensions(); d++) {
            const BufferConstraint &c = p.constraint(d);
            stamp.constraints.push_back(c.min.get());
            stamp.constraints.push_back(c.extent.get());
            stamp.constraints.push_back(c.stride.get());
        }
        // ImageParam::trace_loads changes the code too (a marker, not a pointer
        // to read).
        stamp.constraints.push_back(p.is_tracing_loads() ? p.get() : nullptr);
    }
    return stamp;
}

bool same_stamp(const DefinitionStamp &a, const DefinitionStamp &b) {
    if (a.funcs.size() != b.funcs.size() || a.params.size() != b.params.size() ||
        a.constraints != b.constraints)
        return false;
    for (size_t i = 0; i < a.funcs.size(); i++)
        if (!a.funcs[i].first.same_as(b.funcs[i].first) || a.funcs[i].second != b.funcs[i].second)
            return false;
    for (size_t i = 0; i < a.params.size(); i++)
        if (!a.params[i].same_as(b.params[i])) return false;
    return true;
}

void require_defined(const std::vector<Function> &outputs) {
    if (outputs.empty()) user_error("A Pipeline needs at least one output Func");
    for (const auto &f : outputs)
        if (!f.has_pure_definition())
            user_error("Func " << f.name() << " is realized but has no definition");
}

void write_file(const std::string &filename, const std::string &text) {
    std::ofstream out(filename);
    if (!out) user_error("Cannot open " << filename << " for writing");
    out << text;
    if (!out) user_error("Failed writing " << filename);
}

std::string plural(int n, const char *word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

/** The output buffers in argument order: one per tuple element of each output. */
struct OutputSlot {
    Function func;
    int value_index;
};

std::vector<OutputSlot> output_slots(const std::vector<Function> &outputs) {
    std::vector<OutputSlot> slots;
    for (const auto &f : outputs)
        for (int v = 0; v < f.outputs(); v++) slots.push_back({f, v});
    return slots;
}

void check_output_buffers(const std::vector<Function> &outputs, const Realization &dst) {
    auto slots = output_slots(outputs);
    if (dst.size() != slots.size())
        throw RuntimeError("The pipeline producing " + outputs[0].name() + " has " +
                           plural(int(slots.size()), "output") + " but realize was given " +
                           plural(int(dst.size()), "buffer"));
    for (size_t i = 0; i < slots.size(); i++) {
        const Buffer<> &b = dst[i];
        const Function &f = slots[i].func;
        if (!b.defined())
            throw RuntimeError("The output buffer for Func " + f.name() + " is undefined");
        Type t = f.output_types()[size_t(slots[i].value_index)];
        if (b.type() != t)
            throw RuntimeError("Output buffer " + b.name() + " has type " +
                               type_to_string(b.type()) + " but Func " + f.name() + " produces " +
                               type_to_string(t));
        if (b.dimensions() != f.dimensions())
            throw RuntimeError("Output buffer " + b.name() + " has " +
                               plural(b.dimensions(), "dimension") + " but Func " + f.name() +
                               " has " + plural(f.dimensions(), "dimension"));
        for (int d = 0; d < b.dimensions(); d++) {
            int64_t min = b.dim(d).min(), extent = b.dim(d).extent();
            std::string where = "Output buffer " + b.name() + " of Func " + f.name() + " has min " +
                                std::to_string(min) + " and extent " + std::to_string(extent) +
                                " in dimension " + std::to_string(d);
            if (extent < 0) throw RuntimeError(where + "; an extent must be at least 0");
            if (min + extent - 1 > INT_MAX)
                throw RuntimeError(where + ", which reaches past the largest coordinate " +
                                   std::to_string(INT_MAX));
        }
        // The values of one Tuple Func are written together, point by point.
        for (size_t j = 0; j < i; j++) {
            if (!slots[j].func.same_as(f)) continue;
            const Buffer<> &first = dst[j];
            for (int d = 0; d < b.dimensions(); d++) {
                if (first.dim(d).min() == b.dim(d).min() &&
                    first.dim(d).extent() == b.dim(d).extent())
                    continue;
                auto range = [&](const Buffer<> &x) {
                    return std::to_string(x.dim(d).min()) + " to " +
                           std::to_string(x.dim(d).min() + x.dim(d).extent() - 1);
                };
                throw RuntimeError("The output buffers of Tuple Func " + f.name() +
                                   " differ in size: " + first.name() + " covers " + range(first) +
                                   " in dimension " + std::to_string(d) + " but " + b.name() +
                                   " covers " + range(b) +
                                   "; the buffers of one Func's values must have the same shape");
            }
        }
    }
}

/** The compiled code of c for this target, compiled now unless the last
 * compile still fits the definitions. The caller holds c.mutex. */
std::shared_ptr<const CompiledPipeline> compiled_for(PipelineContents &c, const Target &requested) {
    require_defined(c.outputs);
    Target target = resolve_jit_target(requested, c.outputs[0].name());
    if (c.trace_pipeline) target = target.with_feature(Target::TracePipeline);
    // Walking, lowering and compiling a deep pipeline recurse as deep as its
    // expressions and stages: the stamp (taken at every realize) moves to a
    // deep stack only when it must, a compile always does.
    DefinitionStamp stamp;
    run_retrying_on_deep_stack([&] { stamp = stamp_of(c.outputs); });
    if (c.compiled && c.compiled->target == target && same_stamp(stamp, c.compiled->stamp))
        return c.compiled;
    c.compiled = nullptr;
    if (c.name.empty()) c.name = entry_name(c.outputs);
    auto made = std::make_shared<CompiledPipeline>();
    made->name = c.name;
    run_on_deep_stack([&] {
        made->lowered = lower(c.outputs, c.name, target, {}, c.outputs[0].name());
        also_compile_cuda_for_test(c.outputs, c.name, target, made->lowered);
        check_kernels_fit_device(made->lowered);
        made->module = JITModule::compile(made->lowered, target);
    });
    jit_compilations++;
    made->target = target;
    made->stamp = std::move(stamp);
    c.compiled = made;
    return made;
}

} // namespace

namespace {
/** `body` as the text of f's entry point: func NAME(args) { ... }. */
std::string stmt_text(const LoweredFunc &f, const Stmt &body) {
    std::string header = "func " + f.name + "(";
    for (size_t i = 0; i < f.args.size(); i++) header += (i ? ", " : "") + f.args[i].name;
    return header + ") {\n" + to_string(body) + "}\n";
}
} // namespace

std::string lowered_stmt_text(const LoweredFunc &f, StmtOutputFormat format) {
    std::string text;
    // Printing recurses as deep as the IR.
    run_on_deep_stack([&] {
        if (format == StmtOutputFormat::HTML) {
            text = to_html(f.body, f.name);
            return;
        }
        // Launches name their device source; the kernels follow as IR.
        Stmt body = unembed_device_source(f.body, f.device_sources);
        text = stmt_text(f, body) + kernels_to_string(f.kernels);
    });
    return text;
}

std::string conceptual_stmt_text(const LoweredFunc &f, StmtOutputFormat format) {
    std::string text;
    run_on_deep_stack([&] {
        text = format == StmtOutputFormat::HTML ? to_html(f.conceptual_body, f.name)
                                                : stmt_text(f, f.conceptual_body);
    });
    return text;
}

std::string device_source_text(const LoweredFunc &f, const Target &target) {
    std::string text;
    for (const auto &[api, source] : f.device_sources) text += source;
    if (text.empty())
        text = "/* The pipeline of " + f.name + " has no GPU kernels for target " +
               target.to_string() + ". */\n";
    return text;
}

} // namespace Internal

using namespace Internal;

Pipeline::Pipeline(const Func &output) : Pipeline(std::vector<Func>{output}) {}

Pipeline::Pipeline(const std::vector<Func> &outputs)
    : contents(std::make_shared<PipelineContents>()) {
    for (const auto &f : outputs) contents->outputs.push_back(f.function());
}

std::vector<Func> Pipeline::outputs() const {
    std::vector<Func> funcs;
    if (contents)
        for (const auto &f : contents->outputs) funcs.emplace_back(f);
    return funcs;
}

void Pipeline::compile_jit(const Target &requested) {
    if (!contents) user_error("compile_jit of an empty Pipeline");
    std::lock_guard<std::recursive_mutex> lock(contents->mutex);
    compiled_for(*contents, requested);
}

void Pipeline::invalidate_cache() {
    if (!contents) return;
    std::lock_guard<std::recursive_mutex> lock(contents->mutex);
    contents->compiled = nullptr;
}

void Pipeline::trace_pipeline() {
    if (!contents) user_error("trace_pipeline of an empty Pipeline");
    std::lock_guard<std::recursive_mutex> lock(contents->mutex);
    contents->trace_pipeline = true;
    contents->compiled = nullptr;
}

JITHandlers &Pipeline::jit_handlers() {
    if (!contents) user_error("jit_handlers of an empty Pipeline");
    return contents->handlers;
}

void Pipeline::set_error_handler(void (*handler)(JITUserContext *, const char *)) {
    jit_handlers().custom_error = handler;
}

void Pipeline::set_custom_print(void (*handler)(JITUserContext *, const char *)) {
    jit_handlers().custom_print = handler;
}

void Pipeline::set_custom_allocator(void *(*malloc_fn)(JITUserContext *, size_t),
                                    void (*free_fn)(JITUserContext *, void *)) {
    jit_handlers().custom_malloc = malloc_fn;
    jit_handlers().custom_free = free_fn;
}

void Pipeline::set_custom_do_task(int (*do_task)(JITUserContext *,
                                                 int (*)(JITUserContext *, int, uint8_t *), int,
                                                 uint8_t *)) {
    jit_handlers().custom_do_task = do_task;
}

void Pipeline::set_custom_do_par_for(int (*do_par_for)(JITUserContext *,
                                                       int (*)(JITUserContext *, int, uint8_t *),
                                                       int, int, uint8_t *)) {
    jit_handlers().custom_do_par_for = do_par_for;
}

void Pipeline::set_custom_trace(int32_t (*trace)(JITUserContext *, const loom_trace_event_t *)) {
    jit_handlers().custom_trace = trace;
}

Realization Pipeline::realize(std::vector<int> sizes, const Target &target) {
    return realize(nullptr, std::move(sizes), target);
}

void Pipeline::realize(Realization outputs, const Target &target) {
    realize(nullptr, std::move(outputs), target);
}

namespace {

std::string sizes_text(const std::vector<int> &sizes) {
    std::string text;
    for (int s : sizes) text += (text.empty() ? "" : ", ") + std::to_string(s);
    return "{" + text + "}";
}

/** A RuntimeError naming f and the sizes when an output of them cannot be
 * made: a negative size, more elements than 32-bit offsets reach (without
 * large_buffers), or no memory for them. */
void check_output_size(const Function &f, const std::vector<int> &sizes, bool large_buffers) {
    int64_t elements = 1;
    for (int s : sizes) {
        if (s < 0)
            throw RuntimeError("Func " + f.name() + " cannot be realized with sizes " +
                               sizes_text(sizes) + ": a size must be at least 0");
        elements *= s;
        if (elements > INT32_MAX && !large_buffers)
            throw RuntimeError("Func " + f.name() + " cannot be realized with sizes " +
                               sizes_text(sizes) +
                               ": an output holds at most 2^31 - 1 elements (buffer offsets "
                               "are 32-bit; add the large_buffers target feature for 64-bit "
                               "ones)");
    }
}

/** Output buffers of these sizes (mins at zero); without memory when
 * `allocate` is false (for a bounds query). */
Realization output_buffers_of_size(const std::vector<Function> &outputs,
                                   const std::vector<int> &sizes, bool allocate,
                                   bool large_buffers = false) {
    std::vector<Buffer<>> buffers;
    for (const auto &slot : output_slots(outputs)) {
        const Function &f = slot.func;
        if (int(sizes.size()) != f.dimensions())
            user_error("Func " << f.name() << " has " << plural(f.dimensions(), "dimension")
                               << " but realize was given " << plural(int(sizes.size()), "size"));
        Type t = f.output_types()[size_t(slot.value_index)];
        if (allocate) {
            check_output_size(f, sizes, large_buffers);
            try {
                buffers.emplace_back(t, sizes, f.name());
            } catch (const RuntimeError &e) {
                throw RuntimeError("Func " + f.name() + ": " + e.what());
            }
        } else {
            std::vector<loom_dimension_t> shape;
            int stride = 1;
            for (int s : sizes) {
                shape.push_back(loom_dimension_t{0, s, stride, 0});
                stride *= s > 0 ? s : 1;
            }
            buffers.emplace_back(t, nullptr, shape, f.name());
        }
    }
    return Realization(buffers);
}

/** An input of a realize must have memory: generated code would take a
 * buffer without any for a bounds query and compute nothing (as in
 * Halide, only infer_input_bounds asks for bounds). */
void require_memory(const Buffer<> &b, const std::string &input) {
    const loom_buffer_t *raw = b.raw_buffer();
    if (raw->host || raw->device) return;
    throw RuntimeError("Input buffer " + b.name() +
                       (input == b.name() ? "" : " (of " + input + ")") +
                       " has no memory (its host pointer is null); allocate it before realizing, "
                       "or call infer_input_bounds to ask which region the pipeline needs");
}

/** The argv of one call: the context, then each argument of f. ImageParams
 * with no Buffer bound are an error, or, with `queries`, get a Buffer with
 * no memory (a bounds query), collected there with their Parameter. */
std::vector<void *> jit_argv(const LoweredFunc &f, const Realization &dst, void *context,
                             std::vector<std::pair<Parameter, Buffer<>>> *queries) {
    std::vector<void *> argv{context};
    size_t next_output = 0;
    for (const auto &arg : f.args) {
        switch (arg.kind) {
        case LoweredArgument::InputScalar:
            internal_assert(arg.param.defined(),
                            "scalar argument " << arg.name << " without a Parameter");
            argv.push_back(const_cast<uint64_t *>(&arg.param.get()->scalar_bits));
            break;
        case LoweredArgument::InputBuffer:
            if (arg.buffer.defined()) {
                if (!queries) require_memory(arg.buffer, arg.buffer.name());
                argv.push_back(arg.buffer.raw_buffer());
            } else {
                internal_assert(arg.param.defined(),
                                "buffer argument " << arg.name << " without a source");
                const Buffer<> &b = arg.param.buffer();
                if (b.defined()) {
                    if (!queries) require_memory(b, arg.name);
                    argv.push_back(b.raw_buffer());
                } else if (queries) {
                    std::vector<loom_dimension_t> shape(size_t(arg.dimensions),
                                                        loom_dimension_t{0, 0, 0, 0});
                    Buffer<> query(arg.type, nullptr, shape, arg.name);
                    queries->emplace_back(arg.param, query);
                    argv.push_back(query.raw_buffer());
                } else {
                    throw RuntimeError(
                        "ImageParam " + arg.name +
                        " is not bound to a Buffer; call set() on it before realizing");
                }
            }
            break;
        case LoweredArgument::OutputBuffer:
            internal_assert(next_output < dst.size(), "more output arguments than output buffers");
            argv.push_back(dst[next_output++].raw_buffer());
            break;
        }
    }
    internal_assert(next_output == dst.size(), "output buffers unused by the compiled pipeline");
    return argv;
}

} // namespace

Realization Pipeline::realize(JITUserContext *context, std::vector<int> sizes,
                              const Target &target) {
    if (!contents) user_error("realize of an empty Pipeline");
    require_defined(contents->outputs);
    bool large_buffers =
        resolve_jit_target(target, contents->outputs[0].name()).has_feature(Target::LargeBuffers);
    Realization r = output_buffers_of_size(contents->outputs, sizes, true, large_buffers);
    realize(context, r, target);
    return r;
}

void Pipeline::realize(JITUserContext *context, Realization dst, const Target &target) {
    if (!contents) user_error("realize of an empty Pipeline");
    require_defined(contents->outputs);
    check_output_buffers(contents->outputs, dst);
    std::shared_ptr<const CompiledPipeline> compiled;
    {
        std::lock_guard<std::recursive_mutex> lock(contents->mutex);
        if (contents->autoschedule_pending) {
            // The auto-scheduler waited for the real output sizes.
            std::vector<std::vector<int>> sizes;
            size_t slot = 0;
            for (const Function &f : contents->outputs) {
                sizes.emplace_back();
                for (int d = 0; d < dst[slot].dimensions(); d++)
                    sizes.back().push_back(dst[slot].dim(d).extent());
                slot += size_t(f.outputs());
            }
            AutoSchedulerResults &r = contents->autoschedule_results;
            contents->autoschedule_pending = false;
            r = run_autoscheduler(*this, r.target, r.autoscheduler_params, sizes);
        }
        compiled = compiled_for(*contents, target);
    }
    // The code runs unlocked: other threads may run it (or recompile) meanwhile.
    JITCall call(context, contents->handlers, compiled->name);
    std::vector<void *> argv = jit_argv(compiled->lowered, dst, call.context(), nullptr);
    call.run(compiled->lowered, compiled->module.argv_function(), argv);
}

void Pipeline::infer_input_bounds(const std::vector<int> &sizes, const Target &target) {
    infer_input_bounds(nullptr, sizes, target);
}

void Pipeline::infer_input_bounds(Realization outputs, const Target &target) {
    infer_input_bounds(nullptr, std::move(outputs), target);
}

void Pipeline::infer_input_bounds(JITUserContext *context, const std::vector<int> &sizes,
                                  const Target &target) {
    if (!contents) user_error("infer_input_bounds of an empty Pipeline");
    require_defined(contents->outputs);
    infer_input_bounds(context, output_buffers_of_size(contents->outputs, sizes, false), target);
}

void Pipeline::infer_input_bounds(JITUserContext *context, Realization dst, const Target &target) {
    if (!contents) user_error("infer_input_bounds of an empty Pipeline");
    require_defined(contents->outputs);
    check_output_buffers(contents->outputs, dst);
    if (target.has_feature(Target::NoBoundsQuery))
        user_error("infer_input_bounds of " << contents->outputs[0].name()
                                            << " needs bounds queries, which the target "
                                            << target.to_string() << " leaves out");
    std::shared_ptr<const CompiledPipeline> compiled;
    {
        std::lock_guard<std::recursive_mutex> lock(contents->mutex);
        compiled = compiled_for(*contents, target);
    }
    JITCall call(context, contents->handlers, compiled->name);
    std::vector<std::pair<Parameter, Buffer<>>> queries;
    std::vector<void *> argv = jit_argv(compiled->lowered, dst, call.context(), &queries);
    if (queries.empty()) return; // every input is bound: nothing to infer
    if (call.run(compiled->lowered, compiled->module.argv_function(), argv) != 0)
        return; // reported
    for (auto &[param, query] : queries) {
        query.allocate();
        param.set_buffer(query);
    }
}

std::vector<Argument> Pipeline::infer_arguments() {
    if (!contents) user_error("infer_arguments of an empty Pipeline");
    require_defined(contents->outputs);
    LoweredFunc f =
        lower(contents->outputs, contents->outputs[0].name(), get_jit_target_from_environment());
    std::vector<Argument> buffers, scalars;
    for (const LoweredArgument &a : f.args) {
        if (a.kind == LoweredArgument::OutputBuffer || a.buffer.defined()) continue;
        if (a.is_buffer())
            buffers.emplace_back(a.name, Argument::InputBuffer, a.type, a.dimensions);
        else
            scalars.emplace_back(a.name, Argument::InputScalar, a.type, 0);
    }
    auto by_name = [](const Argument &x, const Argument &y) { return x.name < y.name; };
    std::sort(buffers.begin(), buffers.end(), by_name);
    std::sort(scalars.begin(), scalars.end(), by_name);
    buffers.insert(buffers.end(), scalars.begin(), scalars.end());
    return buffers;
}

Callable Pipeline::compile_to_callable(const std::vector<Argument> &args, const Target &requested) {
    if (!contents) user_error("compile_to_callable of an empty Pipeline");
    require_defined(contents->outputs);
    Target target =
        pipeline_target(*this, resolve_jit_target(requested, contents->outputs[0].name()));
    auto made = std::make_shared<CallableContents>(
        make_callable_contents(contents->outputs, args, target, contents->handlers));
    jit_compilations++;
    return Callable(made);
}

void Pipeline::compile_to_lowered_stmt(const std::string &filename,
                                       const std::vector<Argument> &args, StmtOutputFormat format,
                                       const Target &target) {
    // The passes after lowering recurse as deep as the IR.
    run_on_deep_stack([&] {
        if (!contents) user_error("compile_to_lowered_stmt of an empty Pipeline");
        require_defined(contents->outputs);
        std::string name = contents->outputs[0].name();
        LoweredFunc f = lower(contents->outputs, name, pipeline_target(*this, target), args);
        write_file(filename, lowered_stmt_text(f, format));
    });
}

void Pipeline::compile_to_conceptual_stmt(const std::string &filename,
                                          const std::vector<Argument> &args,
                                          StmtOutputFormat format, const Target &target) {
    run_on_deep_stack([&] {
        if (!contents) user_error("compile_to_conceptual_stmt of an empty Pipeline");
        require_defined(contents->outputs);
        std::string name = contents->outputs[0].name();
        LoweredFunc f = lower(contents->outputs, name, pipeline_target(*this, target), args);
        write_file(filename, conceptual_stmt_text(f, format));
    });
}

std::string Pipeline::device_source(const std::vector<Argument> &args, const Target &target) {
    if (!contents) user_error("device_source of an empty Pipeline");
    require_defined(contents->outputs);
    LoweredFunc f = lower(contents->outputs, contents->outputs[0].name(), target, args);
    return device_source_text(f, target);
}

void Pipeline::compile_to_device_source(const std::string &filename,
                                        const std::vector<Argument> &args, const Target &target) {
    write_file(filename, device_source(args, target));
}

void Pipeline::compile_to_llvm_assembly(const std::string &filename,
                                        const std::vector<Argument> &args,
                                        const std::string &fn_name, const Target &target) {
    if (!contents) user_error("compile_to_llvm_assembly of an empty Pipeline");
    require_defined(contents->outputs);
    std::string name = fn_name.empty() ? contents->outputs[0].name() : fn_name;
    LoweredFunc f = lower(contents->outputs, name, pipeline_target(*this, target), args);
    write_file(filename, JITModule::compile(f, target, true).llvm_assembly());
}

std::string Pipeline::loop_nest() const {
    if (!contents) user_error("print_loop_nest of an empty Pipeline");
    require_defined(contents->outputs);
    return Internal::print_loop_nest(contents->outputs);
}

void Pipeline::print_loop_nest() {
    std::cout << loop_nest();
}

} // namespace loom

namespace loom {

using namespace Internal;

AutoSchedulerResults Pipeline::apply_autoscheduler(const Target &target,
                                                   const AutoschedulerParams &params) {
    if (!contents) user_error("apply_autoscheduler of an empty Pipeline");
    require_defined(contents->outputs);
    std::vector<std::vector<int>> sizes = output_estimates(*this);
    if (!sizes.empty()) return apply_autoscheduler(sizes[0], target, params);
    // No estimates: validate the name and options now, choose at the first realize.
    std::lock_guard<std::recursive_mutex> lock(contents->mutex);
    AutoSchedulerResults &r = contents->autoschedule_results;
    r = AutoSchedulerResults();
    r.scheduler_name =
        params.name.empty() ? Pipeline::get_default_autoscheduler_name() : params.name;
    r.autoscheduler_params = params;
    r.autoscheduler_params.name = r.scheduler_name;
    r.target = target;
    if (r.scheduler_name == "Loom") heuristic_options(target, params.extra);
    r.schedule_source = "// The schedule is chosen at the first realize, for the real output sizes "
                        "(give the outputs set_estimate(s) to choose it now).\n";
    contents->autoschedule_pending = true;
    return r;
}

AutoSchedulerResults Pipeline::apply_autoscheduler(const std::vector<int> &output_sizes,
                                                   const Target &target,
                                                   const AutoschedulerParams &params) {
    if (!contents) user_error("apply_autoscheduler of an empty Pipeline");
    require_defined(contents->outputs);
    std::vector<std::vector<int>> sizes;
    for (const Function &f : contents->outputs) {
        if (int(output_sizes.size()) != f.dimensions())
            user_error("apply_autoscheduler was given "
                       << plural(int(output_sizes.size()), "size") << " but output Func "
                       << f.name() << " has " << plural(f.dimensions(), "dimension"));
        sizes.push_back(output_sizes);
    }
    std::lock_guard<std::recursive_mutex> lock(contents->mutex);
    contents->autoschedule_pending = false;
    contents->autoschedule_results = run_autoscheduler(*this, target, params, sizes);
    return contents->autoschedule_results;
}

AutoSchedulerResults Pipeline::auto_schedule(const std::string &autoscheduler_name,
                                             const Target &target, const MachineParams &machine) {
    AutoschedulerParams params(autoscheduler_name);
    if (autoscheduler_name == "Loom" ||
        (autoscheduler_name.empty() && get_default_autoscheduler_name() == "Loom")) {
        params.extra["parallelism"] = std::to_string(machine.parallelism);
        params.extra["last_level_cache_size"] = std::to_string(machine.last_level_cache_size);
    }
    return apply_autoscheduler(target, params);
}

AutoSchedulerResults Pipeline::auto_schedule(const Target &target, const MachineParams &machine) {
    return auto_schedule(get_default_autoscheduler_name(), target, machine);
}

const AutoSchedulerResults &Pipeline::autoscheduler_results() const {
    if (!contents) user_error("autoscheduler_results of an empty Pipeline");
    return contents->autoschedule_results;
}

void Pipeline::add_autoscheduler(const std::string &name, const AutoSchedulerFn &autoscheduler) {
    register_autoscheduler(name, autoscheduler);
}

void Pipeline::set_default_autoscheduler_name(const std::string &name) {
    set_default_autoscheduler(name);
}

std::string Pipeline::get_default_autoscheduler_name() {
    return default_autoscheduler();
}

} // namespace loom
