#include <catch2/catch.hpp>

#include <map>
#include <random>

#include "analysis/CSE.h"
#include "ir/IREquality.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"
#include "ir/IRVisitor.h"
#include "ir/Substitute.h"

using namespace loom;
using namespace loom::Internal;

namespace {

Expr var(const std::string &name) {
    return Variable::make(Int(32), name);
}

// Evaluates scalar int32/bool expressions over an environment of variables.
class Evaluator : public IRVisitor {
    std::map<std::string, std::vector<int64_t>> env;
    int64_t result = 0;

    int64_t eval(const Expr &e) {
        e.accept(this);
        return result;
    }

public:
    explicit Evaluator(const std::map<std::string, int64_t> &vars) {
        for (auto &kv : vars) env[kv.first].push_back(kv.second);
    }
    int64_t operator()(const Expr &e) { return eval(e); }

    using IRVisitor::visit;
    void visit(const IntImm *op) override { result = op->value; }
    void visit(const UIntImm *op) override { result = int64_t(op->value); }
    void visit(const Variable *op) override {
        auto it = env.find(op->name);
        REQUIRE(it != env.end());
        result = it->second.back();
    }
    void visit(const Add *op) override { result = int32_t(eval(op->a) + eval(op->b)); }
    void visit(const Sub *op) override { result = int32_t(eval(op->a) - eval(op->b)); }
    void visit(const Mul *op) override { result = int32_t(eval(op->a) * eval(op->b)); }
    void visit(const Min *op) override { result = std::min(eval(op->a), eval(op->b)); }
    void visit(const Max *op) override { result = std::max(eval(op->a), eval(op->b)); }
    void visit(const LT *op) override { result = eval(op->a) < eval(op->b); }
    void visit(const Select *op) override {
        int64_t c = eval(op->condition);
        int64_t t = eval(op->true_value), f = eval(op->false_value);
        result = c ? t : f;
    }
    void visit(const Let *op) override {
        int64_t v = eval(op->value);
        env[op->name].push_back(v);
        int64_t b = eval(op->body);
        env[op->name].pop_back();
        result = b;
    }
    void visit(const Call *op) override {
        if (op->is_intrinsic(Intrinsic::if_then_else)) {
            result = eval(op->args[0]) ? eval(op->args[1]) : eval(op->args[2]);
            return;
        }
        int64_t sum = 0; // a stand-in pure function: the sum of the arguments
        for (const Expr &a : op->args) sum += eval(a);
        result = int32_t(sum);
    }
};

int count_nodes(const Expr &e) {
    int n = 0;
    visit_all(e, [&](const IRNode *) { n++; });
    return n;
}

int count_lets(const Expr &e) {
    int n = 0;
    visit_all(e, [&](const IRNode *node) { n += node->node_type == IRNodeType::Let; });
    return n;
}

// A random expression over x, y, z drawn from a small pool so that
// subexpressions repeat.
Expr random_expr(std::mt19937 &rng, int depth) {
    std::uniform_int_distribution<int> pick(0, 7);
    if (depth == 0) {
        switch (pick(rng) % 4) {
        case 0:
            return var("x");
        case 1:
            return var("y");
        case 2:
            return var("z");
        default:
            return Expr(int(rng() % 5));
        }
    }
    Expr a = random_expr(rng, depth - 1), b = random_expr(rng, depth - 1);
    switch (pick(rng)) {
    case 0:
        return Add::make(a, b);
    case 1:
        return Sub::make(a, b);
    case 2:
        return Mul::make(a, b);
    case 3:
        return Min::make(a, b);
    case 4:
        return Max::make(a, b);
    case 5:
        return Select::make(LT::make(a, b), a, b);
    case 6:
        return Let::make("x", a, Add::make(var("x"), b));
    default:
        return Add::make(a, a);
    }
}

} // namespace

TEST_CASE("cse hoists a repeated subexpression into one let", "[cse]") {
    Expr x = var("x"), y = var("y");
    Expr xy = Add::make(x, y);
    Expr e = Mul::make(Add::make(x, y), Add::make(Add::make(x, y), 1));
    Expr r = common_subexpression_elimination(e);
    INFO(r);
    const Let *let = r.as<Let>();
    REQUIRE(let);
    CHECK(equal(let->value, xy));
    Expr t = Variable::make(Int(32), let->name);
    CHECK(equal(let->body, Mul::make(t, Add::make(t, 1))));
    CHECK(equal(substitute_in_all_lets(r), e));
}

TEST_CASE("cse leaves trivial and unique subexpressions alone", "[cse]") {
    Expr x = var("x");
    Expr e = Add::make(Mul::make(x, 3), Mul::make(x, 4));
    CHECK(common_subexpression_elimination(e).same_as(e));
    Expr consts = Add::make(Add::make(x, 3), Mul::make(x, 3));
    CHECK(count_lets(common_subexpression_elimination(consts)) == 0);
}

TEST_CASE("cse nests lets so that definitions come first", "[cse]") {
    Expr x = var("x"), y = var("y");
    Expr inner = Add::make(x, y);
    Expr outer = Mul::make(inner, inner);
    Expr e = Add::make(Sub::make(outer, inner), Max::make(outer, 0));
    Expr r = common_subexpression_elimination(e);
    INFO(r);
    const Let *first = r.as<Let>();
    REQUIRE(first);
    CHECK(equal(first->value, inner));
    const Let *second = first->body.as<Let>();
    REQUIRE(second);
    CHECK(expr_uses_var(second->value, first->name));
    CHECK(equal(substitute_in_all_lets(r), e));
    CHECK(count_nodes(r) < count_nodes(e));
}

TEST_CASE("cse does not hoist impure calls", "[cse]") {
    Expr x = var("x");
    Expr rnd = Call::make(Int(32), "rand", {x}, Call::Extern);
    Expr e = Add::make(Add::make(rnd, 1), Add::make(rnd, 1));
    CHECK(count_lets(common_subexpression_elimination(e)) == 0);

    Expr pure = Call::make(Int(32), "f", {x}, Call::PureExtern);
    Expr p = Add::make(Add::make(pure, 1), Add::make(pure, 1));
    CHECK(count_lets(common_subexpression_elimination(p)) == 1);
}

TEST_CASE("cse keeps existing lets correct under shadowing", "[cse]") {
    Expr x = var("x"), y = var("y");
    // (x + y) outside the let means the outer x; inside the body, the let's x.
    Expr outside = Add::make(x, y);
    Expr e = Add::make(Mul::make(outside, outside),
                       Let::make("x", Expr(7), Mul::make(Add::make(x, y), Add::make(x, y))));
    Expr r = common_subexpression_elimination(e);
    INFO(r);
    Evaluator eval({{"x", 3}, {"y", 4}});
    CHECK(eval(r) == eval(e));
    CHECK(eval(e) == 49 + 121);
}

TEST_CASE("cse does not evaluate lazy branches eagerly", "[cse]") {
    Expr x = var("x");
    Expr x1 = Add::make(x, 1);
    Expr costly = Mul::make(x1, x1);
    Expr ite = Call::make(Int(32), Intrinsic::if_then_else, {LT::make(x, 0), costly, Expr(0)});
    Expr e = Add::make(ite, Mul::make(x1, 2));
    Expr r = common_subexpression_elimination(e);
    INFO(r);
    // x + 1 is shared with the lazy branch only, so it is not hoisted above it;
    // the branch gets its own let instead.
    const Add *sum = r.as<Add>();
    REQUIRE(sum);
    const Call *call = sum->a.as<Call>();
    REQUIRE(call);
    CHECK(call->args[1].as<Let>());
    CHECK(equal(substitute_in_all_lets(r), e));
}

TEST_CASE("cse on statements applies to every expression", "[cse]") {
    Expr x = var("x"), y = var("y");
    Expr xy = Add::make(x, y);
    Stmt s =
        For::make("x", 0, 10, ForType::Serial, DeviceAPI::None,
                  Store::make("f", Mul::make(xy, Add::make(x, y)), x, Buffer<>(), Parameter()));
    Stmt r = common_subexpression_elimination(s);
    const For *loop = r.as<For>();
    REQUIRE(loop);
    const Store *store = loop->body.as<Store>();
    REQUIRE(store);
    CHECK(store->value.as<Let>());
    CHECK(store->index.same_as(x));
}

TEST_CASE("cse preserves values of random expressions", "[cse]") {
    std::mt19937 rng(12345);
    int shrunk = 0;
    for (int trial = 0; trial < 200; trial++) {
        Expr e = random_expr(rng, 4);
        Expr r = common_subexpression_elimination(e);
        INFO(e << "\n=> " << r);
        for (int64_t x = -2; x <= 2; x++) {
            Evaluator eval({{"x", x}, {"y", 3 - x}, {"z", 7}});
            REQUIRE(eval(r) == eval(e));
        }
        // Idempotent up to renaming: a second pass finds nothing more to share.
        CHECK(count_lets(common_subexpression_elimination(r)) == count_lets(r));
        if (count_nodes(r) < count_nodes(e)) shrunk++;
        CHECK(count_nodes(r) <= count_nodes(e) + 2 * count_lets(r));
    }
    CHECK(shrunk > 50);
}

TEST_CASE("cse handles expressions shared as a DAG without blowing up", "[cse]") {
    Expr e = var("x");
    for (int i = 0; i < 40; i++) e = Add::make(e, e); // 2^40 nodes as a tree
    Expr r = common_subexpression_elimination(e);
    CHECK(count_lets(r) > 0);
    Evaluator eval({{"x", 1}});
    // Evaluating the let form is linear in size.
    CHECK(eval(r) == 0); // 2^40 wraps to 0 in int32
}
