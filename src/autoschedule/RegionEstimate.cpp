// Func extents from output sizes, for the heuristic auto-scheduler.

#include "autoschedule/RegionEstimate.h"

#include <algorithm>
#include <climits>

#include "analysis/Bounds.h"
#include "analysis/Simplify.h"
#include "ir/IROperator.h"

namespace loom {
namespace Internal {

namespace {

/** A constant [min, max] per dimension; unknown dimensions are marked. */
struct ConstBox {
    std::vector<int64_t> min, max;
    std::vector<bool> known;

    void resize(size_t n) {
        if (known.size() >= n) return;
        min.resize(n, INT64_MAX);
        max.resize(n, INT64_MIN);
        known.resize(n, true);
    }

    void include(const Box &b) {
        resize(b.size());
        for (size_t i = 0; i < b.size(); i++) {
            if (!known[i]) continue;
            const Interval &iv = b[i];
            std::optional<int64_t> lo, hi;
            if (iv.is_bounded()) {
                lo = as_const_int(simplify(iv.min));
                hi = as_const_int(simplify(iv.max));
            }
            if (!lo || !hi) {
                known[i] = false;
                continue;
            }
            min[i] = std::min(min[i], *lo);
            max[i] = std::max(max[i], *hi);
        }
    }

    bool known_at(size_t i) const { return i < known.size() && known[i] && min[i] <= max[i]; }
};

/** A constant interval of an RVar's domain, if its bounds are constants. */
bool rvar_interval(const ReductionVariable &rv, Interval *out) {
    auto lo = as_const_int(simplify(rv.min));
    auto ext = as_const_int(simplify(rv.extent));
    if (!lo || !ext || *ext < 1) return false;
    *out = Interval(make_const(Int(32), *lo), make_const(Int(32), *lo + *ext - 1));
    return true;
}

} // namespace

std::map<std::string, EstimatedRegion>
estimate_regions(const PipelineInfo &info,
                 const std::map<std::string, std::vector<int>> &output_sizes) {
    std::map<std::string, ConstBox> regions;
    for (const auto &[name, sizes] : output_sizes) {
        ConstBox &b = regions[name];
        b.resize(sizes.size());
        for (size_t i = 0; i < sizes.size(); i++) {
            b.min[i] = 0;
            b.max[i] = int64_t(sizes[i]) - 1;
            b.known[i] = sizes[i] > 0;
        }
    }
    for (auto it = info.order.rbegin(); it != info.order.rend(); ++it) {
        auto own = regions.find(*it);
        if (own == regions.end()) continue;
        const Function &f = info.funcs.at(*it).func;
        Scope<Interval> scope;
        std::vector<std::string> pushed;
        auto push = [&](const std::string &n, const Interval &iv) {
            scope.push(n, iv);
            pushed.push_back(n);
        };
        for (size_t i = 0; i < f.args().size(); i++)
            if (own->second.known_at(i))
                push(f.args()[i], Interval(make_const(Int(32), own->second.min[i]),
                                           make_const(Int(32), own->second.max[i])));
        auto read = [&](const Expr &e) {
            for (const auto &[callee, box] : boxes_required(e, scope)) {
                if (callee == f.name() || !info.funcs.count(callee)) continue;
                regions[callee].include(box);
            }
        };
        for (const Expr &v : f.definition().values) read(v);
        for (const Definition &u : f.updates()) {
            size_t before = pushed.size();
            for (const ReductionVariable &rv : u.rvars) {
                Interval iv;
                if (rvar_interval(rv, &iv)) push(rv.var, iv);
            }
            for (const Expr &v : u.values) read(v);
            for (const Expr &a : u.args) read(a);
            while (pushed.size() > before) {
                scope.pop(pushed.back());
                pushed.pop_back();
            }
        }
        for (const std::string &n : pushed) scope.pop(n);
    }
    std::map<std::string, EstimatedRegion> out;
    for (const auto &[name, b] : regions) {
        EstimatedRegion &r = out[name];
        r.min.assign(b.known.size(), 0);
        r.extent.assign(b.known.size(), -1);
        for (size_t i = 0; i < b.known.size(); i++)
            if (b.known_at(i) && b.max[i] - b.min[i] < INT_MAX && b.min[i] >= INT_MIN &&
                b.min[i] <= INT_MAX) {
                r.min[i] = int(b.min[i]);
                r.extent[i] = int(b.max[i] - b.min[i] + 1);
            }
    }
    return out;
}

} // namespace Internal
} // namespace loom
