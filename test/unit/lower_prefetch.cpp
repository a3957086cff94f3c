#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "Loom.h"
#include "analysis/Simplify.h"
#include "ir/IR.h"
#include "ir/IREquality.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"
#include "ir/Substitute.h"
#include "lower/PrefetchStridedLoads.h"

// prefetch_strided_loads on hand-built loops: which loads get prefetches,
// where they go, and that their indices only name what is in scope there.

using namespace loom;
using namespace loom::Internal;

namespace {

const Target x86("x86-64-linux-avx2-fma");

Expr ivar(const std::string &n) {
    return Variable::make(Int(32), n);
}

Expr load(const std::string &buf, const Expr &index) {
    return Load::make(Float(32), buf, index, Buffer<>(), Parameter());
}

Stmt store(const Expr &value, const Expr &index) {
    return Store::make("out", value, index, Buffer<>(), Parameter());
}

Stmt loop(const std::string &v, const Expr &extent, const Stmt &body) {
    return For::make(v, Expr(0), extent, ForType::Serial, DeviceAPI::None, body);
}

/** The (buffer, index) of each prefetch in s, in order. */
std::vector<std::pair<std::string, Expr>> prefetches(const Stmt &s) {
    std::vector<std::pair<std::string, Expr>> found;
    visit_all(s, [&](const IRNode *n) {
        if (n->node_type != IRNodeType::Call) return;
        const Call *c = static_cast<const Call *>(n);
        if (c->is_intrinsic(Intrinsic::prefetch))
            found.push_back({c->args.at(0).as<StringImm>()->value, c->args.at(1)});
    });
    return found;
}

} // namespace

TEST_CASE("prefetch: a load that steps by a buffer stride is prefetched 8 rows ahead",
          "[unit][lower][prefetch]") {
    // for k: out[k] = b[x + k * s]
    Stmt s =
        loop("k", ivar("n"),
             store(load("b", Add::make(ivar("x"), Mul::make(ivar("k"), ivar("s")))), ivar("k")));
    auto found = prefetches(prefetch_strided_loads(s, x86));
    REQUIRE(found.size() == 1);
    CHECK(found[0].first == "b");
    std::set<std::string> names = free_variables(found[0].second);
    CHECK(names == std::set<std::string>{"x", "k", "s"});
    CHECK(prefetches(prefetch_strided_loads(s, x86.with_feature(Target::NoAutoPrefetch))).empty());
    CHECK(prefetches(prefetch_strided_loads(s, Target("riscv-64-linux"))).empty());
}

TEST_CASE("prefetch: contiguous, small-stride and short loops get none",
          "[unit][lower][prefetch]") {
    // Adjacent elements, a 256-byte stride, a 4 KB stride in 8 iterations.
    Stmt adjacent =
        loop("k", ivar("n"), store(load("b", Add::make(ivar("x"), ivar("k"))), ivar("k")));
    Stmt small = loop("k", ivar("n"), store(load("b", Mul::make(ivar("k"), Expr(64))), ivar("k")));
    Stmt short_loop =
        loop("k", Expr(8), store(load("b", Mul::make(ivar("k"), Expr(1024))), ivar("k")));
    Stmt large =
        loop("k", ivar("n"), store(load("b", Mul::make(ivar("k"), Expr(1024))), ivar("k")));
    CHECK(prefetches(prefetch_strided_loads(adjacent, x86)).empty());
    CHECK(prefetches(prefetch_strided_loads(small, x86)).empty());
    CHECK(prefetches(prefetch_strided_loads(short_loop, x86)).empty());
    CHECK(prefetches(prefetch_strided_loads(large, x86)).size() == 1);
    // A small constant-size buffer stays in L1.
    Stmt on_stack =
        Allocate::make("b", Float(32), MemoryType::Auto, {Expr(16), Expr(16)}, const_true(), large);
    CHECK(prefetches(prefetch_strided_loads(on_stack, x86)).empty());
}

TEST_CASE("prefetch: loads a constant apart share one prefetch per 128 bytes",
          "[unit][lower][prefetch]") {
    // for k: out[ramp(k, 1, 8)] = b[ramp(k * s, 1, 8)] + b[ramp(k * s + d, 1, 8)]
    Expr row = Mul::make(ivar("k"), ivar("s"));
    auto loads_apart = [&](int d) {
        Expr a =
            Load::make(Float(32, 8), "b", Ramp::make(row, Expr(1), 8), Buffer<>(), Parameter());
        Expr b = Load::make(Float(32, 8), "b", Ramp::make(Add::make(row, Expr(d)), Expr(1), 8),
                            Buffer<>(), Parameter());
        return loop("k", ivar("n"), store(Add::make(a, b), Ramp::make(ivar("k"), Expr(1), 8)));
    };
    // Elements 0..23 (96 bytes): one prefetch, 8 rows ahead of the first load.
    auto found = prefetches(prefetch_strided_loads(loads_apart(16), x86));
    REQUIRE(found.size() == 1);
    CHECK(equal(simplify(found[0].second),
                simplify(Add::make(row, Mul::make(Expr(prefetch_distance), ivar("s"))))));
    // Elements 0..71 (288 bytes): at 0, 32 and 64.
    CHECK(prefetches(prefetch_strided_loads(loads_apart(64), x86)).size() == 3);
    // Rows apart (a symbolic distance): two groups.
    Expr c = Load::make(Float(32, 8), "b", Ramp::make(Add::make(row, ivar("s")), Expr(1), 8),
                        Buffer<>(), Parameter());
    Expr a = Load::make(Float(32, 8), "b", Ramp::make(row, Expr(1), 8), Buffer<>(), Parameter());
    Stmt two = loop("k", ivar("n"), store(Add::make(a, c), Ramp::make(ivar("k"), Expr(1), 8)));
    CHECK(prefetches(prefetch_strided_loads(two, x86)).size() == 2);
}

TEST_CASE("prefetch: indices use the loop's lets but not expression lets out of scope",
          "[unit][lower][prefetch]") {
    // for k: let r = k * s in out[k] = (let t = r + x in b[t])
    Expr value = Let::make("t", Add::make(ivar("r"), ivar("x")), load("b", ivar("t")));
    Stmt body = LetStmt::make("r", Mul::make(ivar("k"), ivar("s")), store(value, ivar("k")));
    Stmt s = loop("k", ivar("n"), body);
    Stmt result = prefetch_strided_loads(s, x86);
    auto found = prefetches(result);
    REQUIRE(found.size() == 1);
    std::set<std::string> names = free_variables(found[0].second);
    CHECK_FALSE(names.count("t"));
    CHECK(names.count("r"));
    // The prefetch sits inside the let of r, before the store.
    const For *f = result.as<For>();
    REQUIRE(f);
    const LetStmt *let = f->body.as<LetStmt>();
    REQUIRE(let);
    CHECK(let->body.as<Block>());
}

TEST_CASE("prefetch: an index whose lets expand to a huge tree is left alone",
          "[unit][lower][prefetch]") {
    // r0 = k * s, r(i) = r(i-1) + r(i-1): r24 written out has 2^24 nodes.
    // Grouping its two loads would simplify that tree.
    Expr index = ivar("r24");
    Stmt body = store(Add::make(load("b", index), load("b", Add::make(index, Expr(1)))), ivar("k"));
    for (int i = 24; i >= 1; i--) {
        std::string prev = "r" + std::to_string(i - 1);
        body = LetStmt::make("r" + std::to_string(i), Add::make(ivar(prev), ivar(prev)), body);
    }
    body = LetStmt::make("r0", Mul::make(ivar("k"), ivar("s")), body);
    CHECK(prefetches(prefetch_strided_loads(loop("k", ivar("n"), body), x86)).empty());
    CHECK(tree_size(substitute("r0", ivar("k"), Add::make(ivar("r0"), ivar("r0")))) == 3);
}
