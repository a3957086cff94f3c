#include "lower/RemoveDeadLets.h"

#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

namespace {

/** Loads and stores name their buffer (a LetStmt-bound host pointer) rather
 * than using a Variable, so they count as uses too. */
bool uses_buffer(const Stmt &s, const std::string &name) {
    bool used = false;
    visit_all(s, [&](const IRNode *node) {
        if (used) return;
        if (node->node_type == IRNodeType::Load)
            used = static_cast<const Load *>(node)->name == name;
        if (node->node_type == IRNodeType::Store)
            used = static_cast<const Store *>(node)->name == name;
    });
    return used;
}

class DeadLetRemover : public IRMutator {
protected:
    using IRMutator::visit;

    Stmt visit(const LetStmt *op) override {
        Stmt body = mutate(op->body);
        bool used = stmt_uses_var(body, op->name) ||
                    (op->value.type().is_handle() && uses_buffer(body, op->name));
        if (!used && is_pure(op->value)) return body;
        Expr value = mutate(op->value);
        if (body.same_as(op->body) && value.same_as(op->value)) return op;
        return LetStmt::make(op->name, value, body);
    }

    Expr visit(const Let *op) override {
        Expr body = mutate(op->body);
        if (!expr_uses_var(body, op->name) && is_pure(op->value)) return body;
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
