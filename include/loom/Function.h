#ifndef LOOM_FUNCTION_H
#define LOOM_FUNCTION_H

/** \file Internal::Function: the definitions and schedule behind a Func. */

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "loom/Expr.h"
#include "loom/Parameter.h"
#include "loom/Reduction.h"
#include "loom/Schedule.h"

namespace loom {
namespace Internal {

struct RFactorRecord;
class Function;

/** A wrapper of a Func or image (Func::in, clone_in, ImageParam::in) and the
 * callers that use it; an empty caller name stands for every other caller
 * (the global wrapper of in()). */
struct WrapperEntry {
    std::string caller;
    IntrusivePtr<struct FunctionContents> wrapper;
    bool clone = false; // clone_in: a copy of the Func, not a call of it
};

/** One definition of a Func: the pure one or an update. */
struct Definition {
    std::vector<Expr> args;   // left-hand side coordinates (Variables for the pure definition)
    std::vector<Expr> values; // one per tuple element
    StageSchedule schedule;
    /** Update definitions: the reduction domain's variables (innermost
     * first) and its where() conditions, copied when the update was defined. */
    std::vector<ReductionVariable> rvars;
    std::vector<Expr> predicates;
    /** atomic(): concurrent iterations update the Func with atomic
     * read-modify-write operations, so parallel loops over RVars are legal. */
    bool atomic = false;
    /** Set on the merge update rfactor() leaves: the update it replaced and
     * how (schedules as values re-create or undo it; src/frontend/RFactor.h). */
    std::shared_ptr<const RFactorRecord> rfactored;
};

struct FunctionContents : RefCounted {
    std::string name;
    std::vector<std::string> args; // pure argument names, in order
    std::vector<Type> output_types;
    Definition init;
    std::vector<Definition> updates;
    FuncSchedule schedule;
    /** Bumped (from a process-wide counter) whenever a definition or schedule
     * changes, so compiled pipelines know when to recompile. */
    uint64_t version = 0;
    /** One buffer parameter per tuple element: the output buffer when this
     * Func is a pipeline output; carries output_buffer() constraints. */
    std::vector<Parameter> output_buffers;
    /** Func(Type, dims, name): the types and dimension count its definition
     * must have (empty / -1 when not required). */
    std::vector<Type> required_types;
    int required_dimensions = -1;
    /** Func::trace_loads/trace_stores/trace_realizations/add_trace_tag. */
    bool trace_loads = false, trace_stores = false, trace_realizations = false;
    std::vector<std::string> trace_tags;

    /** The wrappers of this Func (or of the image when this is an
     * ImageParam's Func), owned here so that a wrapper made in a schedule
     * lives as long as what it wraps. The calls to them replace the calls to
     * this Func when a pipeline is compiled (lower/WrapCalls.h). */
    std::vector<WrapperEntry> wrappers;
    /** On a wrapper: the Func (or ImageParam's Func) it wraps. Not owned: the
     * wrapped Func owns its wrappers, and whatever calls a wrapper in its
     * place keeps the wrapped Func alive (kept_alive). */
    FunctionContents *wrapped = nullptr;
    /** Funcs whose calls in this Func's definitions were redirected to their
     * wrappers: kept alive, since the wrappers' own calls to them are weak. */
    std::vector<IntrusivePtr<FunctionContents>> kept_alive;
    /** On an ImageParam's Func: the image, whose back pointer to this Func is
     * cleared when this Func goes. */
    Parameter image;
    /** Buffer::in(): wrappers this Func reads instead of concrete Buffers,
     * owned by their callers (a Buffer has no place to hold them). */
    struct BufferWrapper {
        Buffer<> buffer;
        IntrusivePtr<FunctionContents> wrapper;
    };
    std::vector<BufferWrapper> buffer_wrappers;
    /** On a wrapper made by Buffer::in(): the Buffer it reads. */
    Buffer<> wrapped_buffer;

    FunctionContents() = default;
    FunctionContents(const FunctionContents &) = default;
    ~FunctionContents() override;
};

/** Calls of `from` in the definition become weak calls of `to` (a clone's
 * calls of itself, when it was copied from `from`). */
void repoint_self_calls(Definition &def, const Function &from, const Function &to);

/** A fresh value for FunctionContents::version. */
uint64_t next_function_version();

/** A handle to the shared state of a Func; Call nodes point at it. A Func's
 * own definitions call it through a weak handle (weak()), so a
 * self-referencing update is not a reference cycle: the definitions live in
 * the contents, so a weak call inside them never outlives its target. */
class Function {
    IntrusivePtr<FunctionContents> strong_;
    FunctionContents *weak_ = nullptr;
    FunctionContents *ptr() const { return strong_.defined() ? strong_.get() : weak_; }

public:
    Function() = default;
    explicit Function(const std::string &name);
    /** A strong handle to existing contents. */
    explicit Function(FunctionContents *contents) : strong_(contents) {}

    bool defined() const { return ptr() != nullptr; }
    /** Has a pure definition been given? */
    bool has_pure_definition() const { return defined() && !ptr()->init.values.empty(); }
    /** A handle that does not keep the Func alive (for self-references). */
    Function weak() const {
        Function f;
        f.weak_ = ptr();
        return f;
    }
    bool is_weak() const { return !strong_.defined() && weak_; }

    const std::string &name() const { return ptr()->name; }
    const std::vector<std::string> &args() const { return ptr()->args; }
    int dimensions() const { return int(ptr()->args.size()); }
    const std::vector<Type> &output_types() const { return ptr()->output_types; }
    /** Require the pure definition to have these types and dimensions
     * (Func(Type, dims, name)); checked by define(). */
    void set_requirements(const std::vector<Type> &types, int dimensions) {
        ptr()->required_types = types;
        ptr()->required_dimensions = dimensions;
    }
    const std::vector<Type> &required_types() const { return ptr()->required_types; }
    int required_dimensions() const { return ptr()->required_dimensions; }
    int outputs() const { return int(ptr()->output_types.size()); }
    const std::vector<Expr> &values() const { return ptr()->init.values; }

    /** Give the pure definition f(args) = values. Throws CompileError when
     * redefined, when args are not distinct Vars, or when values use free Vars. */
    void define(const std::vector<std::string> &args, const std::vector<Expr> &values);
    /** Add an update definition f(args) = values. Throws CompileError when
     * the Func has no pure definition, the arity or types differ, a free Var
     * is not a pure argument in its own position, or several RDoms are used. */
    void define_update(const std::vector<Expr> &args, const std::vector<Expr> &values);
    /** Has at least one update definition been given? */
    bool has_update_definition() const { return defined() && !ptr()->updates.empty(); }

    Definition &definition() { return ptr()->init; }
    const Definition &definition() const { return ptr()->init; }
    std::vector<Definition> &updates() { return ptr()->updates; }
    const std::vector<Definition> &updates() const { return ptr()->updates; }
    FuncSchedule &schedule() { return ptr()->schedule; }
    const FuncSchedule &schedule() const { return ptr()->schedule; }

    bool is_tracing_loads() const { return ptr()->trace_loads; }
    bool is_tracing_stores() const { return ptr()->trace_stores; }
    bool is_tracing_realizations() const { return ptr()->trace_realizations; }
    const std::vector<std::string> &trace_tags() const { return ptr()->trace_tags; }

    uint64_t version() const { return ptr()->version; }
    /** Record a change to the definition or schedule (invalidates compiled pipelines). */
    void invalidate_cache() { ptr()->version = next_function_version(); }
    const std::vector<Parameter> &output_buffers() const { return ptr()->output_buffers; }

    /** in() wrappers (see FunctionContents::wrappers). */
    std::vector<WrapperEntry> &wrappers() { return ptr()->wrappers; }
    const std::vector<WrapperEntry> &wrappers() const { return ptr()->wrappers; }
    /** The wrapper a caller of this name uses: its own, else the global one
     * (unless the caller is itself a wrapper of this Func); undefined if none. */
    Function wrapper_for(const Function &caller) const;
    /** On a wrapper: a strong handle to the Func it wraps; undefined otherwise. */
    Function wrapped() const { return ptr()->wrapped ? Function(ptr()->wrapped) : Function(); }
    bool is_wrapper() const { return ptr()->wrapped != nullptr; }

    bool same_as(const Function &o) const { return ptr() == o.ptr(); }
    FunctionContents *get() const { return ptr(); }
    bool operator<(const Function &o) const { return ptr() < o.ptr(); }
};

} // namespace Internal
} // namespace loom

#endif
