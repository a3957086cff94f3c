// Func::in, Func::clone_in and ImageParam::in: make (or find) the wrapper and
// record which callers use it. The calls are redirected when a pipeline is
// compiled (lower/WrapCalls.cpp).

#include "frontend/FuncWrappers.h"

#include <algorithm>

#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IRMutator.h"
#include "loom/Func.h"
#include "loom/ImageParam.h"
#include "lower/WrapCalls.h"

namespace loom {

using namespace Internal;

namespace {

Function make_identity(const Function &owner, const std::string &name) {
    std::vector<Expr> coords;
    for (const std::string &a : owner.args()) coords.push_back(Variable::make(Int(32), a));
    std::vector<Expr> values;
    const Parameter &image = owner.get()->image;
    if (image.defined()) {
        values.push_back(Call::make(image, coords));
    } else {
        // Weak: the wrapped Func owns its wrappers (see FunctionContents::wrapped).
        for (int i = 0; i < owner.outputs(); i++)
            values.push_back(Call::make(owner.weak(), coords, i));
    }
    Function w(name);
    w.define(owner.args(), values);
    return w;
}

Function make_clone(const Function &owner, const std::string &name) {
    auto *contents = new FunctionContents(*owner.get());
    Function clone(contents);
    contents->name = name;
    contents->version = next_function_version();
    contents->wrappers.clear();
    contents->kept_alive.clear();
    contents->image = Parameter();
    contents->output_buffers.clear();
    const auto &types = contents->output_types;
    for (size_t i = 0; i < types.size(); i++)
        contents->output_buffers.emplace_back(types[i], true, clone.dimensions(),
                                              types.size() == 1 ? name
                                                                : name + "." + std::to_string(i));
    repoint_self_calls(clone.definition(), owner, clone);
    for (Definition &u : clone.updates()) repoint_self_calls(u, owner, clone);
    return clone;
}

std::string joined(const std::vector<std::string> &names, const std::string &sep) {
    std::string s;
    for (size_t i = 0; i < names.size(); i++) s += (i ? sep : "") + names[i];
    return s;
}

/** How the user wrote the call, for messages: `f.in({g, h})`. */
std::string call_text(const std::string &owner, const char *method,
                      const std::vector<std::string> &callers) {
    std::string list = joined(callers, ", ");
    return owner + "." + method + "(" + (callers.size() > 1 ? "{" + list + "}" : list) + ")";
}

} // namespace

namespace Internal {

Function get_wrapper(Function owner, const std::vector<std::string> &callers_given, bool global,
                     bool clone) {
    std::vector<std::string> callers = callers_given;
    const std::string what = call_text(owner.name(), clone ? "clone_in" : "in", callers);
    if (!global && callers.empty())
        user_error(what << " names no Func to wrap " << owner.name()
                        << " for; give at least one, or call " << owner.name()
                        << ".in() for a wrapper every caller uses");
    if (!owner.has_pure_definition())
        user_error("Func " << owner.name() << " has no definition; define it before wrapping it ("
                           << what << ")");
    for (size_t i = 0; i < callers.size(); i++) {
        if (callers[i] == owner.name())
            user_error(what << ": a Func cannot be wrapped for itself; its own calls (in update "
                               "definitions) always read it directly");
        if (std::count(callers.begin(), callers.end(), callers[i]) > 1)
            user_error(what << " names Func " << callers[i] << " twice");
    }

    // The existing wrapper: the same one for every caller, or none for any.
    const WrapperEntry *found = nullptr;
    std::vector<std::string> with, without;
    if (global) {
        for (const WrapperEntry &w : owner.wrappers())
            if (w.caller.empty()) found = &w;
    } else {
        for (const std::string &c : callers) {
            const WrapperEntry *e = nullptr;
            for (const WrapperEntry &w : owner.wrappers())
                if (w.caller == c) e = &w;
            if (!e) {
                without.push_back(c);
                continue;
            }
            with.push_back(c);
            if (found && found->wrapper.get() != e->wrapper.get())
                user_error(what << ": " << found->caller << " and " << c
                                << " already use different wrappers of " << owner.name() << " ("
                                << found->wrapper->name << ", " << e->wrapper->name
                                << "); one wrapper cannot replace both");
            found = e;
        }
        if (found && !without.empty())
            user_error(what << ": " << joined(with, ", ") << " already "
                            << (with.size() == 1 ? "uses" : "use") << " the wrapper "
                            << found->wrapper->name << " of " << owner.name() << ", but "
                            << joined(without, ", ") << " " << (without.size() == 1 ? "does" : "do")
                            << " not; wrap them separately, or ask for the same set of callers");
    }
    if (found) {
        if (found->clone != clone)
            user_error(what << ": " << owner.name() << " already has the "
                            << (found->clone ? "clone " : "wrapper ") << found->wrapper->name
                            << " for "
                            << (global ? std::string("its callers") : joined(callers, ", "))
                            << "; a caller uses either a wrapper (in) or a clone (clone_in)");
        return Function(found->wrapper.get());
    }

    std::string name = owner.name() + (clone ? "_clone_in_" : "_in_") + joined(callers, "_");
    if (global) name = owner.name() + "_global_wrapper";
    Function w = clone ? make_clone(owner, name) : make_identity(owner, name);
    w.get()->wrapped = owner.get();
    if (global) callers.push_back("");
    for (const std::string &c : callers)
        owner.wrappers().push_back(WrapperEntry{c, w.get(), clone});
    note_wrapper_made();
    owner.invalidate_cache();
    return w;
}

Function get_buffer_wrapper(const Buffer<> &buffer, const std::vector<Function> &callers) {
    if (!buffer.defined()) user_error("in() of an undefined Buffer");
    std::vector<std::string> names;
    for (const Function &c : callers) names.push_back(c.name());
    const std::string what = call_text(buffer.name(), "in", names);
    if (callers.empty())
        user_error(what << " names no Func to wrap Buffer " << buffer.name()
                        << " for; a Buffer's wrappers belong to the Funcs that read it");
    const FunctionContents *found = nullptr;
    std::vector<std::string> with, without;
    for (size_t i = 0; i < callers.size(); i++) {
        if (std::count(names.begin(), names.end(), names[i]) > 1)
            user_error(what << " names Func " << names[i] << " twice");
        const FunctionContents *own = nullptr;
        for (const auto &bw : callers[i].get()->buffer_wrappers)
            if (bw.buffer.same_as(buffer)) own = bw.wrapper.get();
        (own ? with : without).push_back(names[i]);
        if (own && found && own != found)
            user_error(what << ": the callers already use different wrappers of Buffer "
                            << buffer.name() << "; one wrapper cannot replace both");
        if (own) found = own;
    }
    if (found && !without.empty())
        user_error(what << ": " << joined(with, ", ") << " already read Buffer " << buffer.name()
                        << " through " << found->name << ", but " << joined(without, ", ")
                        << " not; wrap them separately, or ask for the same set of callers");
    if (found) return Function(const_cast<FunctionContents *>(found));

    std::vector<std::string> args;
    std::vector<Expr> coords;
    for (int d = 0; d < buffer.dimensions(); d++) {
        args.push_back("_" + std::to_string(d));
        coords.push_back(Variable::make(Int(32), args.back()));
    }
    Function w(buffer.name() + "_im_in_" + joined(names, "_"));
    w.define(args, {Call::make(buffer, coords)});
    w.get()->wrapped_buffer = buffer;
    for (Function c : callers) {
        c.get()->buffer_wrappers.push_back({buffer, w.get()});
        c.invalidate_cache();
    }
    note_wrapper_made();
    return w;
}

std::vector<std::string> wrapper_callers(const Function &w, bool *clone) {
    std::vector<std::string> callers;
    if (!w.is_wrapper()) return callers;
    for (const WrapperEntry &e : w.wrapped().wrappers()) {
        if (e.wrapper.get() != w.get()) continue;
        callers.push_back(e.caller);
        if (clone) *clone = e.clone;
    }
    return callers;
}

} // namespace Internal

namespace {

std::vector<std::string> names_of(const std::vector<Func> &fs) {
    std::vector<std::string> names;
    for (const Func &f : fs) names.push_back(f.name());
    return names;
}

} // namespace

Func Func::in(const Func &f) {
    return in(std::vector<Func>{f});
}

Func Func::in(const std::vector<Func> &fs) {
    Func w(get_wrapper(func_, names_of(fs), false, false));
    w.wrapped_ = func_;
    return w;
}

Func Func::in() {
    Func w(get_wrapper(func_, {}, true, false));
    w.wrapped_ = func_;
    return w;
}

Func Func::clone_in(const Func &f) {
    return clone_in(std::vector<Func>{f});
}

Func Func::clone_in(const std::vector<Func> &fs) {
    Func w(get_wrapper(func_, names_of(fs), false, true));
    w.wrapped_ = func_;
    return w;
}

Func Internal::buffer_in(const Buffer<> &buffer, const std::vector<Func> &callers) {
    std::vector<Function> functions;
    for (const Func &f : callers) functions.push_back(f.function());
    return Func(get_buffer_wrapper(buffer, functions));
}

Func ImageParam::in(const Func &f) {
    return Func(*this).in(f);
}

Func ImageParam::in(const std::vector<Func> &fs) {
    return Func(*this).in(fs);
}

Func ImageParam::in() {
    return Func(*this).in();
}

} // namespace loom
