#include "lower/WrapCalls.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>

#include "ir/IR.h"
#include "ir/IRMutator.h"
#include "lower/FindEnvironment.h"

namespace loom {
namespace Internal {

namespace {

std::atomic<bool> any_wrapper{false};

/** The Func whose wrappers a call may go to: the callee, or for a read of an
 * ImageParam its Func (which holds the image's wrappers). */
FunctionContents *wrappable_callee(const Call *c) {
    if (c->call_type == Call::Loom && c->func.defined()) return c->func.get();
    if (c->call_type == Call::Image && c->param.defined()) return c->param.image_func();
    return nullptr;
}

class RedirectToWrappers : public IRMutator {
    const Function &caller_;

    /** f, or the wrapper of f the caller uses, or that one's, and so on. */
    Function outermost_wrapper(Function f) const {
        for (int depth = 0; depth < 64; depth++) {
            Function next = f.wrapper_for(caller_);
            if (!next.defined() || next.same_as(caller_)) break;
            f = next;
        }
        return f;
    }

protected:
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        Expr e = IRMutator::visit(op);
        const Call *c = e.as<Call>();
        if (c && c->call_type == Call::Image && c->image.defined()) return redirect_buffer(c, e);
        FunctionContents *callee = c ? wrappable_callee(c) : nullptr;
        // A Func's calls of itself, and a wrapper's call of what it wraps,
        // stay as they are.
        if (!callee || callee == caller_.get() || caller_.get()->wrapped == callee) return e;
        // Start from the Func at the bottom of the chain of wrappers, so that a
        // call already redirected follows wrappers made since.
        FunctionContents *root = callee;
        while (root->wrapped) root = root->wrapped;
        Function target = outermost_wrapper(Function(root));
        bool image_read = c->call_type == Call::Image;
        if (target.get() == callee || (image_read && target.get() == root)) return e;
        auto &kept = caller_.get()->kept_alive;
        if (std::none_of(kept.begin(), kept.end(), [&](const auto &k) { return k.get() == root; }))
            kept.emplace_back(root);
        return Call::make(target, c->args, image_read ? 0 : c->value_index);
    }

    /** A read of a concrete Buffer goes to the caller's Buffer::in wrapper,
     * and on to that wrapper's own wrappers for the caller. */
    Expr redirect_buffer(const Call *c, const Expr &e) {
        Function target;
        for (const auto &bw : caller_.get()->buffer_wrappers)
            if (bw.buffer.same_as(c->image)) target = Function(bw.wrapper.get());
        if (!target.defined() || target.same_as(caller_)) return e;
        return Call::make(outermost_wrapper(target), c->args, 0);
    }

public:
    explicit RedirectToWrappers(const Function &caller) : caller_(caller) {}
};

/** Apply the mutator to every expression of a definition; true if any changed. */
bool redirect_definition(Definition &def, RedirectToWrappers &redirect) {
    bool changed = false;
    auto update = [&](Expr &e) {
        if (!e.defined()) return;
        Expr n = redirect.mutate(e);
        if (!n.same_as(e)) {
            e = n;
            changed = true;
        }
    };
    for (Expr &e : def.args) update(e);
    for (Expr &e : def.values) update(e);
    for (Expr &e : def.predicates) update(e);
    return changed;
}

} // namespace

void note_wrapper_made() {
    any_wrapper = true;
}

void wrap_calls(const std::vector<Function> &outputs) {
    if (!any_wrapper) return;
    // Two pipelines that share Funcs may be compiled at once (each under its
    // own lock): one of them rewrites a shared caller at a time. Once
    // rewritten, a caller is only read.
    static std::mutex rewriting;
    std::lock_guard<std::mutex> lock(rewriting);
    std::set<const FunctionContents *> seen;
    std::vector<Function> pending(outputs.begin(), outputs.end());
    while (!pending.empty()) {
        Function f = pending.back();
        pending.pop_back();
        if (!f.defined() || !seen.insert(f.get()).second) continue;
        RedirectToWrappers redirect(f);
        bool changed = redirect_definition(f.definition(), redirect);
        for (Definition &u : f.updates()) changed |= redirect_definition(u, redirect);
        if (changed) f.invalidate_cache();
        for (const Function &g : direct_callees(f)) pending.push_back(g);
    }
}

} // namespace Internal
} // namespace loom
