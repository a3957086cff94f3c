// rfactor() as the heuristic auto-scheduler uses it (see HeuristicRFactor.h).
// The shape is what a Halide user writes by hand for a histogram or a sum:
//
//   f.update().split(r.y, r_yo, r_yi, rows);                // chunks of rows
//   Func intm = f.update().rfactor(r_yo, u);                // one partial result per chunk
//   intm.compute_root().update().parallel(u);               // chunks in parallel
//   f.update().reorder(x, r_yo).vectorize(x, 8);            // merge vectorized over the bins
//
// plus, for a reduction to one point (a sum of an image), the inner RVar
// split by the vector width and kept as a second pure Var of the
// intermediate, vectorized: each lane sums its own columns.

#include "autoschedule/HeuristicRFactor.h"

#include <algorithm>

#include "analysis/Associativity.h"
#include "analysis/Simplify.h"
#include "autoschedule/ScheduleUtil.h"
#include "frontend/RFactor.h"
#include "ir/Error.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"
#include "loom/Func.h"

namespace loom {
namespace Internal {

namespace {

/** Partial results cost memory and a merge: below this many iterations a
 * serial reduction is as fast. */
constexpr int64_t min_iterations = 4096;
/** Iterations per chunk above which chunks get smaller than a quarter of a thread's share. */
constexpr int64_t chunk_iterations = 256 * 1024;
/** Iterations of a scatter's innermost RVar unrolled together. */
constexpr int scatter_unroll = 4;

int64_t const_extent(const ReductionVariable &rv) {
    Expr e = simplify(rv.extent);
    if (auto c = as_const_int(e)) return *c;
    return -1;
}

/** Does an argument of the left-hand side name an RVar itself (a scatter
 * to distinct places, which factoring would only copy)? */
bool indexes_by_rvar(const Definition &u) {
    for (const Expr &a : u.args)
        if (const auto *v = a.as<Variable>())
            for (const ReductionVariable &rv : u.rvars)
                if (rv.var == v->name) return true;
    return false;
}

/** Is every left-hand side argument a constant or the pure Var of its
 * position (a reduction onto points that do not depend on the RVars)? */
bool lhs_is_fixed(const Definition &u, const std::vector<std::string> &args) {
    for (size_t i = 0; i < u.args.size(); i++) {
        if (is_const(u.args[i])) continue;
        const auto *v = u.args[i].as<Variable>();
        if (!v || i >= args.size() || v->name != args[i]) return false;
    }
    return true;
}

std::string fresh_name(const std::string &base, const std::set<std::string> &used) {
    std::string n = base;
    for (int k = 2; used.count(n); k++) n = base + std::to_string(k);
    return n;
}

} // namespace

bool rfactor_for_parallelism(Function f, int update, const RFactorChoice &c) {
    if (update < 0 || size_t(update) >= f.updates().size()) return false;
    const Definition u = f.updates()[size_t(update)];
    if (u.rvars.empty() || !u.predicates.empty() || indexes_by_rvar(u)) return false;
    if (!find_associative_op(f.name(), u.args, u.values).matched) return false;
    const int par = std::max(1, c.parallelism);
    int64_t total = 1;
    for (const ReductionVariable &rv : u.rvars) {
        int64_t e = const_extent(rv);
        total = e < 0 || total < 0 ? -1 : total * e;
    }
    // Iterations of the whole update: the RVars times the pure loops it keeps.
    for (size_t i = 0; i < u.args.size() && i < f.args().size() && total >= 0; i++) {
        const auto *v = u.args[i].as<Variable>();
        if (v && v->name == f.args()[i])
            total = i < c.extents.size() && c.extents[i] > 0 ? total * c.extents[i] : -1;
    }
    if (total >= 0 && total < min_iterations) return false;
    const ReductionVariable &outer = u.rvars.back();
    const int64_t outer_extent = const_extent(outer);
    if (outer_extent >= 0 && outer_extent < 2 * par) return false;

    // Names: loops are named after the RVar they come from; the new pure
    // Vars must not be pure Vars of f.
    std::set<std::string> loops;
    for (const std::string &a : f.args()) loops.insert(a);
    for (const ReductionVariable &rv : u.rvars) loops.insert(short_loop_name(rv.var));
    const std::string base = short_loop_name(outer.var);
    const std::string ro = fresh_name(base + "o", loops), ri = fresh_name(base + "i", loops);
    loops.insert(ro);
    loops.insert(ri);
    const Var chunk(fresh_name("u", loops));
    loops.insert(chunk.name());

    // Chunks: at least four per thread, as for the strips of pure loops,
    // and more when each would hold over a quarter million iterations
    // (partial results are cheap: more, smaller tasks balance better on a
    // busy machine).
    const int tasks = 4 * par;
    int rows = outer_extent > 0 ? int(std::max<int64_t>(1, outer_extent / tasks))
                                : (u.rvars.size() > 1 ? 8 : 1024);
    if (outer_extent > 0 && total > 0) {
        int64_t per_row = std::max<int64_t>(1, total / outer_extent);
        int64_t enough = (chunk_iterations + per_row - 1) / per_row;
        rows = int(std::max<int64_t>(1, std::min<int64_t>(rows, enough)));
    }

    // A reduction onto fixed points: each vector lane sums its own share of
    // the innermost RVar (when it divides into whole vectors).
    const int vw = std::max(1, c.vector_width);
    const ReductionVariable &inner = u.rvars.front();
    const int64_t inner_extent = const_extent(inner);
    const bool lanes = vw > 1 && u.rvars.size() > 1 && lhs_is_fixed(u, f.args()) &&
                       (f.args().empty() || is_const(u.args[0])) && inner_extent >= vw &&
                       inner_extent % vw == 0;
    const std::string inner_base = short_loop_name(inner.var);
    const std::string li = fresh_name(inner_base + "i", loops),
                      lo = fresh_name(inner_base + "o", loops);
    loops.insert(li);
    loops.insert(lo);
    const Var lane(fresh_name("v", loops));

    std::set<std::string> none;
    std::set<std::string> &taken = c.taken ? *c.taken : none;
    const std::string intm_name = fresh_name(f.name() + "_intm", taken);

    Func func(f);
    Stage st = func.update(update);
    std::vector<std::pair<RVar, Var>> preserved;
    Func intm;
    try {
        if (lanes) {
            st.split(RVar(inner.var), RVar(lo), RVar(li), vw);
            preserved.emplace_back(RVar(li), lane);
        }
        st.split(RVar(outer.var), RVar(ro), RVar(ri), rows);
        preserved.emplace_back(RVar(ro), chunk);
        intm = rfactor_stage(f, update + 1, preserved, intm_name);
    } catch (const CompileError &) {
        f.updates()[size_t(update)] = u; // as it was
        f.invalidate_cache();
        return false;
    }
    taken.insert(intm_name);

    // The intermediate: at root, its partial results initialized vectorized,
    // updated in parallel over the chunks, vectorized where a pure Var of
    // its left-hand side is the first dimension.
    const std::vector<std::string> ia = intm.function().args();
    intm.compute_root();
    auto vectorize_first = [&](Stage s, const std::string &v, bool known_lanes) {
        if (known_lanes)
            s.vectorize(Var(v));
        else
            s.vectorize(Var(v), vw, TailStrategy::GuardWithIf);
    };
    if (lanes) intm.bound(lane, 0, vw);
    const int x_extent = c.extents.empty() ? -1 : c.extents[0];
    const bool x_wide = !f.args().empty() && (x_extent < 0 || x_extent >= vw);
    if (vw > 1 && !ia.empty() && (lanes ? ia[0] == lane.name() : x_wide))
        vectorize_first(Stage(intm.function(), 0), ia[0], lanes);
    Stage iu = intm.update(0);
    std::vector<std::string> initial = initial_loops(intm.function().updates()[0], true, ia);
    std::string vec;
    if (vw > 1) {
        if (lanes)
            vec = lane.name();
        else if (!f.args().empty() && x_wide &&
                 std::find(initial.begin(), initial.end(), f.args()[0]) != initial.end())
            vec = f.args()[0];
    }
    std::vector<VarOrRVar> order;
    if (!vec.empty()) order.emplace_back(Var(vec));
    for (const std::string &l : initial)
        if (l != vec && l != chunk.name()) {
            bool is_rvar = std::find(ia.begin(), ia.end(), l) == ia.end();
            order.emplace_back(l, is_rvar);
        }
    order.emplace_back(chunk);
    std::vector<std::string> names;
    for (const VarOrRVar &v : order) names.push_back(v.name());
    if (names != initial) iu.reorder(order);
    if (!vec.empty()) vectorize_first(iu, vec, lanes);
    // A scatter (a histogram's bins chosen by the data) runs serially along
    // its innermost RVar: unrolled by a few, the next pixels' bin
    // computations overlap the increments' latency.
    if (vec.empty() && !lhs_is_fixed(u, f.args()) && order.front().name() != chunk.name())
        iu.unroll(order.front(), scatter_unroll, TailStrategy::GuardWithIf);
    iu.parallel(chunk);

    // The merge: f's first dimension innermost and vectorized.
    if (vw > 1 && x_wide) {
        Stage m = func.update(update);
        std::vector<std::string> ml = initial_loops(f.updates()[size_t(update)], true, f.args());
        std::vector<VarOrRVar> morder{Var(f.args()[0])};
        for (const std::string &l : ml)
            if (l != f.args()[0]) {
                bool is_rvar = std::find(f.args().begin(), f.args().end(), l) == f.args().end();
                morder.emplace_back(l, is_rvar);
            }
        if (ml.size() > 1 && ml[0] != f.args()[0]) m.reorder(morder);
        m.vectorize(Var(f.args()[0]), vw, TailStrategy::GuardWithIf);
    }
    return true;
}

} // namespace Internal
} // namespace loom
