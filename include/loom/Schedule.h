#ifndef LOOM_SCHEDULE_H
#define LOOM_SCHEDULE_H

/** \file Schedule records: how a Func's loops are split, ordered and placed. */

#include <string>
#include <vector>

#include "loom/DeviceAPI.h"
#include "loom/Expr.h"

namespace loom {

/** What split() does when the factor does not divide the extent. Auto, as
 * in Halide: ShiftInwards in pure definitions, GuardWithIf for RVars, RoundUp
 * for the pure Vars of updates; Loom's Auto rounds an update up only where
 * the factor provably divides the extent (and never an output's update),
 * and guards otherwise (docs/guide/scheduling.md). */
enum class TailStrategy { Auto, RoundUp, GuardWithIf, ShiftInwards, Predicate };

/** Where memory for a Func lives. */
enum class MemoryType { Auto, Heap, Stack, Register, GPUShared, GPUTexture };

/** How a loop runs. */
enum class ForType { Serial, Parallel, Vectorized, Unrolled, Extern, GPUBlock, GPUThread, GPULane };

class Func;
class Var;
struct RVar;

namespace Internal {
struct FunctionContents;
}

/** A loop in the loop nest of some Func's stage, or inlined, or root. */
class LoopLevel {
    std::string func_name_;
    std::string var_name_;
    int stage_ = -1; // -1: the last (innermost) stage that uses it
    enum Kind { Inlined, Root, At, Undefined } kind_ = Undefined;

public:
    LoopLevel() = default;
    LoopLevel(const Func &f, const Var &v, int stage = -1);
    LoopLevel(const std::string &func, const std::string &var, int stage = -1)
        : func_name_(func), var_name_(var), stage_(stage), kind_(At) {}
    static LoopLevel inlined() {
        LoopLevel l;
        l.kind_ = Inlined;
        return l;
    }
    static LoopLevel root() {
        LoopLevel l;
        l.kind_ = Root;
        return l;
    }
    bool defined() const { return kind_ != Undefined; }
    bool is_inlined() const { return kind_ == Inlined; }
    bool is_root() const { return kind_ == Root; }
    const std::string &func() const { return func_name_; }
    const std::string &var() const { return var_name_; }
    int stage_index() const { return stage_; }
    std::string to_string() const;
    bool operator==(const LoopLevel &o) const {
        return kind_ == o.kind_ && func_name_ == o.func_name_ && var_name_ == o.var_name_ &&
               stage_ == o.stage_;
    }
};

namespace Internal {

/** One transformation of the loop variables of a stage, in order of application. */
struct Split {
    enum Kind { SplitVar, FuseVars, RenameVar };
    Kind kind = SplitVar;
    std::string old_var, outer, inner;
    Expr factor;
    bool exact = false; // the split must not round up (update stages)
    TailStrategy tail = TailStrategy::Auto;
};

/** One loop of a stage, listed innermost first. */
struct Dim {
    std::string var;
    ForType for_type = ForType::Serial;
    DeviceAPI device_api = DeviceAPI::None;
    bool is_rvar = false;
};

/** The two loops gpu_single_thread() puts outside all other loops of a
 * stage, each of extent 1 and made from no variable: a GPUBlock loop and,
 * just inside it, a GPUThread loop (Halide splits its __outermost loop by 1
 * twice). The stage's whole loop nest then runs in one GPU thread. */
constexpr const char *single_thread_block_loop = "__gpu_single_block";
constexpr const char *single_thread_thread_loop = "__gpu_single_thread";
inline bool is_single_thread_loop(const std::string &var) {
    return var == single_thread_block_loop || var == single_thread_thread_loop;
}

/** A user bound on a pure dimension, one per Var: bound() sets min and
 * extent, bound_extent() only extent, align_bounds() modulus and remainder;
 * what was not asked for stays undefined. */
struct Bound {
    std::string var;
    Expr min, extent, modulus, remainder;
};

struct Specialization;

/** Schedule of one definition (pure or update). */
struct StageSchedule {
    std::vector<Split> splits;
    std::vector<Dim> dims; // innermost first
    bool touched = false;  // has the user scheduled this stage?
    /** specialize(): alternative schedules of the same definition, tried in
     * order at run time; the first whose condition holds is used, else this one. */
    std::vector<Specialization> specializations;
};

/** One specialize() (or specialize_fail()) of a stage. */
struct Specialization {
    Expr condition;         // scalar bool over Params; const true for specialize_fail
    StageSchedule schedule; // a copy of the stage's schedule when specialize() was called
    bool failure = false;   // specialize_fail: reaching it is a runtime error
    std::string failure_message;
};

/** fold_storage(var, extent): the storage of var is a circular buffer of this extent. */
struct StorageFold {
    std::string var;
    Expr extent;
    bool fold_forward = true; // the loop over var runs upwards
};

/** Does a (possibly qualified) loop name like "x.xi" answer to the user's
 * name "xi"? Loop variables made by split/fuse are named after their
 * origin ("x.xo", "x.xi"), and a user refers to them by the last part. */
inline bool var_name_match(const std::string &candidate, const std::string &var) {
    if (candidate == var) return true;
    return candidate.size() > var.size() &&
           candidate.compare(candidate.size() - var.size(), var.size(), var) == 0 &&
           candidate[candidate.size() - var.size() - 1] == '.';
}

/** Schedule of a whole Func (placement and storage). */
struct FuncSchedule {
    LoopLevel compute_level = LoopLevel::inlined();
    LoopLevel store_level = LoopLevel::inlined();
    std::vector<Bound> bounds;
    /** set_estimate(): expected min and extent of pure Vars, for
     * auto-schedulers only (never checked or relied on). */
    std::vector<Bound> estimates;
    std::vector<std::string> storage_dims; // outermost last; empty = pure arg order
    MemoryType memory_type = MemoryType::Auto;
    std::vector<StorageFold> storage_folds;
    /** store_root/store_at was called; otherwise the store level follows the
     * compute level (so compute_root().compute_at(...) moves both). */
    bool store_level_set = false;
};

} // namespace Internal
} // namespace loom

#endif
