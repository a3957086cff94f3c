// One call of JIT-compiled code: per-call handlers and host-only buffers.

#include "frontend/JITCall.h"

#include <set>

#include "ir/Error.h"
#include "loom/Error.h"

namespace loom {
namespace Internal {

JITCall::JITCall(JITUserContext *user, const JITHandlers &pipeline_handlers, std::string pipeline)
    : user_(user ? user : &empty_), handlers_(pipeline_handlers), pipeline_(std::move(pipeline)) {
    if (user && user->handlers.custom_print) handlers_.custom_print = user->handlers.custom_print;
    if (user && user->handlers.custom_error) handlers_.custom_error = user->handlers.custom_error;
    context_.error_handler = &JITCall::on_error;
    context_.user_data = this;
    context_.print_handler = handlers_.custom_print ? &JITCall::on_print : nullptr;
}

void JITCall::on_error(loom_call_context_t *context, const char *message) {
    auto *self = static_cast<JITCall *>(context->user_data);
    if (self->handlers_.custom_error) {
        self->handlers_.custom_error(self->user_, message);
        return;
    }
    std::lock_guard<std::mutex> lock(self->mutex_);
    if (!self->message_.empty() && self->message_.back() != '\n') self->message_ += "\n";
    self->message_ += message;
}

void JITCall::on_print(loom_call_context_t *context, const char *message) {
    auto *self = static_cast<JITCall *>(context->user_data);
    self->handlers_.custom_print(self->user_, message);
}

int JITCall::fail(const std::string &message, int code) {
    if (handlers_.custom_error) {
        handlers_.custom_error(user_, message.c_str());
        return code;
    }
    throw RuntimeError(message);
}

int JITCall::run(const LoweredFunc &f, JITModule::ArgvFunction fn, std::vector<void *> &argv) {
    internal_assert(argv.size() == f.args.size() + 1 && argv[0] == context(),
                    "argv does not match the arguments of " << f.name);
    // Buffers only host code touches: the generated code keeps the host and
    // device copies of kernels' buffers coherent; these the front end must.
    std::set<std::string> kernel_buffers;
    for (const auto &k : f.kernels)
        for (const auto &a : k.args)
            if (a.is_buffer) kernel_buffers.insert(a.name);
    std::vector<loom_buffer_t *> host_only_outputs;
    for (size_t i = 0; i < f.args.size(); i++) {
        const LoweredArgument &arg = f.args[i];
        if (!arg.is_buffer() || kernel_buffers.count(arg.name)) continue;
        auto *raw = static_cast<loom_buffer_t *>(argv[i + 1]);
        if (!raw) continue; // the generated code reports it
        if (raw->flags & loom_buffer_flag_device_dirty) {
            if (int r = loom_copy_to_host(context(), raw)) {
                if (handlers_.custom_error) return r;
                throw RuntimeError(message_);
            }
        }
        if (arg.kind == LoweredArgument::OutputBuffer) host_only_outputs.push_back(raw);
    }

    int result = fn(argv.data());
    for (loom_buffer_t *raw : host_only_outputs)
        if (raw->device && raw->host) raw->flags |= loom_buffer_flag_host_dirty;
    if (result == 0 || handlers_.custom_error) return result;
    std::string message = message_;
    if (message.empty())
        message = "Pipeline " + pipeline_ + " failed with error code " + std::to_string(result);
    throw RuntimeError(message);
}

Target resolve_jit_target(const Target &target, const std::string &pipeline) {
    Target t = target;
    if (t.os == Target::OSUnknown && t.arch == Target::ArchUnknown && t.bits == 0) {
        Target jit = get_jit_target_from_environment();
        for (Target::Feature f : t.features) jit = jit.with_feature(f);
        t = jit;
    }
    Target host = get_host_target();
    if (t.os != host.os || t.arch != host.arch || t.bits != host.bits)
        user_error("Pipeline " << pipeline << " cannot be JIT-compiled for target " << t.to_string()
                               << ": the JIT runs code in this process, on " << host.to_string()
                               << "; compile for other targets with compile_to_static_library "
                                  "or compile_to_object");
    return t;
}

} // namespace Internal
} // namespace loom
