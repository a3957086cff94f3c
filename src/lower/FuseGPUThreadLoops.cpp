#include "lower/FuseGPUThreadLoops.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "analysis/Bounds.h"
#include "analysis/Simplify.h"
#include "ir/Error.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"
#include "ir/IRVisitor.h"
#include "lower/BlockRegisters.h"
#include "lower/GPULoops.h"
#include "lower/LowerUtil.h"

namespace loom {
namespace Internal {

const char *const shared_allocation_name = "__shared";

std::string gpu_threads_marker(int dim) {
    return std::string("__gpu_threads_") + gpu_dim_name(dim);
}

namespace {

// Shared allocations are aligned so that any access type (up to 16-byte
// vectors) indexes them in whole elements.
constexpr int64_t shared_alignment = 16;

/** Names bound inside a statement (lets, loops, allocations): a size that
 * uses none of them can be computed by the host before the launch. */
std::set<std::string> names_bound_in(const Stmt &s) {
    std::set<std::string> names;
    visit_all(s, [&](const IRNode *n) {
        switch (n->node_type) {
        case IRNodeType::LetStmt:
            names.insert(static_cast<const LetStmt *>(n)->name);
            break;
        case IRNodeType::Let:
            names.insert(static_cast<const Let *>(n)->name);
            break;
        case IRNodeType::For:
            names.insert(static_cast<const For *>(n)->name);
            break;
        default:
            break;
        }
    });
    return names;
}

/** Let values visible anywhere in a kernel, by name (names are unique after lowering). */
std::map<std::string, Expr> let_values(const Stmt &s) {
    std::map<std::string, Expr> lets;
    visit_all(s, [&](const IRNode *n) {
        if (n->node_type == IRNodeType::LetStmt) {
            const auto *l = static_cast<const LetStmt *>(n);
            lets.emplace(l->name, l->value);
        } else if (n->node_type == IRNodeType::Let) {
            const auto *l = static_cast<const Let *>(n);
            lets.emplace(l->name, l->value);
        }
    });
    return lets;
}

Expr int64(const Expr &e) {
    return e.type() == Int(64) ? e : Cast::make(Int(64), e);
}

/** A size inside a kernel: a constant bound, or a host-side expression. */
struct KernelSize {
    std::optional<int64_t> constant;
    Expr dynamic;
};

class KernelScope {
public:
    /** host_lets: the lets of the whole pipeline (names are unique), so
     * that constant bounds see what host values like a producer's min stand
     * for. Sizes computed on the host keep the host's names (written out,
     * they would read the buffers' fields inside the kernel). */
    KernelScope(const Stmt &kernel, const std::map<std::string, Expr> &host_lets)
        : kernel(kernel), lets(let_values(kernel)), all_lets(host_lets),
          inner(names_bound_in(kernel)) {
        for (const auto &[name, value] : lets) all_lets[name] = value;
    }

    /** Bound e by a constant, or else keep it when the host can compute it. */
    KernelSize size_of(const Expr &e) const {
        auto constant = [](int64_t c) { return KernelSize{std::max<int64_t>(c, 0), Expr()}; };
        if (auto c = constant_bound(e, true, all_lets)) return constant(*c);
        Expr bound = symbolic_upper_bound(e, lets);
        if (host_known(bound)) return {std::nullopt, bound};
        // The same with the lets written out and the clamps taken apart.
        for (const Expr &written : {bound, symbolic_upper_bound(e, all_lets)})
            if (written.defined())
                if (auto c = constant_bound(written, true, all_lets)) return constant(*c);
        // Sizes that change from block to block (or from one iteration of an
        // inner loop to the next): the largest over the ranges of the loops
        // and lets of the kernel, as an expression of what the host knows.
        // The lets written out and simplified first (when that stays small)
        // keeps terms that cancel from widening the range.
        std::optional<KernelSize> dynamic;
        for (const Expr &candidate : {bound, e}) {
            if (!candidate.defined()) continue;
            Interval range = bounds_of_expr_in_scope(candidate, ranges());
            if (!range.has_upper_bound()) continue;
            Expr upper = simplify(range.max);
            if (auto c = as_const_int(upper)) return constant(*c);
            if (!dynamic && host_known(upper)) dynamic = KernelSize{std::nullopt, upper};
        }
        return dynamic ? *dynamic : KernelSize{std::nullopt, Expr()};
    }

private:
    Stmt kernel;
    std::map<std::string, Expr> lets, all_lets; // the kernel's; with the host's
    std::set<std::string> inner;
    mutable std::optional<Scope<Interval>> loop_and_let_ranges;

    bool host_known(const Expr &e) const {
        if (!e.defined()) return false;
        for (const auto &v : free_variables(e))
            if (inner.count(v)) return false;
        return true;
    }

    /** The range of every loop variable and let of the kernel (names are
     * unique after lowering), outer ones first so that inner ranges are
     * written in terms of what the host knows. Ranges too large to be
     * worth carrying are left unbounded. Built on first use. */
    const Scope<Interval> &ranges() const {
        if (loop_and_let_ranges) return *loop_and_let_ranges;
        loop_and_let_ranges.emplace();
        Scope<Interval> &scope = *loop_and_let_ranges;
        auto bounded = [&](const Expr &lo, const Expr &hi) {
            Interval a = bounds_of_expr_in_scope(lo, scope), b = bounds_of_expr_in_scope(hi, scope);
            Interval r(a.min.defined() ? simplify(a.min) : Expr(),
                       b.max.defined() ? simplify(b.max) : Expr());
            constexpr double max_nodes = 400;
            if (r.min.defined() && tree_size(r.min) > max_nodes) r.min = Expr();
            if (r.max.defined() && tree_size(r.max) > max_nodes) r.max = Expr();
            return r;
        };
        visit_all(kernel, [&](const IRNode *n) {
            if (n->node_type == IRNodeType::For) {
                const auto *f = static_cast<const For *>(n);
                Expr last =
                    simplify(Sub::make(Add::make(f->min, f->extent), make_one(f->extent.type())));
                scope.push(f->name, bounded(f->min, last));
            } else if (n->node_type == IRNodeType::LetStmt) {
                const auto *l = static_cast<const LetStmt *>(n);
                if (l->value.type().is_int()) scope.push(l->name, bounded(l->value, l->value));
            } else if (n->node_type == IRNodeType::Let) {
                const auto *l = static_cast<const Let *>(n);
                if (l->value.type().is_int()) scope.push(l->name, bounded(l->value, l->value));
            }
        });
        return scope;
    }
};

/** Shared memory accesses of a statement: names of shared allocations only. */
struct SharedUse {
    std::set<std::string> read, written;
    void add(const SharedUse &o) {
        read.insert(o.read.begin(), o.read.end());
        written.insert(o.written.begin(), o.written.end());
    }
    /** Does `later` read what this wrote, or write what this touched? */
    template <typename Aliases> bool conflicts_with(const SharedUse &later, Aliases aliases) const {
        auto any = [&](const std::set<std::string> &xs, const std::set<std::string> &ys) {
            for (const auto &x : xs)
                for (const auto &y : ys)
                    if (aliases(x, y)) return true;
            return false;
        };
        return any(later.read, written) || any(later.written, written) || any(later.written, read);
    }
    bool empty() const { return read.empty() && written.empty(); }
};

class FuseBlock {
public:
    FuseBlock(const Stmt &kernel, const std::string &kernel_loop,
              const std::map<std::string, Expr> &host_lets)
        : scope(kernel, host_lets), kernel_loop(kernel_loop), host_lets(host_lets) {}

    Stmt run(const Stmt &body) {
        find_shared_and_threads(body);
        place_shared(body);
        Stmt s = add_barriers(body);
        s = ThreadLoopsToIds(*this).mutate(s);
        for (const std::string &name : registers)
            s = give_threads_their_registers(s, name, describe_loop(kernel_loop), host_lets);
        s = rewrite_shared(s);
        for (int d = 2; d >= 0; d--) s = LetStmt::make(gpu_threads_marker(d), thread_count(d), s);
        return s;
    }

private:
    KernelScope scope;
    std::string kernel_loop;
    const std::map<std::string, Expr> &host_lets;
    /** Per dimension: the largest constant thread extent, and host-side
     * extents that have no constant bound. */
    int64_t constant_threads[3] = {1, 1, 1};
    std::vector<Expr> dynamic_threads[3];
    bool has_threads = false;
    std::set<std::string> shared;    // block-level allocations
    std::set<std::string> registers; // block-level, one part per thread (BlockRegisters.h)

    Expr thread_count(int d) const {
        Expr e = make_const(Int(32), constant_threads[d]);
        for (const Expr &x : dynamic_threads[d]) e = max(e, x);
        return simplify(e);
    }
    bool constant_block_size(int d) const { return dynamic_threads[d].empty(); }

    void find_shared_and_threads(const Stmt &body) {
        class Finder : public IRVisitor {
        public:
            FuseBlock &self;
            int thread_depth = 0;
            explicit Finder(FuseBlock &s) : self(s) {}
            using IRVisitor::visit;
            void visit(const For *op) override {
                if (!is_gpu_thread(op->for_type)) {
                    IRVisitor::visit(op);
                    return;
                }
                int d = gpu_loop_dim(op->name);
                internal_assert(d >= 0, "thread loop " << op->name << " has no canonical name");
                self.has_threads = true;
                KernelSize k = self.scope.size_of(op->extent);
                if (k.constant) {
                    self.constant_threads[d] = std::max(self.constant_threads[d], *k.constant);
                } else if (k.dynamic.defined()) {
                    self.dynamic_threads[d].push_back(k.dynamic);
                } else {
                    user_error("Func " << loop_func_name(op->name) << ": the extent of GPU thread "
                                       << describe_loop(op->name) << " (" << op->extent
                                       << ") changes from block to block and has no constant "
                                          "bound; split it by a constant factor (gpu_tile), or "
                                          "bound() the Func's extent");
                }
                thread_depth++;
                IRVisitor::visit(op);
                thread_depth--;
            }
            void visit(const Allocate *op) override {
                if (thread_depth == 0) {
                    if (op->memory_type == MemoryType::Heap)
                        user_error("Func "
                                   << op->name << " is computed at a GPU block loop ("
                                   << describe_loop(self.kernel_loop)
                                   << ") but stored in MemoryType::Heap; storage at block level "
                                      "is block-shared (MemoryType::GPUShared or Auto) or "
                                      "per-thread parts (MemoryType::Register); or compute it "
                                      "at a thread loop");
                    if (op->memory_type == MemoryType::Register)
                        self.registers.insert(op->name);
                    else
                        self.shared.insert(op->name);
                } else if (op->memory_type == MemoryType::GPUShared) {
                    user_error("Func " << op->name
                                       << " is stored in MemoryType::GPUShared but computed "
                                          "inside a GPU thread loop; shared memory belongs to a "
                                          "block: compute it at a block loop");
                }
                IRVisitor::visit(op);
            }
        } finder(*this);
        body.accept(&finder);
    }

    SharedUse shared_use(const Stmt &s) const {
        BufferAccesses a = buffer_accesses(s);
        SharedUse u;
        for (const auto &[name, t] : a.read)
            if (shared.count(name)) u.read.insert(name);
        for (const auto &[name, t] : a.written)
            if (shared.count(name)) u.written.insert(name);
        return u;
    }

    static bool is_thread_loop(const Stmt &s) {
        const auto *f = s.as<For>();
        return f && is_gpu_thread(f->for_type);
    }

    static void flatten(const Stmt &s, std::vector<Stmt> &out) {
        if (const auto *b = s.as<Block>()) {
            flatten(b->first, out);
            flatten(b->rest, out);
        } else if (s.defined()) {
            out.push_back(s);
        }
    }

    /** Barriers between the block-level stages of s (see the header). */
    Stmt add_barriers(const Stmt &s) {
        SharedUse pending;
        return add_barriers(s, pending);
    }

    /** Can a barrier go inside s, next to its stages, rather than around
     * it? Only through wrappers every thread of the block runs in the same
     * way, and only where there are thread loops inside (code without them
     * runs in thread 0 alone). */
    static bool sequence_wrapper(const Stmt &s) {
        if (!s.defined() || !contains_gpu_loop(s)) return false;
        return s.as<Block>() || s.as<LetStmt>() || s.as<Allocate>() || s.as<ProducerConsumer>();
    }

    /** As above, where `pending` holds the shared memory accesses since the
     * last barrier before s, and afterwards those since the last barrier
     * before s's end. A stage that conflicts with them gets a barrier right
     * before it: inside a ProducerConsumer (and the lets and allocations
     * around it) rather than before the whole of it,
     * so independent producers (two staged slices of a matrix product) are
     * not separated by a barrier of their own. */
    Stmt add_barriers(const Stmt &s, SharedUse &pending) {
        auto alias = [this](const std::string &a, const std::string &b) { return aliases(a, b); };
        if (sequence_wrapper(s)) {
            if (s.as<Block>()) {
                std::vector<Stmt> parts, result;
                flatten(s, parts);
                for (const Stmt &p : parts) result.push_back(add_barriers(p, pending));
                return Block::make(result);
            }
            if (const auto *l = s.as<LetStmt>())
                return LetStmt::make(l->name, l->value, add_barriers(l->body, pending));
            if (const auto *pc = s.as<ProducerConsumer>())
                return ProducerConsumer::make(pc->name, pc->is_producer,
                                              add_barriers(pc->body, pending));
            if (const auto *a = s.as<Allocate>())
                return Allocate::make(a->name, a->type, a->memory_type, a->extents, a->condition,
                                      add_barriers(a->body, pending));
        }
        // One stage: a barrier before it where it conflicts with what came
        // since the last one.
        SharedUse u = shared_use(s);
        Stmt stage = add_stage_barriers(s);
        if (pending.conflicts_with(u, alias)) {
            stage = Block::make(gpu_barrier(), stage);
            pending = SharedUse();
        }
        pending.add(u);
        return stage;
    }

    /** Barriers inside one stage, which starts after a barrier of its own
     * (or with no conflicting access before it). */
    Stmt add_stage_barriers(const Stmt &s) {
        // Code without thread loops runs in one thread (or the same in all):
        // its own order is sequential, and a barrier inside it would not be
        // reached by every thread.
        if (!s.defined() || is_thread_loop(s) || !contains_gpu_loop(s)) return s;
        auto alias = [this](const std::string &a, const std::string &b) { return aliases(a, b); };
        if (const auto *f = s.as<For>()) {
            Stmt body = add_barriers(f->body);
            // The next iteration must not overwrite what this one still reads.
            SharedUse u = shared_use(f->body);
            if (!u.written.empty() && u.conflicts_with(u, alias))
                body = Block::make(body, gpu_barrier());
            return For::make(f->name, f->min, f->extent, f->for_type, f->device_api, body);
        }
        if (const auto *i = s.as<IfThenElse>())
            return IfThenElse::make(i->condition, add_barriers(i->then_case),
                                    add_barriers(i->else_case));
        return s;
    }

    /** Thread loops -> thread ids; block-level side effects -> thread 0. */
    class ThreadLoopsToIds : public IRMutator {
    public:
        explicit ThreadLoopsToIds(FuseBlock &s) : self(s) {}

    private:
        FuseBlock &self;
        int thread_depth = 0;
        using IRMutator::visit;

        Stmt visit(const For *op) override {
            if (!is_gpu_thread(op->for_type)) {
                if (thread_depth == 0 && !contains_gpu_loop(op->body) && has_side_effects(op))
                    return in_thread_zero(op);
                return IRMutator::visit(op);
            }
            int d = gpu_loop_dim(op->name);
            bool stage = thread_depth == 0;
            std::set<int> dims = stage ? thread_dims_of(op) : std::set<int>();
            thread_depth++;
            Stmt body = mutate(op->body);
            thread_depth--;
            Expr id = Variable::make(Int(32), thread_id_name(d));
            body = LetStmt::make(op->name, add(op->min, id), body);
            auto extent = as_const_int(op->extent);
            bool full =
                self.constant_block_size(d) && extent && *extent == self.constant_threads[d];
            if (!full) body = IfThenElse::make(LT::make(id, as_int32(op->extent)), body);
            // A stage with fewer thread dimensions than the block runs in the
            // threads whose other ids are 0, not once per such thread.
            return stage ? in_thread_zero(body, dims) : body;
        }
        Stmt visit(const Store *op) override { return thread_depth == 0 ? in_thread_zero(op) : op; }
        Stmt visit(const Evaluate *op) override {
            if (thread_depth > 0 || is_pure(op->value)) return op;
            if (const auto *c = op->value.as<Call>())
                if (c->is_intrinsic(Intrinsic::gpu_thread_barrier)) return op;
            return in_thread_zero(op);
        }
        Stmt visit(const Allocate *op) override {
            if (thread_depth == 0) return IRMutator::visit(op);
            // Per-thread storage: constant sizes (registers or private memory).
            std::vector<Expr> extents;
            for (const Expr &e : op->extents) {
                KernelSize k = self.scope.size_of(e);
                if (!k.constant)
                    user_error("Func " << op->name
                                       << " is computed inside a GPU thread loop but its size ("
                                       << e
                                       << ") has no constant bound; per-thread storage must have "
                                          "a constant size: bound() the Func or compute it at a "
                                          "loop with constant extents");
                extents.push_back(make_const(Int(32), *k.constant));
            }
            Stmt body = mutate(op->body);
            return Allocate::make(op->name, op->type, op->memory_type, extents, op->condition,
                                  body);
        }

        static bool has_side_effects(const Stmt &s) {
            bool found = false;
            visit_all(s, [&](const IRNode *n) {
                if (n->node_type == IRNodeType::Store) found = true;
                if (n->node_type == IRNodeType::Call) {
                    const auto *c = static_cast<const Call *>(n);
                    if (!c->is_pure()) found = true;
                }
            });
            return found;
        }

        /** The thread dimensions of a stage's thread loops. */
        static std::set<int> thread_dims_of(const Stmt &s) {
            std::set<int> dims;
            visit_all(s, [&](const IRNode *n) {
                if (n->node_type == IRNodeType::For &&
                    is_gpu_thread(static_cast<const For *>(n)->for_type))
                    dims.insert(gpu_loop_dim(static_cast<const For *>(n)->name));
            });
            return dims;
        }

        /** s in the threads whose ids are 0 in every dimension but `used`. */
        Stmt in_thread_zero(const Stmt &s, const std::set<int> &used = {}) const {
            if (!self.has_threads) return s;
            Expr cond;
            for (int d = 0; d < 3; d++) {
                if (used.count(d)) continue;
                if (self.constant_block_size(d) && self.constant_threads[d] == 1) continue;
                Expr c = EQ::make(Variable::make(Int(32), thread_id_name(d)), make_zero(Int(32)));
                cond = cond.defined() ? And::make(cond, c) : c;
            }
            return cond.defined() ? IfThenElse::make(cond, s) : s;
        }
    };

    /** Where each block-level allocation lives in "__shared". */
    struct Placement {
        Expr offset_bytes;           // a multiple of shared_alignment
        int64_t begin = 0, end = -1; // constant byte range; empty when dynamic
    };
    /** Per name, one placement per allocation in the order they appear: a
     * Func can be allocated twice in a kernel (the body of a split RVar
     * loop and its peeled tail), with different sizes. */
    std::map<std::string, std::vector<Placement>> placed;
    Expr shared_bytes;

    /** Two shared allocations may share bytes (siblings packed together). */
    bool aliases(const std::string &a, const std::string &b) const {
        if (a == b) return true;
        auto pa = placed.find(a), pb = placed.find(b);
        if (pa == placed.end() || pb == placed.end()) return false;
        for (const Placement &x : pa->second)
            for (const Placement &y : pb->second)
                if (x.begin < y.end && y.begin < x.end) return true;
        return false;
    }

    /** Sizes and offsets: allocations that are live at the same time
     * (nested) get disjoint bytes; siblings reuse bytes. With sizes only
     * the host knows, they are laid out one after another. */
    void place_shared(const Stmt &s) {
        if (shared.empty()) return;
        bool all_constant = true;
        std::vector<std::pair<const Allocate *, KernelSize>> sizes;
        visit_all(s, [&](const IRNode *n) {
            if (n->node_type != IRNodeType::Allocate) return;
            const auto *a = static_cast<const Allocate *>(n);
            if (!shared.count(a->name)) return;
            // Extents are never negative: bound each one, then multiply.
            Expr bytes = make_const(Int(64), int64_t(a->type.bytes()) * a->type.lanes);
            KernelSize k{int64_t(a->type.bytes()) * a->type.lanes, Expr()};
            for (const Expr &e : a->extents) {
                bytes = Mul::make(bytes, int64(e));
                KernelSize ke = scope.size_of(e);
                if (k.constant && ke.constant) {
                    k.constant = *k.constant * *ke.constant;
                    continue;
                }
                Expr so_far = k.constant ? make_const(Int(64), *k.constant) : k.dynamic;
                Expr factor = ke.constant ? make_const(Int(64), *ke.constant)
                                          : (ke.dynamic.defined() ? int64(ke.dynamic) : Expr());
                k.constant.reset();
                k.dynamic =
                    so_far.defined() && factor.defined() ? Mul::make(so_far, factor) : Expr();
            }
            if (!k.constant && !k.dynamic.defined())
                user_error("Func " << a->name << " is computed at a GPU block loop ("
                                   << describe_loop(kernel_loop)
                                   << ") but the size of its block-shared storage (" << bytes
                                   << " bytes) has no bound the host can compute; bound() the "
                                      "Func, or compute it at a loop with constant extents");
            all_constant = all_constant && k.constant.has_value();
            sizes.emplace_back(a, k);
        });
        if (all_constant) {
            shared_bytes = make_const(Int(32), place_constant(s, sizes));
            return;
        }
        Expr offset = make_const(Int(64), 0);
        Expr align = make_const(Int(64), shared_alignment);
        for (auto &[a, k] : sizes) {
            placed[a->name].push_back(Placement{offset});
            Expr bytes = k.constant ? make_const(Int(64), *k.constant) : k.dynamic;
            Expr rounded = Mul::make(
                Div::make(Add::make(bytes, make_const(Int(64), shared_alignment - 1)), align),
                align);
            offset = Add::make(offset, rounded);
        }
        shared_bytes = simplify(Cast::make(Int(32), offset));
    }

    /** First-fit placement of constant-size allocations by their nesting;
     * returns the bytes used. */
    int64_t place_constant(const Stmt &s,
                           const std::vector<std::pair<const Allocate *, KernelSize>> &sizes) {
        std::map<const Allocate *, int64_t> bytes_of;
        for (auto &[a, k] : sizes)
            bytes_of[a] =
                (*k.constant + shared_alignment - 1) / shared_alignment * shared_alignment;
        class Walk : public IRVisitor {
        public:
            std::map<const Allocate *, int64_t> &bytes_of;
            std::map<std::string, std::vector<Placement>> &placed;
            std::vector<std::pair<int64_t, int64_t>> live; // [begin, end) of live allocations
            int64_t end = 0;
            Walk(std::map<const Allocate *, int64_t> &b,
                 std::map<std::string, std::vector<Placement>> &p)
                : bytes_of(b), placed(p) {}
            using IRVisitor::visit;
            void visit(const Allocate *op) override {
                auto it = bytes_of.find(op);
                if (it == bytes_of.end()) {
                    IRVisitor::visit(op);
                    return;
                }
                int64_t size = it->second, offset = 0;
                std::sort(live.begin(), live.end());
                for (const auto &[b, e] : live) {
                    if (offset + size <= b) break;
                    offset = std::max(offset, e);
                }
                placed[op->name].push_back({make_const(Int(64), offset), offset, offset + size});
                end = std::max(end, offset + size);
                live.emplace_back(offset, offset + size);
                auto mine = live.back();
                IRVisitor::visit(op);
                live.erase(std::find(live.begin(), live.end(), mine));
            }
        } walk(bytes_of, placed);
        s.accept(&walk);
        return walk.end;
    }

    /** Accesses of block-level allocations become accesses of "__shared". */
    Stmt rewrite_shared(const Stmt &s) const {
        if (shared.empty()) return s;
        class Rewrite : public IRMutator {
        public:
            const std::map<std::string, std::vector<Placement>> &placed;
            explicit Rewrite(const std::map<std::string, std::vector<Placement>> &p) : placed(p) {}
            std::map<std::string, size_t> seen;               // allocations met so far, by name
            std::map<std::string, const Placement *> current; // the one in scope
            using IRMutator::visit;
            Expr element_index(const std::string &name, Type t, const Expr &index) {
                Expr off = simplify(
                    Cast::make(Int(32), Div::make(current.at(name)->offset_bytes,
                                                  make_const(Int(64), int64_t(t.bytes())))));
                if (is_const_zero(off)) return index;
                return Add::make(index, broadcast_if_needed(off, index.type().lanes));
            }
            Expr visit(const Load *op) override {
                Expr index = mutate(op->index);
                Expr pred = op->predicate.defined() ? mutate(op->predicate) : op->predicate;
                if (!placed.count(op->name))
                    return Load::make(op->type, op->name, index, op->image, op->param, pred);
                return Load::make(op->type, shared_allocation_name,
                                  element_index(op->name, op->type.element_of(), index), Buffer<>(),
                                  Parameter(), pred);
            }
            Stmt visit(const Store *op) override {
                Expr value = mutate(op->value), index = mutate(op->index);
                Expr pred = op->predicate.defined() ? mutate(op->predicate) : op->predicate;
                if (!placed.count(op->name))
                    return Store::make(op->name, value, index, op->image, op->param, pred,
                                       op->streaming);
                return Store::make(shared_allocation_name, value,
                                   element_index(op->name, op->value.type().element_of(), index),
                                   Buffer<>(), Parameter(), pred);
            }
            Expr visit(const Call *op) override {
                if (!op->is_intrinsic(Intrinsic::atomic_update)) return IRMutator::visit(op);
                const auto *name = op->args[0].as<StringImm>();
                if (!placed.count(name->value)) return IRMutator::visit(op);
                std::vector<Expr> args = mutate_exprs(op->args);
                args[0] = StringImm::make(shared_allocation_name);
                args[1] = element_index(name->value, op->type.element_of(), args[1]);
                return Call::make(op->type, Intrinsic::atomic_update, args, op->call_type);
            }
            Stmt visit(const Allocate *op) override {
                auto p = placed.find(op->name);
                if (p == placed.end()) return IRMutator::visit(op);
                size_t index = seen[op->name]++;
                internal_assert(index < p->second.size(),
                                "shared allocation " << op->name << " was not placed");
                auto outer = current.find(op->name);
                const Placement *hidden = outer == current.end() ? nullptr : outer->second;
                current[op->name] = &p->second[index];
                Stmt body = mutate(op->body);
                if (hidden)
                    current[op->name] = hidden;
                else
                    current.erase(op->name);
                return body;
            }
            Stmt visit(const Free *op) override {
                if (!placed.count(op->name)) return op;
                return Evaluate::make(make_zero(Int(32)));
            }
        } rewrite(placed);
        return Allocate::make(shared_allocation_name, UInt(8), MemoryType::GPUShared,
                              {shared_bytes}, const_true(), rewrite.mutate(s));
    }
};

/** Finds each kernel (outermost block loop) and fuses its innermost block body. */
class FuseKernels : public IRMutator {
public:
    explicit FuseKernels(const Stmt &pipeline) : host_lets(let_values(pipeline)) {}

private:
    std::map<std::string, Expr> host_lets;
    using IRMutator::visit;

    Stmt fuse_nest(const Stmt &s, const Stmt &kernel, const std::string &kernel_loop) {
        if (const auto *f = s.as<For>(); f && is_gpu_block(f->for_type)) {
            return For::make(f->name, f->min, f->extent, f->for_type, f->device_api,
                             fuse_nest(f->body, kernel, kernel_loop));
        }
        if (const auto *l = s.as<LetStmt>(); l && contains_block_loop(l->body)) {
            return LetStmt::make(l->name, l->value, fuse_nest(l->body, kernel, kernel_loop));
        }
        if (contains_block_loop(s))
            user_error("The gpu_blocks loops of the kernel at " << describe_loop(kernel_loop)
                                                                << " are not perfectly nested; "
                                                                   "only lets may come between "
                                                                   "a kernel's block loops");
        return FuseBlock(kernel, kernel_loop, host_lets).run(s);
    }

    Stmt visit(const For *op) override {
        if (!is_gpu_block(op->for_type)) return IRMutator::visit(op);
        return fuse_nest(op, op, op->name);
    }
};

} // namespace

Stmt fuse_gpu_thread_loops(const Stmt &s) {
    return FuseKernels(s).mutate(s);
}

} // namespace Internal
} // namespace loom
