// Out-of-line helpers of loom/Buffer.h: names, errors, reads in algorithms,
// and the device operations (which call the runtime's C functions and turn
// their reported messages into RuntimeError).

#include "loom/Buffer.h"

#include "frontend/ImplicitVars.h"

#include <algorithm>
#include <atomic>
#include <sstream>

#include "ir/Error.h"
#include "ir/IR.h"
#include "loom/Target.h"
#include "loom/Var.h"
#include "runtime/RuntimeFunctions.h"

namespace loom {
namespace Internal {

std::string unique_buffer_name() {
    static std::atomic<int> counter{0};
    return "b" + std::to_string(counter++);
}

void buffer_error(const std::string &message) {
    throw RuntimeError(message);
}

void buffer_error(const std::string &name, const Runtime::BufferError &e) {
    std::string text = e.what();
    const std::string prefix = "loom::Runtime::Buffer: ";
    if (text.compare(0, prefix.size(), prefix) == 0) text = text.substr(prefix.size());
    throw RuntimeError(name.empty() ? "Buffer: " + text : "Buffer \"" + name + "\": " + text);
}

void buffer_out_of_memory(Type t, const std::vector<int> &sizes) {
    std::string text;
    int64_t elements = 1;
    for (int s : sizes) {
        text += (text.empty() ? "" : ", ") + std::to_string(s);
        elements *= std::max(s, 1);
    }
    throw RuntimeError("Buffer: out of memory allocating " + std::to_string(elements) +
                       " elements of " + type_to_string(t) + " (sizes {" + text + "})");
}

void check_value_type(Type t, const std::string &what) {
    int bits = t.bits, lanes = t.lanes;
    const char *legal = "";
    bool ok = false;
    switch (t.code) {
    case Type::Int:
        ok = bits == 8 || bits == 16 || bits == 32 || bits == 64;
        legal = "Int(n) takes n = 8, 16, 32 or 64";
        break;
    case Type::UInt:
        ok = bits == 1 || bits == 8 || bits == 16 || bits == 32 || bits == 64;
        legal = "UInt(n) takes n = 8, 16, 32 or 64 (UInt(1) is Bool())";
        break;
    case Type::Float:
        ok = bits == 16 || bits == 32 || bits == 64;
        legal = "Float(n) takes n = 16, 32 or 64";
        break;
    case Type::BFloat:
        ok = bits == 16;
        legal = "BFloat(n) takes only n = 16";
        break;
    case Type::Handle:
        ok = bits == 64;
        legal = "Handle() has 64 bits";
        break;
    }
    if (ok && lanes >= 1 && lanes <= max_vector_lanes()) return;
    std::ostringstream msg;
    if (bits == 0 && lanes == 0) {
        msg << what << " of the void type Type(), which has no values; give a type such as "
            << "Int(32) or Float(32)";
    } else if (bits == 0) {
        msg << what << " of a type with 0 bits (a width of 256 or more wraps to 0, as Type keeps "
            << "the bits in 8 bits); " << legal;
    } else if (!ok) {
        msg << what << " of type " << type_to_string(t.element_of())
            << ", which generated code cannot hold; " << legal;
    } else {
        msg << what << " of a type with " << lanes << " lanes; a type has 1 to "
            << max_vector_lanes() << " lanes (a lane count of 65536 or more wraps, as Type "
            << "keeps the lanes in 16 bits)";
    }
    throw CompileError(msg.str());
}

namespace {

// Collects what the runtime reports during one call, then throws it.
class DeviceCall {
public:
    explicit DeviceCall(const BufferContents &c) : buffer_name(c.name) {}
    void *context() { return &call_context; }
    void check(int result, const char *operation) {
        if (result == 0) return;
        if (message.empty())
            message = std::string(operation) + " failed with error code " + std::to_string(result);
        throw RuntimeError("Buffer " + buffer_name + ": " + message);
    }

private:
    static void capture(loom_call_context_t *context, const char *text) {
        auto *sink = static_cast<std::string *>(context->user_data);
        if (!sink->empty()) *sink += "\n";
        *sink += text;
    }
    std::string buffer_name, message;
    loom_call_context_t call_context{capture, &message, nullptr, nullptr,
                                     nullptr, nullptr,  nullptr};
};

/** What DeviceAPI::Default_GPU means for a Buffer: the GPU API of the JIT
 * target (LOOM_JIT_TARGET or HL_JIT_TARGET; OpenCL first where it has both,
 * as select_gpu_api does), as in Halide. Where that target names none,
 * Halide fails; Loom takes CUDA when a CUDA GPU answers (so the buffer is
 * where host-cuda pipelines want it), else OpenCL. Decided once. */
int32_t default_gpu_api() {
    static const int32_t api = [] {
        switch (get_default_device_api_for_target(get_jit_target_from_environment())) {
        case DeviceAPI::OpenCL:
            return int32_t(loom_device_api_opencl);
        case DeviceAPI::CUDA:
            return int32_t(loom_device_api_cuda);
        default:
            break;
        }
        BufferContents probe;
        probe.name = "(probe)";
        DeviceCall quiet(probe); // its messages are dropped
        loom_device_limits_t limits{};
        bool cuda = loom_device_get_limits(quiet.context(), loom_device_api_cuda, &limits) == 0;
        return int32_t(cuda ? loom_device_api_cuda : loom_device_api_opencl);
    }();
    return api;
}

const loom_device_interface_t *interface_for(const BufferContents &c, DeviceAPI api,
                                             const char *operation) {
    int32_t code = loom_device_api_none;
    switch (api) {
    case DeviceAPI::Default_GPU:
        code = default_gpu_api();
        break;
    case DeviceAPI::OpenCL:
        code = loom_device_api_opencl;
        break;
    case DeviceAPI::CUDA:
        code = loom_device_api_cuda;
        break;
    case DeviceAPI::None:
    case DeviceAPI::Host:
        throw RuntimeError("Buffer " + c.name + ": " + operation +
                           " needs a GPU DeviceAPI (Default_GPU, OpenCL or CUDA), not " +
                           (api == DeviceAPI::Host ? "Host" : "None"));
    }
    const loom_device_interface_t *iface = loom_device_interface_for(code);
    if (!iface)
        throw RuntimeError("Buffer " + c.name + ": " + operation + ": this Loom runtime has no " +
                           (code == loom_device_api_cuda ? "CUDA" : "OpenCL") +
                           " device interface");
    return iface;
}

DeviceAPI api_of_target(const BufferContents &c, const Target &target) {
    if (target.has_feature(Target::OpenCL)) return DeviceAPI::OpenCL;
    if (target.has_feature(Target::CUDA)) return DeviceAPI::CUDA;
    throw RuntimeError("Buffer " + c.name + ": copy_to_device(Target \"" + target.to_string() +
                       "\"): the target has no GPU feature (add -opencl or -cuda)");
}

} // namespace

void buffer_copy_to_device(BufferContents &c, DeviceAPI api) {
    const loom_device_interface_t *iface = interface_for(c, api, "copy_to_device");
    DeviceCall call(c);
    call.check(c.buf.copy_to_device(iface, call.context()), "copy_to_device");
}

void buffer_copy_to_device(BufferContents &c, const Target &target) {
    buffer_copy_to_device(c, api_of_target(c, target));
}

void buffer_copy_to_host(BufferContents &c) {
    DeviceCall call(c);
    call.check(c.buf.copy_to_host(call.context()), "copy_to_host");
}

void buffer_device_malloc(BufferContents &c, DeviceAPI api) {
    const loom_device_interface_t *iface = interface_for(c, api, "device_malloc");
    DeviceCall call(c);
    call.check(c.buf.device_malloc(iface, call.context()), "device_malloc");
}

void buffer_device_free(BufferContents &c) {
    if (!c.buf.raw_buffer()->device) return;
    DeviceCall call(c);
    // Keep what only the device holds (Halide's device_free drops it).
    if (c.buf.raw_buffer()->host) call.check(c.buf.copy_to_host(call.context()), "device_free");
    // Views (crops, slices) of this memory keep it alive; it goes with the last.
    call.check(c.buf.device_free(call.context()), "device_free");
}

void buffer_device_sync(BufferContents &c) {
    DeviceCall call(c);
    call.check(c.buf.device_sync(call.context()), "device_sync");
}

void buffer_device_wrap_native(BufferContents &c, DeviceAPI api, uint64_t handle) {
    const loom_device_interface_t *iface = interface_for(c, api, "device_wrap_native");
    DeviceCall call(c);
    call.check(c.buf.device_wrap_native(iface, handle, call.context()), "device_wrap_native");
}

void buffer_device_detach_native(BufferContents &c) {
    DeviceCall call(c);
    call.check(c.buf.device_detach_native(call.context()), "device_detach_native");
}

void buffer_set_device_dirty(BufferContents &c, bool dirty) {
    if (!dirty) {
        c.buf.raw_buffer()->flags &= ~uint64_t(loom_buffer_flag_device_dirty);
        return;
    }
    if (c.buf.raw_buffer()->flags & loom_buffer_flag_host_dirty)
        throw RuntimeError("Buffer " + c.name +
                           ": set_device_dirty() on a host-dirty buffer: the host's changes "
                           "would be lost; call copy_to_device() first");
    if (!c.buf.raw_buffer()->device)
        throw RuntimeError("Buffer " + c.name +
                           ": set_device_dirty() on a buffer without device memory; call "
                           "copy_to_device() or device_malloc() first");
    c.buf.raw_buffer()->flags |= loom_buffer_flag_device_dirty;
}

void buffer_device_view_error(const std::string &name, const Runtime::BufferError &e) {
    std::string text = e.what();
    const std::string prefix = "loom::Runtime::Buffer: ";
    if (text.compare(0, prefix.size(), prefix) == 0) text = text.substr(prefix.size());
    throw RuntimeError("Buffer " + name + ": " + text);
}

Expr buffer_call(const Buffer<> &image, const std::vector<Expr> &given_args) {
    if (!image.defined()) user_error("An undefined Buffer is read in an algorithm");
    std::vector<Expr> args = given_args;
    expand_implicit_placeholder(args, image.dimensions(), "Buffer " + image.name());
    if (int(args.size()) != image.dimensions())
        user_error("Buffer " << image.name() << " is accessed with " << args.size() << " argument"
                             << (args.size() == 1 ? "" : "s") << " but has " << image.dimensions()
                             << " dimension" << (image.dimensions() == 1 ? "" : "s"));
    std::vector<Expr> coords;
    for (size_t i = 0; i < args.size(); i++) {
        const Expr &a = args[i];
        if (!a.defined())
            user_error("Argument " << i << " of a read of Buffer " << image.name()
                                   << " is undefined");
        Type t = a.type();
        if (!(t.is_int() || t.is_uint()) || t.is_bool())
            user_error("Argument " << i << " of a read of Buffer " << image.name() << " has type "
                                   << type_to_string(t) << "; coordinates must be integers");
        coords.push_back(t == Int(32) ? a : Cast::make(Int(32), a));
    }
    return Call::make(image, coords);
}

Expr buffer_call(const Buffer<> &image, const std::vector<Var> &args) {
    return buffer_call(image, std::vector<Expr>(args.begin(), args.end()));
}

} // namespace Internal
} // namespace loom
