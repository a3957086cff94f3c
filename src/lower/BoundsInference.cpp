#include "lower/BoundsInference.h"

#include <map>
#include <set>

#include "analysis/Simplify.h"
#include "ir/Error.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"
#include "ir/IRVisitor.h"
#include "ir/Substitute.h"
#include "lower/FindEnvironment.h"
#include "lower/InlineFunctions.h"
#include "lower/RegionsTouched.h"
#include "lower/ScheduleFunctions.h"

namespace loom {
namespace Internal {

std::string required_min_name(const std::string &image, int dim) {
    return image + ".required.min." + std::to_string(dim);
}
std::string required_max_name(const std::string &image, int dim) {
    return image + ".required.max." + std::to_string(dim);
}

namespace {

/** Removes the production of one Func, so that its own updates do not count
 * as consumers of it. */
class RemoveProduce : public IRMutator {
    const std::string &name;

protected:
    using IRMutator::visit;
    Stmt visit(const ProducerConsumer *op) override {
        if (op->is_producer && op->name == name) return Evaluate::make(make_zero(Int(32)));
        return IRMutator::visit(op);
    }

public:
    explicit RemoveProduce(const std::string &n) : name(n) {}
};

/** Finds the produce node of one Func. */
Stmt find_produce(const Stmt &s, const std::string &name) {
    Stmt found;
    visit_all(s, [&](const IRNode *node) {
        if (found.defined() || node->node_type != IRNodeType::ProducerConsumer) return;
        const auto *pc = static_cast<const ProducerConsumer *>(node);
        if (pc->is_producer && pc->name == name) found = Stmt(pc);
    });
    return found;
}

class BoundsBuilder {
    const Stmt &pipeline;
    const std::vector<Function> &outputs;
    const std::vector<std::string> &order;
    const Environment &env;
    std::vector<std::pair<std::string, Expr>> lets; // outermost first

    void define_stage_bounds(const Function &f, int stage, const std::vector<Expr> &mins,
                             const std::vector<Expr> &maxs) {
        std::string prefix = stage_prefix(f.name(), stage);
        for (const std::string &v : stage_pure_vars(f, stage)) {
            size_t d = 0;
            while (f.args()[d] != v) d++;
            lets.emplace_back(prefix + v + ".min", mins[d]);
            lets.emplace_back(prefix + v + ".max", maxs[d]);
        }
    }

    /** Every stage of an output covers the output's region. */
    void define_all_stages(const Function &f, const std::vector<Expr> &mins,
                           const std::vector<Expr> &maxs) {
        for (int s = 0; s <= int(f.updates().size()); s++) define_stage_bounds(f, s, mins, maxs);
    }

    /** The region of f that stage `stage` of f reads (empty when none). */
    Box self_reads(const Function &f, int stage) const {
        Stmt nest = inline_functions(build_stage_nest(f, stage), outputs);
        std::map<std::string, Box> boxes = regions_read(nest);
        auto it = boxes.find(f.name());
        return it == boxes.end() ? Box() : it->second;
    }

    /** Stages computed at root cover what the consumers read and what later
     * stages of the same Func read, last stage first. */
    void define_stages_from_demand(const Function &f, const std::vector<Expr> &mins,
                                   const std::vector<Expr> &maxs) {
        Box demand(mins.size());
        for (size_t d = 0; d < mins.size(); d++) demand[d] = Interval(mins[d], maxs[d]);
        for (int s = int(f.updates().size()); s >= 0; s--) {
            std::vector<Expr> lo, hi;
            for (size_t d = 0; d < demand.size(); d++) {
                if (!demand[d].is_bounded()) {
                    user_error("Func " << f.name() << " reads itself in an update definition at "
                                       << "coordinates without a bound in dimension " << d << " ("
                                       << f.args()[d] << "); clamp the coordinates");
                }
                lo.push_back(simplify(as_int32(demand[d].min)));
                hi.push_back(simplify(as_int32(demand[d].max)));
            }
            define_stage_bounds(f, s, lo, hi);
            if (s > 0) {
                Box reads = self_reads(f, s);
                if (reads.size() == demand.size()) demand = box_union(demand, reads);
            }
        }
    }

    void define_output(const Function &f) {
        std::string buffer = buffer_name(f, 0);
        std::vector<Expr> mins, maxs;
        for (int d = 0; d < f.dimensions(); d++) {
            Expr lo = int_var(buffer + ".min." + std::to_string(d));
            Expr extent = int_var(buffer + ".extent." + std::to_string(d));
            mins.push_back(lo);
            maxs.push_back(sub(add(lo, extent), 1));
        }
        define_all_stages(f, mins, maxs);
    }

    /** The region the loops of output f write, which split tails may make
     * larger than the buffer: the checks compare it with every output buffer. */
    void define_output_region(const Function &f) {
        std::map<std::string, Box> written = regions_written(find_produce(pipeline, f.name()));
        Box region = written[f.name()];
        internal_assert(int(region.size()) == f.dimensions(),
                        "no region written for output " << f.name());
        // Its own updates and the other outputs read the output buffer too.
        std::map<std::string, Box> reads = regions_read(pipeline);
        auto read = reads.find(f.name());
        if (read != reads.end() && read->second.size() == region.size()) {
            for (size_t d = 0; d < read->second.size(); d++) {
                if (!read->second[d].is_bounded()) {
                    user_error("Output Func " << f.name() << " is read at coordinates without a "
                                              << "bound in dimension " << d << " (" << f.args()[d]
                                              << "); clamp the coordinates");
                }
            }
            region = box_union(region, read->second);
        }
        for (int v = 0; v < f.outputs(); v++) {
            std::string buffer = buffer_name(f, v);
            for (int d = 0; d < f.dimensions(); d++) {
                const Interval &i = region[size_t(d)];
                internal_assert(i.is_bounded(), "unbounded region written for output "
                                                    << f.name() << " in dimension " << d);
                lets.emplace_back(required_min_name(buffer, d), in_terms_of_buffers(i.min));
                lets.emplace_back(required_max_name(buffer, d), in_terms_of_buffers(i.max));
            }
        }
    }

    /** e with the bounds defined so far substituted, so that the simplifier
     * sees (and usually proves) the output checks in terms of buffer fields. */
    Expr in_terms_of_buffers(const Expr &e) const {
        Expr result = as_int32(e);
        for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
            result = substitute(it->first, it->second, result);
        }
        return simplify(result);
    }

    void define_computed_at_root(const Function &f) {
        Stmt consumers = RemoveProduce(f.name()).mutate(pipeline);
        std::map<std::string, Box> boxes = regions_read(consumers);
        auto it = boxes.find(f.name());
        internal_assert(it != boxes.end() && int(it->second.size()) == f.dimensions(),
                        "no consumer of Func " << f.name() << " reads it");
        std::vector<Expr> mins, maxs;
        for (int d = 0; d < f.dimensions(); d++) {
            const Interval &i = it->second[size_t(d)];
            if (!i.is_bounded()) {
                user_error("Func " << f.name() << " is read by its consumers at coordinates "
                                   << "without " << (i.has_lower_bound() ? "an upper" : "a lower")
                                   << " bound in dimension " << d << " (" << f.args()[size_t(d)]
                                   << "); clamp the coordinates (e.g. with clamp() or a "
                                      "BoundaryConditions function) so its region is known");
            }
            mins.push_back(simplify(as_int32(i.min)));
            maxs.push_back(simplify(as_int32(i.max)));
        }
        define_stages_from_demand(f, mins, maxs);

        // Storage covers what the loops write, which split tails may enlarge.
        Stmt produce = find_produce(pipeline, f.name());
        std::map<std::string, Box> provided;
        if (produce.defined()) provided = regions_written(produce);
        auto p = provided.find(f.name());
        for (int d = 0; d < f.dimensions(); d++) {
            Expr lo = int_var(stage_prefix(f.name(), 0) + f.args()[size_t(d)] + ".min");
            Expr hi = int_var(stage_prefix(f.name(), 0) + f.args()[size_t(d)] + ".max");
            if (p != provided.end() && int(p->second.size()) == f.dimensions() &&
                p->second[size_t(d)].is_bounded()) {
                lo = min(lo, p->second[size_t(d)].min);
                hi = max(hi, p->second[size_t(d)].max);
            }
            std::string base = f.name() + "." + f.args()[size_t(d)];
            lets.emplace_back(base + ".min_realized", lo);
            lets.emplace_back(base + ".extent_realized",
                              add(sub(hi, int_var(base + ".min_realized")), 1));
        }
    }

    void define_image_regions() {
        std::map<std::string, int> images; // name -> dimensions
        visit_all(pipeline, [&](const IRNode *node) {
            if (node->node_type != IRNodeType::Call) return;
            const auto *call = static_cast<const Call *>(node);
            if (call->call_type == Call::Image) images[call->name] = int(call->args.size());
        });
        if (images.empty()) return;
        std::map<std::string, Box> boxes = regions_read(pipeline);
        std::map<std::string, std::string> readers = image_readers(order, env);
        for (const auto &[name, dims] : images) {
            auto it = boxes.find(name);
            internal_assert(it != boxes.end() && int(it->second.size()) == dims,
                            "no region found for image " << name);
            for (int d = 0; d < dims; d++) {
                const Interval &i = it->second[size_t(d)];
                if (!i.is_bounded()) {
                    std::string reader = readers.count(name) ? readers[name] : "?";
                    user_error("Func " << reader << " reads buffer " << name
                                       << " at coordinates without "
                                       << (i.has_lower_bound() ? "an upper" : "a lower")
                                       << " bound in dimension " << d
                                       << "; clamp the coordinates (e.g. with clamp() or a "
                                          "BoundaryConditions function) so the region it needs "
                                          "is known");
                }
                lets.emplace_back(required_min_name(name, d), simplify(as_int32(i.min)));
                lets.emplace_back(required_max_name(name, d), simplify(as_int32(i.max)));
            }
        }
    }

public:
    BoundsBuilder(const Stmt &s, const std::vector<Function> &o,
                  const std::vector<std::string> &ord, const Environment &e)
        : pipeline(s), outputs(o), order(ord), env(e) {}

    Stmt build() {
        for (const Function &o : outputs) define_output(o);
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            const Function &f = env.at(*it);
            if (is_output(f, outputs) || is_inlined(f, outputs)) continue;
            define_computed_at_root(f);
        }
        define_image_regions();
        for (const Function &o : outputs) define_output_region(o);
        Stmt s = pipeline;
        for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
            s = LetStmt::make(it->first, it->second, s);
        }
        return s;
    }
};

} // namespace

Stmt bounds_inference(const Stmt &s, const std::vector<Function> &outputs,
                      const std::vector<std::string> &order, const Environment &env) {
    return BoundsBuilder(s, outputs, order, env).build();
}

} // namespace Internal
} // namespace loom
