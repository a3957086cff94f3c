#include "lower/InjectHostDeviceCopies.h"

#include <map>
#include <set>

#include "ir/IROperator.h"
#include "ir/IRUtil.h"
#include "lower/GPULoops.h"
#include "lower/LowerUtil.h"
#include "lower/OutlineGPUKernels.h"

namespace loom {
namespace Internal {

namespace {

/** `r = name(args); assert(r == 0, r)` before `rest`. */
Stmt checked_call(const std::string &name, const std::vector<Expr> &args) {
    std::string result = unique_name("__device_result");
    Expr r = Variable::make(Int(32), result);
    return LetStmt::make(result, Call::make(Int(32), name, args, Call::Extern),
                         AssertStmt::make(EQ::make(r, make_zero(Int(32))), r));
}

Expr handle_of(const std::string &buffer) {
    return Variable::make(Handle(), buffer + ".buffer");
}

class InjectCopies {
public:
    explicit InjectCopies(const std::vector<DeviceKernel> &kernels) {
        for (const auto &k : kernels) {
            by_name[k.name] = &k;
            for (const auto &a : k.args)
                if (a.is_buffer) device_buffers.insert(a.name);
        }
    }

    Stmt process(const Stmt &s) {
        if (!s.defined()) return s;
        if (const DeviceKernel *k = launched_kernel(s)) return around_launches({k}, s, hoisted);
        if (!contains_launch(s)) return around_host_code(s);
        if (const auto *f = s.as<For>(); f && f->for_type == ForType::Parallel && hoisted.empty()) {
            // Launches from the iterations of a parallel loop: buffers made
            // outside the loop are prepared once before it and marked once
            // after it, so the iterations do not race on their flags.
            std::set<std::string> inner;
            visit_all(f->body, [&](const IRNode *n) {
                if (n->node_type != IRNodeType::LetStmt) return;
                const std::string &name = static_cast<const LetStmt *>(n)->name;
                const std::string suffix = ".buffer";
                if (name.size() > suffix.size() &&
                    name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
                    inner.insert(name.substr(0, name.size() - suffix.size()));
            });
            std::vector<const DeviceKernel *> inside = launched_kernels(f->body);
            for (const DeviceKernel *k : inside)
                for (const auto &a : k->args)
                    if (a.is_buffer && !inner.count(a.name)) hoisted.insert(a.name);
            Stmt body = process(f->body);
            hoisted.clear();
            return around_launches(
                inside, For::make(f->name, f->min, f->extent, f->for_type, f->device_api, body),
                inner);
        }
        if (const auto *b = s.as<Block>()) return Block::make(process(b->first), process(b->rest));
        if (const auto *f = s.as<For>())
            return For::make(f->name, f->min, f->extent, f->for_type, f->device_api,
                             process(f->body));
        if (const auto *l = s.as<LetStmt>())
            return LetStmt::make(l->name, l->value, process(l->body));
        if (const auto *pc = s.as<ProducerConsumer>())
            return ProducerConsumer::make(pc->name, pc->is_producer, process(pc->body));
        if (const auto *a = s.as<Allocate>())
            return Allocate::make(a->name, a->type, a->memory_type, a->extents, a->condition,
                                  process(a->body));
        if (const auto *i = s.as<IfThenElse>())
            return IfThenElse::make(i->condition, process(i->then_case), process(i->else_case));
        return s;
    }

private:
    std::map<std::string, const DeviceKernel *> by_name;
    std::set<std::string> device_buffers;
    /** Inside a parallel loop: the buffers prepared around the whole loop. */
    std::set<std::string> hoisted;

    std::vector<const DeviceKernel *> launched_kernels(const Stmt &s) const {
        std::vector<const DeviceKernel *> found;
        visit_all(s, [&](const IRNode *n) {
            if (n->node_type != IRNodeType::Call) return;
            const auto *c = static_cast<const Call *>(n);
            if (c->name != device_run_function) return;
            auto it = by_name.find(c->args[3].as<StringImm>()->value);
            if (it != by_name.end()) found.push_back(it->second);
        });
        return found;
    }

    /** The kernel a launch (OutlineGPUKernels' Allocate of argument slots) runs. */
    const DeviceKernel *launched_kernel(const Stmt &s) const {
        const auto *a = s.as<Allocate>();
        if (!a || a->name.rfind("__launch_args", 0) != 0) return nullptr;
        std::vector<const DeviceKernel *> ks = launched_kernels(a->body);
        return ks.empty() ? nullptr : ks[0];
    }

    bool contains_launch(const Stmt &s) const {
        bool found = false;
        visit_all(s, [&](const IRNode *n) {
            if (n->node_type == IRNodeType::Call &&
                static_cast<const Call *>(n)->name == device_run_function)
                found = true;
        });
        return found;
    }

    /** `launch` runs the kernels `ks`: their buffers (but those in `skip`)
     * are prepared before it and the written ones marked device-dirty after. */
    Stmt around_launches(const std::vector<const DeviceKernel *> &ks, const Stmt &launch,
                         const std::set<std::string> &skip) const {
        struct Use {
            bool read = false, written = false;
            int api = 1;
        };
        std::map<std::string, Use> uses;
        for (const DeviceKernel *k : ks) {
            for (const auto &a : k->args) {
                if (!a.is_buffer || skip.count(a.name)) continue;
                Use &u = uses[a.name];
                u.read = u.read || a.read;
                u.written = u.written || a.written;
                u.api = k->device_api == DeviceAPI::CUDA ? 2 : 1;
            }
        }
        std::vector<Stmt> before, after;
        for (const auto &[name, u] : uses) {
            const char *prepare =
                u.read ? "loom_buffer_prepare_device_input" : "loom_buffer_prepare_device_output";
            before.push_back(checked_call(
                prepare, {user_context_var(), handle_of(name), make_const(Int(32), u.api)}));
            if (u.written)
                after.push_back(
                    checked_call("loom_buffer_set_device_dirty",
                                 {user_context_var(), handle_of(name), make_const(Int(32), 1)}));
        }
        before.push_back(launch);
        before.insert(before.end(), after.begin(), after.end());
        return Block::make(before);
    }

    Stmt around_host_code(const Stmt &s) const {
        BufferAccesses a = buffer_accesses(s);
        std::vector<Stmt> before, after;
        for (const auto &name : device_buffers) {
            if (!a.touches(name)) continue;
            before.push_back(
                checked_call("loom_buffer_copy_to_host", {user_context_var(), handle_of(name)}));
            if (a.written.count(name))
                after.push_back(
                    checked_call("loom_buffer_set_host_dirty",
                                 {user_context_var(), handle_of(name), make_const(Int(32), 1)}));
        }
        if (before.empty()) return s;
        before.push_back(s);
        before.insert(before.end(), after.begin(), after.end());
        return Block::make(before);
    }
};

} // namespace

Stmt inject_host_device_copies(const Stmt &s, const std::vector<DeviceKernel> &kernels) {
    if (kernels.empty()) return s;
    return InjectCopies(kernels).process(s);
}

} // namespace Internal
} // namespace loom
