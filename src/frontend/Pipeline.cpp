// Pipeline: lowers its outputs, JIT-compiles them once per definition
// version and target, and runs the compiled code over user buffers.

#include "loom/Pipeline.h"

#include <atomic>
#include <cctype>
#include <fstream>
#include <iostream>
#include <mutex>
#include <set>

#include "frontend/DeviceLimits.h"
#include "frontend/JITStats.h"
#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"
#include "jit/JITModule.h"
#include "loom/Func.h"
#include "lower/CUDACompileCheck.h"
#include "lower/EmbedDeviceSource.h"
#include "lower/Lower.h"
#include "lower/PrintLoopNest.h"

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

struct PipelineContents {
    std::vector<Function> outputs;
    std::string name;

    bool compiled = false;
    Target target;
    DefinitionStamp stamp;
    LoweredFunc lowered;
    JITModule module;
};

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

void capture_error(loom_call_context_t *context, const char *message) {
    // Tasks of a parallel loop may fail at the same time.
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    auto *sink = static_cast<std::string *>(context->user_data);
    if (!sink->empty() && sink->back() != '\n') *sink += "\n";
    *sink += message;
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
    }
}

} // namespace

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

void Pipeline::compile_jit(const Target &target) {
    if (!contents) user_error("compile_jit of an empty Pipeline");
    auto &c = *contents;
    require_defined(c.outputs);
    DefinitionStamp stamp = stamp_of(c.outputs);
    if (c.compiled && c.target == target && same_stamp(stamp, c.stamp)) return;
    c.compiled = false;
    if (c.name.empty()) c.name = entry_name(c.outputs);
    c.lowered = lower(c.outputs, c.name, target);
    also_compile_cuda_for_test(c.outputs, c.name, target, c.lowered);
    check_kernels_fit_device(c.lowered);
    c.module = JITModule::compile(c.lowered, target);
    jit_compilations++;
    c.target = target;
    c.stamp = std::move(stamp);
    c.compiled = true;
}

Realization Pipeline::realize(std::vector<int> sizes, const Target &target) {
    if (!contents) user_error("realize of an empty Pipeline");
    require_defined(contents->outputs);
    std::vector<Buffer<>> buffers;
    for (const auto &slot : output_slots(contents->outputs)) {
        const Function &f = slot.func;
        if (int(sizes.size()) != f.dimensions())
            user_error("Func " << f.name() << " has " << plural(f.dimensions(), "dimension")
                               << " but realize was given " << plural(int(sizes.size()), "size"));
        buffers.emplace_back(f.output_types()[size_t(slot.value_index)], sizes, f.name());
    }
    Realization r(buffers);
    realize(r, target);
    return r;
}

void Pipeline::realize(Realization dst, const Target &target) {
    if (!contents) user_error("realize of an empty Pipeline");
    require_defined(contents->outputs);
    check_output_buffers(contents->outputs, dst);
    compile_jit(target);
    auto &c = *contents;

    std::string message;
    loom_call_context_t context{capture_error, &message};
    std::vector<void *> argv{&context};
    size_t next_output = 0;
    for (const auto &arg : c.lowered.args) {
        switch (arg.kind) {
        case LoweredArgument::InputScalar:
            internal_assert(arg.param.defined(),
                            "scalar argument " << arg.name << " without a Parameter");
            argv.push_back(const_cast<uint64_t *>(&arg.param.get()->scalar_bits));
            break;
        case LoweredArgument::InputBuffer:
            if (arg.buffer.defined()) {
                argv.push_back(arg.buffer.raw_buffer());
            } else {
                internal_assert(arg.param.defined(),
                                "buffer argument " << arg.name << " without a source");
                const Buffer<> &b = arg.param.buffer();
                if (!b.defined())
                    throw RuntimeError(
                        "ImageParam " + arg.name +
                        " is not bound to a Buffer; call set() on it before realizing");
                argv.push_back(b.raw_buffer());
            }
            break;
        case LoweredArgument::OutputBuffer:
            internal_assert(next_output < dst.size(), "more output arguments than output buffers");
            argv.push_back(dst[next_output++].raw_buffer());
            break;
        }
    }
    internal_assert(next_output == dst.size(), "output buffers unused by the compiled pipeline");

    // Buffers only host code touches: the generated code keeps the host and
    // device copies of kernels' buffers coherent; these the front end must.
    std::set<std::string> kernel_buffers;
    for (const auto &k : c.lowered.kernels)
        for (const auto &a : k.args)
            if (a.is_buffer) kernel_buffers.insert(a.name);
    std::vector<loom_buffer_t *> host_only_outputs;
    for (size_t i = 0; i < c.lowered.args.size(); i++) {
        const LoweredArgument &arg = c.lowered.args[i];
        if (!arg.is_buffer() || kernel_buffers.count(arg.name)) continue;
        auto *raw = static_cast<loom_buffer_t *>(argv[i + 1]);
        if (raw->flags & loom_buffer_flag_device_dirty) {
            if (loom_copy_to_host(&context, raw) != 0) throw RuntimeError(message);
        }
        if (arg.kind == LoweredArgument::OutputBuffer) host_only_outputs.push_back(raw);
    }

    int result = c.module.argv_function()(argv.data());
    for (loom_buffer_t *raw : host_only_outputs)
        if (raw->device) raw->flags |= loom_buffer_flag_host_dirty;
    if (result != 0) {
        if (message.empty())
            message = "Pipeline " + c.name + " failed with error code " + std::to_string(result);
        throw RuntimeError(message);
    }
}

void Pipeline::compile_to_lowered_stmt(const std::string &filename,
                                       const std::vector<Argument> &args, StmtOutputFormat format,
                                       const Target &target) {
    if (!contents) user_error("compile_to_lowered_stmt of an empty Pipeline");
    require_defined(contents->outputs);
    std::string name = contents->outputs[0].name();
    LoweredFunc f = lower(contents->outputs, name, target, args);
    if (format == StmtOutputFormat::HTML) {
        write_file(filename, to_html(f.body, name));
        return;
    }
    std::string header = "func " + f.name + "(";
    for (size_t i = 0; i < f.args.size(); i++) header += (i ? ", " : "") + f.args[i].name;
    // Launches name their device source; the kernels follow as IR.
    Stmt body = unembed_device_source(f.body, f.device_sources);
    write_file(filename, header + ") {\n" + to_string(body) + "}\n" + kernels_to_string(f.kernels));
}

std::string Pipeline::device_source(const std::vector<Argument> &args, const Target &target) {
    if (!contents) user_error("device_source of an empty Pipeline");
    require_defined(contents->outputs);
    LoweredFunc f = lower(contents->outputs, contents->outputs[0].name(), target, args);
    std::string text;
    for (const auto &[api, source] : f.device_sources) text += source;
    if (text.empty())
        text = "/* The pipeline of " + contents->outputs[0].name() +
               " has no GPU kernels for target " + target.to_string() + ". */\n";
    return text;
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
    LoweredFunc f = lower(contents->outputs, name, target, args);
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
