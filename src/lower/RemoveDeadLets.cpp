#include "lower/RemoveDeadLets.h"

#include <map>
#include <string>
#include <vector>

#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

namespace {

/** Drops lets of pure values that nothing uses, in one pass: each binding
 * in scope (a Let, LetStmt or For name) counts the uses of its name in what
 * is kept of its body, so the cost is linear in the size of the IR rather
 * than one walk of the body per let. A let's body is mutated first, so that
 * uses inside the values of dead inner lets (which are dropped unvisited) do
 * not count. Loads and stores name their buffer (a LetStmt-bound host
 * pointer) rather than using a Variable, so they count as uses of a handle
 * let too. */
class DeadLetRemover : public IRMutator {
    struct Binding {
        bool is_loop = false;
        int var_uses = 0;
        int buffer_uses = 0;
    };
    std::map<std::string, std::vector<Binding>> scope;

    /** Counts the uses of name while its body is mutated. */
    template <typename Body>
    Binding with_binding(const std::string &name, bool is_loop, Body body) {
        std::vector<Binding> &stack = scope[name];
        stack.push_back(Binding{is_loop, 0, 0});
        body();
        std::vector<Binding> &after = scope[name];
        Binding b = after.back();
        after.pop_back();
        return b;
    }

    void count_buffer_use(const std::string &name) {
        auto it = scope.find(name);
        if (it == scope.end()) return;
        for (auto b = it->second.rbegin(); b != it->second.rend(); ++b)
            if (!b->is_loop) {
                b->buffer_uses++;
                return;
            }
    }

    static bool used(const Binding &b, const Expr &value) {
        return b.var_uses > 0 || (value.type().is_handle() && b.buffer_uses > 0);
    }

protected:
    using IRMutator::visit;

    Expr visit(const Variable *op) override {
        auto it = scope.find(op->name);
        if (it != scope.end() && !it->second.empty()) it->second.back().var_uses++;
        return op;
    }

    Expr visit(const Load *op) override {
        count_buffer_use(op->name);
        return IRMutator::visit(op);
    }

    Stmt visit(const Store *op) override {
        count_buffer_use(op->name);
        return IRMutator::visit(op);
    }

    Stmt visit(const For *op) override {
        Expr min = mutate(op->min), extent = mutate(op->extent);
        Stmt body;
        with_binding(op->name, true, [&] { body = mutate(op->body); });
        if (min.same_as(op->min) && extent.same_as(op->extent) && body.same_as(op->body)) return op;
        return For::make(op->name, min, extent, op->for_type, op->device_api, body);
    }

    Stmt visit(const LetStmt *op) override {
        Stmt body;
        Binding b = with_binding(op->name, false, [&] { body = mutate(op->body); });
        if (!used(b, op->value) && is_pure(op->value)) return body;
        Expr value = mutate(op->value);
        if (body.same_as(op->body) && value.same_as(op->value)) return op;
        return LetStmt::make(op->name, value, body);
    }

    Expr visit(const Let *op) override {
        Expr body;
        Binding b = with_binding(op->name, false, [&] { body = mutate(op->body); });
        if (b.var_uses == 0 && is_pure(op->value)) return body;
        Expr value = mutate(op->value);
        if (body.same_as(op->body) && value.same_as(op->value)) return op;
        return Let::make(op->name, value, body);
    }
};

} // namespace

Stmt remove_dead_lets(const Stmt &s) {
    return DeadLetRemover().mutate(s);
}

} // namespace Internal
} // namespace loom
