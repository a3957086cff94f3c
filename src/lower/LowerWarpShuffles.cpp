#include "lower/LowerWarpShuffles.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/ModulusRemainder.h"
#include "analysis/Simplify.h"
#include "ir/Error.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"
#include "ir/IRVisitor.h"
#include "ir/Substitute.h"
#include "loom/IROperator.h"
#include "lower/CanonicalGPUNames.h"
#include "lower/GPULoops.h"

namespace loom {
namespace Internal {

namespace {

constexpr int warp_size = 32;
// A read c * lane + d needs c + 1 shuffles; beyond this, shared memory is
// the better home for the Func.
constexpr int64_t max_lane_stride = 4;

/** Why an allocation cannot live in the lanes' registers. */
struct NotInLanes {
    std::string reason;
};

/** The lets inside the kernel around the code being rewritten, innermost
 * value per name (unrolled copies of a loop repeat their lets' names), to
 * see through them when reading an index as a function of the lane. Lets
 * outside the kernel stay symbols: they are the same in every lane. */
class LetScope {
public:
    void push(const std::string &name, const Expr &value) {
        stack[name].push_back({value, pushed++});
    }
    void pop(const std::string &name) {
        auto it = stack.find(name);
        it->second.pop_back();
        if (it->second.empty()) stack.erase(it);
    }
    /** From now on values() has only the lets pushed after this call. */
    void enter_kernel() { kernel_start = pushed; }
    std::map<std::string, Expr> values() const {
        std::map<std::string, Expr> m;
        for (const auto &[name, values] : stack)
            if (values.back().second >= kernel_start) m.emplace(name, values.back().first);
        return m;
    }

private:
    std::map<std::string, std::vector<std::pair<Expr, uint64_t>>> stack;
    uint64_t pushed = 0, kernel_start = 0;
};

/** A mutator that keeps a LetScope of the LetStmts around what it visits. */
template <typename Base> class WithLets : public Base {
public:
    explicit WithLets(LetScope &lets) : lets(lets) {}

protected:
    LetScope &lets;
    using Base::visit;
    Stmt visit(const LetStmt *op) override {
        Expr value = this->mutate(op->value);
        // Popped also when the body throws (a failed analysis is caught).
        struct Bound {
            LetScope &lets;
            const std::string &name;
            ~Bound() { lets.pop(name); }
        } bound{lets, op->name};
        lets.push(op->name, value);
        return LetStmt::make(op->name, value, this->mutate(op->body));
    }
};

/** The largest constant extent of the thread loops of each dimension of a
 * kernel (the dimension of a thread loop is the number of thread loops
 * nested inside it, as CanonicalGPUNames counts). -1 where one is not
 * constant. */
struct BlockShape {
    int64_t extent[3] = {1, 1, 1};
};

BlockShape block_shape(const Stmt &kernel) {
    BlockShape shape;
    visit_all(kernel, [&](const IRNode *n) {
        if (n->node_type != IRNodeType::For) return;
        const auto *f = static_cast<const For *>(n);
        if (!is_gpu_thread(f->for_type)) return;
        int d = std::min(gpu_thread_depth(f->body), 2);
        auto c = as_const_int(f->extent);
        if (!c || shape.extent[d] < 0)
            shape.extent[d] = -1;
        else
            shape.extent[d] = std::max(shape.extent[d], *c);
    });
    return shape;
}

/** index = coefficient * lane + offset, offset the same in every lane and
 * written with the kernel's lets written out (so the simplifier sees what
 * cancels; every name it uses is in scope at the access). */
struct LaneAffine {
    int64_t coefficient = 0;
    Expr offset;
};

class StripedAllocation {
public:
    StripedAllocation(const Allocate *alloc, LetScope &lets, const BlockShape &shape,
                      const std::vector<const For *> &enclosing_threads)
        : alloc(alloc), lets(lets), shape(shape), enclosing_threads(enclosing_threads) {}

    /** The allocation with its accesses rewritten, or why it cannot be. */
    Stmt lower() {
        check_type();
        find_lane_loops();
        check_uniform_enclosing_loops();
        count_registers();
        Stmt body = rewrite_lane_loops(alloc->body);
        return Allocate::make(alloc->name, alloc->type, MemoryType::Register,
                              {make_const(Int(32), registers)}, alloc->condition, body);
    }

private:
    const Allocate *alloc;
    LetScope &lets;
    const BlockShape &shape;
    const std::vector<const For *> &enclosing_threads;
    int64_t lanes = 0, registers = 0;

public:
    /** The shuffles lower() made. */
    int shuffles = 0;

private:
    [[noreturn]] void fail(const std::string &why) const { throw NotInLanes{why}; }

    void find_lane_loops() {
        const std::string &name = alloc->name;
        visit_all(alloc->body, [&](const IRNode *n) {
            if (n->node_type != IRNodeType::For) return;
            const auto *f = static_cast<const For *>(n);
            if (f->for_type != ForType::GPULane || !buffer_accesses(f->body).touches(name)) return;
            auto extent = as_const_int(f->extent);
            if (!extent)
                fail("the extent of its gpu_lanes " + describe_loop(f->name) +
                     " is not a constant");
            if (lanes && *extent != lanes)
                fail("its gpu_lanes loops have different extents (" + std::to_string(lanes) +
                     " and " + std::to_string(*extent) + ")");
            if (gpu_thread_depth(f->body) > 0)
                fail("its gpu_lanes " + describe_loop(f->name) + " has thread loops inside");
            lanes = *extent;
        });
        if (lanes < 1 || lanes > warp_size || (lanes & (lanes - 1)))
            fail("its gpu_lanes loops have extent " + std::to_string(lanes) +
                 ", not a power of two up to the warp size (32)");
        if (shape.extent[0] != lanes)
            fail((shape.extent[0] < 0
                      ? std::string("the block's width in x is not a constant")
                      : "the block is " + std::to_string(shape.extent[0]) + " threads wide in x") +
                 " but the gpu_lanes loops have " + std::to_string(lanes) +
                 " lanes; give every x thread loop of the kernel the lanes' extent");
        // Every access of the Func must be made by the lanes together.
        class OutsideLanes : public IRVisitor {
        public:
            const std::string &name;
            int lane_depth = 0;
            bool found = false;
            explicit OutsideLanes(const std::string &n) : name(n) {}
            using IRVisitor::visit;
            void visit(const For *op) override {
                lane_depth += op->for_type == ForType::GPULane;
                IRVisitor::visit(op);
                lane_depth -= op->for_type == ForType::GPULane;
            }
            void visit(const Load *op) override {
                found |= op->name == name && lane_depth == 0;
                IRVisitor::visit(op);
            }
            void visit(const Store *op) override {
                found |= op->name == name && lane_depth == 0;
                IRVisitor::visit(op);
            }
        } outside(name);
        alloc->body.accept(&outside);
        if (outside.found) fail("it is read or written outside its gpu_lanes loops");
    }

    /** Below 32 lanes a warp holds several rows of the block: they must all
     * run the shuffles, so no thread loop around the Func may leave threads out. */
    void check_uniform_enclosing_loops() const {
        if (lanes == warp_size) return;
        for (const For *f : enclosing_threads) {
            int d = std::min(gpu_thread_depth(f->body), 2);
            auto extent = as_const_int(f->extent);
            if (!extent || *extent != shape.extent[d])
                fail("it has fewer than 32 lanes and thread " + describe_loop(f->name) +
                     " around it does not span the whole block, so a warp's threads could "
                     "disagree on running it");
        }
    }

    void check_type() const {
        Type t = alloc->type;
        if (t.is_vector() ||
            !(t.is_int() || t.is_uint() || t.is_bool() || (t.is_float() && t.bits >= 32)))
            fail("its type " + type_to_string(t) +
                 " cannot be shuffled between lanes (integers, bools, float32 and float64 can)");
    }

    void count_registers() {
        Expr elements = make_const(Int(64), 1);
        for (const Expr &e : alloc->extents) elements = elements * cast(Int(64), e);
        auto bound = constant_bound(simplify(elements), true, lets.values());
        if (!bound)
            fail("its size (" + to_string(elements) + ") has no constant bound; bound() it");
        registers = std::max<int64_t>((*bound + lanes - 1) / lanes, 1);
    }

    /** e = coefficient * lane + rest, rest free of the lane, or nothing
     * when e is not of that form (the simplifier alone does not always
     * cancel the terms around the lane). */
    static std::optional<std::pair<int64_t, Expr>> split_lane(const Expr &e,
                                                              const std::string &lane) {
        using Split = std::pair<int64_t, Expr>;
        if (!expr_uses_var(e, lane)) return Split{0, e};
        if (const auto *v = e.as<Variable>(); v && v->name == lane)
            return Split{1, make_zero(e.type())};
        if (const auto *add = e.as<Add>()) {
            auto x = split_lane(add->a, lane), y = split_lane(add->b, lane);
            if (x && y) return Split{x->first + y->first, x->second + y->second};
        } else if (const auto *sub = e.as<Sub>()) {
            auto x = split_lane(sub->a, lane), y = split_lane(sub->b, lane);
            if (x && y) return Split{x->first - y->first, x->second - y->second};
        } else if (const auto *mul = e.as<Mul>()) {
            auto k = as_const_int(mul->b);
            const Expr &other = k ? mul->a : mul->b;
            if (!k) k = as_const_int(mul->a);
            if (auto x = k ? split_lane(other, lane) : std::nullopt)
                return Split{x->first * *k, x->second * make_const(e.type(), *k)};
        } else if (const auto *let = e.as<Let>()) {
            return split_lane(substitute(let->name, let->value, let->body), lane);
        }
        return std::nullopt;
    }

    /** e with the kernel's lets written out, as a function of the lane of
     * loop `lane_loop` (its variable minus its min). */
    LaneAffine affine_in_lane(const Expr &e, const For *lane_loop) const {
        std::string lane = unique_name("__lane");
        Expr full = substitute(lane_loop->name, Variable::make(Int(32), lane) + lane_loop->min,
                               substitute_through(lets.values(), e));
        auto split = split_lane(full, lane);
        if (!split)
            fail("its index " + to_string(e) +
                 " is not a constant times the lane plus the same value in every lane");
        return {split->first, simplify(split->second)};
    }

    bool uses_lane(const Expr &e, const For *lane_loop) const {
        return expr_uses_var(substitute_through(lets.values(), e), lane_loop->name);
    }

    Stmt rewrite_lane_loops(const Stmt &s) {
        class Loops : public WithLets<IRMutator> {
        public:
            StripedAllocation &self;
            explicit Loops(StripedAllocation &s) : WithLets(s.lets), self(s) {}
            using WithLets::visit;
            Stmt visit(const For *op) override {
                if (op->for_type != ForType::GPULane ||
                    !buffer_accesses(op->body).touches(self.alloc->name))
                    return WithLets::visit(op);
                return For::make(op->name, op->min, op->extent, op->for_type, op->device_api,
                                 self.rewrite_accesses(op->body, op));
            }
        } loops(*this);
        return loops.mutate(s);
    }

    /** Stores go to the lane's own registers; reads become shuffles. */
    Stmt rewrite_accesses(const Stmt &s, const For *lane_loop) {
        class Accesses : public WithLets<IRMutator> {
        public:
            StripedAllocation &self;
            const For *lane_loop;
            Accesses(StripedAllocation &s, const For *l)
                : WithLets(s.lets), self(s), lane_loop(l) {}
            std::vector<std::pair<std::string, Expr>> hoisted; // of the current statement
            std::vector<std::string> expr_lets;                // Let names around the current expr

            using IRMutator::mutate;
            Stmt mutate(const Stmt &s) override {
                std::vector<std::pair<std::string, Expr>> outer;
                outer.swap(hoisted);
                Stmt result = IRMutator::mutate(s);
                // Shuffles run before the statement that reads them, outside
                // any select or lazy branch inside it, so all lanes run them.
                for (auto it = hoisted.rbegin(); it != hoisted.rend(); ++it)
                    result = LetStmt::make(it->first, it->second, result);
                hoisted.swap(outer);
                return result;
            }

            using IRMutator::visit;
            Expr visit(const Let *op) override {
                Expr value = mutate(op->value);
                expr_lets.push_back(op->name);
                Expr body = mutate(op->body);
                expr_lets.pop_back();
                return Let::make(op->name, value, body);
            }
            Stmt visit(const IfThenElse *op) override {
                if (self.uses_lane(op->condition, lane_loop))
                    self.fail("it is read or written under a condition that differs between "
                              "lanes (" +
                              to_string(op->condition) +
                              "); use TailStrategy::RoundUp on the gpu_lanes loops");
                return IRMutator::visit(op);
            }
            Stmt visit(const For *op) override {
                if (self.uses_lane(op->min, lane_loop) || self.uses_lane(op->extent, lane_loop))
                    self.fail("loop " + describe_loop(op->name) +
                              " inside its gpu_lanes loop has bounds that differ between lanes");
                return IRMutator::visit(op);
            }
            Stmt visit(const Store *op) override {
                if (op->name != self.alloc->name) return IRMutator::visit(op);
                if (op->value.type().is_vector() || op->predicate.defined())
                    self.fail("it is stored as a vector or under a predicate; do not vectorize "
                              "it inside the gpu_lanes loop");
                LaneAffine a = self.affine_in_lane(op->index, lane_loop);
                if (a.coefficient != 1 || !modulus_remainder(a.offset).is_multiple_of(self.lanes))
                    self.fail("a lane stores element " + to_string(op->index) +
                              ", not one of its own (the lane plus a multiple of " +
                              std::to_string(self.lanes) +
                              "); split the Func's loop by the lanes' extent and gpu_lanes the "
                              "inner one");
                Expr reg = simplify(a.offset / make_const(Int(32), self.lanes));
                return Store::make(op->name, mutate(op->value), reg, Buffer<>(), Parameter());
            }
            Expr visit(const Call *op) override {
                if (op->is_intrinsic(Intrinsic::atomic_update))
                    if (const auto *name = op->args[0].as<StringImm>();
                        name && name->value == self.alloc->name)
                        self.fail("it is updated atomically; drop atomic() from its update");
                return IRMutator::visit(op);
            }
            Expr visit(const Load *op) override {
                if (op->name != self.alloc->name) return IRMutator::visit(op);
                if (op->type.is_vector() || op->predicate.defined())
                    self.fail("it is read as a vector or under a predicate; do not vectorize "
                              "its consumer inside the gpu_lanes loop");
                for (const std::string &l : expr_lets)
                    if (expr_uses_var(op->index, l))
                        self.fail("a read's index uses " + l + ", bound inside the expression");
                LaneAffine a = self.affine_in_lane(op->index, lane_loop);
                if (a.coefficient < 0 || a.coefficient > max_lane_stride)
                    self.fail("a lane reads element " + to_string(op->index) +
                              "; a lane may read c * lane + d with c from 0 to " +
                              std::to_string(max_lane_stride));
                Expr lane = simplify(Variable::make(Int(32), lane_loop->name) - lane_loop->min);
                return self.shuffled(op->type, a, lane, hoisted);
            }
        } accesses(*this, lane_loop);
        return accesses.mutate(s);
    }

    Expr register_load(Type t, const Expr &reg) const {
        Expr clamped = simplify(clamp(reg, make_zero(Int(32)), make_const(Int(32), registers - 1)));
        return Load::make(t, alloc->name, clamped, Buffer<>(), Parameter());
    }

    /** The value of element c * lane + d, as shuffles hoisted into `hoisted`. */
    Expr shuffled(Type t, const LaneAffine &a, const Expr &l,
                  std::vector<std::pair<std::string, Expr>> &hoisted) {
        Expr w = make_const(Int(32), lanes);
        Expr first_reg = simplify(a.offset / w), r = simplify(a.offset % w);
        if (a.coefficient == 1 && modulus_remainder(a.offset).is_multiple_of(lanes))
            return register_load(t, first_reg);
        // Lane l wants element c*l + d: register (c*l + r) / W past first_reg
        // of lane (c*l + r) % W; every lane sends each register it may be asked for.
        Expr source = simplify(make_const(Int(32), a.coefficient) * l + r);
        Expr result;
        for (int64_t j = a.coefficient; j >= 0; j--) {
            Expr sent = register_load(t, simplify(first_reg + make_const(Int(32), j)));
            std::string name = unique_name("lane_value");
            shuffles++;
            hoisted.emplace_back(name, Call::make(t, Intrinsic::gpu_warp_shuffle, {sent, source, w},
                                                  Call::Intrinsic));
            Expr v = Variable::make(t, name);
            // source is never negative: register j serves sources below (j + 1) * W.
            Expr below = simplify(source < make_const(Int(32), (j + 1) * lanes));
            result = result.defined() ? select(below, v, result) : v;
        }
        return result;
    }
};

class LowerWarpShuffles : public WithLets<IRMutator> {
public:
    explicit LowerWarpShuffles(LetScope &lets) : WithLets(lets) {}

private:
    std::optional<BlockShape> shape;
    DeviceAPI kernel_api = DeviceAPI::None;
    std::vector<const For *> threads; // enclosing thread loops
    int lane_depth = 0;

    using WithLets::visit;

    Stmt visit(const For *op) override {
        if (is_gpu_block(op->for_type) && !shape) {
            shape = block_shape(op->body);
            kernel_api = op->device_api;
            lets.enter_kernel();
            Stmt s = IRMutator::visit(op);
            shape.reset();
            return s;
        }
        if (!is_gpu_thread(op->for_type)) return IRMutator::visit(op);
        threads.push_back(op);
        lane_depth += op->for_type == ForType::GPULane;
        Stmt s = IRMutator::visit(op);
        lane_depth -= op->for_type == ForType::GPULane;
        threads.pop_back();
        return s;
    }

    /** A Func stored inside thread loops but computed by gpu_lanes loops
     * inside its allocation: per warp, not per thread. (One computed whole
     * by each thread and read by lanes stays per thread.) */
    bool shared_by_lanes(const Allocate *op) const {
        if (!shape || threads.empty() || lane_depth > 0) return false;
        if (op->memory_type != MemoryType::Auto && op->memory_type != MemoryType::Register)
            return false;
        bool found = false;
        visit_all(op->body, [&](const IRNode *n) {
            if (found || n->node_type != IRNodeType::For) return;
            const auto *f = static_cast<const For *>(n);
            found = f->for_type == ForType::GPULane &&
                    buffer_accesses(f->body).written.count(op->name) > 0;
        });
        return found;
    }

    Stmt visit(const Allocate *op) override {
        if (!shared_by_lanes(op)) return IRMutator::visit(op);
        Stmt lowered;
        StripedAllocation striped(op, lets, *shape, threads);
        if (kernel_api != DeviceAPI::CUDA) {
            // Without shuffles, per-thread storage is right only when each
            // lane reads back just what it wrote.
            try {
                striped.lower();
            } catch (const NotInLanes &) {
                return IRMutator::visit(op);
            }
            if (striped.shuffles == 0) return IRMutator::visit(op);
            user_error("Func " << op->name << " is computed inside GPU thread "
                               << describe_loop(threads.back()->name)
                               << " by gpu_lanes loops, and lanes read elements other lanes "
                                  "computed, which takes warp shuffles; only CUDA kernels have "
                                  "them. Compute it at a gpu_blocks loop instead (block-shared "
                                  "memory), or run the kernel on DeviceAPI::CUDA");
        }
        try {
            lowered = striped.lower();
        } catch (const NotInLanes &e) {
            user_error("Func " << op->name << " is computed by gpu_lanes loops inside GPU thread "
                               << describe_loop(threads.back()->name)
                               << ", so its values live in the registers of a warp's lanes, but "
                               << e.reason
                               << ". Compute it at a gpu_blocks loop instead (block-shared "
                                  "memory)");
        }
        const auto *a = lowered.as<Allocate>();
        return Allocate::make(a->name, a->type, a->memory_type, a->extents, a->condition,
                              mutate(a->body));
    }
};

} // namespace

Stmt lower_warp_shuffles(const Stmt &s) {
    LetScope lets;
    return LowerWarpShuffles(lets).mutate(s);
}

} // namespace Internal
} // namespace loom
