// Func's schedule methods: loop methods forward to the pure definition's
// Stage; placement (compute/store levels), bounds and storage go to the
// Function's FuncSchedule.

#include <algorithm>

#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IROperator.h"
#include "loom/Func.h"

namespace loom {

using namespace Internal;

namespace {

std::string pure_list(const Function &f) {
    std::string s;
    for (const std::string &a : f.args()) s += (s.empty() ? "" : ", ") + a;
    return s.empty() ? std::string("(none)") : s;
}

void require_definition(const Function &f, const char *primitive) {
    if (!f.has_pure_definition())
        user_error("Func " << f.name() << " has no definition; define it before scheduling it (in "
                           << primitive << ")");
}

/** Schedule changes go through here: definition checked, cache invalidated. */
FuncSchedule &modify(Function &f, const char *primitive) {
    require_definition(f, primitive);
    f.invalidate_cache();
    return f.schedule();
}

/** The pure argument var of f, or a CompileError listing the legal ones. */
void require_pure_var(const Function &f, const std::string &var, const char *primitive) {
    const auto &args = f.args();
    if (std::find(args.begin(), args.end(), var) == args.end())
        user_error("Func " << f.name() << " has no pure variable " << var << " (in " << primitive
                           << "); its pure variables are " << pure_list(f));
}

/** An integer Expr argument of a Func-level primitive, as Int(32). */
Expr int_arg(const Function &f, const std::string &var, const char *primitive, const char *what,
             const Expr &e) {
    if (!e.defined())
        user_error(primitive << " of " << var << " in Func " << f.name() << " has an undefined "
                             << what);
    Type t = e.type();
    if (!(t.is_int() || t.is_uint()) || t.is_bool() || t.is_vector())
        user_error(primitive << " of " << var << " in Func " << f.name() << " has a " << what
                             << " of type " << type_to_string(t) << "; it must be an integer");
    return t == Int(32) ? e : Cast::make(Int(32), e);
}

void require_positive(const Function &f, const std::string &var, const char *primitive,
                      const char *what, const Expr &e) {
    if (auto c = as_const_int(e); c && *c <= 0)
        user_error(primitive << " of " << var << " in Func " << f.name() << " has " << what << " "
                             << *c << "; it must be positive");
}

Bound &bound_for(FuncSchedule &s, const std::string &var) {
    for (Bound &b : s.bounds) {
        if (b.var == var) return b;
    }
    s.bounds.push_back(Bound{var, Expr(), Expr(), Expr(), Expr()});
    return s.bounds.back();
}

} // namespace

Stage Func::update(int i) {
    require_definition(func_, "update");
    int n = int(func_.updates().size());
    if (i < 0 || i >= n)
        user_error("Func " << name() << " has " << n << " update definition" << (n == 1 ? "" : "s")
                           << "; update(" << i << ") does not exist"
                           << (n ? " (legal indices: 0 to " + std::to_string(n - 1) + ")" : ""));
    return Stage(func_, i + 1);
}

// ---- Loop methods: the pure definition's Stage.

#define LOOM_PURE_STAGE(primitive) (require_definition(func_, primitive), Stage(func_, 0))

Func &Func::split(const VarOrRVar &old, const VarOrRVar &outer, const VarOrRVar &inner,
                  const Expr &factor, TailStrategy tail) {
    LOOM_PURE_STAGE("split").split(old, outer, inner, factor, tail);
    return *this;
}

Func &Func::fuse(const VarOrRVar &inner, const VarOrRVar &outer, const VarOrRVar &fused) {
    LOOM_PURE_STAGE("fuse").fuse(inner, outer, fused);
    return *this;
}

Func &Func::rename(const VarOrRVar &old_name, const VarOrRVar &new_name) {
    LOOM_PURE_STAGE("rename").rename(old_name, new_name);
    return *this;
}

Func &Func::reorder(const std::vector<VarOrRVar> &vars) {
    LOOM_PURE_STAGE("reorder").reorder(vars);
    return *this;
}

Func &Func::tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xo, const VarOrRVar &yo,
                 const VarOrRVar &xi, const VarOrRVar &yi, const Expr &xfactor, const Expr &yfactor,
                 TailStrategy tail) {
    LOOM_PURE_STAGE("tile").tile(x, y, xo, yo, xi, yi, xfactor, yfactor, tail);
    return *this;
}

Func &Func::tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xi, const VarOrRVar &yi,
                 const Expr &xfactor, const Expr &yfactor, TailStrategy tail) {
    LOOM_PURE_STAGE("tile").tile(x, y, xi, yi, xfactor, yfactor, tail);
    return *this;
}

Func &Func::unroll(const VarOrRVar &var) {
    LOOM_PURE_STAGE("unroll").unroll(var);
    return *this;
}

Func &Func::unroll(const VarOrRVar &var, const Expr &factor, TailStrategy tail) {
    LOOM_PURE_STAGE("unroll").unroll(var, factor, tail);
    return *this;
}

Func &Func::vectorize(const VarOrRVar &var) {
    LOOM_PURE_STAGE("vectorize").vectorize(var);
    return *this;
}

Func &Func::vectorize(const VarOrRVar &var, const Expr &factor, TailStrategy tail) {
    LOOM_PURE_STAGE("vectorize").vectorize(var, factor, tail);
    return *this;
}

Func &Func::parallel(const VarOrRVar &var) {
    LOOM_PURE_STAGE("parallel").parallel(var);
    return *this;
}

Func &Func::parallel(const VarOrRVar &var, const Expr &task_size, TailStrategy tail) {
    LOOM_PURE_STAGE("parallel").parallel(var, task_size, tail);
    return *this;
}

Func &Func::serial(const VarOrRVar &var) {
    LOOM_PURE_STAGE("serial").serial(var);
    return *this;
}

Func &Func::gpu_blocks(const VarOrRVar &block_x, DeviceAPI device_api) {
    LOOM_PURE_STAGE("gpu_blocks").gpu_blocks(block_x, device_api);
    return *this;
}

Func &Func::gpu_blocks(const VarOrRVar &block_x, const VarOrRVar &block_y, DeviceAPI device_api) {
    LOOM_PURE_STAGE("gpu_blocks").gpu_blocks(block_x, block_y, device_api);
    return *this;
}

Func &Func::gpu_blocks(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &block_z,
                       DeviceAPI device_api) {
    LOOM_PURE_STAGE("gpu_blocks").gpu_blocks(block_x, block_y, block_z, device_api);
    return *this;
}

Func &Func::gpu_threads(const VarOrRVar &thread_x, DeviceAPI device_api) {
    LOOM_PURE_STAGE("gpu_threads").gpu_threads(thread_x, device_api);
    return *this;
}

Func &Func::gpu_threads(const VarOrRVar &thread_x, const VarOrRVar &thread_y,
                        DeviceAPI device_api) {
    LOOM_PURE_STAGE("gpu_threads").gpu_threads(thread_x, thread_y, device_api);
    return *this;
}

Func &Func::gpu_threads(const VarOrRVar &thread_x, const VarOrRVar &thread_y,
                        const VarOrRVar &thread_z, DeviceAPI device_api) {
    LOOM_PURE_STAGE("gpu_threads").gpu_threads(thread_x, thread_y, thread_z, device_api);
    return *this;
}

Func &Func::gpu_lanes(const VarOrRVar &thread_x, DeviceAPI device_api) {
    LOOM_PURE_STAGE("gpu_lanes").gpu_lanes(thread_x, device_api);
    return *this;
}

Func &Func::gpu_single_thread(DeviceAPI device_api) {
    LOOM_PURE_STAGE("gpu_single_thread").gpu_single_thread(device_api);
    return *this;
}

Func &Func::gpu(const VarOrRVar &block_x, const VarOrRVar &thread_x, DeviceAPI device_api) {
    LOOM_PURE_STAGE("gpu").gpu(block_x, thread_x, device_api);
    return *this;
}

Func &Func::gpu(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &thread_x,
                const VarOrRVar &thread_y, DeviceAPI device_api) {
    LOOM_PURE_STAGE("gpu").gpu(block_x, block_y, thread_x, thread_y, device_api);
    return *this;
}

Func &Func::gpu(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &block_z,
                const VarOrRVar &thread_x, const VarOrRVar &thread_y, const VarOrRVar &thread_z,
                DeviceAPI device_api) {
    LOOM_PURE_STAGE("gpu").gpu(block_x, block_y, block_z, thread_x, thread_y, thread_z, device_api);
    return *this;
}

Func &Func::gpu_tile(const VarOrRVar &x, const VarOrRVar &bx, const VarOrRVar &tx,
                     const Expr &x_size, TailStrategy tail, DeviceAPI device_api) {
    LOOM_PURE_STAGE("gpu_tile").gpu_tile(x, bx, tx, x_size, tail, device_api);
    return *this;
}

Func &Func::gpu_tile(const VarOrRVar &x, const VarOrRVar &tx, const Expr &x_size, TailStrategy tail,
                     DeviceAPI device_api) {
    LOOM_PURE_STAGE("gpu_tile").gpu_tile(x, tx, x_size, tail, device_api);
    return *this;
}

Func &Func::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &bx,
                     const VarOrRVar &by, const VarOrRVar &tx, const VarOrRVar &ty,
                     const Expr &x_size, const Expr &y_size, TailStrategy tail,
                     DeviceAPI device_api) {
    LOOM_PURE_STAGE("gpu_tile").gpu_tile(x, y, bx, by, tx, ty, x_size, y_size, tail, device_api);
    return *this;
}

Func &Func::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &tx,
                     const VarOrRVar &ty, const Expr &x_size, const Expr &y_size, TailStrategy tail,
                     DeviceAPI device_api) {
    LOOM_PURE_STAGE("gpu_tile").gpu_tile(x, y, tx, ty, x_size, y_size, tail, device_api);
    return *this;
}

Func &Func::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z,
                     const VarOrRVar &bx, const VarOrRVar &by, const VarOrRVar &bz,
                     const VarOrRVar &tx, const VarOrRVar &ty, const VarOrRVar &tz,
                     const Expr &x_size, const Expr &y_size, const Expr &z_size, TailStrategy tail,
                     DeviceAPI device_api) {
    LOOM_PURE_STAGE("gpu_tile")
        .gpu_tile(x, y, z, bx, by, bz, tx, ty, tz, x_size, y_size, z_size, tail, device_api);
    return *this;
}

Func &Func::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z,
                     const VarOrRVar &tx, const VarOrRVar &ty, const VarOrRVar &tz,
                     const Expr &x_size, const Expr &y_size, const Expr &z_size, TailStrategy tail,
                     DeviceAPI device_api) {
    LOOM_PURE_STAGE("gpu_tile")
        .gpu_tile(x, y, z, tx, ty, tz, x_size, y_size, z_size, tail, device_api);
    return *this;
}

Stage Func::specialize(const Expr &condition) {
    return LOOM_PURE_STAGE("specialize").specialize(condition);
}

void Func::specialize_fail(const std::string &message) {
    LOOM_PURE_STAGE("specialize_fail").specialize_fail(message);
}

#undef LOOM_PURE_STAGE

// ---- Bounds and storage.

Func &Func::bound(const Var &var, const Expr &min, const Expr &extent) {
    require_definition(func_, "bound");
    require_pure_var(func_, var.name(), "bound");
    Expr lo = int_arg(func_, var.name(), "bound", "min", min);
    Expr ext = int_arg(func_, var.name(), "bound", "extent", extent);
    require_positive(func_, var.name(), "bound", "extent", ext);
    Bound &b = bound_for(modify(func_, "bound"), var.name());
    b.min = lo;
    b.extent = ext;
    return *this;
}

Func &Func::bound_extent(const Var &var, const Expr &extent) {
    require_definition(func_, "bound_extent");
    require_pure_var(func_, var.name(), "bound_extent");
    Expr ext = int_arg(func_, var.name(), "bound_extent", "extent", extent);
    require_positive(func_, var.name(), "bound_extent", "extent", ext);
    Bound &b = bound_for(modify(func_, "bound_extent"), var.name());
    b.min = Expr();
    b.extent = ext;
    return *this;
}

Func &Func::align_bounds(const Var &var, const Expr &modulus, const Expr &remainder) {
    require_definition(func_, "align_bounds");
    require_pure_var(func_, var.name(), "align_bounds");
    Expr mod = int_arg(func_, var.name(), "align_bounds", "modulus", modulus);
    Expr rem = int_arg(func_, var.name(), "align_bounds", "remainder", remainder);
    require_positive(func_, var.name(), "align_bounds", "modulus", mod);
    Bound &b = bound_for(modify(func_, "align_bounds"), var.name());
    b.modulus = mod;
    b.remainder = rem;
    return *this;
}

Func &Func::reorder_storage(const std::vector<Var> &dims) {
    require_definition(func_, "reorder_storage");
    std::vector<std::string> order = func_.schedule().storage_dims;
    for (const std::string &a : func_.args()) {
        if (std::find(order.begin(), order.end(), a) == order.end()) order.push_back(a);
    }
    std::vector<size_t> idx;
    for (const Var &v : dims) {
        require_pure_var(func_, v.name(), "reorder_storage");
        size_t i = size_t(std::find(order.begin(), order.end(), v.name()) - order.begin());
        if (std::find(idx.begin(), idx.end(), i) != idx.end())
            user_error("reorder_storage of Func " << name() << " names " << v.name()
                                                  << " more than once; name each of "
                                                  << pure_list(func_) << " at most once");
        idx.push_back(i);
    }
    // As with reorder: the named dimensions take the places they held
    // between them, in the order given.
    std::vector<size_t> places = idx;
    std::sort(places.begin(), places.end());
    std::vector<std::string> old = order;
    for (size_t k = 0; k < idx.size(); k++) order[places[k]] = old[idx[k]];
    modify(func_, "reorder_storage").storage_dims = order;
    return *this;
}

Func &Func::fold_storage(const Var &var, const Expr &extent, bool fold_forward) {
    require_definition(func_, "fold_storage");
    require_pure_var(func_, var.name(), "fold_storage");
    Expr ext = int_arg(func_, var.name(), "fold_storage", "extent", extent);
    require_positive(func_, var.name(), "fold_storage", "extent", ext);
    FuncSchedule &s = modify(func_, "fold_storage");
    auto it = std::find_if(s.storage_folds.begin(), s.storage_folds.end(),
                           [&](const StorageFold &f) { return f.var == var.name(); });
    if (it == s.storage_folds.end())
        it = s.storage_folds.insert(s.storage_folds.end(), StorageFold{});
    *it = StorageFold{var.name(), ext, fold_forward};
    return *this;
}

Func &Func::store_in(MemoryType type) {
    modify(func_, "store_in").memory_type = type;
    return *this;
}

// ---- Compute and store levels.

namespace {

/** The checks a LoopLevel allows before lowering: it is defined and does not
 * name the Func itself. Whether the loop exists and encloses every use is
 * known only once all schedules are final, so lowering checks that. */
void check_level(const Function &f, const LoopLevel &level, const char *primitive) {
    if (!level.defined())
        user_error(primitive << " of Func " << f.name() << " is given an undefined LoopLevel; "
                             << "use LoopLevel::root(), LoopLevel::inlined() or "
                                "LoopLevel(consumer, var)");
    if (!level.is_root() && !level.is_inlined() && level.func() == f.name())
        user_error(primitive << " of Func " << f.name() << " names a loop (" << level.var()
                             << ") of Func " << f.name()
                             << " itself; a Func is computed and stored at a loop of one of its "
                                "consumers, or at root");
}

LoopLevel level_at(const Function &self, const Func &f, const Var &var, const char *primitive) {
    if (!f.defined())
        user_error(primitive << "(" << f.name() << ", " << var.name() << ") of Func " << self.name()
                             << ": Func " << f.name() << " has no definition, so it has no loops");
    return LoopLevel(f, var);
}

} // namespace

Func &Func::compute_root() {
    return compute_at(LoopLevel::root());
}

Func &Func::compute_at(const Func &f, const Var &var) {
    require_definition(func_, "compute_at");
    return compute_at(level_at(func_, f, var, "compute_at"));
}

Func &Func::compute_at(const Func &f, const RVar &var) {
    require_definition(func_, "compute_at");
    if (!f.defined())
        user_error("compute_at(" << f.name() << ", " << var.name() << ") of Func " << name()
                                 << ": Func " << f.name()
                                 << " has no definition, so it has no loops");
    return compute_at(LoopLevel(f.name(), var.name()));
}

Func &Func::store_at(const Func &f, const RVar &var) {
    require_definition(func_, "store_at");
    if (!f.defined())
        user_error("store_at(" << f.name() << ", " << var.name() << ") of Func " << name()
                               << ": Func " << f.name()
                               << " has no definition, so it has no loops");
    return store_at(LoopLevel(f.name(), var.name()));
}

Func &Func::compute_at(LoopLevel level) {
    require_definition(func_, "compute_at");
    check_level(func_, level, "compute_at");
    FuncSchedule &s = modify(func_, "compute_at");
    s.compute_level = level;
    // Unless store_root/store_at chose otherwise, storage goes with compute.
    if (!s.store_level_set) s.store_level = level;
    return *this;
}

Func &Func::store_root() {
    return store_at(LoopLevel::root());
}

Func &Func::store_at(const Func &f, const Var &var) {
    require_definition(func_, "store_at");
    return store_at(level_at(func_, f, var, "store_at"));
}

Func &Func::store_at(LoopLevel level) {
    require_definition(func_, "store_at");
    check_level(func_, level, "store_at");
    FuncSchedule &s = modify(func_, "store_at");
    s.store_level = level;
    s.store_level_set = !level.is_inlined();
    return *this;
}

Func &Func::compute_inline() {
    // A Func with update definitions cannot be substituted into its uses:
    // as in Halide, "inline" then computes it at the innermost loop that
    // encloses all its uses (lowering resolves that loop).
    FuncSchedule &s = modify(func_, "compute_inline");
    s.compute_level = LoopLevel::inlined();
    s.store_level = LoopLevel::inlined();
    s.store_level_set = false;
    return *this;
}

} // namespace loom
