// PipelineSchedule: extract a pipeline's schedule, apply it to another copy
// of the same algorithm, compare and hash it. Printing and reading live in
// ScheduleSource.cpp (C++) and ScheduleJSON.cpp (JSON).

#include "loom/PipelineSchedule.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "autoschedule/ScheduleUtil.h"
#include "frontend/FuncWrappers.h"
#include "frontend/RFactor.h"
#include "ir/Error.h"
#include "ir/IRMutator.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"
#include "loom/Func.h"
#include "loom/Pipeline.h"
#include "lower/FindEnvironment.h"

namespace loom {

using namespace Internal;

namespace Internal {

std::vector<Function> pipeline_functions(const Pipeline &pipeline) {
    std::vector<Function> outputs;
    for (const Func &f : pipeline.outputs()) outputs.push_back(f.function());
    if (outputs.empty()) user_error("The Pipeline has no outputs; it has no schedule");
    Environment env = find_environment(outputs);
    std::vector<Function> funcs;
    for (const std::string &name : realization_order(outputs, env)) funcs.push_back(env.at(name));
    return funcs;
}

std::map<std::string, Parameter> all_params_of(const std::vector<Function> &funcs) {
    std::map<std::string, Parameter> params;
    auto scan = [&](const Expr &e) {
        if (!e.defined()) return;
        visit_all(e, [&](const IRNode *n) {
            if (n->node_type == IRNodeType::Variable) {
                const auto *v = static_cast<const Variable *>(n);
                if (v->param.defined()) params.emplace(v->param.name(), v->param);
            } else if (n->node_type == IRNodeType::Call) {
                const auto *c = static_cast<const Call *>(n);
                if (c->param.defined()) params.emplace(c->param.name(), c->param);
            }
        });
    };
    for (const Function &f : funcs) {
        auto def = [&](const Definition &d) {
            for (const Expr &e : d.args) scan(e);
            for (const Expr &e : d.values) scan(e);
            for (const Expr &e : d.predicates) scan(e);
            for (const ReductionVariable &rv : d.rvars) {
                scan(rv.min);
                scan(rv.extent);
            }
            for (const Split &sp : d.schedule.splits) scan(sp.factor);
        };
        def(f.definition());
        for (const Definition &u : f.updates()) def(u);
    }
    return params;
}

void reset_schedule(Function f) {
    f.schedule() = FuncSchedule();
    StageSchedule pure;
    for (const std::string &a : f.args())
        pure.dims.push_back(Dim{a, ForType::Serial, DeviceAPI::None, false});
    f.definition().schedule = pure;
    f.definition().atomic = false;
    for (Definition &u : f.updates()) {
        u.schedule = initial_schedule(u, f.args());
        u.atomic = false;
    }
    f.invalidate_cache();
}

std::map<std::string, Buffer<>> buffers_read_by(const std::vector<Function> &funcs) {
    std::map<std::string, Buffer<>> buffers;
    auto scan = [&](const Expr &e) {
        if (!e.defined()) return;
        visit_all(e, [&](const IRNode *n) {
            if (n->node_type != IRNodeType::Call) return;
            const auto *c = static_cast<const Call *>(n);
            if (c->call_type == Call::Image && c->image.defined())
                buffers.emplace(c->image.name(), c->image);
        });
    };
    for (const Function &f : funcs) {
        for (const Expr &e : f.values()) scan(e);
        for (const Definition &u : f.updates()) {
            for (const Expr &e : u.args) scan(e);
            for (const Expr &e : u.values) scan(e);
        }
    }
    return buffers;
}

std::map<std::string, Parameter> scalar_params_of(const std::vector<Function> &funcs) {
    std::map<std::string, Parameter> params;
    for (const auto &[name, p] : all_params_of(funcs))
        if (!p.is_buffer()) params.emplace(name, p);
    return params;
}

namespace {

class RebindParams : public IRMutator {
    const std::map<std::string, Parameter> &params_;

public:
    explicit RebindParams(const std::map<std::string, Parameter> &p) : params_(p) {}
    using IRMutator::visit;
    Expr visit(const Variable *v) override {
        if (!v->param.defined() || v->param.is_buffer()) return v;
        auto it = params_.find(v->name);
        if (it == params_.end() || it->second.same_as(v->param)) return v;
        return Variable::make(v->type, v->name, it->second);
    }
};

} // namespace

Expr rebind_params(const Expr &e, const std::map<std::string, Parameter> &params) {
    if (!e.defined() || params.empty()) return e;
    RebindParams r(params);
    return r.mutate(e);
}

const std::vector<std::string> &tail_strategy_names() {
    static const std::vector<std::string> n = {"Auto", "RoundUp", "GuardWithIf", "ShiftInwards",
                                               "Predicate"};
    return n;
}

const std::vector<std::string> &memory_type_names() {
    static const std::vector<std::string> n = {"Auto",     "Heap",      "Stack",
                                               "Register", "GPUShared", "GPUTexture"};
    return n;
}

const std::vector<std::string> &device_api_names() {
    static const std::vector<std::string> n = {"None", "Host", "Default_GPU", "CUDA", "OpenCL"};
    return n;
}

const std::vector<std::string> &for_type_names() {
    static const std::vector<std::string> n = {"Serial", "Parallel", "Vectorized", "Unrolled",
                                               "Extern", "GPUBlock", "GPUThread",  "GPULane"};
    return n;
}

std::string short_loop_name(const std::string &qualified) {
    size_t dot = qualified.rfind('.');
    return dot == std::string::npos ? qualified : qualified.substr(dot + 1);
}

std::string root_loop_name(const std::string &qualified) {
    return qualified.substr(0, qualified.find('.'));
}

std::vector<std::string> initial_loops(const Definition &def, bool is_update,
                                       const std::vector<std::string> &pure_args) {
    std::vector<std::string> loops;
    if (!is_update) return pure_args;
    for (const ReductionVariable &rv : def.rvars) loops.push_back(rv.var);
    for (size_t i = 0; i < pure_args.size() && i < def.args.size(); i++) {
        const auto *v = def.args[i].as<Variable>();
        if (v && v->name == pure_args[i]) loops.push_back(pure_args[i]);
    }
    return loops;
}

StageSchedule initial_schedule(const Definition &update,
                               const std::vector<std::string> &pure_args) {
    StageSchedule s;
    for (const std::string &l : initial_loops(update, true, pure_args)) {
        bool rvar = false;
        for (const ReductionVariable &rv : update.rvars) rvar |= rv.var == l;
        s.dims.push_back(Dim{l, ForType::Serial, DeviceAPI::None, rvar});
    }
    return s;
}

} // namespace Internal

PipelineSchedule PipelineSchedule::of(const Pipeline &pipeline) {
    PipelineSchedule s;
    std::vector<Function> funcs = pipeline_functions(pipeline);
    std::map<std::string, std::string> made_by; // intermediate -> the Func rfactor() made it of
    for (const Function &f : funcs)
        for (const Definition &u : f.updates())
            for (auto r = rfactor_record(u); r; r = rfactor_record(r->original))
                made_by[r->intermediate] = f.name();
    for (const Function &f : funcs) {
        FuncEntry e;
        e.func = f.name();
        e.args = f.args();
        e.placement = f.schedule();
        e.stages.push_back(f.definition().schedule);
        e.atomic.push_back(f.definition().atomic);
        e.initial_loops.push_back(f.args());
        for (const Definition &u : f.updates()) {
            e.stages.push_back(u.schedule);
            e.atomic.push_back(u.atomic);
            e.initial_loops.push_back(initial_loops(u, true, f.args()));
        }
        for (size_t i = 0; i < f.updates().size(); i++) {
            // The chain of rfactor() calls on this update, oldest first.
            std::vector<std::shared_ptr<const RFactorRecord>> chain;
            for (auto r = rfactor_record(f.updates()[i]); r; r = rfactor_record(r->original))
                chain.insert(chain.begin(), r);
            for (const auto &r : chain) {
                FuncEntry::RFactor x;
                x.stage = int(i) + 1;
                x.before = r->original.schedule;
                x.initial_loops = initial_loops(r->original, true, f.args());
                x.preserved = r->preserved;
                x.intermediate = r->intermediate;
                e.rfactors.push_back(x);
            }
        }
        auto by = made_by.find(f.name());
        if (by != made_by.end()) e.rfactor_of = by->second;
        if (f.get()->wrapped_buffer.defined()) {
            e.wrapper.of = e.wrapper.image = f.get()->wrapped_buffer.name();
            e.wrapper.buffer = true;
            for (const Function &g : funcs)
                for (const auto &bw : g.get()->buffer_wrappers)
                    if (bw.wrapper.get() == f.get()) e.wrapper.callers.push_back(g.name());
        } else if (f.is_wrapper()) {
            Function wrapped = f.wrapped();
            e.wrapper.of = wrapped.name();
            if (wrapped.get()->image.defined()) e.wrapper.image = wrapped.get()->image.name();
            e.wrapper.callers = wrapper_callers(f, &e.wrapper.clone);
        }
        s.funcs_.push_back(std::move(e));
    }
    return s;
}

const PipelineSchedule::FuncEntry *PipelineSchedule::find(const std::string &func) const {
    for (const FuncEntry &e : funcs_)
        if (e.func == func) return &e;
    return nullptr;
}

namespace {

std::string list(const std::vector<std::string> &names) {
    std::string s;
    for (const std::string &n : names) s += (s.empty() ? "" : ", ") + n;
    return s.empty() ? std::string("(none)") : s;
}

/** Why entry e cannot be applied to f, or "". */
std::string mismatch(const PipelineSchedule::FuncEntry &e, const Function &f) {
    if (e.args != f.args())
        return "it has pure Vars (" + list(f.args()) + ") but the schedule is for (" +
               list(e.args) + ")";
    if (e.stages.size() != f.updates().size() + 1)
        return "it has " + std::to_string(f.updates().size()) +
               " update definitions but the schedule has " + std::to_string(e.stages.size() - 1);
    for (size_t i = 0; i < e.stages.size(); i++) {
        const Definition &def = i == 0 ? f.definition() : f.updates()[i - 1];
        std::vector<std::string> loops = initial_loops(def, i > 0, f.args());
        for (const Dim &d : e.stages[i].dims) {
            std::string root = root_loop_name(d.var);
            if (is_single_thread_loop(root)) continue;
            // The RVars of an rfactor() intermediate keep their qualified
            // names ("r$y.ryi"): a loop is made from one of the stage's
            // loops when it is that loop or named inside it.
            bool made_from_one = false;
            for (const std::string &l : loops)
                made_from_one |= d.var == l || d.var.rfind(l + ".", 0) == 0;
            if (!made_from_one)
                return "the schedule of its " +
                       (i == 0 ? std::string("pure definition")
                               : "update " + std::to_string(i - 1)) +
                       " has a loop " + d.var + " made from " + root +
                       ", which is not one of its loop variables (" + list(loops) + ")";
        }
    }
    return "";
}

/** Is e the schedule every Func starts with? */
bool is_default(const PipelineSchedule::FuncEntry &e) {
    if (!e.rfactors.empty() || !e.rfactor_of.empty() || !e.wrapper.of.empty()) return false;
    const FuncSchedule &p = e.placement;
    if (!p.compute_level.is_inlined() || p.store_level_set || p.memory_type != MemoryType::Auto ||
        !p.bounds.empty() || !p.estimates.empty() || !p.storage_dims.empty() ||
        !p.storage_folds.empty())
        return false;
    for (size_t i = 0; i < e.stages.size(); i++) {
        const StageSchedule &s = e.stages[i];
        if (s.touched || !s.splits.empty() || !s.specializations.empty()) return false;
        if (i < e.atomic.size() && e.atomic[i]) return false;
        if (i >= e.initial_loops.size() || s.dims.size() != e.initial_loops[i].size()) return false;
        for (size_t k = 0; k < s.dims.size(); k++)
            if (s.dims[k].var != e.initial_loops[i][k] || s.dims[k].for_type != ForType::Serial)
                return false;
    }
    return true;
}

void rebind_stage(StageSchedule &s, const std::map<std::string, Parameter> &params) {
    for (Split &sp : s.splits) sp.factor = rebind_params(sp.factor, params);
    for (Specialization &sp : s.specializations) {
        sp.condition = rebind_params(sp.condition, params);
        rebind_stage(sp.schedule, params);
    }
}

void rebind_placement(FuncSchedule &p, const std::map<std::string, Parameter> &params) {
    for (std::vector<Bound> *bounds : {&p.bounds, &p.estimates})
        for (Bound &b : *bounds)
            for (Expr *e : {&b.min, &b.extent, &b.modulus, &b.remainder})
                *e = rebind_params(*e, params);
    for (StorageFold &f : p.storage_folds) f.extent = rebind_params(f.extent, params);
}

/** The definitions and schedules of a pipeline's Funcs, to put back when
 * applying a schedule fails half way (remaking an rfactor() can). */
struct Snapshot {
    struct Saved {
        Function f;
        Definition init;
        std::vector<Definition> updates;
        FuncSchedule schedule;
    };
    std::vector<Saved> saved;
    explicit Snapshot(const std::vector<Function> &funcs) {
        for (const Function &f : funcs)
            saved.push_back(Saved{f, f.definition(), f.updates(), f.schedule()});
    }
    void restore() {
        for (Saved &s : saved) {
            Function f = s.f;
            f.definition() = s.init;
            f.updates() = s.updates;
            f.schedule() = s.schedule;
            f.invalidate_cache();
        }
    }
};

/** Make the recorded rfactor() calls again on the Funcs of the same name
 * (consumers first, so an intermediate exists before its own rfactors),
 * after putting back the updates those Funcs factored otherwise. */
void remake_rfactors(const std::vector<PipelineSchedule::FuncEntry> &entries,
                     const std::vector<Function> &funcs,
                     const std::map<std::string, Parameter> &params) {
    std::map<std::string, Function> by_name;
    for (const Function &f : funcs) by_name.emplace(f.name(), f);
    for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
        const PipelineSchedule::FuncEntry &e = *it;
        auto found = by_name.find(e.func);
        if (found == by_name.end()) continue;
        Function f = found->second;
        if (e.rfactor_of.empty()) {
            // Put factored updates back, unscheduled (a default entry is
            // not applied, so the update must be left as defined).
            std::vector<bool> factored;
            for (const Definition &u : f.updates()) factored.push_back(bool(rfactor_record(u)));
            undo_rfactors(f);
            for (size_t i = 0; i < factored.size(); i++)
                if (factored[i])
                    f.updates()[i].schedule = initial_schedule(f.updates()[i], f.args());
        }
        for (const PipelineSchedule::FuncEntry::RFactor &r : e.rfactors) {
            if (r.stage < 1 || size_t(r.stage) > f.updates().size())
                user_error("The schedule of Func " << e.func << " has an rfactor() of update "
                                                   << r.stage - 1 << " but the pipeline's Func has "
                                                   << f.updates().size() << " update definitions");
            Definition &def = f.updates()[size_t(r.stage - 1)];
            std::vector<std::string> loops = initial_loops(def, true, f.args());
            if (loops != r.initial_loops)
                user_error("The schedule of Func "
                           << e.func << " has an rfactor() of update " << r.stage - 1
                           << " with the loops (" << list(r.initial_loops)
                           << ") but the pipeline's update has (" << list(loops) << ")");
            def.schedule = r.before;
            rebind_stage(def.schedule, params);
            std::vector<std::pair<RVar, Var>> preserved;
            for (const auto &[rv, v] : r.preserved) preserved.emplace_back(RVar(rv), Var(v));
            Func intm = rfactor_stage(f, r.stage, preserved, r.intermediate);
            by_name[r.intermediate] = intm.function();
        }
    }
}

using FuncEntry = PipelineSchedule::FuncEntry;

/** Make the recorded wrappers again (producers first, so that a wrapper of a
 * wrapper finds it), finding what they wrap by name among the pipeline's
 * Funcs, the Funcs its wrappers wrap and its images' Funcs. */
void remake_wrappers(const Pipeline &pipeline, const std::vector<FuncEntry> &entries) {
    if (std::all_of(entries.begin(), entries.end(),
                    [](const FuncEntry &e) { return e.wrapper.of.empty(); }))
        return;
    std::vector<Function> funcs = pipeline_functions(pipeline);
    std::map<std::string, Function> by_name;
    for (const Function &f : funcs) {
        by_name.emplace(f.name(), f);
        for (Function w = f; w.is_wrapper();) {
            w = w.wrapped();
            by_name.emplace(w.name(), w);
        }
    }
    for (const auto &[name, p] : all_params_of(funcs))
        if (p.is_buffer() && p.image_func()) {
            Function image(p.image_func());
            by_name.emplace(image.name(), image);
        }
    std::map<std::string, Buffer<>> buffers = buffers_read_by(funcs);
    for (const FuncEntry &e : entries) {
        if (e.wrapper.of.empty()) continue;
        if (e.wrapper.buffer) {
            auto b = buffers.find(e.wrapper.of);
            if (b == buffers.end())
                user_error("The schedule has " << e.func << ", a wrapper of Buffer " << e.wrapper.of
                                               << ", which the pipeline does not read");
            std::vector<Function> callers;
            for (const std::string &c : e.wrapper.callers) {
                auto f = by_name.find(c);
                if (f == by_name.end())
                    user_error("The schedule's wrapper " << e.func << " is read by Func " << c
                                                         << ", which the pipeline does not have");
                callers.push_back(f->second);
            }
            Function w = get_buffer_wrapper(b->second, callers);
            by_name.emplace(w.name(), w);
            continue;
        }
        auto it = by_name.find(e.wrapper.of);
        if (it == by_name.end())
            user_error("The schedule has " << e.func << ", a wrapper of "
                                           << (e.wrapper.image.empty() ? "Func " + e.wrapper.of
                                                                       : "image " + e.wrapper.image)
                                           << ", which the pipeline does not use");
        bool global = e.wrapper.callers.size() == 1 && e.wrapper.callers[0].empty();
        Function w =
            get_wrapper(it->second, global ? std::vector<std::string>() : e.wrapper.callers, global,
                        e.wrapper.clone);
        if (w.name() != e.func)
            user_error("The schedule's wrapper " << e.func << " of " << e.wrapper.of
                                                 << " is made as " << w.name()
                                                 << " in the pipeline, which already has it");
        by_name.emplace(w.name(), w);
    }
}

void apply_entries(const Pipeline &pipeline, const std::vector<FuncEntry> &funcs_) {
    remake_wrappers(pipeline, funcs_);
    remake_rfactors(funcs_, pipeline_functions(pipeline),
                    scalar_params_of(pipeline_functions(pipeline)));
    std::vector<Function> funcs = pipeline_functions(pipeline);
    std::map<std::string, Function> by_name;
    for (const Function &f : funcs) by_name.emplace(f.name(), f);
    // Funcs are matched by name. Funcs named by Loom (boundary conditions,
    // wrappers of Buffers, unnamed Funcs) get new names in each copy of an
    // algorithm: the recorded Funcs left without a match pair up, in order,
    // with the pipeline's unmatched Funcs, when there are as many of each.
    std::map<std::string, std::string> renamed; // recorded name -> pipeline's name
    std::vector<const FuncEntry *> unmatched;
    std::set<std::string> matched;
    std::set<const FuncEntry *> skipped;
    for (const FuncEntry &e : funcs_) {
        if (by_name.count(e.func)) {
            renamed[e.func] = e.func;
            matched.insert(e.func);
        } else if (is_default(e)) {
            skipped.insert(&e); // nothing to apply
        } else {
            unmatched.push_back(&e);
        }
    }
    std::vector<Function> spare;
    for (const Function &f : funcs)
        if (!matched.count(f.name())) spare.push_back(f);
    if (!unmatched.empty() && unmatched.size() <= spare.size()) {
        bool fits = true;
        for (size_t i = 0; i < unmatched.size() && fits; i++)
            fits = mismatch(*unmatched[i], spare[i]).empty();
        if (fits)
            for (size_t i = 0; i < unmatched.size(); i++)
                renamed[unmatched[i]->func] = spare[i].name();
    }
    // Check everything first, so a schedule that does not fit changes nothing.
    for (const FuncEntry &e : funcs_) {
        if (skipped.count(&e)) continue;
        auto r = renamed.find(e.func);
        if (r == renamed.end()) {
            std::vector<std::string> names;
            for (const Function &f : funcs) names.push_back(f.name());
            user_error("The schedule names Func " << e.func
                                                  << ", which the pipeline does not compute; its "
                                                     "Funcs are "
                                                  << list(names));
        }
        std::string why = mismatch(e, by_name.at(r->second));
        if (!why.empty())
            user_error("The schedule of Func " << e.func << " does not fit the pipeline's Func "
                                               << r->second << ": " << why);
    }
    auto rename_level = [&](LoopLevel &l) {
        if (l.is_root() || l.is_inlined() || !l.defined()) return;
        auto it = renamed.find(l.func());
        if (it != renamed.end() && it->second != l.func())
            l = LoopLevel(it->second, l.var(), l.stage_index());
    };
    std::map<std::string, Parameter> params = scalar_params_of(funcs);
    for (const FuncEntry &e : funcs_) {
        if (skipped.count(&e)) continue;
        Function f = by_name.at(renamed.at(e.func));
        FuncSchedule placement = e.placement;
        rebind_placement(placement, params);
        rename_level(placement.compute_level);
        rename_level(placement.store_level);
        f.schedule() = placement;
        for (size_t i = 0; i < e.stages.size(); i++) {
            Definition &def = i == 0 ? f.definition() : f.updates()[i - 1];
            def.schedule = e.stages[i];
            rebind_stage(def.schedule, params);
            def.atomic = i < e.atomic.size() && e.atomic[i];
        }
        f.invalidate_cache();
    }
}

} // namespace

void PipelineSchedule::apply(const Pipeline &pipeline) const {
    Snapshot snapshot(pipeline_functions(pipeline));
    try {
        apply_entries(pipeline, funcs_);
    } catch (...) {
        snapshot.restore();
        throw;
    }
}

namespace {

// A canonical text of every field: equality and the hash use it.

void dump(std::ostream &os, const Expr &e) {
    if (e.defined())
        os << e;
    else
        os << "_";
}

void dump_stage(std::ostream &os, const StageSchedule &s) {
    os << "splits";
    for (const Split &sp : s.splits) {
        os << " [" << int(sp.kind) << " " << sp.old_var << " " << sp.outer << " " << sp.inner
           << " ";
        dump(os, sp.factor);
        os << " " << sp.exact << " " << int(sp.tail) << "]";
    }
    os << " dims";
    for (const Dim &d : s.dims)
        os << " [" << d.var << " " << int(d.for_type) << " " << int(d.device_api) << " "
           << d.is_rvar << "]";
    os << " touched " << s.touched;
    for (const Specialization &sp : s.specializations) {
        os << " specialize(";
        dump(os, sp.condition);
        os << " " << sp.failure << " " << sp.failure_message << " ";
        dump_stage(os, sp.schedule);
        os << ")";
    }
}

void dump_bounds(std::ostream &os, const char *what, const std::vector<Bound> &bounds) {
    os << " " << what;
    for (const Bound &b : bounds) {
        os << " [" << b.var;
        for (const Expr *e : {&b.min, &b.extent, &b.modulus, &b.remainder}) {
            os << " ";
            dump(os, *e);
        }
        os << "]";
    }
}

std::string canonical_text(const PipelineSchedule &s) {
    std::ostringstream os;
    for (const PipelineSchedule::FuncEntry &e : s.funcs()) {
        const FuncSchedule &p = e.placement;
        os << "func " << e.func << " (" << list(e.args) << ") compute "
           << p.compute_level.to_string() << " store " << p.store_level.to_string() << " "
           << p.store_level_set << " memory " << int(p.memory_type);
        dump_bounds(os, "bounds", p.bounds);
        dump_bounds(os, "estimates", p.estimates);
        os << " storage";
        for (const std::string &d : p.storage_dims) os << " " << d;
        for (const StorageFold &f : p.storage_folds) {
            os << " fold [" << f.var << " ";
            dump(os, f.extent);
            os << " " << f.fold_forward << "]";
        }
        os << "\n";
        if (!e.rfactor_of.empty()) os << "  rfactor_of " << e.rfactor_of << "\n";
        if (!e.wrapper.of.empty())
            os << "  wrapper_of " << e.wrapper.of << " image " << e.wrapper.image << " callers ["
               << list(e.wrapper.callers) << "] clone " << e.wrapper.clone << " buffer "
               << e.wrapper.buffer << "\n";
        for (const PipelineSchedule::FuncEntry::RFactor &r : e.rfactors) {
            os << "  rfactor " << r.stage << " " << r.intermediate << " (" << list(r.initial_loops)
               << ")";
            for (const auto &[rv, v] : r.preserved) os << " [" << rv << " " << v << "]";
            os << " ";
            dump_stage(os, r.before);
            os << "\n";
        }
        for (size_t i = 0; i < e.stages.size(); i++) {
            os << "  stage " << i << (i < e.atomic.size() && e.atomic[i] ? " atomic " : " ");
            dump_stage(os, e.stages[i]);
            os << "\n";
        }
    }
    return os.str();
}

} // namespace

uint64_t PipelineSchedule::hash() const {
    // FNV-1a: stable across processes and builds, unlike std::hash.
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : canonical_text(*this)) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

bool PipelineSchedule::operator==(const PipelineSchedule &other) const {
    return canonical_text(*this) == canonical_text(other);
}

} // namespace loom
