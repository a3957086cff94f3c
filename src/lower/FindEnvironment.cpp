#include "lower/FindEnvironment.h"

#include <algorithm>
#include <set>

#include "ir/Error.h"
#include "ir/IRUtil.h"
#include "lower/WrapCalls.h"

namespace loom {
namespace Internal {

namespace {

void collect_callees(const Expr &e, const Function &caller, std::vector<Function> &out) {
    visit_all(e, [&](const IRNode *node) {
        if (node->node_type != IRNodeType::Call) return;
        const auto *call = static_cast<const Call *>(node);
        if (call->call_type != Call::Loom || !call->func.defined()) return;
        if (call->func.same_as(caller)) return;
        for (const Function &f : out) {
            if (f.same_as(call->func)) return;
        }
        out.push_back(call->func);
    });
}

void collect_from_definition(const Definition &def, const Function &caller,
                             std::vector<Function> &out) {
    for (const Expr &e : def.args) collect_callees(e, caller, out);
    for (const Expr &e : def.values) collect_callees(e, caller, out);
}

} // namespace

std::vector<Function> direct_callees(const Function &f) {
    std::vector<Function> out;
    collect_from_definition(f.definition(), f, out);
    for (const Definition &u : f.updates()) collect_from_definition(u, f, out);
    return out;
}

Environment find_environment(const std::vector<Function> &outputs) {
    wrap_calls(outputs);
    Environment env;
    std::vector<Function> pending;
    for (const Function &o : outputs) {
        if (!o.defined() || !o.has_pure_definition()) {
            user_error("Func " << (o.defined() ? o.name() : std::string("<undefined>"))
                               << " is an output of the pipeline but has no definition; give it "
                                  "one (f(x, y) = ...) before realizing or compiling it");
        }
        pending.push_back(o);
    }
    while (!pending.empty()) {
        Function f = pending.back();
        pending.pop_back();
        auto it = env.find(f.name());
        if (it != env.end()) {
            if (!it->second.same_as(f)) {
                user_error("The pipeline uses two different Funcs named "
                           << f.name() << "; give them distinct names");
            }
            continue;
        }
        env.emplace(f.name(), f);
        for (const Function &g : direct_callees(f)) {
            if (!g.has_pure_definition()) {
                user_error("Func " << g.name() << " is called by Func " << f.name()
                                   << " but has no definition; define " << g.name() << " (e.g. "
                                   << g.name() << "(x) = ...) before using it");
            }
            pending.push_back(g);
        }
    }
    return env;
}

namespace {

struct OrderBuilder {
    const Environment &env;
    std::vector<std::string> order;
    std::set<std::string> done, in_progress;
    std::vector<std::string> path;

    void visit(const Function &f) {
        if (done.count(f.name())) return;
        if (in_progress.count(f.name())) {
            std::string cycle;
            auto start = std::find(path.begin(), path.end(), f.name());
            for (auto it = start; it != path.end(); ++it) cycle += *it + " -> ";
            user_error("The Funcs " << cycle << f.name()
                                    << " call each other in a cycle; a Func may only call "
                                       "itself (in an update definition)");
        }
        in_progress.insert(f.name());
        path.push_back(f.name());
        for (const Function &g : direct_callees(f)) visit(g);
        path.pop_back();
        in_progress.erase(f.name());
        done.insert(f.name());
        order.push_back(f.name());
    }
};

} // namespace

std::vector<std::string> realization_order(const std::vector<Function> &outputs,
                                           const Environment &env) {
    OrderBuilder builder{env, {}, {}, {}, {}};
    for (const Function &o : outputs) {
        for (const Function &g : direct_callees(o)) builder.visit(g);
    }
    // Outputs last, in the order given, unless another output needs them first.
    for (const Function &o : outputs) builder.visit(o);
    return builder.order;
}

std::map<std::string, std::string> image_readers(const std::vector<std::string> &order,
                                                 const Environment &env) {
    std::map<std::string, std::string> readers;
    auto record = [&](const std::string &func, const Expr &e) {
        visit_all(e, [&](const IRNode *node) {
            if (node->node_type != IRNodeType::Call) return;
            const auto *call = static_cast<const Call *>(node);
            if (call->call_type == Call::Image) readers.emplace(call->name, func);
        });
    };
    for (const std::string &name : order) {
        const Function &f = env.at(name);
        std::vector<const Definition *> defs{&f.definition()};
        for (const Definition &u : f.updates()) defs.push_back(&u);
        for (const Definition *d : defs) {
            for (const Expr &e : d->values) record(name, e);
            for (const Expr &e : d->args) record(name, e);
        }
    }
    return readers;
}

} // namespace Internal
} // namespace loom
