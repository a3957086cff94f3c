#include "lower/BoundsInference.h"

#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "analysis/Simplify.h"
#include "ir/Error.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"
#include "ir/IRVisitor.h"
#include "ir/Substitute.h"
#include "lower/FindEnvironment.h"
#include "lower/InlineFunctions.h"
#include "lower/RegionsTouched.h"
#include "lower/ScheduleFunctions.h"
#include "lower/TouchIndex.h"

namespace loom {
namespace Internal {

std::string required_min_name(const std::string &image, int dim) {
    return image + ".required.min." + std::to_string(dim);
}
std::string required_max_name(const std::string &image, int dim) {
    return image + ".required.max." + std::to_string(dim);
}

namespace {

/** Does e read a Func or an image? */
bool reads_buffers(const Expr &e) {
    bool found = false;
    visit_all(e, [&](const IRNode *node) {
        if (node->node_type != IRNodeType::Call) return;
        auto type = static_cast<const Call *>(node)->call_type;
        found = found || type == Call::Loom || type == Call::Image;
    });
    return found;
}

/** The (first) produce node of each Func. */
std::map<std::string, Stmt> find_productions(const Stmt &s) {
    std::map<std::string, Stmt> found;
    visit_all(s, [&](const IRNode *node) {
        if (node->node_type != IRNodeType::ProducerConsumer) return;
        const auto *pc = static_cast<const ProducerConsumer *>(node);
        if (pc->is_producer) found.emplace(pc->name, Stmt(pc));
    });
    return found;
}

using LetList = std::vector<std::pair<std::string, Expr>>;

Stmt wrap_lets(const LetList &lets, Stmt s) {
    for (auto it = lets.rbegin(); it != lets.rend(); ++it)
        s = LetStmt::make(it->first, it->second, s);
    return s;
}

/** Let values by name, for substituting through chains of lets in time that
 * depends on the expression, not on how many lets there are. */
class LetValues {
    std::map<std::string, Expr> values;

public:
    /** Binds name (hiding an earlier binding); returns what it hid. A value
     * that uses the name it hides refers to the hidden binding. */
    std::optional<Expr> bind(const std::string &name, const Expr &value) {
        std::optional<Expr> old;
        auto it = values.find(name);
        if (it != values.end()) old = it->second;
        Expr v = value;
        if (expr_uses_var(v, name)) v = old ? substitute(name, *old, v) : Expr();
        if (v.defined()) {
            values[name] = v;
        } else {
            values.erase(name); // let x = x + 1 of an unknown x
        }
        return old;
    }
    void unbind(const std::string &name, const std::optional<Expr> &old) {
        if (old) {
            values[name] = *old;
        } else {
            values.erase(name);
        }
    }
    /** e with the lets substituted (through lets of lets), simplified. */
    Expr substitute_into(const Expr &e) const { return simplify(substitute_through(values, e)); }
    /** The same, or undefined where that is over max_nodes as a tree (bounds
     * lets name their consumers' bounds, so a chain of them written out in
     * full can be exponentially large). */
    Expr substitute_into_if_small(const Expr &e, int max_nodes) const {
        Expr substituted = substitute_through(values, e);
        if (count_nodes(substituted, max_nodes) > max_nodes) return Expr();
        return simplify(substituted);
    }
};

/** The schedule calls that fix dimension d of f, as the user wrote them
 * ("bound(x, 0, 16)"), for error messages. */
std::string bound_text(const Function &f, int d) {
    std::ostringstream text;
    const std::string &var = f.args()[size_t(d)];
    for (const Bound &b : f.schedule().bounds) {
        if (b.var != var) continue;
        if (!text.str().empty()) text << " and ";
        if (b.extent.defined() && b.min.defined()) {
            text << "bound(" << var << ", " << b.min << ", " << b.extent << ")";
        } else if (b.extent.defined()) {
            text << "bound_extent(" << var << ", " << b.extent << ")";
        }
        if (b.modulus.defined()) {
            if (b.extent.defined()) text << " and ";
            text << "align_bounds(" << var << ", " << b.modulus;
            if (b.remainder.defined()) text << ", " << b.remainder;
            text << ")";
        }
    }
    return text.str();
}

Expr bound_violated(const Function &f, int d, const Interval &bound, const Expr &actual_min,
                    const Expr &actual_max, bool is_output) {
    return Call::make(Int(32), "loom_error_bound_violated",
                      {user_context_var(), StringImm::make(f.name()),
                       StringImm::make(bound_text(f, d)), make_const(Int(32), d), bound.min,
                       bound.max, actual_min, actual_max, make_const(Int(32), is_output)},
                      Call::Extern);
}

/** Checks for Funcs whose region is fixed by bound()/bound_extent(). */
Stmt bound_check(const Function &f, int d, const Interval &required, const Interval &bound) {
    Expr ok = And::make(GE::make(required.min, bound.min), LE::make(required.max, bound.max));
    return AssertStmt::make(ok, bound_violated(f, d, bound, required.min, required.max, false));
}

class BoundsBuilder : public IRMutator {
    const std::vector<Function> &outputs;
    const std::vector<std::string> &order;
    const Environment &env;
    const TouchIndex &index;
    /** Has a let made here read a Func or image (a coordinate that depends
     * on data)? Then the index misses those reads, and searches go through
     * everything. */
    bool lets_read_buffers = false;

    /** The bounds lets of the Funcs computed directly in each enclosing loop
     * body (the last: the innermost; the first: the root), consumers before
     * their producers. They go at the top of that body, above every
     * production there, so that a producer's region refers to the bounds
     * of its consumers at the same level by name (as Halide's f.s0.x.min)
     * instead of repeating them: repeated, each stage's range holds its
     * consumer's range several times (a split's clamps and rounding use
     * both ends), and a chain of stages grows exponentially. */
    std::vector<LetList> level_lets;
    /** Values of the pending level lets with the lets before them
     * substituted, for those that stay small: substituted into the regions
     * found, so that ordinary schedules get the expressions (and constant
     * extents) they got with every consumer let written out. */
    std::map<std::string, Expr> small_level_values;
    /** The pending level lets too large for that: they stay names. */
    std::set<std::string> large_level_names;
    static constexpr int large_level_value_nodes = 400;

    /** e with the small pending level lets substituted, simplified. */
    Expr with_small_level_values(const Expr &e) const {
        if (small_level_values.empty()) return e;
        Expr s = substitute(small_level_values, e);
        return s.same_as(e) ? e : simplify(s);
    }

    /** Adds lets to the innermost level's list (in order: each may use
     * those before it). */
    void add_level_lets(const LetList &lets) {
        for (const auto &[name, value] : lets) {
            Expr v = with_small_level_values(value);
            bool small = count_nodes(v, large_level_value_nodes) <= large_level_value_nodes &&
                         (large_level_names.empty() || !expr_uses_vars(v, large_level_names));
            if (small) {
                small_level_values[name] = v;
            } else {
                large_level_names.insert(name);
            }
            level_lets.back().emplace_back(name, v);
        }
    }

    /** The innermost level's lets around its body; they go out of scope. */
    Stmt flush_level_lets(const Stmt &body) {
        LetList lets = std::move(level_lets.back());
        level_lets.pop_back();
        for (const auto &let : lets) {
            small_level_values.erase(let.first);
            large_level_names.erase(let.first);
        }
        return wrap_lets(lets, body);
    }

    Stmt wrap_new_lets(const LetList &lets, const Stmt &s) {
        for (const auto &let : lets)
            lets_read_buffers = lets_read_buffers || reads_buffers(let.second);
        return wrap_lets(lets, s);
    }

    /** A search for the region of Func (or image) `name` in a statement that
     * holds `touches` of its reads or writes, and no other. */
    RegionQuery query_for(const std::string &name, int touches, bool writes) const {
        RegionQuery q = query_for_all({name}, writes);
        // The searches see the small bounds of consumers in the same loop
        // written out, as when those lets were inside the statement searched.
        q.outer_lets = &small_level_values;
        if (q.expected_touches >= 0) q.expected_touches = touches;
        return q;
    }

    /** A search over the whole pipeline for the regions of `names`: it
     * skips the productions that touch none of them and stops after the
     * last touch (both unknown where a bounds let reads buffers). */
    RegionQuery query_for_all(const std::set<std::string> &names, bool writes) const {
        RegionQuery q;
        q.names = names;
        if (lets_read_buffers) return q;
        int touches = 0;
        for (const std::string &n : names) touches += writes ? index.writes(n) : index.reads(n);
        q.expected_touches = touches;
        const TouchIndex &i = index;
        q.production_touches = [&i, names, writes](const std::string &production) {
            for (const std::string &n : names)
                if ((writes ? i.writes_in(production, n) : i.reads_in(production, n)) > 0)
                    return true;
            return false;
        };
        return q;
    }

    /** The region of f that stage `stage` of f reads or writes (empty when none). */
    Box self_reads(const Function &f, int stage) const {
        Stmt nest = inline_functions(build_stage_nest(f, stage, is_output(f, outputs)), outputs);
        std::map<std::string, Box> boxes = regions_read(nest);
        auto it = boxes.find(f.name());
        Box reads = it == boxes.end() ? Box() : it->second;
        // An update may write where no consumer looks (a scatter): the
        // earlier stages must have computed those elements too.
        std::map<std::string, Box> written = regions_written(nest);
        auto w = written.find(f.name());
        if (w == written.end() || w->second.size() != size_t(f.dimensions())) return reads;
        return reads.size() == w->second.size() ? box_union(reads, w->second) : w->second;
    }

    void define_stage_bounds(const Function &f, int stage, const Box &region, LetList &lets) const {
        std::string prefix = stage_prefix(f.name(), stage);
        for (const std::string &v : stage_pure_vars(f, stage)) {
            size_t d = 0;
            while (f.args()[d] != v) d++;
            lets.emplace_back(prefix + v + ".min", region[d].min);
            lets.emplace_back(prefix + v + ".max", region[d].max);
        }
    }

    /** Stages cover what the consumers need and what later stages of the same
     * Func read, last stage first. */
    void define_stages_from_demand(const Function &f, Box demand, LetList &lets) const {
        for (int s = int(f.updates().size()); s >= 0; s--) {
            for (size_t d = 0; d < demand.size(); d++) {
                if (!demand[d].is_bounded()) {
                    user_error("Func " << f.name() << " reads or writes itself in an update "
                                       << "definition at coordinates without a bound in "
                                       << "dimension " << d << " (" << f.args()[d]
                                       << "); clamp the coordinates");
                }
                demand[d] =
                    Interval(simplify(as_int32(demand[d].min)), simplify(as_int32(demand[d].max)));
            }
            define_stage_bounds(f, s, demand, lets);
            if (s > 0) {
                Box reads = self_reads(f, s);
                if (reads.size() == demand.size()) demand = box_union(demand, reads);
            }
        }
    }

    /** bound(), bound_extent() and align_bounds() replace the region of a
     * dimension; `checks` gets the asserts that the required region fits. */
    Box apply_user_bounds(const Function &f, const Box &required, std::vector<Stmt> &checks) const {
        Box region = required;
        for (const Bound &b : f.schedule().bounds) {
            for (size_t d = 0; d < f.args().size(); d++) {
                if (f.args()[d] != b.var) continue;
                Interval &r = region[d];
                if (b.extent.defined()) {
                    Expr lo = b.min.defined() ? as_int32(b.min) : r.min;
                    r = Interval(simplify(lo), simplify(sub(add(lo, b.extent), 1)));
                    checks.push_back(bound_check(f, int(d), required[d], r));
                }
                if (b.modulus.defined()) {
                    Expr m = as_int32(b.modulus);
                    Expr rem = b.remainder.defined() ? as_int32(b.remainder) : make_zero(Int(32));
                    Expr lo = add(mul(div(sub(r.min, rem), m), m), rem);
                    Expr extent = sub(add(r.max, 1), lo);
                    extent = mul(div(add(extent, sub(m, 1)), m), m);
                    r = Interval(simplify(lo), simplify(sub(add(lo, extent), 1)));
                }
            }
        }
        return region;
    }

    /** Production of a Func inside its compute loop: the region its
     * consumers (the rest of the loop body) need, with the enclosing loop
     * variables fixed. */
    Stmt define_compute_bounds(const Function &f, const Stmt &block, const Stmt &consumers) {
        // Every read of f is in its consumers but those of its own updates.
        int reads = index.reads(f.name()) - index.reads_in(f.name(), f.name());
        std::map<std::string, Box> boxes =
            regions_read(consumers, query_for(f.name(), reads, false));
        auto it = boxes.find(f.name());
        internal_assert(it != boxes.end() && int(it->second.size()) == f.dimensions(),
                        "no consumer of Func " << f.name() << " reads it");
        Box required = it->second;
        for (int d = 0; d < f.dimensions(); d++) {
            Interval &i = required[size_t(d)];
            if (i.has_lower_bound()) i.min = with_small_level_values(i.min);
            if (i.has_upper_bound()) i.max = with_small_level_values(i.max);
            if (!i.is_bounded()) {
                user_error("Func " << f.name() << " is read by its consumers at coordinates "
                                   << "without " << (i.has_lower_bound() ? "an upper" : "a lower")
                                   << " bound in dimension " << d << " (" << f.args()[size_t(d)]
                                   << "); clamp the coordinates (e.g. with clamp() or a "
                                      "BoundaryConditions function) so its region is known");
            }
            required[size_t(d)] = Interval(as_int32(i.min), as_int32(i.max));
        }
        std::vector<Stmt> checks;
        Box region = apply_user_bounds(f, required, checks);
        LetList lets;
        define_stages_from_demand(f, region, lets);
        checks.push_back(block);
        bool data_dependent = false;
        for (const auto &let : lets) data_dependent = data_dependent || reads_buffers(let.second);
        // Lets that read a Func stay here, after the productions before it.
        if (data_dependent || level_lets.empty()) return wrap_new_lets(lets, Block::make(checks));
        add_level_lets(lets);
        return Block::make(checks);
    }

    /** Storage of a Func: everything its loops write inside the Realize,
     * over all iterations of the loops between storage and computation. */
    Stmt define_storage(const Realize *op, const Stmt &body) {
        const Function &f = env.at(op->name);
        std::map<std::string, Box> written =
            regions_written(body, query_for(f.name(), index.writes(f.name()), true));
        auto it = written.find(f.name());
        internal_assert(it != written.end() && int(it->second.size()) == f.dimensions(),
                        "Func " << f.name() << " has storage but is never produced");
        LetList lets;
        for (int d = 0; d < f.dimensions(); d++) {
            Interval i = it->second[size_t(d)];
            if (i.has_lower_bound()) i.min = with_small_level_values(i.min);
            if (i.has_upper_bound()) i.max = with_small_level_values(i.max);
            std::string base = f.name() + "." + f.args()[size_t(d)];
            if (!i.is_bounded()) {
                user_error("Func " << f.name() << " is written at coordinates without a bound in "
                                   << "dimension " << d << " (" << f.args()[size_t(d)]
                                   << ") inside its storage; store it at a loop level where "
                                      "the region it covers is known");
            }
            lets.emplace_back(base + ".min_realized", simplify(as_int32(i.min)));
            lets.emplace_back(base + ".extent_realized",
                              simplify(add(sub(as_int32(i.max), as_int32(i.min)), 1)));
        }
        Stmt realize =
            Realize::make(op->name, op->types, op->memory_type, op->bounds, op->condition, body);
        return wrap_new_lets(lets, realize);
    }

    const Function *scheduled_func(const std::string &name) const {
        auto it = env.find(name);
        if (it == env.end() || is_output(it->second, outputs)) return nullptr;
        return &it->second;
    }

protected:
    using IRMutator::visit;

    Stmt visit(const Block *op) override {
        Stmt first = mutate(op->first), rest = mutate(op->rest);
        Stmt block = first.same_as(op->first) && rest.same_as(op->rest) ? Stmt(op)
                                                                        : Block::make(first, rest);
        const auto *produce = first.as<ProducerConsumer>();
        const auto *consume = rest.as<ProducerConsumer>();
        if (!produce || !consume || !produce->is_producer || consume->is_producer ||
            produce->name != consume->name) {
            return block;
        }
        const Function *f = scheduled_func(produce->name);
        if (!f) return block;
        return define_compute_bounds(*f, block, consume->body);
    }

    Stmt visit(const For *op) override {
        level_lets.emplace_back();
        Stmt body = flush_level_lets(mutate(op->body));
        if (body.same_as(op->body)) return op;
        return For::make(op->name, op->min, op->extent, op->for_type, op->device_api, body);
    }

    Stmt visit(const Realize *op) override {
        Stmt body = mutate(op->body);
        if (!scheduled_func(op->name))
            return Realize::make(op->name, op->types, op->memory_type, op->bounds, op->condition,
                                 body);
        return define_storage(op, body);
    }

public:
    BoundsBuilder(const std::vector<Function> &o, const std::vector<std::string> &ord,
                  const Environment &e, const TouchIndex &i)
        : outputs(o), order(ord), env(e), index(i) {}

    /** Outputs cover their buffers (or their bound()s); their lets go
     * around everything. */
    LetList output_lets(std::vector<Stmt> &checks) const {
        LetList lets;
        for (const Function &f : outputs) {
            std::string buffer = buffer_name(f, 0);
            Box region;
            for (int d = 0; d < f.dimensions(); d++) {
                Expr lo = int_var(buffer + ".min." + std::to_string(d));
                Expr extent = int_var(buffer + ".extent." + std::to_string(d));
                region.bounds.emplace_back(lo, sub(add(lo, extent), 1));
            }
            std::vector<Stmt> ignored;
            Box bounded = apply_user_bounds(f, region, ignored);
            for (int d = 0; d < f.dimensions(); d++) {
                const Interval &want = bounded[size_t(d)];
                if (want.min.same_as(region[size_t(d)].min) &&
                    want.max.same_as(region[size_t(d)].max)) {
                    continue;
                }
                // A bound output's buffer must be exactly the bound region.
                Expr lo = region[size_t(d)].min;
                Expr extent = int_var(buffer + ".extent." + std::to_string(d));
                Expr want_extent = simplify(add(sub(want.max, want.min), 1));
                Expr exact = And::make(EQ::make(lo, want.min), EQ::make(extent, want_extent));
                checks.push_back(AssertStmt::make(
                    exact, bound_violated(f, d, want, lo, region[size_t(d)].max, true)));
            }
            for (int s = 0; s <= int(f.updates().size()); s++)
                define_stage_bounds(f, s, bounded, lets);
        }
        return lets;
    }

    /** The conditions of the ShiftInwards checks at the top of f's
     * production (see build_produce); undefined when it has none. */
    static Expr shift_inwards_ok(const Stmt &produce) {
        Expr ok;
        visit_all(produce, [&](const IRNode *node) {
            if (node->node_type != IRNodeType::AssertStmt) return;
            const auto *a = static_cast<const AssertStmt *>(node);
            const auto *c = a->message.as<Call>();
            if (!c || c->name != split_too_small_error()) return;
            // The assert passes empty extents too (`ok || extent <= 0`);
            // the loop region is right only when `ok` holds.
            const auto *either = a->condition.as<Or>();
            internal_assert(either, "ShiftInwards check of unexpected form: " << a->condition);
            ok = ok.defined() ? And::make(ok, either->a) : either->a;
        });
        return ok;
    }

    /** The region the loops of output f write, which split tails may make
     * larger than the buffer: the checks compare it with every output buffer. */
    void define_output_region(const Function &f, const Stmt &produce,
                              const std::map<std::string, Box> &reads, LetList &lets,
                              LetValues &values) const {
        std::map<std::string, Box> written =
            regions_written(produce, query_for_all({f.name()}, true));
        Box region = written[f.name()];
        internal_assert(int(region.size()) == f.dimensions(),
                        "no region written for output " << f.name());
        // Its own updates and the other outputs read the output buffer too.
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
        // A ShiftInwards split of an extent below its factor starts before
        // the buffer: its own check (which names the split) reports that when
        // f is produced, so the region check lets it through.
        Expr split_ok = shift_inwards_ok(produce);
        for (int v = 0; v < f.outputs(); v++) {
            std::string buffer = buffer_name(f, v);
            for (int d = 0; d < f.dimensions(); d++) {
                const Interval &i = region[size_t(d)];
                internal_assert(i.is_bounded(), "unbounded region written for output "
                                                    << f.name() << " in dimension " << d);
                Expr lo = i.min, hi = i.max;
                if (split_ok.defined()) {
                    Expr buffer_min = int_var(buffer + ".min." + std::to_string(d));
                    Expr buffer_max =
                        sub(add(buffer_min, int_var(buffer + ".extent." + std::to_string(d))), 1);
                    lo = Select::make(split_ok, lo, buffer_min);
                    hi = Select::make(split_ok, hi, buffer_max);
                }
                for (auto [name, e] : {std::pair(required_min_name(buffer, d), lo),
                                       std::pair(required_max_name(buffer, d), hi)}) {
                    lets.emplace_back(name, values.substitute_into(e));
                    values.bind(name, lets.back().second);
                }
            }
        }
    }

    void define_image_regions(const Stmt &pipeline, LetList &lets) const {
        std::map<std::string, int> images; // name -> dimensions
        visit_all(pipeline, [&](const IRNode *node) {
            if (node->node_type != IRNodeType::Call) return;
            const auto *call = static_cast<const Call *>(node);
            if (call->call_type == Call::Image) images[call->name] = int(call->args.size());
        });
        if (images.empty()) return;
        std::set<std::string> names;
        for (const auto &image : images) names.insert(image.first);
        std::map<std::string, Box> boxes = regions_read(pipeline, query_for_all(names, false));
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

    Stmt build(const Stmt &pipeline) {
        std::vector<Stmt> checks;
        LetList lets = output_lets(checks);
        level_lets.emplace_back();
        Stmt s = flush_level_lets(mutate(pipeline));
        // Image and output regions are over the whole pipeline, inside the
        // output lets they are expressed in.
        LetList regions;
        define_image_regions(s, regions);
        LetList with_outputs = lets;
        // What the pipeline reads of each output, found once for all of them.
        std::set<std::string> output_names;
        for (const Function &o : outputs) output_names.insert(o.name());
        std::map<std::string, Box> reads = regions_read(s, query_for_all(output_names, false));
        std::map<std::string, Stmt> productions = find_productions(s);
        LetValues values;
        for (const auto &let : lets) values.bind(let.first, let.second);
        for (const Function &o : outputs)
            define_output_region(o, productions.at(o.name()), reads, with_outputs, values);
        for (size_t i = lets.size(); i < with_outputs.size(); i++)
            regions.push_back(with_outputs[i]);
        checks.push_back(s);
        return wrap_lets(lets, wrap_lets(regions, Block::make(checks)));
    }
};

/** Resolves the guards of splits that TailStrategy::Auto rounds up (see
 * auto_round_up_marker): with every enclosing let known, a guard goes where
 * the factor provably divides the extent (RoundUp's code) and stays
 * otherwise. */
class ResolveAutoRoundUp : public IRMutator {
    LetValues enclosing;

protected:
    using IRMutator::visit;
    Stmt visit(const LetStmt *op) override {
        if (op->name != auto_round_up_marker()) {
            auto hidden = enclosing.bind(op->name, op->value);
            Stmt body = mutate(op->body);
            enclosing.unbind(op->name, hidden);
            return body.same_as(op->body) ? Stmt(op) : LetStmt::make(op->name, op->value, body);
        }
        const auto *guard = op->body.as<IfThenElse>();
        internal_assert(guard && !guard->else_case.defined(), "malformed split guard");
        // A remainder too large to write out is no provable zero: the guard stays.
        Expr remainder = enclosing.substitute_into_if_small(op->value, 4000);
        if (remainder.defined() && is_const_zero(remainder)) return mutate(guard->then_case);
        return mutate(op->body);
    }

public:
    Stmt resolve(const Stmt &s) {
        bool marked = false;
        visit_all(s, [&](const IRNode *node) {
            marked = marked || (node->node_type == IRNodeType::LetStmt &&
                                static_cast<const LetStmt *>(node)->name == auto_round_up_marker());
        });
        return marked ? mutate(s) : s;
    }
};

} // namespace

Stmt bounds_inference(const Stmt &s, const std::vector<Function> &outputs,
                      const std::vector<std::string> &order, const Environment &env) {
    TouchIndex index(s);
    Stmt bounded = BoundsBuilder(outputs, order, env, index).build(s);
    return ResolveAutoRoundUp().resolve(bounded);
}

} // namespace Internal
} // namespace loom
