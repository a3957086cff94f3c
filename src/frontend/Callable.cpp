// Callable: compiled once for a fixed argument list, called from any thread.

#include "loom/Callable.h"

#include "frontend/CallableContents.h"
#include "frontend/JITCall.h"
#include "ir/Error.h"
#include "lower/Lower.h"

namespace loom {
namespace Internal {

namespace {

std::string kind_text(const Argument &a) {
    if (a.is_buffer())
        return "a " + std::to_string(a.dimensions) + "-dimensional buffer of " +
               type_to_string(a.type);
    return "a scalar of type " + type_to_string(a.type);
}

std::string given_text(const Callable::Value &v) {
    if (v.is_buffer) return "a buffer";
    return "a scalar of type " + type_to_string(type_from_raw(v.scalar_type));
}

} // namespace

CallableContents make_callable_contents(const std::vector<Function> &outputs,
                                        const std::vector<Argument> &args, const Target &target,
                                        const JITHandlers &handlers) {
    CallableContents c = lower_callable(outputs, args, target, handlers);
    compile_callable(c);
    return c;
}

void compile_callable(CallableContents &c) {
    c.module = JITModule::compile(c.lowered, c.target);
}

CallableContents lower_callable(const std::vector<Function> &outputs,
                                const std::vector<Argument> &args, const Target &target,
                                const JITHandlers &handlers) {
    CallableContents c;
    c.target = target;
    c.name = outputs[0].name();
    c.handlers = handlers;
    for (size_t i = 0; i < args.size(); i++) {
        if (args[i].is_output())
            user_error("compile_to_callable: argument " << i << " (" << args[i].name
                                                        << ") is an output buffer; list only "
                                                           "inputs, the outputs follow them");
        for (size_t j = 0; j < i; j++)
            if (args[j].name == args[i].name)
                user_error("compile_to_callable: the argument " << args[i].name
                                                                << " is listed twice");
    }
    c.lowered = lower(outputs, "loom_callable_" + c.name, target, args, c.name);

    // The listed arguments keep their order; the lowered ones follow it,
    // with concrete Buffers and outputs placed after.
    c.arguments = args;
    c.source.assign(c.lowered.args.size(), -1);
    for (size_t i = 0; i < c.lowered.args.size(); i++) {
        const LoweredArgument &a = c.lowered.args[i];
        if (a.kind == LoweredArgument::OutputBuffer) {
            c.source[i] = int(c.arguments.size());
            c.arguments.emplace_back(a.name, Argument::OutputBuffer, a.type, a.dimensions);
            continue;
        }
        int listed = -1;
        for (size_t k = 0; k < args.size(); k++)
            if (args[k].name == a.name) listed = int(k);
        if (listed >= 0) {
            c.source[i] = listed;
            Argument &arg = c.arguments[size_t(listed)];
            if (arg.name_only) // a name: the pipeline says what it is
                arg =
                    Argument(a.name, a.is_buffer() ? Argument::InputBuffer : Argument::InputScalar,
                             a.type, a.dimensions);
        } else if (!a.buffer.defined()) {
            user_error("compile_to_callable: the pipeline of "
                       << c.name << " reads " << (a.is_buffer() ? "ImageParam " : "Param ")
                       << a.name << ", which is not in the argument list; add it");
        }
    }
    for (const Argument &a : c.arguments)
        if (a.name_only)
            user_error("compile_to_callable: the argument " << a.name
                                                            << " is only a name, and the "
                                                               "pipeline reads nothing of "
                                                               "that name; pass the Param "
                                                               "or ImageParam itself");
    return c;
}

} // namespace Internal

using namespace Internal;

const std::vector<Argument> &Callable::arguments() const {
    if (!contents) user_error("arguments() of an empty Callable");
    return contents->arguments;
}

int Callable::call(JITUserContext *context, const Value *values, size_t count) const {
    if (!contents) {
        JITCall empty(context, JITHandlers(), "<none>");
        return empty.fail("A default-constructed Callable was called; make one with "
                          "compile_to_callable");
    }
    const CallableContents &c = *contents;
    JITCall call(context, c.handlers, c.name);
    const std::vector<Argument> &args = c.arguments;
    if (count != args.size()) {
        std::string list;
        for (size_t i = 0; i < args.size(); i++) list += (i ? ", " : "") + args[i].name;
        return call.fail("The Callable of " + c.name + " takes " + std::to_string(args.size()) +
                         " arguments (" + list + ") but was called with " + std::to_string(count));
    }
    for (size_t i = 0; i < count; i++) {
        const Argument &a = args[i];
        const Value &v = values[i];
        bool ok =
            v.is_buffer == a.is_buffer() && (v.is_buffer || type_from_raw(v.scalar_type) == a.type);
        if (!ok)
            return call.fail("Argument " + std::to_string(i) + " (" + a.name +
                             ") of the Callable of " + c.name + " is " + kind_text(a) +
                             ", but the call gave " + given_text(v));
    }

    std::vector<uint64_t> scalars(c.lowered.args.size());
    std::vector<void *> argv(c.lowered.args.size() + 1);
    argv[0] = call.context();
    for (size_t i = 0; i < c.lowered.args.size(); i++) {
        const LoweredArgument &a = c.lowered.args[i];
        int from = c.source[i];
        if (from < 0) {
            argv[i + 1] = a.buffer.raw_buffer();
        } else if (a.is_buffer()) {
            argv[i + 1] = values[from].buffer;
        } else {
            scalars[i] = values[from].scalar_bits;
            argv[i + 1] = &scalars[i];
        }
    }
    return call.run(c.lowered, c.module.argv_function(), argv);
}

int Callable::call_argv_fast(size_t argc, const void *const *argv) const {
    JITUserContext *context = nullptr;
    if (argv && argc > 0 && argv[0]) context = *static_cast<JITUserContext *const *>(argv[0]);
    if (!contents) {
        JITCall empty(context, JITHandlers(), "<none>");
        return empty.fail("A default-constructed Callable was called; make one with "
                          "compile_to_callable");
    }
    const CallableContents &c = *contents;
    JITCall call(context, c.handlers, c.name);
    if (!argv || argc != c.arguments.size() + 1) {
        std::string list = "the JITUserContext **";
        for (const Argument &a : c.arguments) list += ", " + a.name;
        return call.fail("call_argv_fast of the Callable of " + c.name + " takes " +
                         std::to_string(c.arguments.size() + 1) + " argv entries (" + list +
                         ") but was given " + std::to_string(argv ? argc : 0));
    }
    std::vector<void *> lowered(c.lowered.args.size() + 1);
    lowered[0] = call.context();
    for (size_t i = 0; i < c.lowered.args.size(); i++) {
        int from = c.source[i];
        lowered[i + 1] = from < 0 ? static_cast<void *>(c.lowered.args[i].buffer.raw_buffer())
                                  : const_cast<void *>(argv[from + 1]);
    }
    return call.run(c.lowered, c.module.argv_function(), lowered);
}

} // namespace loom
