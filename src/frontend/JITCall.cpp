// One call of JIT-compiled code: per-call handlers and host-only buffers.

#include "frontend/JITCall.h"

#include <cstdlib>
#include <set>

#include "ir/Error.h"
#include "loom/Error.h"
#include "runtime/RuntimeFunctions.h"

namespace loom {
namespace Internal {

JITCall::JITCall(JITUserContext *user, const JITHandlers &pipeline_handlers, std::string pipeline)
    : user_(user ? user : &empty_), handlers_(pipeline_handlers), pipeline_(std::move(pipeline)) {
    if (user) {
        const JITHandlers &h = user->handlers;
        if (h.custom_print) handlers_.custom_print = h.custom_print;
        if (h.custom_malloc) handlers_.custom_malloc = h.custom_malloc;
        if (h.custom_free) handlers_.custom_free = h.custom_free;
        if (h.custom_do_task) handlers_.custom_do_task = h.custom_do_task;
        if (h.custom_do_par_for) handlers_.custom_do_par_for = h.custom_do_par_for;
        if (h.custom_error) handlers_.custom_error = h.custom_error;
        if (h.custom_trace) handlers_.custom_trace = h.custom_trace;
        if (h.custom_get_symbol) handlers_.custom_get_symbol = h.custom_get_symbol;
        if (h.custom_load_library) handlers_.custom_load_library = h.custom_load_library;
        if (h.custom_get_library_symbol)
            handlers_.custom_get_library_symbol = h.custom_get_library_symbol;
    }
    context_ = loom_call_context_t{};
    context_.error_handler = &JITCall::on_error;
    context_.user_data = this;
    context_.print_handler = handlers_.custom_print ? &JITCall::on_print : nullptr;
    context_.trace_handler = handlers_.custom_trace ? &JITCall::on_trace : nullptr;
    if (handlers_.custom_malloc) {
        context_.malloc_handler = &JITCall::on_malloc;
        context_.free_handler = &JITCall::on_free;
    }
    if (handlers_.custom_do_par_for || handlers_.custom_do_task)
        context_.do_par_for_handler = &JITCall::on_do_par_for;
}

void *JITCall::on_malloc(loom_call_context_t *context, size_t bytes) {
    auto *self = static_cast<JITCall *>(context->user_data);
    return self->handlers_.custom_malloc(self->user_, bytes);
}

void JITCall::on_free(loom_call_context_t *context, void *ptr) {
    auto *self = static_cast<JITCall *>(context->user_data);
    if (self->handlers_.custom_free)
        self->handlers_.custom_free(self->user_, ptr);
    else
        std::free(ptr);
}

int JITCall::run_loop_body(JITUserContext *, int index, uint8_t *loop) {
    const Loop *l = reinterpret_cast<const Loop *>(loop);
    return l->task(&l->call->context_, index, l->closure);
}

int JITCall::run_through_do_task(void *, int index, uint8_t *loop) {
    JITCall *self = reinterpret_cast<const Loop *>(loop)->call;
    return self->handlers_.custom_do_task(self->user_, &JITCall::run_loop_body, index, loop);
}

int JITCall::on_do_par_for(loom_call_context_t *context, int (*task)(void *, int, uint8_t *),
                           int min, int extent, uint8_t *closure) {
    auto *self = static_cast<JITCall *>(context->user_data);
    Loop loop{self, task, closure};
    auto *loop_bytes = reinterpret_cast<uint8_t *>(&loop);
    if (self->handlers_.custom_do_par_for)
        return self->handlers_.custom_do_par_for(self->user_, &JITCall::run_loop_body, min, extent,
                                                 loop_bytes);
    return loom_default_do_par_for(context, &JITCall::run_through_do_task, min, extent, loop_bytes);
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

int32_t JITCall::on_trace(loom_call_context_t *context, const loom_trace_event_t *event) {
    auto *self = static_cast<JITCall *>(context->user_data);
    return self->handlers_.custom_trace(self->user_, event);
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
