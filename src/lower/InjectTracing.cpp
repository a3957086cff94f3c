// Tracing, with Halide's events and protocol: begin_pipeline (parent 0)
// returns the id of the pipeline; tag events follow it. A traced
// realization is begin_realization (coordinates: min and extent per
// dimension; parent: the pipeline) ... end_realization; inside it, each
// produce and consume phase is bracketed by produce/end_produce or
// consume/end_consume events over the region of the pure stage, whose id
// is the parent of the loads and stores inside. Outputs are traced as if
// realized over their output buffers. Tracing a load or store of a Func
// without traced realizations gives parent id 0; a load of an input buffer
// (target feature trace_loads, or ImageParam::trace_loads) has the pipeline
// as its parent. After begin_pipeline, each traced Func and input gets a
// tag "func_type_and_dim: <types> <code bits lanes>... <dims> <min extent>..."
// (as Halide's, for tools such as HalideTraceViz), then its own tags; the
// bounds are those of the whole run (the output buffer for an output, the
// input buffer for an input, the region written over the pipeline for
// another Func), known at run time: the event passes them as coordinates
// and the runtime appends them to the tag (runtime/trace.cpp).

#include "lower/InjectTracing.h"

#include <map>
#include <set>
#include <utility>

#include "LoomRuntime.h"
#include "analysis/Simplify.h"
#include "ir/Error.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"
#include "lower/GPULoops.h"
#include "lower/RegionsTouched.h"

namespace loom {
namespace Internal {

namespace {

const char *const pipeline_id = "pipeline.trace_id";

Expr int32_var(const std::string &name) {
    return Variable::make(Int(32), name);
}

std::string trace_id(const std::string &func) {
    return func + ".trace_id";
}

/** One trace event: a call of the trace intrinsic (see ir/IR.h). `value`
 * undefined: an event without a value. */
Expr trace_event(const std::string &func, int event, Expr parent, int value_index, Type type,
                 Expr value, const std::vector<Expr> &coordinates,
                 const std::string &tag = std::string()) {
    std::vector<Expr> args{Expr(StringImm::make(func)), Expr(event),
                           std::move(parent),           Expr(value_index),
                           Expr(int(type.code)),        Expr(int(type.bits)),
                           Expr(StringImm::make(tag)),  value.defined() ? value : Expr(0)};
    // The runtime takes int32 coordinates, as Halide's does.
    for (const Expr &c : coordinates)
        args.push_back(c.type() == Int(32) ? c : Cast::make(Int(32), c));
    return Call::make(Int(32), Intrinsic::trace, args, Call::Intrinsic);
}

/** `value`, reported by a load or store event first. */
Expr traced_value(const std::string &func, int event, const Expr &parent, int value_index,
                  const Expr &value, const std::vector<Expr> &coordinates) {
    std::string name = unique_name("t");
    Expr v = Variable::make(value.type(), name);
    Expr trace = trace_event(func, event, parent, value_index, value.type(), v, coordinates);
    return Let::make(
        name, value,
        Call::make(value.type(), Intrinsic::return_second, {trace, v}, Call::Intrinsic));
}

class InjectTracing : public IRMutator {
public:
    InjectTracing(const Environment &env, const Target &target) : env(env) {
        all_loads = target.has_feature(Target::TraceLoads);
        all_stores = target.has_feature(Target::TraceStores);
        // As in Halide: tracing all loads or stores traces realizations too,
        // so every load and store has a realization as its parent.
        all_realizations = all_loads || all_stores || target.has_feature(Target::TraceRealizations);
    }

    /** A traced Func or input, which gets tag events. */
    struct Traced {
        std::string name;
        std::vector<Type> types;
        int dimensions = 0;
        bool is_input = false;
        std::vector<std::string> tags; // add_trace_tag's
    };
    /** In the order first met. */
    std::vector<Traced> traced;

private:
    const Environment &env;
    bool all_loads, all_stores, all_realizations;
    std::set<std::string> tagged;
    std::string gpu_loop; // the innermost enclosing GPU loop, if any

    const Function *find(const std::string &name) const {
        auto it = env.find(name);
        return it == env.end() ? nullptr : &it->second;
    }

    void add_tags(const Function &f) {
        if (!tagged.insert(f.name()).second) return;
        traced.push_back({f.name(), f.output_types(), f.dimensions(), false, f.trace_tags()});
    }

    void add_input_tags(const Call *load) {
        if (!tagged.insert(load->name).second) return;
        traced.push_back({load->name, {load->type}, int(load->args.size()), true, {}});
    }

    /** Tracing runs on the host: a traced Func inside a kernel is an error.
     * `by_func`: traced by the Func's own `what`, else by the target's. */
    void require_host(const std::string &func, const char *what, bool by_func) const {
        if (gpu_loop.empty()) return;
        user_error("Func " << func << " is traced (" << (by_func ? "" : "the target feature ")
                           << what << ") but is computed inside the GPU "
                           << "loop " << gpu_loop << "; Loom traces host code only: schedule "
                           << func << " on the CPU, or trace a Func that copies it there");
    }

    using IRMutator::visit;

    Stmt visit(const For *op) override {
        bool gpu = is_gpu_loop(op->for_type) ||
                   (op->device_api != DeviceAPI::None && op->device_api != DeviceAPI::Host);
        if (!gpu) return IRMutator::visit(op);
        std::string outer = gpu_loop;
        gpu_loop = op->name;
        Stmt s = IRMutator::visit(op);
        gpu_loop = outer;
        return s;
    }

    Expr visit(const Call *op) override {
        Expr e = IRMutator::visit(op);
        op = e.as<Call>();
        if (!op) return e;
        Expr parent;
        bool by_func = false;
        if (op->call_type == Call::Loom) {
            const Function *f = find(op->name);
            if (!f || !(f->is_tracing_loads() || all_loads)) return e;
            by_func = f->is_tracing_loads();
            add_tags(*f);
            parent = int32_var(trace_id(op->name));
        } else if (op->call_type == Call::Image &&
                   (all_loads || (op->param.defined() && op->param.is_tracing_loads()))) {
            by_func = !all_loads;
            add_input_tags(op);
            parent = int32_var(pipeline_id);
        } else {
            return e;
        }
        require_host(op->name, "trace_loads", by_func);
        return traced_value(op->name, loom_trace_load, parent, op->value_index, e, op->args);
    }

    Stmt visit(const Provide *op) override {
        Stmt s = IRMutator::visit(op);
        op = s.as<Provide>();
        const Function *f = op ? find(op->name) : nullptr;
        if (!f || !(f->is_tracing_stores() || all_stores)) return s;
        require_host(op->name, "trace_stores", f->is_tracing_stores());
        add_tags(*f);
        std::vector<Expr> values;
        for (size_t i = 0; i < op->values.size(); i++)
            values.push_back(traced_value(op->name, loom_trace_store, int32_var(trace_id(op->name)),
                                          int(i), op->values[i], op->args));
        return Provide::make(op->name, values, op->args, op->predicate);
    }

    Stmt visit(const Realize *op) override {
        Stmt s = IRMutator::visit(op);
        op = s.as<Realize>();
        const Function *f = op ? find(op->name) : nullptr;
        if (!f) return s;
        Stmt body = op->body;
        if (f->is_tracing_realizations() || all_realizations) {
            require_host(op->name, "trace_realizations", f->is_tracing_realizations());
            add_tags(*f);
            std::vector<Expr> bounds;
            for (const Range &r : op->bounds) {
                bounds.push_back(r.min);
                bounds.push_back(r.extent);
            }
            Type t = op->types.empty() ? Int(32) : op->types[0];
            Expr begin = trace_event(op->name, loom_trace_begin_realization, int32_var(pipeline_id),
                                     0, t, Expr(), bounds);
            Expr end = trace_event(op->name, loom_trace_end_realization,
                                   int32_var(trace_id(op->name)), 0, t, Expr(), bounds);
            body = LetStmt::make(trace_id(op->name), begin, Block::make(body, Evaluate::make(end)));
        } else if (f->is_tracing_loads() || f->is_tracing_stores()) {
            body = LetStmt::make(trace_id(op->name), 0, body);
        } else {
            return s;
        }
        return Realize::make(op->name, op->types, op->memory_type, op->bounds, op->condition, body);
    }

    Stmt visit(const ProducerConsumer *op) override {
        Stmt s = IRMutator::visit(op);
        op = s.as<ProducerConsumer>();
        const Function *f = op ? find(op->name) : nullptr;
        if (!f || !(f->is_tracing_realizations() || all_realizations)) return s;
        // The region of the pure stage, as Halide reports it.
        std::vector<Expr> region;
        for (const std::string &arg : f->args()) {
            std::string prefix = op->name + ".s0." + arg;
            Expr min = int32_var(prefix + ".min"), max = int32_var(prefix + ".max");
            region.push_back(min);
            region.push_back(Sub::make(Add::make(max, Expr(1)), min));
        }
        Type t = f->output_types().empty() ? Int(32) : f->output_types()[0];
        int begin_code = op->is_producer ? loom_trace_produce : loom_trace_consume;
        int end_code = op->is_producer ? loom_trace_end_produce : loom_trace_end_consume;
        Expr id = int32_var(trace_id(op->name));
        Expr begin = trace_event(op->name, begin_code, id, 0, t, Expr(), region);
        Expr end = trace_event(op->name, end_code, id, 0, t, Expr(), region);
        Stmt body = Block::make(op->body, Evaluate::make(end));
        return LetStmt::make(trace_id(op->name), begin,
                             ProducerConsumer::make(op->name, op->is_producer, body));
    }
};

/** Removes the Realize nodes of the outputs that inject_tracing added. */
class RemoveOutputRealizations : public IRMutator {
public:
    explicit RemoveOutputRealizations(const std::vector<Function> &outputs) {
        for (const Function &f : outputs) names.insert(f.name());
    }

private:
    std::set<std::string> names;
    using IRMutator::visit;
    Stmt visit(const Realize *op) override {
        if (names.count(op->name)) return mutate(op->body);
        return IRMutator::visit(op);
    }
};

/** The region of the whole run of each traced Func: its output buffer for
 * an output, its buffer for an input, else what the pipeline writes. */
std::map<std::string, Box> regions_of_funcs(const Stmt &s,
                                            const std::vector<InjectTracing::Traced> &traced,
                                            const std::vector<Function> &outputs) {
    std::map<std::string, Box> boxes;
    std::map<std::string, std::string> buffer_of;
    for (const Function &f : outputs) buffer_of[f.name()] = f.output_buffers().at(0).name();
    RegionQuery query;
    for (const auto &t : traced) {
        if (t.is_input || buffer_of.count(t.name)) {
            const std::string &buffer = t.is_input ? t.name : buffer_of[t.name];
            Box b(t.dimensions);
            for (int d = 0; d < t.dimensions; d++) {
                Expr min = int32_var(buffer + ".min." + std::to_string(d));
                Expr extent = int32_var(buffer + ".extent." + std::to_string(d));
                b[d] = Interval(min, simplify(Sub::make(Add::make(min, extent), Expr(1))));
            }
            boxes[t.name] = b;
        } else {
            query.names.insert(t.name);
        }
    }
    if (!query.names.empty())
        for (auto &[name, box] : regions_written(s, query)) boxes[name] = box;
    return boxes;
}

} // namespace

Stmt inject_tracing(const Stmt &s, const std::string &pipeline_name,
                    const std::vector<Function> &outputs, const Environment &env,
                    const Target &target) {
    // The lets bounds inference put on top stay there: later passes (image
    // checks) read them outside everything else.
    std::vector<std::pair<std::string, Expr>> top_lets;
    Stmt inner = s;
    while (const auto *let = inner.as<LetStmt>()) {
        top_lets.emplace_back(let->name, let->value);
        inner = let->body;
    }
    // Outputs are traced like Funcs realized over their output buffers.
    Stmt wrapped = inner;
    for (const Function &f : outputs) {
        std::string buffer = f.output_buffers().at(0).name();
        Region region;
        for (int d = 0; d < f.dimensions(); d++) {
            std::string dim = std::to_string(d);
            region.push_back(
                Range(int32_var(buffer + ".min." + dim), int32_var(buffer + ".extent." + dim)));
        }
        wrapped = Realize::make(f.name(), f.output_types(), MemoryType::Auto, region, const_true(),
                                wrapped);
    }
    InjectTracing tracing(env, target);
    Stmt traced = tracing.mutate(wrapped);
    if (traced.same_as(wrapped) && !target.has_feature(Target::TracePipeline)) return s;
    Stmt body = RemoveOutputRealizations(outputs).mutate(traced);

    Expr pipeline = int32_var(pipeline_id);
    body = Block::make(body, Evaluate::make(trace_event(pipeline_name, loom_trace_end_pipeline,
                                                        pipeline, 0, Int(32), Expr(), {})));
    // Tags go first, in the order of their Funcs: each Func's
    // func_type_and_dim tag, then its own tags in their order.
    std::map<std::string, Box> written = regions_of_funcs(inner, tracing.traced, outputs);
    std::vector<Stmt> tags;
    for (const auto &t : tracing.traced) {
        std::vector<Expr> bounds;
        for (int d = 0; d < t.dimensions; d++) {
            Interval i = written.count(t.name) && d < int(written[t.name].size())
                             ? written[t.name][d]
                             : Interval();
            // Unbounded (a data-dependent write): reported as 0 0.
            Expr min = i.is_bounded() ? i.min : Expr(0);
            Expr extent =
                i.is_bounded() ? simplify(Add::make(Sub::make(i.max, i.min), Expr(1))) : Expr(0);
            bounds.push_back(min);
            bounds.push_back(extent);
        }
        std::string type_and_dim = "func_type_and_dim: " + std::to_string(t.types.size());
        for (const Type &type : t.types)
            type_and_dim += " " + std::to_string(int(type.code)) + " " + std::to_string(type.bits) +
                            " " + std::to_string(type.lanes);
        type_and_dim += " " + std::to_string(t.dimensions);
        tags.push_back(Evaluate::make(trace_event(t.name, loom_trace_tag, pipeline, 0, Int(32),
                                                  Expr(), bounds, type_and_dim)));
        for (const std::string &tag : t.tags)
            tags.push_back(Evaluate::make(
                trace_event(t.name, loom_trace_tag, pipeline, 0, Int(32), Expr(), {}, tag)));
    }
    for (auto tag = tags.rbegin(); tag != tags.rend(); ++tag) body = Block::make(*tag, body);
    Expr begin =
        trace_event(pipeline_name, loom_trace_begin_pipeline, Expr(0), 0, Int(32), Expr(), {});
    body = LetStmt::make(pipeline_id, begin, body);
    for (auto let = top_lets.rbegin(); let != top_lets.rend(); ++let)
        body = LetStmt::make(let->first, let->second, body);
    return body;
}

} // namespace Internal
} // namespace loom
