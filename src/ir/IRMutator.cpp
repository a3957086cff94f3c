#include "ir/IRMutator.h"

#include "ir/Error.h"
#include "ir/StackGuard.h"

namespace loom {
namespace Internal {

Expr IRMutator::mutate(const Expr &e) {
    if (!e.defined()) return Expr();
    check_stack();
    const BaseExprNode *n = e.get();
    switch (n->node_type) {
#define LOOM_DISPATCH(T)                                                                           \
    case IRNodeType::T:                                                                            \
        return visit(static_cast<const T *>(n));
        LOOM_DISPATCH(IntImm)
        LOOM_DISPATCH(UIntImm)
        LOOM_DISPATCH(FloatImm)
        LOOM_DISPATCH(StringImm)
        LOOM_DISPATCH(Cast)
        LOOM_DISPATCH(Reinterpret)
        LOOM_DISPATCH(Variable)
        LOOM_DISPATCH(Add)
        LOOM_DISPATCH(Sub)
        LOOM_DISPATCH(Mul)
        LOOM_DISPATCH(Div)
        LOOM_DISPATCH(Mod)
        LOOM_DISPATCH(Min)
        LOOM_DISPATCH(Max)
        LOOM_DISPATCH(EQ)
        LOOM_DISPATCH(NE)
        LOOM_DISPATCH(LT)
        LOOM_DISPATCH(LE)
        LOOM_DISPATCH(GT)
        LOOM_DISPATCH(GE)
        LOOM_DISPATCH(And)
        LOOM_DISPATCH(Or)
        LOOM_DISPATCH(Not)
        LOOM_DISPATCH(Select)
        LOOM_DISPATCH(Load)
        LOOM_DISPATCH(Ramp)
        LOOM_DISPATCH(Broadcast)
        LOOM_DISPATCH(Call)
        LOOM_DISPATCH(Let)
        LOOM_DISPATCH(Shuffle)
    default:
        break;
    }
    internal_error("IRMutator::mutate(Expr) on a statement node");
}

Stmt IRMutator::mutate(const Stmt &s) {
    if (!s.defined()) return Stmt();
    check_stack();
    const BaseStmtNode *n = s.get();
    switch (n->node_type) {
        LOOM_DISPATCH(LetStmt)
        LOOM_DISPATCH(AssertStmt)
        LOOM_DISPATCH(ProducerConsumer)
        LOOM_DISPATCH(For)
        LOOM_DISPATCH(Store)
        LOOM_DISPATCH(Provide)
        LOOM_DISPATCH(Allocate)
        LOOM_DISPATCH(Free)
        LOOM_DISPATCH(Realize)
        LOOM_DISPATCH(Block)
        LOOM_DISPATCH(IfThenElse)
        LOOM_DISPATCH(Evaluate)
#undef LOOM_DISPATCH
    default:
        break;
    }
    internal_error("IRMutator::mutate(Stmt) on an expression node");
}

std::vector<Expr> IRMutator::mutate_exprs(const std::vector<Expr> &es, bool *changed) {
    std::vector<Expr> out;
    out.reserve(es.size());
    bool any = false;
    for (const Expr &e : es) {
        out.push_back(mutate(e));
        any = any || !out.back().same_as(e);
    }
    if (changed) *changed = any;
    return out;
}

Expr IRMutator::visit(const IntImm *op) {
    return op;
}
Expr IRMutator::visit(const UIntImm *op) {
    return op;
}
Expr IRMutator::visit(const FloatImm *op) {
    return op;
}
Expr IRMutator::visit(const StringImm *op) {
    return op;
}
Expr IRMutator::visit(const Variable *op) {
    return op;
}

Expr IRMutator::visit(const Cast *op) {
    Expr v = mutate(op->value);
    if (v.same_as(op->value)) return op;
    return Cast::make(op->type, std::move(v));
}

Expr IRMutator::visit(const Reinterpret *op) {
    Expr v = mutate(op->value);
    if (v.same_as(op->value)) return op;
    return Reinterpret::make(op->type, std::move(v));
}

#define LOOM_MUTATE_BINARY(T)                                                                      \
    Expr IRMutator::visit(const T *op) {                                                           \
        Expr a = mutate(op->a);                                                                    \
        Expr b = mutate(op->b);                                                                    \
        if (a.same_as(op->a) && b.same_as(op->b)) return op;                                       \
        return T::make(std::move(a), std::move(b));                                                \
    }
LOOM_MUTATE_BINARY(Add)
LOOM_MUTATE_BINARY(Sub)
LOOM_MUTATE_BINARY(Mul)
LOOM_MUTATE_BINARY(Div)
LOOM_MUTATE_BINARY(Mod)
LOOM_MUTATE_BINARY(Min)
LOOM_MUTATE_BINARY(Max)
LOOM_MUTATE_BINARY(EQ)
LOOM_MUTATE_BINARY(NE)
LOOM_MUTATE_BINARY(LT)
LOOM_MUTATE_BINARY(LE)
LOOM_MUTATE_BINARY(GT)
LOOM_MUTATE_BINARY(GE)
LOOM_MUTATE_BINARY(And)
LOOM_MUTATE_BINARY(Or)
#undef LOOM_MUTATE_BINARY

Expr IRMutator::visit(const Not *op) {
    Expr a = mutate(op->a);
    if (a.same_as(op->a)) return op;
    return Not::make(std::move(a));
}

Expr IRMutator::visit(const Select *op) {
    Expr c = mutate(op->condition);
    Expr t = mutate(op->true_value);
    Expr f = mutate(op->false_value);
    if (c.same_as(op->condition) && t.same_as(op->true_value) && f.same_as(op->false_value)) {
        return op;
    }
    return Select::make(std::move(c), std::move(t), std::move(f));
}

Expr IRMutator::visit(const Load *op) {
    Expr index = mutate(op->index);
    Expr pred = mutate(op->predicate);
    if (index.same_as(op->index) && pred.same_as(op->predicate)) return op;
    return Load::make(op->type, op->name, std::move(index), op->image, op->param, std::move(pred));
}

Expr IRMutator::visit(const Ramp *op) {
    Expr base = mutate(op->base);
    Expr stride = mutate(op->stride);
    if (base.same_as(op->base) && stride.same_as(op->stride)) return op;
    return Ramp::make(std::move(base), std::move(stride), op->lanes);
}

Expr IRMutator::visit(const Broadcast *op) {
    Expr v = mutate(op->value);
    if (v.same_as(op->value)) return op;
    return Broadcast::make(std::move(v), op->lanes);
}

Expr IRMutator::visit(const Call *op) {
    bool changed = false;
    std::vector<Expr> args = mutate_exprs(op->args, &changed);
    if (!changed) return op;
    // Copy the node so every field (function, image, param, intrinsic) is kept.
    auto *n = new Call(*op);
    n->args = std::move(args);
    return n;
}

Expr IRMutator::visit(const Let *op) {
    Expr value = mutate(op->value);
    Expr body = mutate(op->body);
    if (value.same_as(op->value) && body.same_as(op->body)) return op;
    return Let::make(op->name, std::move(value), std::move(body));
}

Expr IRMutator::visit(const Shuffle *op) {
    bool changed = false;
    std::vector<Expr> vectors = mutate_exprs(op->vectors, &changed);
    if (!changed) return op;
    return Shuffle::make(vectors, op->indices);
}

Stmt IRMutator::visit(const LetStmt *op) {
    Expr value = mutate(op->value);
    Stmt body = mutate(op->body);
    if (value.same_as(op->value) && body.same_as(op->body)) return op;
    return LetStmt::make(op->name, std::move(value), std::move(body));
}

Stmt IRMutator::visit(const AssertStmt *op) {
    Expr c = mutate(op->condition);
    Expr m = mutate(op->message);
    if (c.same_as(op->condition) && m.same_as(op->message)) return op;
    return AssertStmt::make(std::move(c), std::move(m));
}

Stmt IRMutator::visit(const ProducerConsumer *op) {
    Stmt body = mutate(op->body);
    if (body.same_as(op->body)) return op;
    return ProducerConsumer::make(op->name, op->is_producer, std::move(body));
}

Stmt IRMutator::visit(const For *op) {
    Expr min = mutate(op->min);
    Expr extent = mutate(op->extent);
    Stmt body = mutate(op->body);
    if (min.same_as(op->min) && extent.same_as(op->extent) && body.same_as(op->body)) return op;
    return For::make(op->name, std::move(min), std::move(extent), op->for_type, op->device_api,
                     std::move(body));
}

Stmt IRMutator::visit(const Store *op) {
    Expr value = mutate(op->value);
    Expr index = mutate(op->index);
    Expr pred = mutate(op->predicate);
    if (value.same_as(op->value) && index.same_as(op->index) && pred.same_as(op->predicate)) {
        return op;
    }
    return Store::make(op->name, std::move(value), std::move(index), op->image, op->param,
                       std::move(pred), op->streaming);
}

Stmt IRMutator::visit(const Provide *op) {
    bool values_changed = false, args_changed = false;
    std::vector<Expr> values = mutate_exprs(op->values, &values_changed);
    std::vector<Expr> args = mutate_exprs(op->args, &args_changed);
    Expr pred = mutate(op->predicate);
    if (!values_changed && !args_changed && pred.same_as(op->predicate)) return op;
    return Provide::make(op->name, values, args, std::move(pred));
}

Stmt IRMutator::visit(const Allocate *op) {
    bool changed = false;
    std::vector<Expr> extents = mutate_exprs(op->extents, &changed);
    Expr cond = mutate(op->condition);
    Stmt body = mutate(op->body);
    if (!changed && cond.same_as(op->condition) && body.same_as(op->body)) return op;
    return Allocate::make(op->name, op->type, op->memory_type, extents, std::move(cond),
                          std::move(body));
}

Stmt IRMutator::visit(const Free *op) {
    return op;
}

Stmt IRMutator::visit(const Realize *op) {
    bool changed = false;
    Region bounds;
    for (const Range &r : op->bounds) {
        Expr min = mutate(r.min);
        Expr extent = mutate(r.extent);
        changed = changed || !min.same_as(r.min) || !extent.same_as(r.extent);
        bounds.emplace_back(std::move(min), std::move(extent));
    }
    Expr cond = mutate(op->condition);
    Stmt body = mutate(op->body);
    if (!changed && cond.same_as(op->condition) && body.same_as(op->body)) return op;
    return Realize::make(op->name, op->types, op->memory_type, bounds, std::move(cond),
                         std::move(body));
}

Stmt IRMutator::visit(const Block *op) {
    Stmt first = mutate(op->first);
    Stmt rest = mutate(op->rest);
    if (first.same_as(op->first) && rest.same_as(op->rest)) return op;
    // A pass may delete a statement by returning an undefined one.
    return Block::make(std::vector<Stmt>{first, rest});
}

Stmt IRMutator::visit(const IfThenElse *op) {
    Expr c = mutate(op->condition);
    Stmt t = mutate(op->then_case);
    Stmt e = mutate(op->else_case);
    if (c.same_as(op->condition) && t.same_as(op->then_case) && e.same_as(op->else_case)) {
        return op;
    }
    return IfThenElse::make(std::move(c), std::move(t), std::move(e));
}

Stmt IRMutator::visit(const Evaluate *op) {
    Expr v = mutate(op->value);
    if (v.same_as(op->value)) return op;
    return Evaluate::make(std::move(v));
}

} // namespace Internal
} // namespace loom
