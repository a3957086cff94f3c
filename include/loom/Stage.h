#ifndef LOOM_STAGE_H
#define LOOM_STAGE_H

/** \file Stage: one definition of a Func (the pure one or an update) and the
 * loop transformations of its schedule. */

#include <string>
#include <type_traits>
#include <vector>

#include "loom/Expr.h"
#include "loom/Function.h"
#include "loom/RDom.h"
#include "loom/Schedule.h"
#include "loom/Var.h"

namespace loom {

class Func;

/** A loop variable named in a schedule: a Var, an RVar, or a 1-D RDom. */
class VarOrRVar {
    std::string name_;
    bool is_rvar_ = false;

public:
    VarOrRVar(const Var &v) : name_(v.name()) {}                  // NOLINT: implicit on purpose
    VarOrRVar(const RVar &r) : name_(r.name()), is_rvar_(true) {} // NOLINT
    VarOrRVar(const RDom &r) : VarOrRVar(RVar(r)) {}              // NOLINT
    VarOrRVar(const std::string &name, bool is_rvar) : name_(name), is_rvar_(is_rvar) {}
    const std::string &name() const { return name_; }
    bool is_rvar() const { return is_rvar_; }
};

/** A schedulable definition of a Func. Func's own loop methods act on stage
 * 0 (the pure definition); Func::update(i) gives update i; specialize()
 * gives a stage whose schedule is used only when its condition holds. */
class Stage {
    Internal::Function func_;
    int stage_ = 0;
    std::vector<size_t> specialization_path_; // nested specialize() indices

    Internal::StageSchedule &schedule() const;
    /** Record a change: marks the stage touched and invalidates compiled code. */
    Internal::StageSchedule &modify() const;
    std::string description() const;
    /** Mark `vars` as GPU loops of type t after checking them all; messages
     * show the call as primitive(args) (args empty: the vars' names). */
    Stage &mark_gpu_loops(const std::vector<VarOrRVar> &vars, ForType t, DeviceAPI device_api,
                          const char *primitive, const std::string &args = "");
    /** Run `schedule_it`; if it throws, restore the schedule and rethrow. */
    template <typename F> Stage &all_or_nothing(F schedule_it);

public:
    Stage(const Internal::Function &f, int stage, std::vector<size_t> specialization_path = {});

    /** "blur", "blur.update(0)", ... for messages. */
    std::string name() const;
    const Internal::Function &function() const { return func_; }
    int stage_index() const { return stage_; }

    /** Split old into outer and inner loops: old = outer * factor + inner. */
    Stage &split(const VarOrRVar &old, const VarOrRVar &outer, const VarOrRVar &inner,
                 const Expr &factor, TailStrategy tail = TailStrategy::Auto);
    /** Join two loops into one: fused = outer * extent(inner) + inner. */
    Stage &fuse(const VarOrRVar &inner, const VarOrRVar &outer, const VarOrRVar &fused);
    /** Give a loop a new name. */
    Stage &rename(const VarOrRVar &old_name, const VarOrRVar &new_name);
    /** Reorder the named loops, innermost first; loops not named keep their places. */
    Stage &reorder(const std::vector<VarOrRVar> &vars);
    template <typename... Args,
              typename = std::enable_if_t<(std::is_convertible_v<Args, VarOrRVar> && ...)>>
    Stage &reorder(const VarOrRVar &x, const VarOrRVar &y, const Args &...rest) {
        return reorder(std::vector<VarOrRVar>{x, y, VarOrRVar(rest)...});
    }
    /** Split x and y and order the loops yo, xo, yi, xi (outermost first). */
    Stage &tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xo, const VarOrRVar &yo,
                const VarOrRVar &xi, const VarOrRVar &yi, const Expr &xfactor, const Expr &yfactor,
                TailStrategy tail = TailStrategy::Auto);
    /** The same, reusing x and y as the names of the outer loops. */
    Stage &tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xi, const VarOrRVar &yi,
                const Expr &xfactor, const Expr &yfactor, TailStrategy tail = TailStrategy::Auto);

    Stage &unroll(const VarOrRVar &var);
    Stage &unroll(const VarOrRVar &var, const Expr &factor, TailStrategy tail = TailStrategy::Auto);
    /** Vectorize a loop whose extent must be a constant (checked in lowering). */
    Stage &vectorize(const VarOrRVar &var);
    Stage &vectorize(const VarOrRVar &var, const Expr &factor,
                     TailStrategy tail = TailStrategy::Auto);
    Stage &parallel(const VarOrRVar &var);
    /** Parallel over tasks of task_size iterations each. */
    Stage &parallel(const VarOrRVar &var, const Expr &task_size,
                    TailStrategy tail = TailStrategy::Auto);
    Stage &serial(const VarOrRVar &var);

    // ---- GPU loops. A GPU loop runs its iterations as the blocks of a grid
    // (gpu_blocks), the threads of a block (gpu_threads) or the lanes of a
    // warp (gpu_lanes) on the device of `device_api` (Default_GPU: the
    // target's, see get_default_device_api_for_target). As in Halide, the
    // first var given is dimension x (the innermost GPU loop of its kind), a
    // stage has at most 3 block and 3 thread loops, blocks must enclose
    // threads, and a later directive on a loop replaces an earlier one.

    /** Run loop block_x over the blocks of a GPU grid. */
    Stage &gpu_blocks(const VarOrRVar &block_x, DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** Run two loops over a 2-D grid of GPU blocks (block_x is dimension x). */
    Stage &gpu_blocks(const VarOrRVar &block_x, const VarOrRVar &block_y,
                      DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** Run three loops over a 3-D grid of GPU blocks. */
    Stage &gpu_blocks(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &block_z,
                      DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** Run loop thread_x over the threads of a GPU block. */
    Stage &gpu_threads(const VarOrRVar &thread_x, DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** Run two loops over a 2-D block of GPU threads (thread_x is dimension x). */
    Stage &gpu_threads(const VarOrRVar &thread_x, const VarOrRVar &thread_y,
                       DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** Run three loops over a 3-D block of GPU threads. */
    Stage &gpu_threads(const VarOrRVar &thread_x, const VarOrRVar &thread_y,
                       const VarOrRVar &thread_z, DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** Run loop thread_x over the lanes of a GPU warp (its extent must fit a warp). */
    Stage &gpu_lanes(const VarOrRVar &thread_x, DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** Run the whole loop nest of this stage serially in one GPU thread of
     * one block: adds a block loop and a thread loop of extent 1 outside all
     * other loops. */
    Stage &gpu_single_thread(DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** gpu_blocks(block_x) and gpu_threads(thread_x). */
    Stage &gpu(const VarOrRVar &block_x, const VarOrRVar &thread_x,
               DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** gpu_blocks(block_x, block_y) and gpu_threads(thread_x, thread_y). */
    Stage &gpu(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &thread_x,
               const VarOrRVar &thread_y, DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** gpu_blocks(block_x, block_y, block_z) and gpu_threads(thread_x, thread_y, thread_z). */
    Stage &gpu(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &block_z,
               const VarOrRVar &thread_x, const VarOrRVar &thread_y, const VarOrRVar &thread_z,
               DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** Split x by x_size into GPU blocks bx and threads tx (tx inside bx). */
    Stage &gpu_tile(const VarOrRVar &x, const VarOrRVar &bx, const VarOrRVar &tx,
                    const Expr &x_size, TailStrategy tail = TailStrategy::Auto,
                    DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** The same, with x itself as the block loop. */
    Stage &gpu_tile(const VarOrRVar &x, const VarOrRVar &tx, const Expr &x_size,
                    TailStrategy tail = TailStrategy::Auto,
                    DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** tile(x, y, bx, by, tx, ty, ...) and make bx, by GPU blocks and tx, ty
     * GPU threads: loops by, bx, ty, tx (outermost first). */
    Stage &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &bx,
                    const VarOrRVar &by, const VarOrRVar &tx, const VarOrRVar &ty,
                    const Expr &x_size, const Expr &y_size, TailStrategy tail = TailStrategy::Auto,
                    DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** The same, with x and y themselves as the block loops. */
    Stage &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &tx,
                    const VarOrRVar &ty, const Expr &x_size, const Expr &y_size,
                    TailStrategy tail = TailStrategy::Auto,
                    DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** Split x, y, z into GPU blocks bx, by, bz and threads tx, ty, tz: loops
     * bz, by, bx, tz, ty, tx (outermost first). */
    Stage &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z, const VarOrRVar &bx,
                    const VarOrRVar &by, const VarOrRVar &bz, const VarOrRVar &tx,
                    const VarOrRVar &ty, const VarOrRVar &tz, const Expr &x_size,
                    const Expr &y_size, const Expr &z_size, TailStrategy tail = TailStrategy::Auto,
                    DeviceAPI device_api = DeviceAPI::Default_GPU);
    /** The same, with x, y and z themselves as the block loops. */
    Stage &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z, const VarOrRVar &tx,
                    const VarOrRVar &ty, const VarOrRVar &tz, const Expr &x_size,
                    const Expr &y_size, const Expr &z_size, TailStrategy tail = TailStrategy::Auto,
                    DeviceAPI device_api = DeviceAPI::Default_GPU);

    /** A copy of this stage's schedule, used instead when condition (a bool
     * Expr of Params) holds at run time; schedule the returned Stage. */
    Stage specialize(const Expr &condition);
    /** When no earlier specialization applies, fail at run time with message. */
    void specialize_fail(const std::string &message);

    /** Let iterations of this update run concurrently (parallel or
     * vectorized RVars) by making each read-modify-write of the Func atomic. */
    Stage &atomic();

    /** Halide's offload of a loop to a Hexagon DSP. Loom has no Hexagon
     * backend: calling it is a CompileError naming the stage (the name
     * exists so that code guarded by `target.has_feature(Target::HVX)` ports). */
    Stage &hexagon();
    Stage &hexagon(const VarOrRVar &x);
    /** Declare that this stage is deliberately left with the default
     * schedule (the auto-scheduler then leaves it alone). A CompileError if
     * the stage was scheduled already, or if it is called twice. */
    Stage &unscheduled();

    /** Split an associative, commutative reduction (+, *, min, max, &&, ||,
     * argmin/argmax tuples): each RVar r in `preserved` becomes the pure Var
     * v of a new intermediate Func computing partial results over the other
     * RVars; this stage then combines the partial results over the
     * preserved RVars. Returns the intermediate Func (schedule it, e.g.
     * parallel over v). CompileError if the update is not such a reduction. */
    Func rfactor(std::vector<std::pair<RVar, Var>> preserved);
    Func rfactor(const RVar &r, const Var &v);
};

} // namespace loom

#endif
