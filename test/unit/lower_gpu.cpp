#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "Loom.h"
#include "ir/IR.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"
#include "lower/CanonicalGPUNames.h"
#include "lower/FuseGPUThreadLoops.h"
#include "lower/GPULoops.h"
#include "lower/OutlineGPUKernels.h"

// Device lowering on hand-built loop nests: block sizes, barriers, the
// packed shared allocation and kernel closures.

using namespace loom;
using namespace loom::Internal;

namespace {

Expr ivar(const std::string &n) {
    return Variable::make(Int(32), n);
}

Stmt gpu_loop(const std::string &v, ForType t, const Expr &extent, const Stmt &body) {
    return For::make(v, Expr(0), extent, t, DeviceAPI::OpenCL, body);
}

/** produce: buf[t] = value over a thread loop of `extent`. */
Stmt thread_store(const std::string &loop, const std::string &buf, const Expr &extent,
                  const Expr &value) {
    return gpu_loop(loop, ForType::GPUThread, extent,
                    Store::make(buf, value, ivar(loop), Buffer<>(), Parameter()));
}

Expr load(const std::string &buf, const Expr &index) {
    return Load::make(Int(32), buf, index, Buffer<>(), Parameter());
}

int count_barriers(const Stmt &s) {
    int n = 0;
    visit_all(s, [&](const IRNode *node) {
        if (node->node_type == IRNodeType::Call &&
            static_cast<const Call *>(node)->is_intrinsic(Intrinsic::gpu_thread_barrier))
            n++;
    });
    return n;
}

const Allocate *shared_allocation(const Stmt &s) {
    const Allocate *found = nullptr;
    visit_all(s, [&](const IRNode *node) {
        if (node->node_type == IRNodeType::Allocate &&
            static_cast<const Allocate *>(node)->name == shared_allocation_name)
            found = static_cast<const Allocate *>(node);
    });
    return found;
}

Stmt fuse(const Stmt &s) {
    return fuse_gpu_thread_loops(canonical_gpu_names(s));
}

} // namespace

TEST_CASE("constant bounds of clamped tile extents", "[lower][gpu]") {
    Expr a = ivar("a"), m = ivar("m");
    std::map<std::string, Expr> lets;
    // min(a + 15, m) - min(a, m) + 1 is at most 16 and at least 1.
    Expr e = Add::make(Sub::make(Min::make(Add::make(a, 15), m), Min::make(a, m)), 1);
    REQUIRE(constant_bound(e, true, lets) == 16);
    REQUIRE(constant_bound(e, false, lets) == 1);
    // Through lets, with a constant on the outside of one clamp.
    lets["hi"] = Add::make(Min::make(Add::make(a, 15), m), 2);
    lets["lo"] = Min::make(a, m);
    REQUIRE(constant_bound(Add::make(Sub::make(ivar("hi"), ivar("lo")), 1), true, lets) == 18);
    // Nothing bounds a free variable.
    REQUIRE_FALSE(constant_bound(Add::make(a, 1), true, lets).has_value());
}

TEST_CASE("symbolic bounds of tiles sized by a Param", "[lower][gpu]") {
    Expr b = ivar("b"), t = ivar("t"), m = ivar("m");
    std::map<std::string, Expr> lets;
    lets["hi"] = Min::make(Add::make(Mul::make(b, t), t), m);
    lets["lo"] = Min::make(Mul::make(b, t), m);
    Expr bound = symbolic_upper_bound(Add::make(Sub::make(ivar("hi"), ivar("lo")), 1), lets);
    REQUIRE(bound.defined());
    // The block index cancels: the bound depends on the Param only.
    REQUIRE_FALSE(expr_uses_var(bound, "b"));
    REQUIRE(expr_uses_var(bound, "t"));
}

TEST_CASE("fused block: largest thread extent, guards, one barrier", "[lower][gpu]") {
    // A producer of 18 threads in shared memory, a consumer of 16 threads.
    Stmt produce = thread_store("p.s0.x", "p", 18, ivar("p.s0.x"));
    Stmt consume = thread_store(
        "f.s0.x.xi", "out", 16,
        Add::make(load("p", ivar("f.s0.x.xi")), load("p", Add::make(ivar("f.s0.x.xi"), 2))));
    Stmt body = Allocate::make("p", Int(32), MemoryType::Auto, {Expr(18)}, const_true(),
                               Block::make(produce, consume));
    Stmt kernel = gpu_loop("f.s0.x.xo", ForType::GPUBlock, 10, body);
    Stmt fused = fuse(kernel);
    REQUIRE(count_barriers(fused) == 1);
    const Allocate *shared = shared_allocation(fused);
    REQUIRE(shared);
    REQUIRE(as_const_int(shared->extents[0]) == 80); // 18 ints rounded up to 16 bytes
    // Block size markers: 18 x 1 x 1.
    const auto *f = fused.as<For>();
    REQUIRE(f);
    const auto *lx = f->body.as<LetStmt>();
    REQUIRE(lx);
    REQUIRE(lx->name == gpu_threads_marker(0));
    REQUIRE(as_const_int(lx->value) == 18);
    // The consumer (16 threads) is guarded, the producer (18 = block size) is not.
    int guards = 0;
    visit_all(fused, [&](const IRNode *n) {
        if (n->node_type == IRNodeType::IfThenElse) guards++;
    });
    REQUIRE(guards == 1);
}

TEST_CASE("no barrier between stages that share no shared memory", "[lower][gpu]") {
    Stmt a = thread_store("f.s0.x.xi", "out", 16, ivar("f.s0.x.xi"));
    Stmt b = thread_store("g.s0.x.xi", "out2", 16, load("in", ivar("g.s0.x.xi")));
    Stmt fused = fuse(gpu_loop("f.s0.x.xo", ForType::GPUBlock, 4, Block::make(a, b)));
    REQUIRE(count_barriers(fused) == 0);
    REQUIRE_FALSE(shared_allocation(fused));
}

TEST_CASE("sibling shared allocations reuse the same bytes", "[lower][gpu]") {
    auto stage = [&](const std::string &buf, int n, const std::string &out) {
        Stmt produce = thread_store(buf + ".s0.x", buf, n, ivar(buf + ".s0.x"));
        Stmt consume = thread_store(out + ".s0.x", out, n, load(buf, ivar(out + ".s0.x")));
        return Allocate::make(buf, Int(32), MemoryType::GPUShared, {Expr(n)}, const_true(),
                              Block::make(produce, consume));
    };
    Stmt body = Block::make(stage("a", 64, "out"), stage("b", 32, "out2"));
    Stmt fused = fuse(gpu_loop("f.s0.x.xo", ForType::GPUBlock, 4, body));
    const Allocate *shared = shared_allocation(fused);
    REQUIRE(shared);
    REQUIRE(as_const_int(shared->extents[0]) == 256); // max(256, 128), not the sum
    // b's producer overwrites what a's consumer read: a barrier between them too.
    REQUIRE(count_barriers(fused) == 3);
}

namespace {

/** The k loop of a staged matrix product: each iteration stages a slice of
 *  A and of B in shared memory (b's producer reading b_reads), then a
 *  consumer reads both. Nested as lowering nests them: a's consumer holds
 *  b's allocation and production. */
Stmt staged_slices_kernel(const Expr &b_reads) {
    Stmt produce_a =
        ProducerConsumer::make_produce("a", thread_store("a.s0.x", "a", 16, ivar("a.s0.x")));
    Stmt produce_b = ProducerConsumer::make_produce("b", thread_store("b.s0.x", "b", 16, b_reads));
    Stmt consume =
        thread_store("f.s0.x.xi", "out", 16,
                     Add::make(load("a", ivar("f.s0.x.xi")), load("b", ivar("f.s0.x.xi"))));
    Stmt b_stage =
        Allocate::make("b", Int(32), MemoryType::Auto, {Expr(16)}, const_true(),
                       Block::make(produce_b, ProducerConsumer::make_consume("b", consume)));
    Stmt a_stage =
        Allocate::make("a", Int(32), MemoryType::Auto, {Expr(16)}, const_true(),
                       Block::make(produce_a, ProducerConsumer::make_consume("a", b_stage)));
    Stmt k_loop = For::make("f.s0.k", Expr(0), Expr(8), ForType::Serial, DeviceAPI::None, a_stage);
    return gpu_loop("f.s0.x.xo", ForType::GPUBlock, 4, k_loop);
}

} // namespace

TEST_CASE("one barrier after two independent shared-memory producers", "[lower][gpu]") {
    // b's producer does not read a: one barrier before the consumer, one
    // at the end of each iteration (the next one overwrites a and b).
    Stmt fused = fuse(staged_slices_kernel(ivar("b.s0.x")));
    REQUIRE(count_barriers(fused) == 2);
    // The end-of-iteration barrier is the last statement of the k loop.
    const For *k_loop = nullptr;
    visit_all(fused, [&](const IRNode *n) {
        if (n->node_type == IRNodeType::For && static_cast<const For *>(n)->name == "f.s0.k")
            k_loop = static_cast<const For *>(n);
    });
    REQUIRE(k_loop);
    const auto *last = k_loop->body.as<Block>();
    REQUIRE(last);
    while (last->rest.as<Block>()) last = last->rest.as<Block>();
    const auto *barrier = last->rest.as<Evaluate>();
    REQUIRE(barrier);
    REQUIRE(count_barriers(barrier) == 1);
}

TEST_CASE("a barrier between shared-memory producers when the second reads the first",
          "[lower][gpu]") {
    // b's producer reads what a's producer wrote: a barrier between them too.
    Stmt fused = fuse(staged_slices_kernel(load("a", ivar("b.s0.x"))));
    REQUIRE(count_barriers(fused) == 3);
}

TEST_CASE("outlined kernel: closure, grid and block size", "[lower][gpu]") {
    Stmt consume = thread_store("f.s0.x.xi", "out", 16,
                                Add::make(load("in", ivar("f.s0.x.xi")), ivar("offset")));
    Stmt kernel = gpu_loop("f.s0.x.xo", ForType::GPUBlock, ivar("blocks"), consume);
    std::vector<DeviceKernel> kernels;
    Stmt host = outline_gpu_kernels(fuse(kernel), kernels);
    REQUIRE(kernels.size() == 1);
    const DeviceKernel &k = kernels[0];
    REQUIRE(k.name == "f_s0_x_xo");
    REQUIRE(k.func_name == "f");
    REQUIRE(k.threads[0] == 16);
    REQUIRE(k.block_dims == 1);
    REQUIRE(k.args.size() == 3);
    REQUIRE(k.args[0].name == "in");
    REQUIRE(k.args[0].read);
    REQUIRE_FALSE(k.args[0].written);
    REQUIRE(k.args[1].name == "out");
    REQUIRE(k.args[1].written);
    REQUIRE(k.args[2].name == "offset");
    REQUIRE_FALSE(k.args[2].is_buffer);
    // The host launches it with the grid of the block loop.
    bool launched = false;
    visit_all(host, [&](const IRNode *n) {
        if (n->node_type != IRNodeType::Call) return;
        const auto *c = static_cast<const Call *>(n);
        if (c->name != device_run_function) return;
        launched = true;
        REQUIRE(c->args[3].as<StringImm>()->value == "f_s0_x_xo");
        REQUIRE(c->args[4].as<Variable>()->name == "blocks");
        REQUIRE(as_const_int(c->args[7]) == 16);
        REQUIRE(c->args[11].as<StringImm>()->value == "bb4");
    });
    REQUIRE(launched);
    REQUIRE_FALSE(contains_gpu_loop(host));
}
