#ifndef LOOM_FUNCTION_H
#define LOOM_FUNCTION_H

/** \file Internal::Function: the definitions and schedule behind a Func. */

#include <map>
#include <string>
#include <vector>

#include "loom/Expr.h"
#include "loom/Parameter.h"
#include "loom/Schedule.h"

namespace loom {
namespace Internal {

/** One definition of a Func: the pure one or an update. */
struct Definition {
    std::vector<Expr> args;   // left-hand side coordinates (Variables for the pure definition)
    std::vector<Expr> values; // one per tuple element
    StageSchedule schedule;
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
};

/** A fresh value for FunctionContents::version. */
uint64_t next_function_version();

/** A handle to the shared state of a Func; Call nodes point at it. */
class Function {
    IntrusivePtr<FunctionContents> contents;

public:
    Function() = default;
    explicit Function(const std::string &name);

    bool defined() const { return contents.defined(); }
    /** Has a pure definition been given? */
    bool has_pure_definition() const {
        return contents.defined() && !contents->init.values.empty();
    }

    const std::string &name() const { return contents->name; }
    const std::vector<std::string> &args() const { return contents->args; }
    int dimensions() const { return int(contents->args.size()); }
    const std::vector<Type> &output_types() const { return contents->output_types; }
    int outputs() const { return int(contents->output_types.size()); }
    const std::vector<Expr> &values() const { return contents->init.values; }

    /** Give the pure definition f(args) = values. Throws CompileError when
     * redefined, when args are not distinct Vars, or when values use free Vars. */
    void define(const std::vector<std::string> &args, const std::vector<Expr> &values);

    Definition &definition() { return contents->init; }
    const Definition &definition() const { return contents->init; }
    std::vector<Definition> &updates() { return contents->updates; }
    const std::vector<Definition> &updates() const { return contents->updates; }
    FuncSchedule &schedule() { return contents->schedule; }
    const FuncSchedule &schedule() const { return contents->schedule; }

    uint64_t version() const { return contents->version; }
    /** Record a change to the definition or schedule (invalidates compiled pipelines). */
    void invalidate_cache() { contents->version = next_function_version(); }
    const std::vector<Parameter> &output_buffers() const { return contents->output_buffers; }

    bool same_as(const Function &o) const { return contents.get() == o.contents.get(); }
    FunctionContents *get() const { return contents.get(); }
    bool operator<(const Function &o) const { return contents.get() < o.contents.get(); }
};

} // namespace Internal
} // namespace loom

#endif
