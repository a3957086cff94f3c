#include "lower/OutlineGPUKernels.h"

#include <cctype>
#include <map>
#include <set>

#include "analysis/Simplify.h"
#include "ir/Error.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"
#include "ir/IRVisitor.h"
#include "ir/Substitute.h"
#include "lower/FuseGPUThreadLoops.h"
#include "lower/GPULoops.h"
#include "lower/LowerUtil.h"

namespace loom {
namespace Internal {

const char *const device_run_function = "loom_device_run";

std::string device_source_placeholder(DeviceAPI api) {
    return std::string("<loom device source: ") + (api == DeviceAPI::CUDA ? "CUDA" : "OpenCL") +
           ">";
}

namespace {

/** Free names of a kernel body: buffers it accesses and scalars it reads. */
class Closure : public IRVisitor {
public:
    std::map<std::string, Type> scalars;
    std::map<std::string, DeviceKernelArg> buffers;

private:
    std::vector<std::string> bound_stack;
    using IRVisitor::visit;

    void bind(const std::string &name) { bound_stack.push_back(name); }
    bool is_bound(const std::string &name) const {
        for (const auto &b : bound_stack)
            if (b == name) return true;
        return false;
    }
    void buffer(const std::string &name, Type t, bool read, bool written) {
        if (is_bound(name)) return;
        auto [it, fresh] = buffers.emplace(name, DeviceKernelArg());
        DeviceKernelArg &a = it->second;
        if (fresh) {
            a.name = name;
            a.type = t;
            a.is_buffer = true;
        }
        a.read = a.read || read;
        a.written = a.written || written;
    }

    void visit(const Variable *op) override {
        if (is_bound(op->name) || op->name.rfind("__block_id_", 0) == 0 ||
            op->name.rfind("__thread_id_", 0) == 0)
            return;
        scalars.emplace(op->name, op->type);
    }
    void visit(const Let *op) override {
        op->value.accept(this);
        bind(op->name);
        op->body.accept(this);
        bound_stack.pop_back();
    }
    void visit(const LetStmt *op) override {
        op->value.accept(this);
        bind(op->name);
        op->body.accept(this);
        bound_stack.pop_back();
    }
    void visit(const For *op) override {
        op->min.accept(this);
        op->extent.accept(this);
        bind(op->name);
        op->body.accept(this);
        bound_stack.pop_back();
    }
    void visit(const Allocate *op) override {
        for (const Expr &e : op->extents) e.accept(this);
        if (op->condition.defined()) op->condition.accept(this);
        bind(op->name);
        op->body.accept(this);
        bound_stack.pop_back();
    }
    void visit(const Load *op) override {
        buffer(op->name, op->type.element_of(), true, false);
        IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        buffer(op->name, op->value.type().element_of(), false, true);
        IRVisitor::visit(op);
    }
    void visit(const Call *op) override {
        if (op->is_intrinsic(Intrinsic::atomic_update)) {
            buffer(op->args[0].as<StringImm>()->value, op->type.element_of(), true, true);
            op->args[1].accept(this);
            bind(op->args[2].as<StringImm>()->value);
            op->args[3].accept(this);
            bound_stack.pop_back();
            return;
        }
        if (!op->is_pure() && op->call_type == Call::Extern)
            user_error("The GPU kernel calls the host function " << op->name
                                                                 << ", which cannot run on a "
                                                                    "GPU; compute that Func "
                                                                    "outside the kernel");
        IRVisitor::visit(op);
    }
};

/** Renames every scalar a kernel binds or receives to a name numbered
 * within the kernel. Lowering numbers temporaries ("t_1234") from a
 * process-wide counter; without this the same algorithm would print
 * different source in every compile and miss the kernel caches. */
class RenameKernelScalars : public IRMutator {
public:
    std::map<std::string, std::string> names; // old -> new

    std::string rename(const std::string &old) {
        auto it = names.find(old);
        if (it != names.end()) return it->second;
        std::string base = old;
        size_t p = base.find_last_not_of("0123456789");
        if (p != std::string::npos && p + 1 < base.size() && base[p] == '_') base.resize(p);
        std::string name = base;
        for (int n = 1; used.count(name); n++) name = base + "_" + std::to_string(n);
        used.insert(name);
        return names[old] = name;
    }

private:
    std::set<std::string> used;
    using IRMutator::visit;
    Expr visit(const Variable *op) override {
        if (op->name.rfind("__", 0) == 0) return op;
        return Variable::make(op->type, rename(op->name));
    }
    Expr visit(const Let *op) override {
        std::string n = rename(op->name);
        return Let::make(n, mutate(op->value), mutate(op->body));
    }
    Stmt visit(const LetStmt *op) override {
        std::string n = rename(op->name);
        return LetStmt::make(n, mutate(op->value), mutate(op->body));
    }
    Stmt visit(const For *op) override {
        std::string n = rename(op->name);
        return For::make(n, mutate(op->min), mutate(op->extent), op->for_type, op->device_api,
                         mutate(op->body));
    }
    Expr visit(const Call *op) override {
        if (!op->is_intrinsic(Intrinsic::atomic_update)) return IRMutator::visit(op);
        std::vector<Expr> args = mutate_exprs(op->args);
        args[2] = StringImm::make(rename(op->args[2].as<StringImm>()->value));
        return Call::make(op->type, op->op, args, op->call_type);
    }
};

std::string kernel_identifier(const std::string &loop_name) {
    std::string n = loop_name;
    if (gpu_loop_dim(n) >= 0) n = n.substr(0, n.rfind(".__"));
    std::string s;
    for (char c : n) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "k_" + s;
    return s;
}

/** A 64-bit argument slot holding v's bits (low bytes; sign-extended ints). */
Expr to_slot(const Expr &v) {
    Type t = v.type();
    if (t.is_handle()) return Reinterpret::make(UInt(64), v);
    if (t.is_float()) return Cast::make(UInt(64), Reinterpret::make(UInt(t.bits), v));
    return Cast::make(UInt(64), v);
}

class Outline : public IRMutator {
public:
    explicit Outline(std::vector<DeviceKernel> &k) : kernels(k) {}

private:
    std::vector<DeviceKernel> &kernels;
    std::map<std::string, int> name_uses;
    using IRMutator::visit;

    Stmt visit(const For *op) override {
        if (!is_gpu_block(op->for_type)) return IRMutator::visit(op);
        return outline(op);
    }

    struct Binding {
        std::string name;
        Expr value;
        bool is_loop;
        int dim;
    };

    Stmt outline(const For *outer) {
        // The nest of block loops and the lets between them, outermost first.
        std::vector<Binding> bindings;
        Expr grid[3] = {1, 1, 1};
        std::set<std::string> block_vars;
        std::map<std::string, Expr> between_lets;
        Stmt body = outer;
        int block_dims = 0;
        while (true) {
            if (const auto *f = body.as<For>(); f && is_gpu_block(f->for_type)) {
                int d = gpu_loop_dim(f->name);
                internal_assert(d >= 0, "block loop " << f->name << " has no canonical name");
                Expr extent = substitute(between_lets, f->extent);
                for (const auto &v : free_variables(extent))
                    if (block_vars.count(v))
                        user_error("The extent of gpu_blocks " << describe_loop(f->name)
                                                               << " depends on an outer block "
                                                                  "loop; a kernel's grid must "
                                                                  "be rectangular");
                grid[d] = extent;
                block_dims = std::max(block_dims, d + 1);
                bindings.push_back({f->name, f->min, true, d});
                block_vars.insert(f->name);
                body = f->body;
            } else if (const auto *l = body.as<LetStmt>(); l && contains_gpu_loop(l->body)) {
                bindings.push_back({l->name, l->value, false, -1});
                bool uses_block = false;
                for (const auto &v : free_variables(l->value))
                    uses_block = uses_block || block_vars.count(v) > 0;
                if (uses_block)
                    block_vars.insert(l->name);
                else
                    between_lets[l->name] = substitute(between_lets, l->value);
                body = l->body;
            } else {
                break;
            }
        }

        // The block size from fuse_gpu_thread_loops's markers.
        Expr threads[3] = {1, 1, 1};
        for (int d = 0; d < 3; d++) {
            const auto *l = body.as<LetStmt>();
            internal_assert(l && l->name == gpu_threads_marker(d),
                            "kernel " << outer->name << " has no block size marker");
            threads[d] = l->value;
            body = l->body;
        }
        Expr shared_bytes = make_zero(Int(32));
        DeviceKernel k;
        if (const auto *a = body.as<Allocate>(); a && a->name == shared_allocation_name) {
            // CUDA declares at most 48 KiB of shared memory statically; a
            // block needing more gets it as dynamic shared memory (which the
            // runtime opts in to).
            constexpr int64_t cuda_static_shared_limit = 48 * 1024;
            auto c = as_const_int(a->extents[0]);
            if (c && outer->device_api == DeviceAPI::CUDA && *c > cuda_static_shared_limit)
                c.reset();
            if (c) {
                k.constant_shared_bytes = *c;
            } else {
                shared_bytes = a->extents[0];
                body = a->body;
            }
        }
        bool dynamic_shared = !is_const_zero(shared_bytes);

        for (auto it = bindings.rbegin(); it != bindings.rend(); ++it) {
            Expr value = it->value;
            if (it->is_loop) value = add(value, Variable::make(Int(32), block_id_name(it->dim)));
            body = LetStmt::make(it->name, value, body);
        }

        Closure closure;
        body.accept(&closure);
        closure.buffers.erase(shared_allocation_name); // the dynamic shared argument
        RenameKernelScalars renamer;
        for (const auto &[name, t] : closure.scalars) renamer.rename(name);
        body = renamer.mutate(body);

        // Bool scalars travel as bytes: OpenCL kernels take no bool arguments.
        std::vector<Expr> launch_values;
        std::string kinds;
        for (auto &[name, arg] : closure.buffers) {
            k.args.push_back(arg);
            launch_values.push_back(Variable::make(Handle(), name + ".buffer"));
            kinds += 'b';
        }
        for (auto &[name, t] : closure.scalars) {
            if (t.is_handle())
                internal_error("GPU kernel of " << outer->name << " uses the handle " << name);
            DeviceKernelArg a;
            a.name = renamer.names.at(name);
            a.type = t;
            Expr v = Variable::make(t, name);
            if (t.is_bool()) {
                std::string inner = a.name;
                a.name = inner + ".byte";
                a.type = UInt(8);
                body = LetStmt::make(
                    inner, NE::make(Variable::make(UInt(8), a.name), make_zero(UInt(8))), body);
                v = Cast::make(UInt(8), v);
            }
            k.args.push_back(a);
            launch_values.push_back(v);
            kinds += char('0' + a.type.bytes());
        }
        if (dynamic_shared) {
            DeviceKernelArg a;
            a.name = shared_allocation_name;
            a.type = UInt(8);
            a.is_dynamic_shared = true;
            k.args.push_back(a);
            kinds += 's';
        }

        std::string base = kernel_identifier(outer->name);
        int uses = name_uses[base]++;
        k.name = uses ? base + "_" + std::to_string(uses) : base;
        k.func_name = loop_func_name(outer->name);
        k.device_api = outer->device_api;
        k.body = body;
        k.block_dims = std::max(block_dims, 1);
        k.thread_dims = 1;
        for (int d = 0; d < 3; d++) {
            auto c = as_const_int(threads[d]);
            k.threads[d] = c ? int(*c) : 0;
            if (!c || *c != 1) k.thread_dims = d + 1;
        }
        kernels.push_back(k);
        return launch(k, grid, threads, shared_bytes, kinds, launch_values);
    }

    Stmt launch(const DeviceKernel &k, const Expr grid[3], const Expr threads[3],
                const Expr &shared_bytes, const std::string &kinds,
                const std::vector<Expr> &values) {
        std::string slots = unique_name("__launch_args");
        std::string result = unique_name("__launch_result");
        int api = k.device_api == DeviceAPI::CUDA ? 2 : 1; // loom_device_api_t
        std::vector<Expr> args = {user_context_var(), make_const(Int(32), api),
                                  StringImm::make(device_source_placeholder(k.device_api)),
                                  StringImm::make(k.name)};
        for (int d = 0; d < 3; d++) args.push_back(as_int32(grid[d]));
        for (int d = 0; d < 3; d++) args.push_back(as_int32(threads[d]));
        args.push_back(as_int32(shared_bytes));
        args.push_back(StringImm::make(kinds));
        args.push_back(Variable::make(Handle(), slots));
        Expr call = Call::make(Int(32), device_run_function, args, Call::Extern);
        Expr r = Variable::make(Int(32), result);
        Stmt s = LetStmt::make(result, call, AssertStmt::make(EQ::make(r, make_zero(Int(32))), r));
        std::vector<Stmt> stores;
        for (size_t i = 0; i < values.size(); i++)
            stores.push_back(Store::make(slots, to_slot(values[i]), make_const(Int(32), int(i)),
                                         Buffer<>(), Parameter()));
        stores.push_back(s);
        int n = std::max<int>(int(values.size()), 1);
        return Allocate::make(slots, UInt(64), MemoryType::Stack, {make_const(Int(32), n)},
                              const_true(), Block::make(stores));
    }
};

} // namespace

Stmt outline_gpu_kernels(const Stmt &s, std::vector<DeviceKernel> &kernels) {
    return Outline(kernels).mutate(s);
}

} // namespace Internal
} // namespace loom
