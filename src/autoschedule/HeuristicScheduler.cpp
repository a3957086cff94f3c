// The "Loom" auto-scheduler: a few rules of thumb that hand schedules of
// image and tensor pipelines follow, applied through the public scheduling
// API (so the result is what a user could have written, and prints as such):
//
//  - every Func's sizes are inferred from the outputs' (RegionEstimate.cpp);
//  - cheap Funcs and Funcs read only at the point being computed are inlined
//    (unless a consumer with more dimensions, such as the channels of an RGB
//    output, or reads at several constant channels, would recompute them);
//  - Funcs read at constant offsets (stencils, also x plus a window's RVar)
//    or scaled coordinates (2 * x, y / 2) are computed per strip of rows of
//    the Func that consumes them ("groups": one root Func and its strip
//    members), vectorized along their innermost dimension; so are cheap
//    Funcs that gather from a computed Func when a stencil reads them, and
//    Funcs with updates (scans, window sums, a resize's passes) read by a
//    root or its member, where their strips need no more;
//  - Funcs a window sum reads per offset of its window (nl_means' patch
//    distances at (x, y, window.x, window.y)) are computed per offset, at
//    the window's loops outside the sum's rows, with what feeds only them;
//  - small dimensions whose formulas differ (select(c < 3, ...)) are
//    bounded to their region and unrolled, so what the channels share is
//    computed once (a root's are split by their planned count, guarded,
//    and unrolled inside x; a cheap Func they share is then inlined);
//  - strip members that have the same region in every strip (a table per
//    column) are computed once, at root;
//  - transposes are computed at root in square tiles;
//  - everything else (histograms, data-dependent reads, Funcs read by
//    several groups) is computed at root and heads its own group;
//  - a group's root is vectorized along its innermost dimension, strips run
//    along its longest outer dimension, its small dimensions (channels) go
//    inside the strip loop, and its strips are sized for enough parallel
//    tasks and for the members' rows to stay in the cache;
//  - a reduction read pointwise by one consumer whose update keeps all pure
//    Vars and whose operands each leave one out (a matrix product) is
//    register-blocked: computed per 4-row block of a tile of its consumer,
//    with its vector sums unrolled in registers;
//  - an associative update with no pure loop worth running in parallel (a
//    histogram, a sum to one value, a column sum over a few columns) is
//    rfactor()ed into partial results per chunk of its outer RVar, computed
//    in parallel (HeuristicRFactor.cpp).
//
// For a GPU target the same groups become GPU tiles: each root is tiled into
// blocks of 32x8 threads (tail-guarded where its size is unknown), its strip
// members are computed per block (in shared memory) by the block's threads,
// updates with pure loops are tiled the same way and the others run in a
// single thread.
//
// Splits use ShiftInwards only where the loop is known to be at least the
// factor long (JIT sizes or estimates), else GuardWithIf, so a schedule
// never makes the pipeline read outside the region the default schedule
// reads.

#include "autoschedule/HeuristicScheduler.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <thread>

#include "autoschedule/FuncAnalysis.h"
#include "autoschedule/HeuristicRFactor.h"
#include "autoschedule/RegionEstimate.h"
#include "autoschedule/ScheduleUtil.h"
#include "frontend/FuncWrappers.h"
#include "ir/Error.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"
#include "loom/Func.h"
#include "loom/Pipeline.h"
#include "lower/InlineFunctions.h"

namespace loom {
namespace Internal {

namespace {

/** Cost in IR nodes (not counting index arithmetic) up to which a producer
 * is recomputed at each use (a boundary condition, a cast, a wrapper of a
 * Buffer) rather than stored, whatever its access pattern. */
constexpr int cheap_cost = 3;
/** Cost up to which a pointwise Func read by each of a few unrolled
 * channels is recomputed per channel rather than stored as a plane. */
constexpr int max_cost_per_channel = 32;

struct Group {
    std::string root;
    std::vector<std::string> members; // producers first
};

class Heuristic {
    const PipelineInfo &info_;
    const HeuristicOptions &opts_;
    std::map<std::string, std::vector<int>> sizes_;    // known extents of outputs
    std::map<std::string, EstimatedRegion> estimates_; // inferred regions
    std::map<std::string, std::string> placement_;     // Func -> "inline", "root" or group root
    std::vector<std::string> left_alone_;
    std::set<std::string> sliding_;     // members stored per strip, computed per row
    std::set<std::string> taken_names_; // Func names in use (rfactor's intermediates are new)
    /** Funcs computed per offset of a window sum: at the RVar `rvar` of
     * `consumer`'s update (find_offset_chains). */
    struct OffsetLevel {
        std::string consumer, rvar;
    };
    std::map<std::string, OffsetLevel> per_offset_;
    std::map<std::string, std::set<std::string>> offset_rvars_; // window sum -> its window's RVars

    const FuncInfo &fi(const std::string &n) const { return info_.funcs.at(n); }

    int vector_width(const FuncInfo &f) const {
        return std::max(1, opts_.vector_bits / std::max(8, f.max_bits)) *
               std::max(1, opts_.vector_multiplier);
    }

    /** A loop name not used by f's stages: base, else base with underscores. */
    static std::string fresh(const Function &f, const std::string &base) {
        std::set<std::string> used;
        auto add = [&](const StageSchedule &s) {
            for (const Dim &d : s.dims) used.insert(short_loop_name(d.var));
        };
        add(f.definition().schedule);
        for (const Definition &u : f.updates()) add(u.schedule);
        for (const std::string &a : f.args()) used.insert(a);
        std::string n = base;
        while (used.count(n)) n += "_";
        return n;
    }

    /** Sizes to choose by: an output's own, else those inferred from the
     * outputs' (estimates_), with an output of as many dimensions filling
     * what that leaves unknown. Only an output's own sizes allow unguarded
     * tails. */
    std::vector<int> guessed_sizes(const std::string &name) const {
        auto own = sizes_.find(name);
        if (own != sizes_.end()) return own->second;
        size_t dims = fi(name).func.args().size();
        std::vector<int> fallback;
        for (const auto &kv : sizes_)
            if (kv.second.size() == dims) {
                fallback = kv.second;
                break;
            }
        auto est = estimates_.find(name);
        if (est == estimates_.end()) return fallback;
        std::vector<int> guess = est->second.extent;
        guess.resize(dims, -1);
        for (size_t i = 0; i < dims; i++)
            if (guess[i] < 0 && i < fallback.size()) guess[i] = fallback[i];
        return guess;
    }

    /** Dimension i's length to plan with: an unknown one counts as 64 (an
     * image's, or a data-dependent one's). */
    static int planned_length(const std::vector<int> &sizes, size_t i) {
        return i < sizes.size() && sizes[i] >= 0 ? sizes[i] : 64;
    }
    /** Under 8 long (colour channels, a 2x2 mosaic's sites). */
    static bool is_small(const std::vector<int> &sizes, size_t i) {
        return planned_length(sizes, i) < 8;
    }

    /** A root's strip dimension: its longest outer one (the rows of an
     * image, not its stack of 32 disparities), the outermost of equals; one
     * of unknown size counts as 64 long (an image's, or a data-dependent
     * one's). -1: none (one dimension, or all small). */
    int strip_dimension(const std::string &root) const {
        std::vector<int> guess = guessed_sizes(root);
        size_t dims = fi(root).func.args().size();
        int strip = -1;
        for (size_t i = dims; i-- > 1;)
            if (!is_small(guess, i) &&
                (strip < 0 || planned_length(guess, i) > planned_length(guess, size_t(strip))))
                strip = int(i);
        return strip;
    }

    /** The dimensions of f that an update's RVar walks (a scan). */
    static std::set<size_t> scanned_dimensions(const Function &f) {
        std::set<size_t> out;
        for (const Definition &u : f.updates())
            for (const ReductionVariable &rv : u.rvars)
                for (size_t i = 0; i < u.args.size(); i++)
                    if (expr_uses_var(u.args[i], rv.var)) out.insert(i);
        return out;
    }

    /** Can a Func with updates be computed per strip of root, read only by
     * root or by one of root's strip members, without computing more than
     * the strip needs? Every call must read it at the reader's Vars plus
     * constants, or (in a dimension it does not scan) at coordinates that
     * follow the reader's own Var there (a resize's taps around
     * floor(y / scale)), and never index a scanned dimension by the strip's
     * Var (each strip would then redo the whole scan). */
    bool updates_fit_strips(const std::string &name, const std::string &root) const {
        const FuncInfo &r = fi(root);
        const FuncInfo &p = fi(name);
        if (r.has_updates || r.user_scheduled || p.consumers.size() != 1) return false;
        const std::string &reader = p.consumers[0];
        if (reader != root && placement_.at(reader) != root) return false;
        const FuncInfo &c = fi(reader);
        int strip = strip_dimension(root);
        if (strip < 0 || c.user_scheduled || c.func.args().size() <= size_t(strip)) return false;
        const std::string &strip_var = c.func.args()[size_t(strip)];
        std::set<size_t> scanned = scanned_dimensions(p.func);
        bool ok = true;
        for_each_call(c, name, [&](const Call *call, const std::set<std::string> &rvars) {
            for (size_t i = 0; i < call->args.size(); i++) {
                const Expr &a = call->args[i];
                int64_t offset = 0;
                bool follows = !scanned.count(i) && i < c.func.args().size() &&
                               follows_own_var(a, c.func.args()[i], rvars);
                if (!is_const(a) && !var_plus_const(a, &offset) && !follows) ok = false;
                if (scanned.count(i) && expr_uses_var(a, strip_var)) ok = false;
            }
        });
        return ok;
    }

    /** Calls f(call, the RVars around it) for each call to name in reader's
     * definitions (values, and the left-hand sides of its updates). */
    template <typename F>
    static void for_each_call(const FuncInfo &reader, const std::string &name, F f) {
        auto visit = [&](const Expr &e, const std::set<std::string> &rvars) {
            visit_all(e, [&](const IRNode *n) {
                if (n->node_type != IRNodeType::Call) return;
                const auto *call = static_cast<const Call *>(n);
                if (call->call_type == Call::Loom && call->name == name) f(call, rvars);
            });
        };
        for (const Expr &v : reader.func.definition().values) visit(v, {});
        for (const Definition &u : reader.func.updates()) {
            std::set<std::string> rvars;
            for (const ReductionVariable &rv : u.rvars) rvars.insert(rv.var);
            for (const Expr &v : u.values) visit(v, rvars);
            for (const Expr &a : u.args) visit(a, rvars);
        }
    }

    /** Does a strip of each (stored) consumer's rows read a strip of
     * name's? Every coordinate follows the consumer's Var at its position
     * through any arithmetic (clamp(x, 0, w - 1) / 2), or indexes a small
     * dimension of name by a formula of the consumer's Vars (a mosaic's
     * site px % 2 + 2 * (py % 2)), where the strip computes all of it.
     * Loads in a coordinate (data-dependent reads) never do. */
    bool reads_follow_strips(const std::string &name) const {
        const FuncInfo &p = fi(name);
        std::vector<int> guess = guessed_sizes(name);
        bool ok = !p.consumers.empty();
        for (const std::string &cn : p.consumers) {
            if (placement_.at(cn) == "inline") return false;
            const FuncInfo &c = fi(cn);
            for_each_call(c, name, [&](const Call *call, const std::set<std::string> &rvars) {
                for (size_t i = 0; i < call->args.size(); i++) {
                    const Expr &a = call->args[i];
                    int64_t offset = 0;
                    bool loads = false;
                    visit_all(a,
                              [&](const IRNode *m) { loads |= m->node_type == IRNodeType::Call; });
                    bool follows =
                        i < c.func.args().size() && follows_own_var(a, c.func.args()[i], rvars);
                    if (!is_const(a) && !var_plus_const(a, &offset) && !follows &&
                        (loads || !is_small(guess, i)))
                        ok = false;
                }
            });
        }
        return ok;
    }

    /** Does name compute from images alone, through cheap wrappers of them
     * (a boundary condition), with no updates? */
    bool reads_only_image_values(const std::string &name) const {
        const FuncInfo &f = fi(name);
        if (f.has_updates || f.user_scheduled) return false;
        bool images = f.reads_images;
        for (const std::string &p : f.producers) {
            const FuncInfo &q = fi(p);
            if (q.cost > cheap_cost || q.calls > 1 || !reads_only_image_values(p)) return false;
            images = true;
        }
        return images;
    }

    /** The groups each Func's uses fall in (through inlined Funcs). */
    std::set<std::string> groups_using(const std::string &name) const {
        std::set<std::string> out;
        for (const std::string &c : fi(name).consumers) {
            const std::string &p = placement_.at(c);
            if (p == "inline") {
                std::set<std::string> up = groups_using(c);
                out.insert(up.begin(), up.end());
            } else {
                out.insert(p == "root" ? c : p);
            }
        }
        return out;
    }

    /** The worst access to name, through inlined consumers too. */
    Access access_through_inlines(const std::string &name) const {
        Access a = fi(name).access;
        for (const std::string &c : fi(name).consumers)
            if (placement_.at(c) == "inline" && fi(c).access != Access::Pointwise)
                a = std::max(a, fi(c).access);
        return a;
    }

    bool is_matrix_product(const FuncInfo &f) const {
        if (f.func.updates().size() != 1 || f.consumers.size() != 1 ||
            f.access != Access::Pointwise)
            return false;
        const Definition &u = f.func.updates()[0];
        if (u.rvars.empty() || u.args.size() < 2) return false;
        std::vector<std::string> loops = initial_loops(u, true, f.func.args());
        for (const std::string &a : f.func.args())
            if (std::find(loops.begin(), loops.end(), a) == loops.end()) return false;
        // Register blocking pays where each operand is shared across a
        // dimension of the tile (A(k, y) by every x, B(x, k) by every y); a
        // weighted sum of an image over a window (a blur, nl_means) reads
        // one operand at every coordinate and gains nothing from it.
        bool shared_operands = true;
        for (const std::set<size_t> &dims : operand_dims(f.func))
            shared_operands &= dims.size() < f.func.args().size();
        const FuncInfo &c = fi(f.consumers[0]);
        return shared_operands && c.is_output && !c.has_updates && !c.user_scheduled &&
               c.func.args().size() == f.func.args().size();
    }

    /** Does computing name read a Buffer or ImageParam, itself or through
     * the Funcs inlined into it? */
    /** Does computing name over more than its consumers need make some Func
     * read an image outside it: name, or a Func it reads at unclamped
     * coordinates, directly or not, reading one at unclamped coordinates?
     * (A boundary condition's clamp stops the search.) */
    bool overcompute_reads_outside(const std::string &name) const {
        std::set<std::string> seen;
        std::vector<std::string> todo{name};
        while (!todo.empty()) {
            std::string n = todo.back();
            todo.pop_back();
            if (!seen.insert(n).second) continue;
            if (fi(n).unclamped_image_reads) return true;
            for (const std::string &p : fi(n).unclamped_callees) todo.push_back(p);
        }
        return false;
    }

    bool touches_images(const std::string &name) const {
        if (fi(name).reads_images) return true;
        for (const std::string &p : fi(name).producers)
            if (placement_.at(p) == "inline" && touches_images(p)) return true;
        return false;
    }

    /** Each call in e of a Func not placed inline, looking through the
     * Funcs that are (their definitions at the call's coordinates). */
    void calls_in(const Expr &e, const std::function<void(const Call *)> &found,
                  int depth = 0) const {
        visit_all(e, [&](const IRNode *n) {
            if (n->node_type != IRNodeType::Call) return;
            const auto *c = static_cast<const Call *>(n);
            if (c->call_type != Call::Loom || !c->func.defined() ||
                !info_.funcs.count(c->func.name()))
                return;
            if (placement_.at(c->func.name()) == "inline" && depth < 16)
                calls_in(inline_call(c->func, c->args, c->value_index), found, depth + 1);
            else
                found(c);
        });
    }

    /** The Funcs not placed inline whose definitions read name, directly or
     * through inlined Funcs. */
    std::set<std::string> stored_consumers(const std::string &name) const {
        std::set<std::string> out;
        for (const std::string &c : fi(name).consumers) {
            if (placement_.at(c) != "inline") {
                out.insert(c);
                continue;
            }
            std::set<std::string> up = stored_consumers(c);
            out.insert(up.begin(), up.end());
        }
        return out;
    }

    /** Strip members whose region is the same for every strip (a table of
     * weights per output column and tap, read by a resize's row pass) are
     * computed once, at root: per strip they were recomputed whole. A
     * Func's dimensions that follow the strip are those its readers in the
     * group index with their own dimensions that follow it (the root's
     * strip dimension, to begin with). */
    void hoist_strip_invariant_members() {
        std::map<std::string, std::set<size_t>> follows; // group Func -> its dims that follow
        for (auto it = info_.order.rbegin(); it != info_.order.rend(); ++it) {
            const std::string &p = placement_.at(*it);
            if (p == "inline" || fi(*it).user_scheduled) continue;
            if (p == "root") {
                int strip = strip_dimension(*it);
                if (strip >= 0) follows[*it] = {size_t(strip)};
                continue;
            }
            if (sliding_.count(*it) || per_offset_.count(*it) || !follows.count(p)) continue;
            std::set<size_t> dims;
            for (const auto &[q, qdims] : follows) {
                if (q != p && placement_.at(q) != p) continue;
                const Function &qf = fi(q).func;
                std::vector<Expr> exprs = all_values(qf);
                for (const Definition &u : qf.updates())
                    exprs.insert(exprs.end(), u.args.begin(), u.args.end());
                for (const Expr &e : exprs)
                    calls_in(e, [&](const Call *c) {
                        if (c->func.name() != *it) return;
                        for (size_t i = 0; i < c->args.size(); i++)
                            for (size_t j : qdims)
                                if (expr_uses_var(c->args[i], qf.args()[j])) dims.insert(i);
                    });
            }
            if (dims.empty() && !fi(*it).func.args().empty())
                placement_[*it] = "root";
            else
                follows[*it] = dims;
        }
    }

    /** The values of f's pure definition and of its updates. */
    static std::vector<Expr> all_values(const Function &f) {
        std::vector<Expr> values = f.definition().values;
        for (const Definition &u : f.updates())
            values.insert(values.end(), u.values.begin(), u.values.end());
        return values;
    }

    /** The small dimensions of a Func that its definitions compare
     * (select(c < 3, ...): channels computed by different formulas), and
     * its other dimensions past the second, each with a known region of at
     * most 4. Bounded to that region and unrolled, each channel's formula
     * folds and what the channels share (a weight, the same loads) is
     * computed once. */
    std::vector<size_t> unrolled_channels(const std::string &name) const {
        std::vector<size_t> out;
        auto est = estimates_.find(name);
        if (est == estimates_.end()) return out;
        const Function &f = fi(name).func;
        std::vector<Expr> values = all_values(f);
        for (size_t i = 1; i < f.args().size() && i < est->second.extent.size(); i++) {
            int e = est->second.extent[i];
            if (e < 1 || e > 4) continue;
            const std::string &v = f.args()[i];
            // A boolean of v (a comparison, or logic over comparisons).
            bool compared = false;
            for (const Expr &value : values)
                visit_all(value, [&](const IRNode *n) {
                    const auto *node = static_cast<const BaseExprNode *>(n);
                    if (!compared && node->type.is_bool()) compared = expr_uses_var(Expr(node), v);
                });
            // Or a small dimension past x and y (colours, a mosaic's sites):
            // each vector of x computes all of it, as hand schedules do
            // (camera_pipe's heuristic schedule 8% faster on AMD EPYC).
            if (compared || (i >= 2 && e >= 2)) out.push_back(i);
        }
        return out;
    }

    /** Is every consumer of name with more dimensions than it computing
     * those as channels unrolled together (root_channels, or a member's
     * unrolled_channels), and name cheap enough to compute once per
     * channel rather than store a plane of it (hist's luma, read by the
     * RGB output's three formulas)? */
    bool recomputed_per_channel(const std::string &name) const {
        const FuncInfo &f = fi(name);
        if (f.cost > max_cost_per_channel) return false;
        for (const std::string &c : f.consumers) {
            const FuncInfo &ci = fi(c);
            size_t extra = ci.func.args().size() > f.func.args().size()
                               ? ci.func.args().size() - f.func.args().size()
                               : 0;
            if (extra == 0) continue;
            const std::string &p = placement_.at(c);
            if (p == "inline") return false;
            size_t channels = p == "root" ? root_channels(c).size() : unrolled_channels(c).size();
            if (channels < extra) return false;
        }
        return true;
    }

    /** The channels of a root that each vector of its x computes together
     * (unrolled_channels of a root without updates, small and not its
     * strip dimension). None on a GPU, whose threads each compute one. */
    std::vector<size_t> root_channels(const std::string &root) const {
        std::vector<size_t> out;
        const FuncInfo &rf = fi(root);
        if (opts_.gpu || rf.has_updates || rf.user_scheduled || rf.reads_transposed) return out;
        std::vector<int> guess = guessed_sizes(root);
        int strip = strip_dimension(root);
        for (size_t i : unrolled_channels(root))
            if (int(i) != strip && is_small(guess, i) && guess[i] >= 2) out.push_back(i);
        return out;
    }

    /** Bound f's dimensions dims to their estimated regions, for unrolling. */
    void bound_to_estimate(Func f, const std::vector<size_t> &dims) const {
        const EstimatedRegion &r = estimates_.at(f.name());
        for (size_t i : dims) f.bound(Var(f.function().args()[i]), r.min[i], r.extent[i]);
    }

    /** A window sum (nl_means' weighted sum of w(x, y, window.x, window.y)
     * times the image at the offset) reads Funcs per offset of its window:
     * those are computed per offset, over the rows the sum's strip needs,
     * at the window's loops (outside the sum's rows), rather than at root
     * with a copy of the image per offset. What feeds only them and varies
     * with the offset goes with them. */
    void find_offset_chains() {
        for (const std::string &w : info_.order) {
            const FuncInfo &wi = fi(w);
            if (wi.user_scheduled || wi.func.updates().size() != 1 || wi.func.args().empty() ||
                placement_.at(w) == "inline" || per_offset_.count(w) || is_matrix_product(wi))
                continue;
            const Definition &u = wi.func.updates()[0];
            std::vector<std::string> loops = initial_loops(u, true, wi.func.args());
            if (std::find(loops.begin(), loops.end(), wi.func.args()[0]) == loops.end()) continue;
            bool scan = false;
            for (const ReductionVariable &rv : u.rvars)
                for (const Expr &a : u.args) scan |= expr_uses_var(a, rv.var);
            if (scan) continue;
            const std::vector<int> sum_sizes = guessed_sizes(w);
            // Per Func of the chain, its dimensions that follow the offset.
            std::map<std::string, std::set<std::string>> offset_vars;
            std::set<std::string> used;
            bool ok = true;
            for (const Expr &v : u.values)
                calls_in(v, [&](const Call *c) {
                    const std::string &p = c->func.name();
                    if (p == w) return;
                    std::set<std::string> dims;
                    for (size_t i = 0; i < c->args.size(); i++)
                        for (const ReductionVariable &rv : u.rvars) {
                            int64_t offset = 0;
                            if (!var_plus_const(c->args[i], &offset) ||
                                !expr_uses_var(c->args[i], rv.var))
                                continue;
                            ok &= i > 0; // rows per offset, not a column each
                            used.insert(rv.var);
                            dims.insert(c->func.args()[i]);
                        }
                    if (dims.empty()) return;
                    // Each offset's region must grow with the sum's rows
                    // and columns (weights per column and tap of a resize
                    // are computed once, at root).
                    for (size_t i = 0; i < wi.func.args().size(); i++) {
                        bool read = false;
                        for (const Expr &a : c->args) read |= expr_uses_var(a, wi.func.args()[i]);
                        ok &= read || is_small(sum_sizes, i);
                    }
                    const FuncInfo &pi = fi(p);
                    ok &= !pi.is_output && !pi.user_scheduled &&
                          stored_consumers(p) == std::set<std::string>{w};
                    offset_vars[p].insert(dims.begin(), dims.end());
                });
            if (!ok || offset_vars.empty()) continue;
            // Producers read only by the chain, at its offset coordinates.
            for (bool grew = true; grew;) {
                grew = false;
                for (const std::string &q : info_.order) {
                    const FuncInfo &qi = fi(q);
                    if (q == w || offset_vars.count(q) || qi.is_output || qi.user_scheduled ||
                        placement_.at(q) == "inline" || qi.func.args().empty())
                        continue;
                    std::set<std::string> users = stored_consumers(q);
                    bool only_chain = !users.empty();
                    for (const std::string &c : users) only_chain &= offset_vars.count(c) > 0;
                    if (!only_chain) continue;
                    std::set<std::string> dims;
                    bool follows = true;
                    for (const std::string &c : users) {
                        for (const Expr &v : all_values(fi(c).func))
                            calls_in(v, [&](const Call *call) {
                                if (call->func.name() != q) return;
                                bool any = false;
                                for (size_t i = 0; i < call->args.size(); i++) {
                                    int64_t offset = 0;
                                    if (!var_plus_const(call->args[i], &offset) ||
                                        !expr_uses_vars(call->args[i], offset_vars[c]))
                                        continue;
                                    any = true;
                                    dims.insert(qi.func.args()[i]);
                                }
                                follows &= any;
                            });
                    }
                    if (!follows || dims.empty()) continue;
                    offset_vars[q] = dims;
                    grew = true;
                }
            }
            // What was to be computed per strip of the chain goes with it.
            for (const auto &[name, where] : placement_)
                ok &= !offset_vars.count(where) || offset_vars.count(name);
            if (!ok) continue;
            // The window's loops keep their order; the chain goes at the
            // innermost of those it follows.
            std::string innermost;
            for (const ReductionVariable &rv : u.rvars)
                if (innermost.empty() && used.count(rv.var)) innermost = rv.var;
            for (const auto &kv : offset_vars) per_offset_[kv.first] = OffsetLevel{w, innermost};
            offset_rvars_[w] = used;
        }
    }

    /** Decide inline / root / member, consumers first. */
    void place() {
        for (auto it = info_.order.rbegin(); it != info_.order.rend(); ++it) {
            const FuncInfo &f = fi(*it);
            if (f.user_scheduled) {
                // Left as the user wrote it; treat it as root for its producers.
                placement_[*it] = f.func.schedule().compute_level.is_inlined() && !f.has_updates
                                      ? "inline"
                                      : "root";
                left_alone_.push_back(*it);
                continue;
            }
            if (f.is_output) {
                placement_[*it] = "root";
                continue;
            }
            if (f.has_updates) {
                // Per strip of its one consumer where that computes no
                // more (a scan down the columns a transpose's strip reads).
                std::set<std::string> groups = groups_using(*it);
                bool member = groups.size() == 1 && updates_fit_strips(*it, *groups.begin());
                placement_[*it] = member ? *groups.begin() : "root";
                continue;
            }
            Access a = access_through_inlines(*it);
            auto choice = opts_.placement.find(*it);
            std::string want = choice == opts_.placement.end() ? "" : choice->second;
            if (want == "inline" || want == "root") {
                placement_[*it] = want;
                continue;
            }
            if (want == "strip" || want == "sliding") {
                std::set<std::string> groups = groups_using(*it);
                bool ok = groups.size() == 1 && !fi(*groups.begin()).user_scheduled &&
                          !fi(*groups.begin()).has_updates;
                placement_[*it] = ok ? *groups.begin() : "root";
                if (ok && want == "sliding") sliding_.insert(*it);
                continue;
            }
            // A pointwise Func is inlined unless inlining would recompute it
            // for every coordinate of a consumer's extra dimensions.
            // Cheap means little arithmetic and one read: inlining a cheap
            // Func that reads twice (max(f(x), f(x + k))) along a chain
            // doubles the expression at every stage.
            // A transpose is stored, in tiles: inlined, its consumer's
            // vectors would gather across the rows of what it reads.
            if (f.reads_transposed && f.func.args().size() >= 2) {
                placement_[*it] = "root";
                continue;
            }
            // A cheap Func that gathers from another Func (an interleave of
            // planes) or from an image at a stride (a mosaic's plane) and is
            // read at several offsets (a stencil) is stored per strip, so
            // that the stencil's vectors read it densely.
            std::set<std::string> groups = groups_using(*it);
            bool gathers = f.strided_image_reads; // or from a Func, not a cheap wrapper
            for (const std::string &p : f.sparse_reads)
                gathers |= fi(p).cost > cheap_cost || fi(p).calls > 1;
            if (gathers && a == Access::Stencil) {
                bool ok = groups.size() == 1 && !fi(*groups.begin()).user_scheduled &&
                          !fi(*groups.begin()).has_updates;
                placement_[*it] = ok ? *groups.begin() : "root";
                continue;
            }
            // So is one operation on two values read at the point itself
            // (harris' products of its gradients, inlined into their box
            // sums: the gradients, read at the sums' offsets, are then
            // stored per strip once, not computed in each product).
            bool cheap =
                f.cost <= cheap_cost && (f.calls <= 1 || (f.calls <= 2 && f.reads_at_own_point));
            // Reads at a few constant channels recompute a few operations
            // each: cheaper than a store and a load, unless the Func costs
            // more than that.
            bool reused = ((f.reused_across_dims && !recomputed_per_channel(*it)) ||
                           (f.reread_at_constants && f.cost > 2 * cheap_cost)) &&
                          !cheap;
            if (cheap || (a == Access::Pointwise && !reused)) {
                placement_[*it] = "inline";
                continue;
            }
            // A few operations on an image's values (a premultiplied colour)
            // read by several groups: at root it would be written and read
            // back whole (interpolate's finest level, 96 MB: 15% of its
            // time); recomputed per read it costs those few operations.
            if (groups.size() > 1 && !f.has_updates && f.cost <= max_cost_per_channel &&
                reads_only_image_values(*it)) {
                placement_[*it] = "inline";
                continue;
            }
            if ((a != Access::Other || reads_follow_strips(*it)) && groups.size() == 1 &&
                !fi(*groups.begin()).user_scheduled && !fi(*groups.begin()).has_updates) {
                placement_[*it] = *groups.begin();
                continue;
            }
            placement_[*it] = "root";
        }
    }

    /** Split a root's strip dimension and vectorize it; members go at the
     * strip loop. */
    void schedule_group(const Group &g) {
        const FuncInfo &rf = fi(g.root);
        Function function = rf.func;
        Func f(function);
        const std::vector<std::string> &args = function.args();
        auto it = sizes_.find(g.root);
        if (args.empty()) {
            // A reduction to one value has parallelism only in its RVars.
            for (size_t k = 0; k < function.updates().size(); k++)
                rfactor_for_parallelism(function, int(k), rfactor_choice(rf, {}));
            return;
        }
        std::vector<int> ext = it == sizes_.end() ? std::vector<int>() : it->second;
        std::vector<int> guess = guessed_sizes(g.root);
        auto known = [&](size_t i) { return i < ext.size() ? ext[i] : -1; };
        auto extent = [&](size_t i) { return i < guess.size() ? guess[i] : -1; };
        const int vw = vector_width(rf);
        Var x(args[0]);

        int strip_dim = strip_dimension(g.root);
        // Small dimensions (channels) go inside the strip loop, shared by
        // one row, and the other outer ones inside them.
        std::vector<Var> small, others;
        for (size_t i = args.size(); i-- > 1;)
            if (int(i) != strip_dim) (is_small(guess, i) ? small : others).emplace_back(args[i]);
        if (strip_dim >= 0) {
            std::vector<VarOrRVar> order{x};
            for (auto s = small.rbegin(); s != small.rend(); ++s) order.push_back(*s);
            for (auto s = others.rbegin(); s != others.rend(); ++s) order.push_back(*s);
            order.push_back(Var(args[size_t(strip_dim)]));
            bool same = true;
            for (size_t i = 0; i < order.size(); i++) same &= order[i].name() == args[i];
            if (!same) f.reorder(order);
        }
        Var strip_outer, strip_inner;
        bool have_strip = false, have_inner = false;
        int row_bytes = 0;
        for (const std::string &m : g.members)
            row_bytes += std::max(1, extent(0) > 0 ? extent(0) : 1024) * fi(m).max_bits / 8;
        int rows = 1;
        if (strip_dim >= 0) {
            Var s(args[size_t(strip_dim)]);
            int h = extent(size_t(strip_dim));
            int tasks = std::max(1, opts_.parallelism) * 4;
            rows = h > 0 ? h / tasks : 16;
            rows = std::min(std::max(rows, 1), 64);
            if (!g.members.empty()) {
                rows = std::max(rows, 8);
                if (row_bytes > 0)
                    rows = std::min<int>(
                        rows, std::max<int>(8, int(opts_.cache_bytes / uint64_t(2 * row_bytes))));
                // Each strip recomputes the chain's halo in its dimension
                // (the offsets of the stencils add up along the chain): keep
                // that under a quarter of the strip, up to 128 rows and a
                // task per thread.
                int halo = 0;
                for (const std::string &m : g.members) {
                    const std::vector<int> &o = fi(m).dim_offset;
                    if (size_t(strip_dim) < o.size()) halo += o[size_t(strip_dim)];
                }
                int most = h > 0 ? std::max(8, h / std::max(1, opts_.parallelism)) : 128;
                rows = std::max(rows, std::min({4 * halo, most, 128}));
            }
            if (opts_.rows_per_task > 0) rows = opts_.rows_per_task;
            if (h > 0) rows = std::min(rows, h);
            // A transpose's tiles are vw rows high.
            if (rf.reads_transposed && vw > 1) rows = std::max(vw, rows / vw * vw);
            if (rows > 1) {
                Var so(fresh(function, args[size_t(strip_dim)] + "o")),
                    si(fresh(function, args[size_t(strip_dim)] + "i"));
                f.split(s, so, si, rows,
                        known(size_t(strip_dim)) >= rows ? TailStrategy::ShiftInwards
                                                         : TailStrategy::GuardWithIf);
                f.parallel(so);
                strip_outer = so;
                strip_inner = si;
                have_inner = true;
            } else {
                f.parallel(s);
                strip_outer = s;
            }
            have_strip = true;
        }
        int w = extent(0);
        TailStrategy x_tail =
            known(0) >= vw ? TailStrategy::ShiftInwards : TailStrategy::GuardWithIf;
        if (rf.reads_transposed && have_inner && vw > 1 && (w < 0 || w >= vw)) {
            // A transpose in square tiles of vw x vw: a vector along x per
            // row of the tile, the rows unrolled, so that the tile's reads
            // of its source are whole vectors of its rows.
            Var xv(fresh(function, args[0] + "_vi")),
                t(fresh(function, args[size_t(strip_dim)] + "t"));
            f.split(x, x, xv, vw, x_tail)
                .split(strip_inner, strip_inner, t, vw, TailStrategy::GuardWithIf);
            std::vector<VarOrRVar> order{xv, t, x};
            for (auto s = small.rbegin(); s != small.rend(); ++s) order.push_back(*s);
            for (auto s = others.rbegin(); s != others.rend(); ++s) order.push_back(*s);
            order.push_back(strip_inner);
            order.push_back(strip_outer);
            f.reorder(order).vectorize(xv).unroll(t);
        } else if (vw > 1 && (w < 0 || w >= vw)) {
            f.vectorize(x, vw, x_tail);
        }
        // Channels with their own formulas: each vector of x computes all
        // of them, unrolled, so what they share (a luma, inlined) is read
        // from the cache rather than from a stored plane. Split by the
        // estimate and guarded (not bound: an output may get more).
        for (size_t i : root_channels(g.root)) {
            Var ch(args[i]), co(fresh(function, args[i] + "o")), ci(fresh(function, args[i] + "i"));
            f.split(ch, co, ci, extent(i), TailStrategy::GuardWithIf).reorder(ci, x).unroll(ci);
        }
        if (!have_strip && (w < 0 || w >= vw * 64)) {
            // One dimension: parallel chunks of whole vectors.
            Var xo(fresh(function, args[0] + "o"));
            int chunk = w > 0 ? std::max(vw * 4, w / (std::max(1, opts_.parallelism) * 4)) : 4096;
            if (vw > 1) chunk = std::max(1, chunk / vw);
            f.split(x, xo, x, chunk, TailStrategy::GuardWithIf).parallel(xo);
            strip_outer = xo;
            have_strip = true;
        }
        // Members read only at their own row (a chain of horizontal
        // stencils, and what feeds them with no vertical halo) are computed
        // per row of the strip, where they stay in the first-level cache.
        std::set<std::string> per_row;
        for (auto m = g.members.rbegin(); have_inner && m != g.members.rend(); ++m) {
            const FuncInfo &mi = fi(*m);
            bool ok = !sliding_.count(*m) && !mi.has_updates &&
                      (mi.access == Access::Pointwise || mi.access == Access::Stencil) &&
                      mi.func.args().size() == args.size() &&
                      (size_t(strip_dim) >= mi.dim_offset.size() ||
                       mi.dim_offset[size_t(strip_dim)] == 0);
            for (const std::string &c : mi.consumers) ok &= c == g.root || per_row.count(c);
            if (ok) per_row.insert(*m);
        }
        // A sliding member is computed per row only where everything that
        // reads it is too (the root, per-row members, other such sliding
        // members, Funcs inlined into those): a consumer computed per strip
        // would need its rows before they exist. Otherwise it goes per strip.
        std::set<std::string> slides;
        std::function<bool(const std::string &, int)> per_row_reader = [&](const std::string &c,
                                                                           int depth) {
            if (c == g.root || per_row.count(c) || slides.count(c)) return true;
            auto p = placement_.find(c);
            if (depth > 16 || p == placement_.end() || p->second != "inline") return false;
            for (const std::string &r : fi(c).consumers)
                if (!per_row_reader(r, depth + 1)) return false;
            return true;
        };
        for (auto m = g.members.rbegin(); have_inner && m != g.members.rend(); ++m) {
            if (!sliding_.count(*m)) continue;
            bool ok = true;
            for (const std::string &c : fi(*m).consumers) ok = ok && per_row_reader(c, 0);
            if (ok) slides.insert(*m);
        }
        for (const std::string &m : g.members) {
            Func mf(fi(m).func);
            if (slides.count(m))
                mf.store_at(f, strip_outer).compute_at(f, strip_inner);
            else if (per_row.count(m))
                mf.compute_at(f, strip_inner);
            else if (have_strip)
                mf.compute_at(f, strip_outer);
            else
                mf.compute_root();
            schedule_member_loops(m, known(0));
        }
        // Updates: vectorize and parallelize their pure loops as the pure stage.
        for (size_t k = 0; k < function.updates().size(); k++) {
            std::vector<std::string> loops =
                initial_loops(function.updates()[k], true, function.args());
            auto has = [&](const std::string &v) {
                return std::find(loops.begin(), loops.end(), v) != loops.end();
            };
            Stage st = f.update(int(k));
            const bool vectorizable = vw > 1 && has(args[0]) && (w < 0 || w >= vw) &&
                                      !stores_at_loaded_index(function.updates()[k]);
            if (strip_dim >= 0 && has(args[size_t(strip_dim)])) {
                // The parallel loop outermost: one parallel loop, not one
                // per coordinate of the dimensions outside it.
                const std::string &strip = args[size_t(strip_dim)];
                // Funcs computed per offset of the window (find_offset_chains)
                // have the window's loops outside the other loops, and
                // outside a strip's rows: each offset's Funcs are computed
                // for the strip (their vertical halo once per strip).
                auto chain = offset_rvars_.find(function.name());
                auto in_window = [&](const std::string &l) {
                    return chain != offset_rvars_.end() && chain->second.count(l) > 0;
                };
                const Definition &u = function.updates()[k];
                std::vector<VarOrRVar> order;
                for (const std::string &l : loops)
                    if (l != strip && !in_window(l)) order.push_back(loop_of(u, l));
                Var parallel_loop(strip);
                if (chain != offset_rvars_.end() && rows > 1) {
                    Var so(fresh(function, strip + "o")), si(fresh(function, strip + "i"));
                    st.split(Var(strip), so, si, rows, TailStrategy::GuardWithIf);
                    order.push_back(si);
                    parallel_loop = so;
                }
                for (const std::string &l : loops)
                    if (in_window(l)) order.push_back(loop_of(u, l));
                order.push_back(parallel_loop);
                bool same = order.size() == loops.size();
                for (size_t i = 0; same && i < order.size(); i++)
                    same &= order[i].name() == loops[i];
                if (!same) st.reorder(order);
                if (vectorizable) st.vectorize(x, vw, TailStrategy::GuardWithIf);
                st.parallel(parallel_loop);
                continue;
            }
            // The rows are an RVar (a scan down the columns): parallel over
            // another pure dimension, else over chunks of columns.
            int other = -1;
            int enough = 2 * std::max(1, opts_.parallelism);
            for (size_t i = args.size(); i-- > 1;)
                if (other < 0 && has(args[i]) && (extent(i) < 0 || extent(i) >= enough))
                    other = int(i);
            // No pure loop worth running in parallel (a histogram, a sum over
            // a few columns): factor the reduction if it is associative.
            bool columns = vectorizable && (w < 0 || w >= 4 * vw * std::max(1, opts_.parallelism));
            if (other < 0 && !columns &&
                rfactor_for_parallelism(function, int(k), rfactor_choice(rf, ext)))
                continue;
            auto columns_inside = [&](const Var &inner, const Var *outer) {
                columns_inside_scan(st, function, k, inner, outer);
            };
            if (vectorizable) {
                if (other < 0 && (w < 0 || w >= 4 * vw * std::max(1, opts_.parallelism))) {
                    Var xo(fresh(function, args[0] + "o")), xi(fresh(function, args[0] + "i"));
                    int chunk =
                        w > 0 ? std::max(vw, (w / (2 * std::max(1, opts_.parallelism))) / vw * vw)
                              : 8 * vw;
                    st.split(x, xo, xi, chunk, TailStrategy::GuardWithIf);
                    columns_inside(xi, &xo);
                    st.vectorize(xi, vw, TailStrategy::GuardWithIf).parallel(xo);
                } else {
                    columns_inside(x, nullptr);
                    st.vectorize(x, vw, TailStrategy::GuardWithIf);
                }
            }
            if (other >= 0) st.parallel(Var(args[size_t(other)]));
        }
    }

    /** The loops of a Func computed inside another's (a strip member, or
     * per offset of a window): vectorized along x (known_width: the
     * root's known width, -1 if none), its channels unrolled where their
     * formulas differ, its updates with their windows outside the rows. */
    void schedule_member_loops(const std::string &m, int known_width) {
        const FuncInfo &mi = fi(m);
        Func mf(mi.func);
        int mvw = vector_width(mi);
        if (mi.func.args().empty()) return;
        Var mx(mi.func.args()[0]);
        std::vector<size_t> unrolled = unrolled_channels(m);
        bound_to_estimate(mf, unrolled);
        if (!unrolled.empty()) {
            std::vector<VarOrRVar> order;
            for (size_t i : unrolled) order.push_back(Var(mi.func.args()[i]));
            for (size_t i = 0; i < mi.func.args().size(); i++)
                if (std::find(unrolled.begin(), unrolled.end(), i) == unrolled.end())
                    order.push_back(Var(mi.func.args()[i]));
            mf.reorder(order);
        }
        // A member that reads only other Funcs rounds its region up to
        // whole vectors: its producers are computed over what it needs,
        // so nothing outside a buffer is read, and bounds inference stays
        // cheap along long chains of vectorized stages (with shifted or
        // guarded tails it grows several-fold per stage today).
        TailStrategy tail = mi.has_updates ? TailStrategy::GuardWithIf
                            : !touches_images(m) && !overcompute_reads_outside(m)
                                ? TailStrategy::RoundUp
                            : known_width >= mvw ? TailStrategy::ShiftInwards
                                                 : TailStrategy::GuardWithIf;
        if (mvw > 1) mf.vectorize(mx, mvw, tail);
        for (size_t i : unrolled) mf.unroll(Var(mi.func.args()[i]));
        // Its updates (a scan per strip) vectorized the same way.
        for (size_t k = 0; k < mi.func.updates().size(); k++) {
            std::vector<std::string> loops =
                initial_loops(mi.func.updates()[k], true, mi.func.args());
            if (std::find(loops.begin(), loops.end(), mx.name()) == loops.end()) continue;
            Stage st = mf.update(int(k));
            if (!columns_inside_scan(st, mi.func, k, mx, nullptr))
                offsets_outside_rows(st, mi, k, unrolled);
            if (mvw > 1 && !stores_at_loaded_index(mi.func.updates()[k]))
                st.vectorize(mx, mvw, TailStrategy::GuardWithIf);
            for (size_t i : unrolled)
                if (std::find(loops.begin(), loops.end(), mi.func.args()[i]) != loops.end())
                    st.unroll(Var(mi.func.args()[i]));
        }
    }

    /** The loop of update u named l, as a Var or an RVar. */
    static VarOrRVar loop_of(const Definition &u, const std::string &l) {
        bool rvar = false;
        for (const ReductionVariable &rv : u.rvars) rvar |= rv.var == l;
        return VarOrRVar(l, rvar);
    }

    /** A scan (an RVar walks one of the Func's own dimensions, each step
     * reading the last) sweeps whole rows per step: its columns (inner: the
     * innermost pure Var, or its inner part) go inside the RVars and outer
     * (if any) outside all, rather than each column's scan running down the
     * rows in turn (a cache line per step). Other updates are left. */
    static bool columns_inside_scan(Stage st, const Function &f, size_t k, const Var &inner,
                                    const Var *outer) {
        const Definition &u = f.updates()[k];
        // A scatter's place depends on the RVars through the data (a
        // histogram's bin): no step reads the last.
        if (stores_at_loaded_index(u)) return false;
        bool scan = false;
        for (const ReductionVariable &rv : u.rvars)
            for (const Expr &a : u.args) scan |= expr_uses_var(a, rv.var);
        if (!scan) return false;
        std::vector<VarOrRVar> order{inner};
        for (const std::string &l : initial_loops(u, true, f.args()))
            if (l != f.args()[0]) order.push_back(loop_of(u, l));
        if (outer) order.push_back(*outer);
        st.reorder(order);
        return true;
    }

    /** A sum over a window computed per strip: per row, the window's
     * offsets outside the vector loop along the row (each offset reads a
     * dense run of the row, edges clamped only at its ends) and the small
     * dimensions (channels) inside (the unrolled ones innermost), rather
     * than every vector walking the whole window at scattered addresses.
     * Where Funcs are computed per offset of the window (offset_rvars_),
     * those offsets go outside the rows as well. */
    void offsets_outside_rows(Stage st, const FuncInfo &m, size_t k,
                              const std::vector<size_t> &unrolled) const {
        const Definition &u = m.func.updates()[k];
        const std::vector<std::string> &args = m.func.args();
        std::vector<std::string> loops = initial_loops(u, true, args);
        std::vector<int> guess = guessed_sizes(m.func.name());
        auto has = [&](const std::string &l) {
            return std::find(loops.begin(), loops.end(), l) != loops.end();
        };
        std::vector<VarOrRVar> order;
        for (size_t i : unrolled)
            if (has(args[i])) order.push_back(Var(args[i]));
        order.push_back(Var(args[0]));
        std::vector<VarOrRVar> outer, window;
        for (size_t i = 1; i < args.size(); i++) {
            if (!has(args[i]) || std::find(unrolled.begin(), unrolled.end(), i) != unrolled.end())
                continue;
            (is_small(guess, i) ? order : outer).push_back(Var(args[i]));
        }
        auto chain = offset_rvars_.find(m.func.name());
        for (const ReductionVariable &rv : u.rvars)
            (chain != offset_rvars_.end() && chain->second.count(rv.var) ? window : order)
                .emplace_back(rv.var, true);
        order.insert(order.end(), outer.begin(), outer.end());
        order.insert(order.end(), window.begin(), window.end());
        if (order.size() == loops.size()) st.reorder(order);
    }

    RFactorChoice rfactor_choice(const FuncInfo &f, const std::vector<int> &known) {
        RFactorChoice c;
        c.parallelism = opts_.parallelism;
        c.vector_width = vector_width(f);
        c.extents = known;
        c.taken = &taken_names_;
        return c;
    }

    /** The largest power of two at most v (at least 1). */
    static int pow2_at_most(int v) {
        int p = 1;
        while (p * 2 <= v) p *= 2;
        return p;
    }

    /** A GPU tile of the root's first two dimensions (or of its only one);
     * members computed per block by the block's threads. */
    void schedule_group_gpu(const Group &g) {
        const FuncInfo &rf = fi(g.root);
        Function function = rf.func;
        Func f(function);
        const std::vector<std::string> &args = function.args();
        if (args.empty()) {
            f.gpu_single_thread();
            return;
        }
        auto it = sizes_.find(g.root);
        std::vector<int> ext = it == sizes_.end() ? std::vector<int>() : it->second;
        auto extent = [&](size_t i) { return i < ext.size() ? ext[i] : -1; };
        auto size_for = [&](size_t i, int want) {
            int e = extent(i);
            return e > 0 ? std::min(want, pow2_at_most(e)) : want;
        };
        auto tail_for = [&](size_t i, int size) {
            return extent(i) >= size ? TailStrategy::ShiftInwards : TailStrategy::GuardWithIf;
        };
        Var x(args[0]), xo(fresh(function, args[0] + "o")), xi(fresh(function, args[0] + "i"));
        Var block;
        // Outputs per thread: a vector across x (a 32-bit word of narrower
        // types by default) and rows down y (unrolled).
        int bits = function.output_types().empty() ? 32 : function.output_types()[0].bits();
        const int lanes = opts_.gpu_vector > 0 ? opts_.gpu_vector : std::max(1, 32 / bits);
        const int rows = std::max(1, opts_.gpu_rows);
        int v = 1, r = 1; // what the root's sizes allow of them
        if (args.size() >= 2) {
            Var y(args[1]), yo(fresh(function, args[1] + "o")), yi(fresh(function, args[1] + "i"));
            v = size_for(0, lanes);
            r = size_for(1, rows);
            int tx = size_for(0, std::max(1, opts_.gpu_tile_x) * v) / v;
            int ty = size_for(1, std::max(1, opts_.gpu_tile_y) * r) / r;
            TailStrategy tail = extent(0) >= tx * v && extent(1) >= ty * r
                                    ? TailStrategy::ShiftInwards
                                    : TailStrategy::GuardWithIf;
            f.tile(x, y, xo, yo, xi, yi, tx * v, ty * r, tail);
            std::vector<VarOrRVar> order;
            if (v > 1) {
                Var xv(fresh(function, args[0] + "v"));
                f.split(xi, xi, xv, v).vectorize(xv);
                order.push_back(xv);
            }
            if (r > 1) {
                Var yr(fresh(function, args[1] + "r"));
                f.split(yi, yi, yr, r).unroll(yr);
                order.push_back(yr);
            }
            // Further dimensions run inside each thread (one launch for all).
            for (size_t i = 2; i < args.size(); i++) order.push_back(Var(args[i]));
            if (order.size() > 0) {
                for (const Var &w : {xi, yi, xo, yo}) order.push_back(w);
                f.reorder(order);
            }
            f.gpu_blocks(xo, yo).gpu_threads(xi, yi);
            block = xo;
        } else {
            int t = size_for(0, std::max(1, opts_.gpu_tile_x * opts_.gpu_tile_y));
            f.gpu_tile(x, xo, xi, t, tail_for(0, t));
            block = xo;
        }
        for (const std::string &m : g.members) {
            const FuncInfo &mi = fi(m);
            Func mf(mi.func);
            mf.compute_at(f, block);
            const std::vector<std::string> &ma = mi.func.args();
            // Its updates too: a stage without thread loops would run in one
            // thread of the block (a matrix product's sums did).
            auto spread_over_threads = [&](Stage st, const std::vector<std::string> &loops) {
                auto has = [&](size_t i) {
                    return i < ma.size() &&
                           std::find(loops.begin(), loops.end(), ma[i]) != loops.end();
                };
                if (has(0) && has(1))
                    st.gpu_threads(Var(ma[0]), Var(ma[1]));
                else if (has(0))
                    st.gpu_threads(Var(ma[0]));
            };
            // As many values per thread as the root's (apps/blur's staged
            // blur_x): one thread each, 32x8 threads with 4 rows each would
            // stage 32x34 values, more threads than a CUDA block may have.
            // Guarded: a member's region per block may be narrower than the
            // factor (read at x / 2), and shifted inwards it would read
            // before its inputs.
            if (ma.size() >= 2 && args.size() >= 2) {
                const TailStrategy guard = TailStrategy::GuardWithIf;
                if (v > 1) {
                    Var mv(fresh(mi.func, ma[0] + "v"));
                    mf.split(Var(ma[0]), Var(ma[0]), mv, v, guard).vectorize(mv);
                }
                if (r > 1) {
                    Var mr(fresh(mi.func, ma[1] + "r"));
                    mf.split(Var(ma[1]), Var(ma[1]), mr, r, guard).unroll(mr);
                }
            }
            spread_over_threads(mf, ma);
            for (size_t k = 0; k < mi.func.updates().size(); k++)
                spread_over_threads(mf.update(int(k)),
                                    initial_loops(mi.func.updates()[k], true, ma));
        }
        for (size_t k = 0; k < function.updates().size(); k++) {
            std::vector<std::string> loops =
                initial_loops(function.updates()[k], true, function.args());
            auto has = [&](const std::string &v) {
                return std::find(loops.begin(), loops.end(), v) != loops.end();
            };
            Stage st = f.update(int(k));
            if (args.size() >= 2 && has(args[0]) && has(args[1])) {
                int tx = size_for(0, std::max(1, opts_.gpu_tile_x));
                int ty = size_for(1, std::max(1, opts_.gpu_tile_y));
                st.gpu_tile(x, Var(args[1]), Var(fresh(function, args[0] + "o")),
                            Var(fresh(function, args[1] + "o")),
                            Var(fresh(function, args[0] + "i")),
                            Var(fresh(function, args[1] + "i")), tx, ty, TailStrategy::GuardWithIf);
            } else if (has(args[0])) {
                int t = size_for(0, std::max(1, opts_.gpu_tile_x * opts_.gpu_tile_y));
                st.gpu_tile(x, Var(fresh(function, args[0] + "o")),
                            Var(fresh(function, args[0] + "i")), t, TailStrategy::GuardWithIf);
            } else {
                st.gpu_single_thread();
            }
        }
    }

    /** Per operand of f's first update (each read of an image or of
     * another Func), the dimensions of f whose Vars its coordinates use. */
    static std::vector<std::set<size_t>> operand_dims(const Function &f) {
        std::vector<std::set<size_t>> out;
        for (const Expr &v : f.updates()[0].values)
            visit_all(v, [&](const IRNode *n) {
                if (n->node_type != IRNodeType::Call) return;
                const auto *call = static_cast<const Call *>(n);
                if ((call->call_type != Call::Image && call->call_type != Call::Loom) ||
                    call->name == f.name())
                    return;
                std::set<size_t> dims;
                for (size_t j = 0; j < f.args().size(); j++)
                    for (const Expr &e : call->args)
                        if (expr_uses_var(e, f.args()[j])) dims.insert(j);
                out.push_back(dims);
            });
        return out;
    }

    /** The first dimension after x that no operand read along x uses (1
     * where y qualifies, or where none does). */
    int tile_partner(const FuncInfo &prod) const {
        std::set<size_t> used;
        for (const std::set<size_t> &dims : operand_dims(prod.func))
            if (dims.count(0)) used.insert(dims.begin(), dims.end());
        for (size_t j = 1; j < prod.func.args().size(); j++)
            if (!used.count(j)) return int(j);
        return 1;
    }

    /** The register-blocked product with its blocks across dimension d2 of
     * the output (channels): tx along x by br channels, the product per
     * block, the longest other dimension in parallel outermost. Blocks of
     * br channels shift inwards at the end, so any count of at least br
     * channels (estimates ahead of time are not the run's) stays in
     * bounds. */
    void schedule_channel_blocks(const FuncInfo &prod, const FuncInfo &out, int d2,
                                 const std::vector<int> &ext, int vw, int tx, int br) {
        Func o(out.func), p(prod.func);
        const std::vector<std::string> &oa = out.func.args();
        const std::vector<std::string> &pa = prod.func.args();
        Var x(oa[0]), d(oa[size_t(d2)]), xi(fresh(out.func, "xi")),
            di(fresh(out.func, oa[size_t(d2)] + "i"));
        o.split(x, x, xi, tx).split(d, d, di, br);
        std::vector<VarOrRVar> order{xi, di, x, d};
        int longest = -1;
        for (size_t j = 1; j < oa.size(); j++)
            if (int(j) != d2 && (longest < 0 || ext[j] > ext[size_t(longest)])) longest = int(j);
        for (size_t j = 1; j < oa.size(); j++)
            if (int(j) != d2 && int(j) != longest) order.push_back(Var(oa[j]));
        if (longest >= 0) order.push_back(Var(oa[size_t(longest)]));
        o.reorder(order).vectorize(xi, vw).unroll(xi).unroll(di);
        if (longest >= 0) o.parallel(Var(oa[size_t(longest)]));
        Var px(pa[0]), pd(pa[size_t(d2)]);
        p.compute_at(o, x).vectorize(px, vw).unroll(pd, br);
        std::vector<VarOrRVar> porder{px, pd};
        for (const ReductionVariable &rv : prod.func.updates()[0].rvars)
            porder.emplace_back(rv.var, true);
        for (size_t j = 1; j < pa.size(); j++)
            if (int(j) != d2) porder.push_back(Var(pa[j]));
        p.update().reorder(porder).vectorize(px, vw).unroll(pd, br);
        if (tx / vw > 1) p.update().unroll(px, tx / vw);
    }

    /** Halide's hand schedule shape for C = A * B: tiles of 3 vectors by 32
     * rows in parallel, the product per 4-row block in registers. */
    void schedule_matrix_product(const FuncInfo &prod, const FuncInfo &out) {
        Func o(out.func), p(prod.func);
        const std::vector<std::string> &oa = out.func.args();
        const std::vector<std::string> &pa = prod.func.args();
        auto it = sizes_.find(out.func.name());
        std::vector<int> ext = it == sizes_.end() ? std::vector<int>() : it->second;
        int vw =
            std::max(1, opts_.vector_bits / std::max(8, std::max(prod.max_bits, out.max_bits)));
        int tx = std::max(1, opts_.matmul_tile_vectors) * vw,
            ty = std::max(1, opts_.matmul_tile_rows);
        int br = std::max(1, std::min(opts_.matmul_block_rows, ty));
        bool fits = ext.size() >= 2 && ext[0] >= tx && ext[1] >= ty;
        if (!fits) {
            schedule_group(Group{out.func.name(), {}});
            return;
        }
        // The block's second dimension: one the vector operand (the one
        // read along x) leaves out, so that each vector it loads serves the
        // whole block: y for A * B (B(x, k)), the output channels of a
        // convolution (its input(x + r.x, y + r.y, r.z, n)).
        int d2 = tile_partner(prod);
        if (d2 > 1 && size_t(d2) < ext.size() && ext[size_t(d2)] >= br) {
            schedule_channel_blocks(prod, out, d2, ext, vw, tx, br);
            return;
        }
        Var x(oa[0]), y(oa[1]), xi(fresh(out.func, "xi")), yi(fresh(out.func, "yi")),
            yii(fresh(out.func, "yii")), xy(fresh(out.func, "xy"));
        o.tile(x, y, xi, yi, tx, ty)
            .fuse(x, y, xy)
            .parallel(xy)
            .split(yi, yi, yii, br)
            .vectorize(xi, vw)
            .unroll(xi)
            .unroll(yii);
        Var px(pa[0]), py(pa[1]);
        p.compute_at(o, yi).vectorize(px, vw).unroll(py, br);
        std::vector<VarOrRVar> order{px, py};
        for (const ReductionVariable &rv : prod.func.updates()[0].rvars)
            order.emplace_back(rv.var, true);
        p.update().reorder(order).vectorize(px, vw).unroll(py, br);
        if (tx / vw > 1) p.update().unroll(px, tx / vw);
    }

    /** One operand of a GPU matrix product to stage: a read of an image or
     * of another Func at (RVar, pure Var) or (pure Var, RVar). */
    struct StagedOperand {
        Function owner;  // the Func, or the ImageParam's Func, whose wrapper it reads
        Buffer<> buffer; // or the concrete Buffer
        int k_dim = 0;   // which of its two coordinates is the RVar
        std::string var; // the pure Var of prod in the other
    };

    /** The two operands of prod's update, each read at the RVar in one
     * coordinate and one of prod's pure Vars in the other; false when a read
     * has another shape, or an operand has a wrapper for prod the user
     * scheduled. A wrapper made by an earlier run (the autotuner's) counts as
     * the read it wraps. */
    bool staged_operands(const Function &prod, std::vector<StagedOperand> &out) const {
        const Definition &u = prod.updates()[0];
        if (u.rvars.size() != 1) return false;
        const std::string &k = u.rvars[0].var;
        const std::vector<std::string> &pure = prod.args();
        auto var_name = [](const Expr &e) {
            const auto *v = e.as<Variable>();
            return v ? v->name : std::string();
        };
        bool ok = true;
        auto consider = [&](const Call *c) {
            StagedOperand op;
            if (c->call_type == Call::Image) {
                op.buffer = c->image;
                if (!c->image.defined() && c->param.defined() && c->param.image_func())
                    op.owner = Function(c->param.image_func());
            } else if (c->call_type == Call::Loom && c->func.defined()) {
                if (c->func.same_as(prod)) return;
                if (c->func.is_wrapper() || c->func.get()->wrapped_buffer.defined())
                    ok &= !is_user_scheduled(c->func);
                op.buffer = c->func.get()->wrapped_buffer;
                if (!op.buffer.defined())
                    op.owner = c->func.is_wrapper() ? c->func.wrapped() : c->func;
            } else {
                return;
            }
            if (!op.owner.defined() && !op.buffer.defined()) {
                ok = false;
                return;
            }
            std::string a0 = c->args.size() == 2 ? var_name(c->args[0]) : "";
            std::string a1 = c->args.size() == 2 ? var_name(c->args[1]) : "";
            auto is_pure = [&](const std::string &v) {
                return std::find(pure.begin(), pure.end(), v) != pure.end();
            };
            if (a0 == k && is_pure(a1)) {
                op.k_dim = 0;
                op.var = a1;
            } else if (a1 == k && is_pure(a0)) {
                op.k_dim = 1;
                op.var = a0;
            } else {
                ok = false;
                return;
            }
            for (const StagedOperand &o : out)
                if ((o.owner.defined() && o.owner.same_as(op.owner)) ||
                    (o.buffer.defined() && o.buffer.same_as(op.buffer)))
                    return;
            out.push_back(op);
        };
        for (const Expr &value : u.values)
            visit_all(value, [&](const IRNode *n) {
                if (ok && n->node_type == IRNodeType::Call) consider(static_cast<const Call *>(n));
            });
        return ok && out.size() == 2;
    }

    /** A matrix product on the GPU: each thread keeps a block of
     * gpu_matmul_x x gpu_matmul_y sums in registers (x vectorized, y
     * unrolled); one GPU block covers gpu_tile_x x gpu_tile_y threads'
     * blocks. With gpu_matmul_k, the sums are a block-level Func in
     * MemoryType::Register and the block stages slices of both operands
     * gpu_matmul_k wide along the RVar in shared memory (wrappers made with
     * in(): perf_cuda's hand schedules that do reach about 73% of cuBLAS on
     * an H100), where the RVar's extent and the output's are multiples of
     * the slice and the tile; else the operands are read through the cache
     * (about 40%; one sum per thread is a few %). False where the output is
     * not two-dimensional or smaller than a tile. Staged wrappers go into
     * `staged`. */
    bool schedule_matrix_product_gpu(const FuncInfo &prod, const FuncInfo &out,
                                     std::vector<std::string> &staged) {
        const std::vector<std::string> &oa = out.func.args();
        const std::vector<std::string> &pa = prod.func.args();
        auto it = sizes_.find(out.func.name());
        if (oa.size() != 2 || it == sizes_.end() || it->second.size() != 2) return false;
        const std::vector<int> &ext = it->second;
        const int rx = std::max(1, opts_.gpu_matmul_x), ry = std::max(1, opts_.gpu_matmul_y);
        const int tx = std::max(1, opts_.gpu_tile_x), ty = std::max(1, opts_.gpu_tile_y);
        const int tw = tx * rx, th = ty * ry;
        if (ext[0] < tw || ext[1] < th) return false;
        Func o(out.func), p(prod.func);
        Var x(oa[0]), y(oa[1]), xo(fresh(out.func, oa[0] + "o")), yo(fresh(out.func, oa[1] + "o")),
            xi(fresh(out.func, oa[0] + "i")), yi(fresh(out.func, oa[1] + "i")),
            xt(fresh(out.func, oa[0] + "t")), yt(fresh(out.func, oa[1] + "t")),
            xr(fresh(out.func, oa[0] + "r")), yr(fresh(out.func, oa[1] + "r"));
        o.tile(x, y, xo, yo, xi, yi, tw, th)
            .split(xi, xt, xr, rx)
            .split(yi, yt, yr, ry)
            .reorder(xr, yr, xt, yt, xo, yo)
            .gpu_blocks(xo, yo)
            .gpu_threads(xt, yt);
        if (rx > 1) o.vectorize(xr);
        if (ry > 1) o.unroll(yr);
        Var px(pa[0]), py(pa[1]);
        const ReductionVariable &k = prod.func.updates()[0].rvars[0];
        const int kslice = opts_.gpu_matmul_k;
        const std::optional<int64_t> k_extent = as_const_int(k.extent);
        std::vector<StagedOperand> operands;
        bool stage = kslice > 0 && prod.func.updates()[0].rvars.size() == 1 && k_extent &&
                     *k_extent % kslice == 0 && ext[0] % tw == 0 && ext[1] % th == 0 &&
                     staged_operands(prod.func, operands);
        if (!stage) {
            p.compute_at(o, xt);
            std::vector<VarOrRVar> order{px, py};
            for (const ReductionVariable &rv : prod.func.updates()[0].rvars)
                order.emplace_back(rv.var, true);
            p.update().reorder(order);
            for (Stage st : {Stage(p), p.update()}) {
                if (rx > 1) st.vectorize(px, rx);
                if (ry > 1) st.unroll(py, ry);
            }
            return true;
        }
        // The sums: per block, each thread keeping its own in registers.
        Var pxt(fresh(prod.func, pa[0] + "t")), pyt(fresh(prod.func, pa[1] + "t")),
            pxr(fresh(prod.func, pa[0] + "r")), pyr(fresh(prod.func, pa[1] + "r"));
        RVar ko(fresh(prod.func, "ko")), ki(fresh(prod.func, "ki"));
        p.compute_at(o, xo).store_in(MemoryType::Register);
        p.split(px, pxt, pxr, rx).split(py, pyt, pyr, ry).reorder(pxr, pyr, pxt, pyt);
        p.update()
            .split(RVar(k.var), ko, ki, kslice)
            .split(px, pxt, pxr, rx)
            .split(py, pyt, pyr, ry)
            .reorder(pxr, pyr, ki, pxt, pyt, ko)
            .unroll(ki);
        for (Stage st : {Stage(p), p.update()}) {
            st.gpu_threads(pxt, pyt);
            if (rx > 1) st.vectorize(pxr);
            if (ry > 1) st.unroll(pyr);
        }
        // Each operand's slice: kslice along the RVar by the tile along the
        // other coordinate, spread over the block's threads.
        for (const StagedOperand &op : operands) {
            Function w = op.buffer.defined()
                             ? get_buffer_wrapper(op.buffer, {prod.func})
                             : get_wrapper(op.owner, {prod.func.name()}, false, false);
            Func wf(w);
            const std::vector<std::string> &wa = w.args();
            // The tile's extent along the Var this operand shares with prod.
            const int other = op.var == pa[0] ? tw : th;
            const int n0 = op.k_dim == 0 ? kslice : other, n1 = op.k_dim == 0 ? other : kslice;
            Var d0(wa[0]), d1(wa[1]), d0i(fresh(w, wa[0] + "i")), d1i(fresh(w, wa[1] + "i"));
            // The slice's extents are multiples of the splits (checked above):
            // no tail, and no guard in the loads.
            const TailStrategy guard = TailStrategy::RoundUp;
            wf.compute_at(p, ko);
            bool split0 = n0 > tx && n0 % tx == 0, split1 = n1 > ty && n1 % ty == 0;
            if (split0) wf.split(d0, d0, d0i, n0 / tx, guard);
            if (split1) wf.split(d1, d1, d1i, n1 / ty, guard);
            if (split0 && split1)
                wf.reorder(d0i, d1i, d0, d1);
            else if (split0)
                wf.reorder(d0i, d0, d1);
            else if (split1)
                wf.reorder(d1i, d0, d1);
            if (split0) wf.vectorize(d0i);
            if (split1) wf.unroll(d1i);
            wf.gpu_threads(d0, d1);
            staged.push_back(w.name());
        }
        return true;
    }

public:
    Heuristic(const PipelineInfo &info, const HeuristicOptions &opts,
              const std::map<std::string, std::vector<int>> &output_sizes)
        : info_(info), opts_(opts), sizes_(output_sizes),
          estimates_(estimate_regions(info, output_sizes)),
          taken_names_(info.order.begin(), info.order.end()) {}

    std::vector<std::string> run() {
        place();
        if (!opts_.gpu) find_offset_chains();
        if (!opts_.gpu) hoist_strip_invariant_members();
        // Matrix products first: they schedule their consumer too.
        std::set<std::string> done;
        for (const std::string &n : info_.order) {
            const FuncInfo &f = fi(n);
            if (f.user_scheduled || !is_matrix_product(f)) continue;
            const FuncInfo &out = fi(f.consumers[0]);
            std::vector<std::string> staged;
            if (!opts_.gpu)
                schedule_matrix_product(f, out);
            else if (!schedule_matrix_product_gpu(f, out, staged))
                continue;
            done.insert(n);
            done.insert(out.func.name());
            done.insert(staged.begin(), staged.end());
        }
        std::map<std::string, Group> groups;
        for (const std::string &n : info_.order) {
            const std::string &p = placement_.at(n);
            if (fi(n).user_scheduled || done.count(n) || per_offset_.count(n)) continue;
            if (p == "root" || (p != "inline" && done.count(p))) {
                // (A member of a matrix product's output, which is tiled
                // for the product, is computed at root.)
                groups[n].root = n;
            } else if (p != "inline") {
                groups[p].root = p;
                groups[p].members.push_back(n);
            }
        }
        for (const std::string &n : info_.order) {
            auto it = groups.find(n);
            if (it == groups.end()) continue;
            const FuncInfo &f = fi(n);
            if (!f.is_output) Func(f.func).compute_root();
            if (opts_.gpu)
                schedule_group_gpu(it->second);
            else
                schedule_group(it->second);
        }
        for (const auto &[name, level] : per_offset_) {
            Func(fi(name).func).compute_at(Func(fi(level.consumer).func), RVar(level.rvar));
            schedule_member_loops(name, -1);
        }
        return left_alone_;
    }
};

} // namespace

std::vector<std::string> heuristic_schedule(const Pipeline &pipeline, const HeuristicOptions &opts,
                                            const std::vector<std::vector<int>> &output_sizes) {
    std::vector<Function> funcs = pipeline_functions(pipeline);
    std::vector<Function> outputs;
    for (const Func &f : pipeline.outputs()) outputs.push_back(f.function());
    PipelineInfo info = analyze_pipeline(funcs, outputs);
    std::map<std::string, std::vector<int>> sizes;
    for (size_t i = 0; i < outputs.size() && i < output_sizes.size(); i++)
        if (!output_sizes[i].empty()) sizes[outputs[i].name()] = output_sizes[i];
    // Roots that are not outputs get sizes inferred from the outputs' as a
    // guess for their choices; their splits are guarded (their regions are
    // not known for certain).
    Heuristic h(info, opts, sizes);
    return h.run();
}

HeuristicOptions heuristic_options(const Target &target,
                                   const std::map<std::string, std::string> &extra) {
    HeuristicOptions o;
    o.parallelism = int(std::max(1u, std::thread::hardware_concurrency()));
    o.vector_bits = target.natural_vector_size(Float(32)) * 32;
    o.gpu = target.has_gpu_feature();
    for (const auto &[key, value] : extra) {
        long v = 0;
        try {
            v = std::stol(value);
        } catch (...) {
            user_error("The Loom auto-scheduler's option " << key << " is " << value
                                                           << "; it must be a positive integer");
        }
        if (v <= 0)
            user_error("The Loom auto-scheduler's option " << key << " is " << value
                                                           << "; it must be a positive integer");
        if (key == "parallelism")
            o.parallelism = int(v);
        else if (key == "vector_width")
            o.vector_bits = int(v) * 32;
        else if (key == "last_level_cache_size")
            o.cache_bytes = uint64_t(v);
        else
            user_error("The Loom auto-scheduler has no option "
                       << key
                       << "; its options are parallelism, vector_width and "
                          "last_level_cache_size");
    }
    return o;
}

} // namespace Internal
} // namespace loom
