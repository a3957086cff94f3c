#ifndef LOOM_FUNC_H
#define LOOM_FUNC_H

/** \file Func: a pure function over integer coordinates, defined by an Expr
 * (`f(x, y) = x + y;`), realized over a domain or used by other Funcs. */

#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "loom/Argument.h"
#include "loom/Buffer.h"
#include "loom/Expr.h"
#include "loom/Function.h"
#include "loom/ImageParam.h"
#include "loom/Pipeline.h"
#include "loom/RDom.h"
#include "loom/Realization.h"
#include "loom/Schedule.h"
#include "loom/Stage.h"
#include "loom/Target.h"
#include "loom/Tuple.h"
#include "loom/Var.h"

namespace loom {

/** A value that leaves a tuple element of an update definition unchanged:
 * f(x) = Tuple(undef<int>(), f(x)[1] + 1). */
Expr undef(Type t);
template <typename T> Expr undef() {
    return undef(type_of<T>());
}

class FuncTupleElementRef;

/** f(args) on either side of a definition: assigning defines f (the pure
 * definition when f is undefined and args are distinct Vars, an update
 * otherwise) and returns the Stage of that definition; reading converts to a
 * call of f. The placeholder `_` among args stands for implicit Vars (see
 * Var::implicit). */
class FuncRef {
    Internal::Function func_;
    std::vector<Expr> args_;
    int placeholder_ = -1; // where `_` stood on a left-hand side (-1: nowhere)

    enum class UpdateOp { Add, Sub, Mul, Div };
    Stage update(const Tuple &e, UpdateOp op);
    Stage define(const std::vector<Expr> &values);
    /** args_ with the implicit Vars that values use put where `_` stood. */
    std::vector<Expr> args_with_implicit_vars(const std::vector<Expr> &values) const;

public:
    FuncRef(const Internal::Function &f, std::vector<Expr> args, int placeholder = -1)
        : func_(f), args_(std::move(args)), placeholder_(placeholder) {}

    /** Define the Func: f(x, y) = value (pure), f(e0, e1) = value (update). */
    Stage operator=(const Expr &value);
    Stage operator=(const Tuple &values);
    Stage operator=(const FuncRef &other);
    FuncRef(const FuncRef &) = default;

    /** Update definitions f(args) = f(args) op e. On a Func with no
     * definition yet, first define it as 0 (+=, -=) or 1 (*=, /=) everywhere. */
    Stage operator+=(const Expr &e) { return update(Tuple(std::vector<Expr>{e}), UpdateOp::Add); }
    Stage operator-=(const Expr &e) { return update(Tuple(std::vector<Expr>{e}), UpdateOp::Sub); }
    Stage operator*=(const Expr &e) { return update(Tuple(std::vector<Expr>{e}), UpdateOp::Mul); }
    Stage operator/=(const Expr &e) { return update(Tuple(std::vector<Expr>{e}), UpdateOp::Div); }
    Stage operator+=(const Tuple &e) { return update(e, UpdateOp::Add); }
    Stage operator-=(const Tuple &e) { return update(e, UpdateOp::Sub); }
    Stage operator*=(const Tuple &e) { return update(e, UpdateOp::Mul); }
    Stage operator/=(const Tuple &e) { return update(e, UpdateOp::Div); }
    Stage operator+=(const FuncRef &e) { return update(Tuple(e), UpdateOp::Add); }
    Stage operator-=(const FuncRef &e) { return update(Tuple(e), UpdateOp::Sub); }
    Stage operator*=(const FuncRef &e) { return update(Tuple(e), UpdateOp::Mul); }
    Stage operator/=(const FuncRef &e) { return update(Tuple(e), UpdateOp::Div); }

    /** A call of the Func at these coordinates (single-valued Funcs). */
    operator Expr() const;
    /** Element i of a Tuple-valued Func at these coordinates: read it, or
     * assign it (`f(x)[1] = e` updates element 1 only). */
    FuncTupleElementRef operator[](int i) const;
    /** Every element, as a Tuple (also fine for single-valued Funcs). */
    operator Tuple() const;
    /** The number of values of the Func. */
    size_t size() const;

    const std::vector<Expr> &arguments() const { return args_; }
    const Internal::Function &function() const { return func_; }
};

/** f(args)[i]: one element of a Tuple-valued Func at some coordinates. Read
 * it as an Expr, or assign it: an update definition that sets element i and
 * leaves the others unchanged (undef() for them). */
class FuncTupleElementRef {
    FuncRef ref_;
    int index_;

    /** e at the element's index, undef() elsewhere. */
    Tuple values_with_undefs(const Expr &e) const;

public:
    FuncTupleElementRef(const FuncRef &ref, int index) : ref_(ref), index_(index) {}
    FuncTupleElementRef(const FuncTupleElementRef &) = default;

    Stage operator=(const Expr &e);
    Stage operator=(const FuncRef &e);
    Stage operator=(const FuncTupleElementRef &e);
    Stage operator+=(const Expr &e);
    Stage operator-=(const Expr &e);
    Stage operator*=(const Expr &e);
    Stage operator/=(const Expr &e);

    /** A call of element index() of the Func at these coordinates. */
    operator Expr() const;
    int index() const { return index_; }
    const FuncRef &func_ref() const { return ref_; }
};

class Func {
    Internal::Function func_;
    mutable Pipeline pipeline_; // built on first realize; caches the compiled code
    /** On a wrapper made by in(): what it wraps, kept alive by this handle
     * (the wrapper's own call of it is weak). */
    Internal::Function wrapped_;

    Pipeline &pipeline() const;

public:
    /** A Func with a unique automatic name. */
    Func();
    explicit Func(const std::string &name);
    explicit Func(const char *name) : Func(std::string(name)) {}
    /** A Func whose definition must have this type (or these types) and this
     * many dimensions; an empty name picks a unique one. */
    Func(const Type &required_type, int required_dims, const std::string &name = "");
    Func(const std::vector<Type> &required_types, int required_dims, const std::string &name = "");
    /** A zero-dimensional Func with the value e. */
    explicit Func(const Expr &e);
    explicit Func(const Internal::Function &f) : func_(f) {}
    /** A Func that reads the buffer: f(_) = im(_). */
    template <typename T, int Dims>
    explicit Func(const Buffer<T, Dims> &im) : Func(Buffer<>(im), 0) {}

    /** f(x, y, ...): a reference to define (f(x) = ...) or to read. */
    FuncRef operator()(std::vector<Expr> args) const;
    FuncRef operator()(const std::vector<Var> &args) const;
    template <typename... Args,
              typename = std::enable_if_t<(std::is_convertible_v<Args, Expr> && ...)>>
    FuncRef operator()(const Args &...args) const {
        return (*this)(std::vector<Expr>{Expr(args)...});
    }

    const std::string &name() const { return func_.name(); }
    bool defined() const { return func_.has_pure_definition(); }
    /** The number of arguments (the required number before a definition). */
    int dimensions() const;
    /** The pure arguments of the definition. */
    std::vector<Var> args() const;
    /** The value of the pure definition (CompileError if undefined or a Tuple). */
    Expr value() const;
    /** Every value of the pure definition. */
    Tuple values() const;
    /** The type of the value (CompileError if undefined and no type is
     * required, or a Tuple). */
    Type type() const;
    const std::vector<Type> &types() const;
    Type output_type() const { return type(); }
    const std::vector<Type> &output_types() const { return types(); }
    int outputs() const;
    /** The pure definition's Stage. */
    operator Stage() const; // NOLINT: implicit, as in Halide

    /** The output buffer's constraints, for when this Func is realized. */
    OutputImageParam output_buffer() const;
    std::vector<OutputImageParam> output_buffers() const;

    Realization realize(std::vector<int> sizes = {},
                        const Target &target = get_jit_target_from_environment());
    void realize(Realization outputs, const Target &target = get_jit_target_from_environment());
    /** As above, with per-call handlers (JITHandlers.h). */
    Realization realize(JITUserContext *context, std::vector<int> sizes = {},
                        const Target &target = get_jit_target_from_environment());
    void realize(JITUserContext *context, Realization outputs,
                 const Target &target = get_jit_target_from_environment());
    void compile_jit(const Target &target = get_jit_target_from_environment());
    /** Bind each unbound ImageParam the Func reads to a new Buffer of the
     * region realizing it over these sizes (or outputs) needs (see Pipeline). */
    void infer_input_bounds(const std::vector<int> &sizes,
                            const Target &target = get_jit_target_from_environment());
    void infer_input_bounds(Realization outputs,
                            const Target &target = get_jit_target_from_environment());
    void infer_input_bounds(JITUserContext *context, const std::vector<int> &sizes,
                            const Target &target = get_jit_target_from_environment());
    void infer_input_bounds(JITUserContext *context, Realization outputs,
                            const Target &target = get_jit_target_from_environment());
    /** The ImageParams and Params the Func reads (buffers, then scalars, by name). */
    std::vector<Argument> infer_arguments() const;
    /** Compile once for a fixed argument list (see Callable.h). */
    Callable compile_to_callable(const std::vector<Argument> &args,
                                 const Target &target = get_jit_target_from_environment());
    /** Handlers of this Func's JIT calls (see Pipeline::jit_handlers). */
    JITHandlers &jit_handlers();
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
    void compile_to_lowered_stmt(const std::string &filename,
                                 const std::vector<Argument> &args = {},
                                 StmtOutputFormat format = StmtOutputFormat::Text,
                                 const Target &target = get_target_from_environment());
    /** Write (or return) the device source of every GPU kernel (OpenCL C). */
    void compile_to_device_source(const std::string &filename,
                                  const std::vector<Argument> &args = {},
                                  const Target &target = get_target_from_environment());
    std::string device_source(const std::vector<Argument> &args = {},
                              const Target &target = get_target_from_environment());
    void compile_to_llvm_assembly(const std::string &filename,
                                  const std::vector<Argument> &args = {},
                                  const std::string &fn_name = "",
                                  const Target &target = get_target_from_environment());
    void compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                  const Target &target);
    void compile_to_conceptual_stmt(const std::string &filename,
                                    const std::vector<Argument> &args = {},
                                    StmtOutputFormat format = StmtOutputFormat::Text,
                                    const Target &target = get_target_from_environment());
    void print_loop_nest();
    // Ahead-of-time outputs: see Pipeline (implemented in src/frontend/FuncAOT.cpp).
    void compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args,
                            const std::string &fn_name = "",
                            const Target &target = get_target_from_environment());
    void compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args,
                            const Target &target);
    Module compile_to_module(const std::vector<Argument> &args, const std::string &fn_name = "",
                             const Target &target = get_target_from_environment());
    void compile_to(const std::map<OutputFileType, std::string> &output_files,
                    const std::vector<Argument> &args, const std::string &fn_name,
                    const Target &target = get_target_from_environment());
    void compile_to_multitarget_static_library(const std::string &filename_prefix,
                                               const std::vector<Argument> &args,
                                               const std::vector<Target> &targets);
    void compile_to_multitarget_object_files(const std::string &filename_prefix,
                                             const std::vector<Argument> &args,
                                             const std::vector<Target> &targets,
                                             const std::vector<std::string> &suffixes = {});
    void compile_to_static_library(const std::string &filename_prefix,
                                   const std::vector<Argument> &args,
                                   const std::string &fn_name = "",
                                   const Target &target = get_target_from_environment());
    void compile_to_object(const std::string &filename, const std::vector<Argument> &args,
                           const std::string &fn_name = "",
                           const Target &target = get_target_from_environment());
    void compile_to_object(const std::string &filename, const std::vector<Argument> &args,
                           const Target &target);
    void compile_to_header(const std::string &filename, const std::vector<Argument> &args,
                           const std::string &fn_name = "",
                           const Target &target = get_target_from_environment());
    void compile_to_assembly(const std::string &filename, const std::vector<Argument> &args,
                             const std::string &fn_name = "",
                             const Target &target = get_target_from_environment());
    void compile_to_assembly(const std::string &filename, const std::vector<Argument> &args,
                             const Target &target);
    void compile_to_c(const std::string &filename, const std::vector<Argument> &args,
                      const std::string &fn_name = "",
                      const Target &target = get_target_from_environment());
    void compile_to_file(const std::string &filename_prefix, const std::vector<Argument> &args,
                         const std::string &fn_name = "",
                         const Target &target = get_target_from_environment());

    // ---- Scheduling. Loop methods act on the pure definition (stage 0);
    // update(i) gives the Stage of update i. All return *this for chaining.

    /** The Stage of update definition i. */
    Stage update(int i = 0);
    /** Number of update definitions. */
    int num_update_definitions() const;
    bool has_update_definition() const { return func_.has_update_definition(); }
    /** The left-hand side and values of update i. */
    std::vector<Expr> update_args(int i = 0) const;
    Expr update_value(int i = 0) const;
    Tuple update_values(int i = 0) const;

    /** Split the reduction of update 0 (see Stage::rfactor). */
    Func rfactor(std::vector<std::pair<RVar, Var>> preserved);
    Func rfactor(const RVar &r, const Var &v);
    /** Update 0 uses atomic read-modify-writes, so it may run in parallel over RVars. */
    Func &atomic();
    /** See Stage::hexagon(): a CompileError in Loom, which has no Hexagon backend. */
    Func &hexagon();
    Func &hexagon(const VarOrRVar &x);

    Func &split(const VarOrRVar &old, const VarOrRVar &outer, const VarOrRVar &inner,
                const Expr &factor, TailStrategy tail = TailStrategy::Auto);
    Func &fuse(const VarOrRVar &inner, const VarOrRVar &outer, const VarOrRVar &fused);
    Func &rename(const VarOrRVar &old_name, const VarOrRVar &new_name);
    /** Reorder loops, innermost first: reorder(x, y) makes x the inner loop. */
    Func &reorder(const std::vector<VarOrRVar> &vars);
    template <typename... Args,
              typename = std::enable_if_t<(std::is_convertible_v<Args, VarOrRVar> && ...)>>
    Func &reorder(const VarOrRVar &x, const VarOrRVar &y, const Args &...rest) {
        return reorder(std::vector<VarOrRVar>{x, y, VarOrRVar(rest)...});
    }
    Func &tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xo, const VarOrRVar &yo,
               const VarOrRVar &xi, const VarOrRVar &yi, const Expr &xfactor, const Expr &yfactor,
               TailStrategy tail = TailStrategy::Auto);
    Func &tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xi, const VarOrRVar &yi,
               const Expr &xfactor, const Expr &yfactor, TailStrategy tail = TailStrategy::Auto);
    Func &unroll(const VarOrRVar &var);
    Func &unroll(const VarOrRVar &var, const Expr &factor, TailStrategy tail = TailStrategy::Auto);
    Func &vectorize(const VarOrRVar &var);
    Func &vectorize(const VarOrRVar &var, const Expr &factor,
                    TailStrategy tail = TailStrategy::Auto);
    Func &parallel(const VarOrRVar &var);
    Func &parallel(const VarOrRVar &var, const Expr &task_size,
                   TailStrategy tail = TailStrategy::Auto);
    Func &serial(const VarOrRVar &var);

    // GPU loops of the pure definition (see Stage for the rules; update(i)
    // gives the same methods for updates).

    /** Run loop block_x over the blocks of a GPU grid. */
    Func &gpu_blocks(const VarOrRVar &block_x, DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** Run two loops over a 2-D grid of GPU blocks (block_x is dimension x). */
    Func &gpu_blocks(const VarOrRVar &block_x, const VarOrRVar &block_y,
                     DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** Run three loops over a 3-D grid of GPU blocks. */
    Func &gpu_blocks(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &block_z,
                     DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** Run loop thread_x over the threads of a GPU block. */
    Func &gpu_threads(const VarOrRVar &thread_x, DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** Run two loops over a 2-D block of GPU threads (thread_x is dimension x). */
    Func &gpu_threads(const VarOrRVar &thread_x, const VarOrRVar &thread_y,
                      DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** Run three loops over a 3-D block of GPU threads. */
    Func &gpu_threads(const VarOrRVar &thread_x, const VarOrRVar &thread_y,
                      const VarOrRVar &thread_z, DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** Run loop thread_x over the lanes of a GPU warp. */
    Func &gpu_lanes(const VarOrRVar &thread_x, DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** Compute the pure definition serially in one GPU thread of one block. */
    Func &gpu_single_thread(DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** gpu_blocks(block_x) and gpu_threads(thread_x). */
    Func &gpu(const VarOrRVar &block_x, const VarOrRVar &thread_x,
              DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** gpu_blocks(block_x, block_y) and gpu_threads(thread_x, thread_y). */
    Func &gpu(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &thread_x,
              const VarOrRVar &thread_y, DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** gpu_blocks(block_x, block_y, block_z) and gpu_threads(thread_x, thread_y, thread_z). */
    Func &gpu(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &block_z,
              const VarOrRVar &thread_x, const VarOrRVar &thread_y, const VarOrRVar &thread_z,
              DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** Split x by x_size into GPU blocks bx and threads tx (tx inside bx). */
    Func &gpu_tile(const VarOrRVar &x, const VarOrRVar &bx, const VarOrRVar &tx, const Expr &x_size,
                   TailStrategy tail = TailStrategy::Auto,
                   DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** The same, with x itself as the block loop. */
    Func &gpu_tile(const VarOrRVar &x, const VarOrRVar &tx, const Expr &x_size,
                   TailStrategy tail = TailStrategy::Auto,
                   DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** Tile x, y into GPU blocks bx, by and threads tx, ty: loops by, bx,
     * ty, tx (outermost first). */
    Func &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &bx, const VarOrRVar &by,
                   const VarOrRVar &tx, const VarOrRVar &ty, const Expr &x_size, const Expr &y_size,
                   TailStrategy tail = TailStrategy::Auto,
                   DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** The same, with x and y themselves as the block loops. */
    Func &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &tx, const VarOrRVar &ty,
                   const Expr &x_size, const Expr &y_size, TailStrategy tail = TailStrategy::Auto,
                   DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** Tile x, y, z into GPU blocks bx, by, bz and threads tx, ty, tz. */
    Func &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z, const VarOrRVar &bx,
                   const VarOrRVar &by, const VarOrRVar &bz, const VarOrRVar &tx,
                   const VarOrRVar &ty, const VarOrRVar &tz, const Expr &x_size, const Expr &y_size,
                   const Expr &z_size, TailStrategy tail = TailStrategy::Auto,
                   DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** The same, with x, y and z themselves as the block loops. */
    Func &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z, const VarOrRVar &tx,
                   const VarOrRVar &ty, const VarOrRVar &tz, const Expr &x_size, const Expr &y_size,
                   const Expr &z_size, TailStrategy tail = TailStrategy::Auto,
                   DeviceAPI device_api = DeviceAPI::Default_GPU);

    /** Specialize the pure definition's schedule for when condition holds. */
    Stage specialize(const Expr &condition);
    void specialize_fail(const std::string &message);

    /** The pure variable var covers exactly [min, min + extent). */
    Func &bound(const Var &var, const Expr &min, const Expr &extent);
    Func &bound_extent(const Var &var, const Expr &extent);
    /** Grow the computed region of var so its min is remainder mod modulus
     * and its extent a multiple of modulus. */
    Func &align_bounds(const Var &var, const Expr &modulus, const Expr &remainder = 0);
    /** Storage order, innermost first; unnamed dimensions keep their places. */
    Func &reorder_storage(const std::vector<Var> &dims);
    template <typename... Args,
              typename = std::enable_if_t<(std::is_convertible_v<Args, Var> && ...)>>
    Func &reorder_storage(const Var &x, const Var &y, const Args &...rest) {
        return reorder_storage(std::vector<Var>{x, y, Var(rest)...});
    }
    /** Store var's dimension in a circular buffer of extent elements. */
    Func &fold_storage(const Var &var, const Expr &extent, bool fold_forward = true);
    Func &store_in(MemoryType type);

    /** Tracing (as Halide's): every run reports each load of this Func
     * (trace_loads), each store to it (trace_stores), or its realizations
     * with their produce and consume phases (trace_realizations) to the
     * call's custom_trace handler, which by default prints one line per
     * event. The target features trace_loads, trace_stores,
     * trace_realizations (trace_all: the three) and trace_pipeline do the
     * same for every Func. Inlined Funcs have no loads or stores to trace. */
    Func &trace_loads();
    Func &trace_stores();
    Func &trace_realizations();
    /** A tag event carrying `trace_tag`, sent after begin_pipeline in
     * every run that traces this Func (tags of a Func keep their order). */
    Func &add_trace_tag(const std::string &trace_tag);

    Func &compute_root();
    Func &compute_at(const Func &f, const Var &var);
    Func &compute_at(const Func &f, const RVar &var);
    Func &compute_at(LoopLevel level);
    Func &store_root();
    Func &store_at(const Func &f, const Var &var);
    Func &store_at(const Func &f, const RVar &var);
    Func &store_at(LoopLevel level);
    /** The default. A Func with update definitions (or an undef() value)
     * cannot be substituted: it is computed at the innermost loop that
     * encloses all its uses, outside any vectorized or GPU loop (as in Halide). */
    Func &compute_inline();

    /** Wrappers (as Halide's): a new Func `f_in_g(args) = f(args)` that g
     * calls instead of this Func f once the pipeline is compiled, so that
     * the values g reads can be scheduled on their own (copied into a tile,
     * staged in GPU shared memory, vectorized differently). Asking again for
     * the same callers gives the same wrapper. A wrapper is a Func like any
     * other: it can be wrapped in turn, and a caller defined after in() uses
     * it too. */
    Func in(const Func &f);
    /** One wrapper shared by these callers (`f_in_g_h`). */
    Func in(const std::vector<Func> &fs);
    /** The global wrapper (`f_global_wrapper`): every caller that has no
     * wrapper of its own calls it instead of this Func. */
    Func in();
    /** As in(f), but the wrapper (`f_clone_in_g`) is a copy of this Func,
     * definitions and schedule as they are now, not a call of it: the same
     * values computed twice, scheduled separately. */
    Func clone_in(const Func &f);
    Func clone_in(const std::vector<Func> &fs);

    /** The expected min and extent of the pure Var var, for auto-schedulers:
     * stored (in function().schedule().estimates), never checked or relied on. */
    Func &set_estimate(const Var &var, const Expr &min, const Expr &extent);
    /** One {min, extent} estimate per pure Var, in argument order. */
    Func &set_estimates(const Region &estimates);

    Internal::Function function() const { return func_; }

private:
    Func(const Buffer<> &im, int); // Func(Buffer) for every element type
};

namespace Internal {
/** Buffer::in: the wrapper of the buffer's reads in these callers. */
Func buffer_in(const Buffer<> &buffer, const std::vector<Func> &callers);
} // namespace Internal

template <typename T, int Dims> Func Buffer<T, Dims>::in(const Func &f) const {
    return Internal::buffer_in(Buffer<>(*this), {f});
}

template <typename T, int Dims> Func Buffer<T, Dims>::in(const std::vector<Func> &fs) const {
    return Internal::buffer_in(Buffer<>(*this), fs);
}

/** Prints the Func's definitions, e.g. "f(x, y) = (x + y)", one per line. */
std::ostream &operator<<(std::ostream &os, const Func &f);

} // namespace loom

#endif
