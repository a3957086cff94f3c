// Stage: the loop transformations of one definition. Each primitive edits
// the StageSchedule that ScheduleFunctions turns into a loop nest: `splits`
// in order of application and `dims` (the loops, innermost first).
//
// Loops made by split/fuse are named after their origin ("x.xo", "x.xi",
// "x.fused"), as in Halide; users refer to them by the last part
// (var_name_match), and print_loop_nest shows the qualified name.

#include "loom/Stage.h"

#include <algorithm>

#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IREquality.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"

namespace loom {

using namespace Internal;

namespace {

std::string short_name(const std::string &qualified) {
    size_t dot = qualified.rfind('.');
    return dot == std::string::npos ? qualified : qualified.substr(dot + 1);
}

std::string loop_list(const StageSchedule &s) {
    std::string out;
    for (const Dim &d : s.dims) out += (out.empty() ? "" : ", ") + d.var;
    return (out.empty() ? std::string("(none)") : out) + " (innermost first)";
}

int find_dim(const StageSchedule &s, const std::string &name) {
    for (size_t i = 0; i < s.dims.size(); i++) {
        if (var_name_match(s.dims[i].var, name)) return int(i);
    }
    return -1;
}

/** Why a name is no longer a loop: it was split, fused or renamed away. */
std::string fate_of(const StageSchedule &s, const std::string &name) {
    for (const Split &sp : s.splits) {
        switch (sp.kind) {
        case Split::SplitVar:
            if (var_name_match(sp.old_var, name))
                return name + " was already split into " + short_name(sp.outer) + " and " +
                       short_name(sp.inner);
            break;
        case Split::FuseVars:
            if (var_name_match(sp.inner, name) || var_name_match(sp.outer, name))
                return name + " was already fused into " + short_name(sp.old_var);
            break;
        case Split::RenameVar:
            if (var_name_match(sp.old_var, name))
                return name + " was already renamed to " + short_name(sp.outer);
            break;
        }
    }
    return "";
}

/** A factor for split and friends: a scalar integer, positive if constant. */
Expr check_factor(const std::string &stage, const std::string &var, const char *what,
                  const Expr &factor) {
    if (!factor.defined())
        user_error(what << " of " << var << " in " << stage << " has an undefined factor");
    Type t = factor.type();
    if (!(t.is_int() || t.is_uint()) || t.is_bool() || t.is_vector())
        user_error(what << " of " << var << " in " << stage << " has a factor of type "
                        << type_to_string(t) << "; the factor must be an integer");
    Expr f = t == Int(32) ? factor : Cast::make(Int(32), factor);
    if (auto c = as_const_int(f); c && *c <= 0)
        user_error(what << " of " << var << " in " << stage << " has factor " << *c
                        << "; the factor must be positive");
    return f;
}

} // namespace

Stage::Stage(const Function &f, int stage, std::vector<size_t> path)
    : func_(f), stage_(stage), specialization_path_(std::move(path)) {
    if (!func_.defined() || !func_.has_pure_definition())
        user_error("Func " << (func_.defined() ? func_.name() : std::string("<undefined>"))
                           << " has no definition; define it before scheduling it");
    int updates = int(func_.updates().size());
    internal_assert(stage_ >= 0 && stage_ <= updates,
                    "Stage " << stage_ << " of Func " << func_.name() << " does not exist");
}

StageSchedule &Stage::schedule() const {
    Function f = func_; // a handle: the schedule lives in the shared contents
    Definition &def = stage_ == 0 ? f.definition() : f.updates()[size_t(stage_ - 1)];
    StageSchedule *s = &def.schedule;
    for (size_t i : specialization_path_) s = &s->specializations[i].schedule;
    return *s;
}

StageSchedule &Stage::modify() const {
    StageSchedule &s = schedule();
    s.touched = true;
    Function f = func_;
    f.invalidate_cache();
    return s;
}

std::string Stage::description() const {
    std::string d = "Func " + func_.name();
    std::string extra;
    if (stage_ > 0) extra = "update " + std::to_string(stage_ - 1);
    for (size_t i : specialization_path_)
        extra += (extra.empty() ? "" : ", ") + std::string("specialization ") + std::to_string(i);
    return extra.empty() ? d : d + " (" + extra + ")";
}

std::string Stage::name() const {
    std::string n = func_.name();
    if (stage_ > 0) n += ".update(" + std::to_string(stage_ - 1) + ")";
    return n;
}

namespace {

/** The index of the loop `name` answers to, or a CompileError naming the
 * stage, the Var and the loops there are. */
int require_dim(const std::string &stage, const StageSchedule &s, const std::string &name,
                const char *primitive) {
    int i = find_dim(s, name);
    if (i >= 0) return i;
    std::string fate = fate_of(s, name);
    user_error(stage << " has no loop variable " << name << " in its schedule (in " << primitive
                     << ")" << (fate.empty() ? "" : ": " + fate) << "; its loop variables are "
                     << loop_list(s));
}

/** A short name not yet answering to any loop: base, or base with a number. */
std::string fresh_name(const StageSchedule &s, const std::string &base) {
    std::string n = base;
    for (int k = 2; find_dim(s, n) >= 0; k++) n = base + std::to_string(k);
    return n;
}

} // namespace

Stage &Stage::split(const VarOrRVar &old, const VarOrRVar &outer, const VarOrRVar &inner,
                    const Expr &factor, TailStrategy tail) {
    std::string stage = description();
    StageSchedule &s = schedule();
    int i = require_dim(stage, s, old.name(), "split");
    Expr f = check_factor(stage, old.name(), "split", factor);
    if (outer.name() == inner.name())
        user_error("split of " << old.name() << " in " << stage << " names both new loops "
                               << inner.name()
                               << "; the outer and inner loops need different "
                                  "names");
    // A new name that some other loop already answers to would make later
    // references ambiguous. The outer loop may reuse the old name.
    for (const VarOrRVar *v : {&outer, &inner}) {
        if (v->name() == old.name()) continue;
        int j = find_dim(s, v->name());
        if (j >= 0 && j != i)
            user_error("split of " << old.name() << " in " << stage << " names a new loop "
                                   << v->name() << ", but " << stage
                                   << " already has a loop variable " << s.dims[size_t(j)].var
                                   << "; its loop variables are " << loop_list(s));
    }
    StageSchedule &m = modify();
    Split rec;
    rec.kind = Split::SplitVar;
    rec.old_var = m.dims[size_t(i)].var;
    rec.outer = rec.old_var + "." + outer.name();
    rec.inner = rec.old_var + "." + inner.name();
    rec.factor = f;
    rec.tail = tail;
    m.splits.push_back(rec);
    // The outer loop keeps the old loop's place, kind and device; the inner
    // one goes just inside it and starts serial (running wherever the outer
    // one runs).
    Dim in = m.dims[size_t(i)];
    in.var = rec.inner;
    in.for_type = ForType::Serial;
    in.device_api = DeviceAPI::None;
    m.dims[size_t(i)].var = rec.outer;
    m.dims.insert(m.dims.begin() + i, in);
    return *this;
}

Stage &Stage::fuse(const VarOrRVar &inner, const VarOrRVar &outer, const VarOrRVar &fused) {
    std::string stage = description();
    StageSchedule &s = schedule();
    int i = require_dim(stage, s, inner.name(), "fuse");
    int o = require_dim(stage, s, outer.name(), "fuse");
    if (i == o)
        user_error("fuse in " << stage << " names loop " << s.dims[size_t(i)].var
                              << " as both inner and outer; fuse two different loops of "
                              << loop_list(s));
    if (fused.name() != inner.name() && fused.name() != outer.name() &&
        find_dim(s, fused.name()) >= 0)
        user_error("fuse in " << stage << " names the fused loop " << fused.name()
                              << ", which is already a loop variable; its loop variables are "
                              << loop_list(s));
    StageSchedule &m = modify();
    Split rec;
    rec.kind = Split::FuseVars;
    rec.inner = m.dims[size_t(i)].var;
    rec.outer = m.dims[size_t(o)].var;
    rec.old_var = rec.inner + "." + fused.name();
    m.splits.push_back(rec);
    // The fused loop takes the inner loop's place.
    m.dims[size_t(i)].var = rec.old_var;
    m.dims.erase(m.dims.begin() + o);
    return *this;
}

Stage &Stage::rename(const VarOrRVar &old_name, const VarOrRVar &new_name) {
    std::string stage = description();
    StageSchedule &s = schedule();
    int i = require_dim(stage, s, old_name.name(), "rename");
    int j = find_dim(s, new_name.name());
    if (j >= 0 && j != i)
        user_error("rename of " << old_name.name() << " in " << stage << " to " << new_name.name()
                                << ": a loop variable " << s.dims[size_t(j)].var
                                << " already exists; its loop "
                                << "variables are " << loop_list(s));
    StageSchedule &m = modify();
    Split rec;
    rec.kind = Split::RenameVar;
    rec.old_var = m.dims[size_t(i)].var;
    rec.outer = rec.old_var + "." + new_name.name();
    rec.inner = rec.outer;
    m.splits.push_back(rec);
    m.dims[size_t(i)].var = rec.outer;
    return *this;
}

Stage &Stage::reorder(const std::vector<VarOrRVar> &vars) {
    std::string stage = description();
    StageSchedule &s = schedule();
    std::vector<int> idx;
    for (const VarOrRVar &v : vars) {
        int i = require_dim(stage, s, v.name(), "reorder");
        if (std::find(idx.begin(), idx.end(), i) != idx.end())
            user_error("reorder in " << stage << " names loop variable " << v.name()
                                     << " more than once; name each of " << loop_list(s)
                                     << " at most once");
        idx.push_back(i);
    }
    StageSchedule &m = modify();
    // The named loops take the places they held between them, in the order
    // given; the loops not named stay where they are.
    std::vector<int> places = idx;
    std::sort(places.begin(), places.end());
    std::vector<Dim> old = m.dims;
    for (size_t k = 0; k < idx.size(); k++) m.dims[size_t(places[k])] = old[size_t(idx[k])];
    return *this;
}

Stage &Stage::tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xo, const VarOrRVar &yo,
                   const VarOrRVar &xi, const VarOrRVar &yi, const Expr &xfactor,
                   const Expr &yfactor, TailStrategy tail) {
    // All or nothing: a failed tile leaves the schedule as it was.
    StageSchedule saved = schedule();
    try {
        split(x, xo, xi, xfactor, tail);
        split(y, yo, yi, yfactor, tail);
        return reorder({xi, yi, xo, yo});
    } catch (...) {
        schedule() = saved;
        throw;
    }
}

Stage &Stage::tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xi, const VarOrRVar &yi,
                   const Expr &xfactor, const Expr &yfactor, TailStrategy tail) {
    return tile(x, y, x, y, xi, yi, xfactor, yfactor, tail);
}

namespace {

void set_loop_type(StageSchedule &s, const std::string &stage, const std::string &var, ForType t,
                   const char *primitive) {
    int i = require_dim(stage, s, var, primitive);
    s.dims[size_t(i)].for_type = t;
    // Only GPU loops name a device; these run wherever the enclosing loop runs.
    s.dims[size_t(i)].device_api = DeviceAPI::None;
}

} // namespace

Stage &Stage::unroll(const VarOrRVar &var) {
    set_loop_type(schedule(), description(), var.name(), ForType::Unrolled, "unroll");
    modify();
    return *this;
}

Stage &Stage::vectorize(const VarOrRVar &var) {
    set_loop_type(schedule(), description(), var.name(), ForType::Vectorized, "vectorize");
    modify();
    return *this;
}

Stage &Stage::parallel(const VarOrRVar &var) {
    set_loop_type(schedule(), description(), var.name(), ForType::Parallel, "parallel");
    modify();
    return *this;
}

Stage &Stage::serial(const VarOrRVar &var) {
    set_loop_type(schedule(), description(), var.name(), ForType::Serial, "serial");
    modify();
    return *this;
}

// The factor forms split off an inner loop with a fresh name ("x_vi" for a
// vectorized x) and keep the old name for the outer loop.

Stage &Stage::unroll(const VarOrRVar &var, const Expr &factor, TailStrategy tail) {
    require_dim(description(), schedule(), var.name(), "unroll");
    VarOrRVar tmp(fresh_name(schedule(), var.name() + "_ui"), var.is_rvar());
    split(var, var, tmp, factor, tail);
    return unroll(tmp);
}

Stage &Stage::vectorize(const VarOrRVar &var, const Expr &factor, TailStrategy tail) {
    require_dim(description(), schedule(), var.name(), "vectorize");
    VarOrRVar tmp(fresh_name(schedule(), var.name() + "_vi"), var.is_rvar());
    split(var, var, tmp, factor, tail);
    return vectorize(tmp);
}

Stage &Stage::parallel(const VarOrRVar &var, const Expr &task_size, TailStrategy tail) {
    require_dim(description(), schedule(), var.name(), "parallel");
    VarOrRVar tmp(fresh_name(schedule(), var.name() + "_pi"), var.is_rvar());
    split(var, var, tmp, task_size, tail);
    return parallel(var);
}

// ---- GPU loops.

namespace {

const char *device_api_name(DeviceAPI api) {
    switch (api) {
    case DeviceAPI::None:
        return "DeviceAPI::None";
    case DeviceAPI::Host:
        return "DeviceAPI::Host";
    case DeviceAPI::Default_GPU:
        return "DeviceAPI::Default_GPU";
    case DeviceAPI::CUDA:
        return "DeviceAPI::CUDA";
    case DeviceAPI::OpenCL:
        return "DeviceAPI::OpenCL";
    }
    return "DeviceAPI::<unknown>";
}

const char *gpu_loop_kind(ForType t) {
    switch (t) {
    case ForType::GPUBlock:
        return "block";
    case ForType::GPUThread:
        return "thread";
    default:
        return "lane";
    }
}

std::string name_list(const std::vector<VarOrRVar> &vars) {
    std::string out;
    for (const VarOrRVar &v : vars) out += (out.empty() ? "" : ", ") + v.name();
    return out;
}

void check_gpu_api(const std::string &stage, const std::string &what, DeviceAPI api,
                   const char *primitive) {
    if (api == DeviceAPI::Default_GPU || api == DeviceAPI::CUDA || api == DeviceAPI::OpenCL) return;
    user_error(primitive << "(" << what << ") in " << stage << " is given " << device_api_name(api)
                         << ", which runs no GPU loops; use DeviceAPI::Default_GPU (the target's "
                            "GPU API), DeviceAPI::OpenCL or DeviceAPI::CUDA");
}

/** GPU grids and blocks have dimensions x, y and z. */
constexpr size_t max_gpu_dims = 3;

} // namespace

template <typename F> Stage &Stage::all_or_nothing(F schedule_it) {
    StageSchedule saved = schedule();
    try {
        schedule_it();
    } catch (...) {
        schedule() = saved;
        throw;
    }
    return *this;
}

Stage &Stage::mark_gpu_loops(const std::vector<VarOrRVar> &vars, ForType t, DeviceAPI device_api,
                             const char *primitive, const std::string &args) {
    std::string stage = description();
    std::string names = args.empty() && !vars.empty() && !is_single_thread_loop(vars[0].name())
                            ? name_list(vars)
                            : args;
    check_gpu_api(stage, names, device_api, primitive);
    StageSchedule &s = schedule();
    std::vector<size_t> idx;
    for (const VarOrRVar &v : vars) {
        size_t i = size_t(require_dim(stage, s, v.name(), primitive));
        if (std::find(idx.begin(), idx.end(), i) != idx.end())
            user_error(primitive << "(" << names << ") in " << stage << " names loop variable "
                                 << v.name() << " more than once; each GPU " << gpu_loop_kind(t)
                                 << " dimension needs its own loop; its loop variables are "
                                 << loop_list(s));
        idx.push_back(i);
    }
    if (t == ForType::GPUBlock || t == ForType::GPUThread) {
        std::vector<std::string> loops;
        for (size_t k = 0; k < s.dims.size(); k++) {
            if (s.dims[k].for_type == t || std::find(idx.begin(), idx.end(), k) != idx.end())
                loops.push_back(s.dims[k].var);
        }
        if (loops.size() > max_gpu_dims) {
            std::string list;
            for (const std::string &l : loops) list += (list.empty() ? "" : ", ") + l;
            user_error(primitive << "(" << names << ") in " << stage << " would give it "
                                 << loops.size() << " GPU " << gpu_loop_kind(t) << " loops ("
                                 << list << ", innermost first); a stage has at most "
                                 << max_gpu_dims << " (dimensions x, y and z). Fuse loops, or "
                                 << "make one serial() first");
        }
    }
    StageSchedule &m = modify();
    for (size_t i : idx) {
        m.dims[i].for_type = t;
        m.dims[i].device_api = device_api;
    }
    return *this;
}

Stage &Stage::gpu_blocks(const VarOrRVar &block_x, DeviceAPI device_api) {
    return mark_gpu_loops({block_x}, ForType::GPUBlock, device_api, "gpu_blocks");
}

Stage &Stage::gpu_blocks(const VarOrRVar &block_x, const VarOrRVar &block_y, DeviceAPI device_api) {
    return mark_gpu_loops({block_x, block_y}, ForType::GPUBlock, device_api, "gpu_blocks");
}

Stage &Stage::gpu_blocks(const VarOrRVar &block_x, const VarOrRVar &block_y,
                         const VarOrRVar &block_z, DeviceAPI device_api) {
    return mark_gpu_loops({block_x, block_y, block_z}, ForType::GPUBlock, device_api, "gpu_blocks");
}

Stage &Stage::gpu_threads(const VarOrRVar &thread_x, DeviceAPI device_api) {
    return mark_gpu_loops({thread_x}, ForType::GPUThread, device_api, "gpu_threads");
}

Stage &Stage::gpu_threads(const VarOrRVar &thread_x, const VarOrRVar &thread_y,
                          DeviceAPI device_api) {
    return mark_gpu_loops({thread_x, thread_y}, ForType::GPUThread, device_api, "gpu_threads");
}

Stage &Stage::gpu_threads(const VarOrRVar &thread_x, const VarOrRVar &thread_y,
                          const VarOrRVar &thread_z, DeviceAPI device_api) {
    return mark_gpu_loops({thread_x, thread_y, thread_z}, ForType::GPUThread, device_api,
                          "gpu_threads");
}

Stage &Stage::gpu_lanes(const VarOrRVar &thread_x, DeviceAPI device_api) {
    return mark_gpu_loops({thread_x}, ForType::GPULane, device_api, "gpu_lanes");
}

Stage &Stage::gpu_single_thread(DeviceAPI device_api) {
    std::string stage = description();
    check_gpu_api(stage, "", device_api, "gpu_single_thread");
    // Halide splits its outermost loop (of extent 1) by 1 twice; Loom adds
    // the two loops of extent 1 outside all others (innermost first: the
    // thread loop, then the block loop). Calling it again only changes the API.
    StageSchedule &s = schedule();
    bool has_block = find_dim(s, single_thread_block_loop) >= 0;
    bool has_thread = find_dim(s, single_thread_thread_loop) >= 0;
    return all_or_nothing([&] {
        StageSchedule &m = modify();
        if (!has_thread)
            m.dims.push_back(
                Dim{single_thread_thread_loop, ForType::Serial, DeviceAPI::None, false});
        if (!has_block)
            m.dims.push_back(
                Dim{single_thread_block_loop, ForType::Serial, DeviceAPI::None, false});
        VarOrRVar block(single_thread_block_loop, false), thread(single_thread_thread_loop, false);
        mark_gpu_loops({block}, ForType::GPUBlock, device_api, "gpu_single_thread", "");
        mark_gpu_loops({thread}, ForType::GPUThread, device_api, "gpu_single_thread", "");
    });
}

Stage &Stage::gpu(const VarOrRVar &block_x, const VarOrRVar &thread_x, DeviceAPI device_api) {
    std::string args = name_list({block_x, thread_x});
    return all_or_nothing([&] {
        mark_gpu_loops({block_x}, ForType::GPUBlock, device_api, "gpu", args);
        mark_gpu_loops({thread_x}, ForType::GPUThread, device_api, "gpu", args);
    });
}

Stage &Stage::gpu(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &thread_x,
                  const VarOrRVar &thread_y, DeviceAPI device_api) {
    std::string args = name_list({block_x, block_y, thread_x, thread_y});
    return all_or_nothing([&] {
        mark_gpu_loops({block_x, block_y}, ForType::GPUBlock, device_api, "gpu", args);
        mark_gpu_loops({thread_x, thread_y}, ForType::GPUThread, device_api, "gpu", args);
    });
}

Stage &Stage::gpu(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &block_z,
                  const VarOrRVar &thread_x, const VarOrRVar &thread_y, const VarOrRVar &thread_z,
                  DeviceAPI device_api) {
    std::string args = name_list({block_x, block_y, block_z, thread_x, thread_y, thread_z});
    return all_or_nothing([&] {
        mark_gpu_loops({block_x, block_y, block_z}, ForType::GPUBlock, device_api, "gpu", args);
        mark_gpu_loops({thread_x, thread_y, thread_z}, ForType::GPUThread, device_api, "gpu", args);
    });
}

// gpu_tile: split (or tile), then blocks outside and threads inside, as in
// Halide. The loops it names must exist before anything changes, so the
// messages name gpu_tile rather than the split it is made of.

Stage &Stage::gpu_tile(const VarOrRVar &x, const VarOrRVar &bx, const VarOrRVar &tx,
                       const Expr &x_size, TailStrategy tail, DeviceAPI device_api) {
    std::string stage = description();
    require_dim(stage, schedule(), x.name(), "gpu_tile");
    check_gpu_api(stage, x.name(), device_api, "gpu_tile");
    return all_or_nothing([&] {
        split(x, bx, tx, x_size, tail);
        mark_gpu_loops({bx}, ForType::GPUBlock, device_api, "gpu_tile", x.name());
        mark_gpu_loops({tx}, ForType::GPUThread, device_api, "gpu_tile", x.name());
    });
}

Stage &Stage::gpu_tile(const VarOrRVar &x, const VarOrRVar &tx, const Expr &x_size,
                       TailStrategy tail, DeviceAPI device_api) {
    return gpu_tile(x, x, tx, x_size, tail, device_api);
}

Stage &Stage::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &bx,
                       const VarOrRVar &by, const VarOrRVar &tx, const VarOrRVar &ty,
                       const Expr &x_size, const Expr &y_size, TailStrategy tail,
                       DeviceAPI device_api) {
    std::string stage = description();
    for (const VarOrRVar *v : {&x, &y}) require_dim(stage, schedule(), v->name(), "gpu_tile");
    std::string args = name_list({x, y});
    check_gpu_api(stage, args, device_api, "gpu_tile");
    return all_or_nothing([&] {
        tile(x, y, bx, by, tx, ty, x_size, y_size, tail);
        mark_gpu_loops({bx, by}, ForType::GPUBlock, device_api, "gpu_tile", args);
        mark_gpu_loops({tx, ty}, ForType::GPUThread, device_api, "gpu_tile", args);
    });
}

Stage &Stage::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &tx,
                       const VarOrRVar &ty, const Expr &x_size, const Expr &y_size,
                       TailStrategy tail, DeviceAPI device_api) {
    return gpu_tile(x, y, x, y, tx, ty, x_size, y_size, tail, device_api);
}

Stage &Stage::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z,
                       const VarOrRVar &bx, const VarOrRVar &by, const VarOrRVar &bz,
                       const VarOrRVar &tx, const VarOrRVar &ty, const VarOrRVar &tz,
                       const Expr &x_size, const Expr &y_size, const Expr &z_size,
                       TailStrategy tail, DeviceAPI device_api) {
    std::string stage = description();
    for (const VarOrRVar *v : {&x, &y, &z}) require_dim(stage, schedule(), v->name(), "gpu_tile");
    std::string args = name_list({x, y, z});
    check_gpu_api(stage, args, device_api, "gpu_tile");
    return all_or_nothing([&] {
        split(x, bx, tx, x_size, tail);
        split(y, by, ty, y_size, tail);
        split(z, bz, tz, z_size, tail);
        reorder({tx, ty, tz, bx, by, bz});
        mark_gpu_loops({bx, by, bz}, ForType::GPUBlock, device_api, "gpu_tile", args);
        mark_gpu_loops({tx, ty, tz}, ForType::GPUThread, device_api, "gpu_tile", args);
    });
}

Stage &Stage::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z,
                       const VarOrRVar &tx, const VarOrRVar &ty, const VarOrRVar &tz,
                       const Expr &x_size, const Expr &y_size, const Expr &z_size,
                       TailStrategy tail, DeviceAPI device_api) {
    return gpu_tile(x, y, z, x, y, z, tx, ty, tz, x_size, y_size, z_size, tail, device_api);
}

Stage Stage::specialize(const Expr &condition) {
    std::string stage = description();
    if (!condition.defined())
        user_error("specialize of " << stage << " has an undefined condition");
    if (!condition.type().is_bool() || condition.type().is_vector())
        user_error("specialize of " << stage << " has a condition of type "
                                    << type_to_string(condition.type())
                                    << "; the condition must be a scalar bool");
    visit_all(condition, [&](const IRNode *n) {
        if (n->node_type != IRNodeType::Variable) return;
        const auto *v = static_cast<const Variable *>(n);
        if (v->param.defined() || v->image.defined()) return;
        user_error("specialize of " << stage << " has a condition that uses " << v->name
                                    << ", which is not a Param; the condition is evaluated once "
                                       "per run and may use only Params and buffer sizes");
    });
    StageSchedule &s = schedule();
    for (size_t i = 0; i < s.specializations.size(); i++) {
        const Specialization &sp = s.specializations[i];
        if (sp.failure)
            user_error("specialize of " << stage << " comes after specialize_fail; no "
                                        << "specialization can follow it");
        if (equal(sp.condition, condition)) {
            std::vector<size_t> path = specialization_path_;
            path.push_back(i);
            return Stage(func_, stage_, path);
        }
    }
    StageSchedule &m = modify();
    Specialization sp;
    sp.condition = condition;
    sp.schedule.splits = m.splits;
    sp.schedule.dims = m.dims;
    sp.schedule.touched = m.touched;
    m.specializations.push_back(sp);
    std::vector<size_t> path = specialization_path_;
    path.push_back(m.specializations.size() - 1);
    return Stage(func_, stage_, path);
}

Stage &Stage::atomic() {
    if (stage_ == 0)
        user_error("atomic() of " << description()
                                  << ": only update definitions can be atomic; use " << func_.name()
                                  << ".update(i).atomic()");
    if (func_.outputs() > 1)
        user_error("atomic() of " << description() << ": Func " << func_.name() << " has "
                                  << func_.outputs()
                                  << " values; atomic updates work on single-valued Funcs only "
                                     "(use rfactor for Tuple reductions)");
    Function f = func_;
    f.updates()[size_t(stage_ - 1)].atomic = true;
    f.invalidate_cache();
    return *this;
}

void Stage::specialize_fail(const std::string &message) {
    std::string stage = description();
    StageSchedule &s = schedule();
    for (const Specialization &sp : s.specializations) {
        if (sp.failure)
            user_error("specialize_fail of " << stage
                                             << " is called twice; a stage has at most one");
    }
    StageSchedule &m = modify();
    Specialization sp;
    sp.condition = const_true();
    sp.schedule.splits = m.splits;
    sp.schedule.dims = m.dims;
    sp.failure = true;
    sp.failure_message = message;
    m.specializations.push_back(sp);
}

} // namespace loom
