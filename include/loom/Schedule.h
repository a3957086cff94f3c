#ifndef LOOM_SCHEDULE_H
#define LOOM_SCHEDULE_H

/** \file Schedule records: how a Func's loops are split, ordered and placed. */

#include <string>
#include <vector>

#include "loom/Expr.h"

namespace loom {

/** What split() does when the factor does not divide the extent. */
enum class TailStrategy { Auto, RoundUp, GuardWithIf, ShiftInwards, Predicate };

/** Where memory for a Func lives. */
enum class MemoryType { Auto, Heap, Stack, Register, GPUShared, GPUTexture };

/** Which device runs a loop. */
enum class DeviceAPI { None, Host, Default_GPU, CUDA, OpenCL };

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

/** A user bound on a pure dimension (bound/bound_extent/align_bounds). */
struct Bound {
    std::string var;
    Expr min, extent, modulus, remainder;
};

/** Schedule of one definition (pure or update). */
struct StageSchedule {
    std::vector<Split> splits;
    std::vector<Dim> dims; // innermost first
    bool touched = false;  // has the user scheduled this stage?
};

/** Schedule of a whole Func (placement and storage). */
struct FuncSchedule {
    LoopLevel compute_level = LoopLevel::inlined();
    LoopLevel store_level = LoopLevel::inlined();
    std::vector<Bound> bounds;
    std::vector<std::string> storage_dims; // outermost last; empty = pure arg order
    MemoryType memory_type = MemoryType::Auto;
};

} // namespace Internal
} // namespace loom

#endif
