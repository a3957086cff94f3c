#include "ir/IRVisitor.h"

namespace loom {
namespace Internal {

namespace {
void visit_if_defined(IRVisitor *v, const Expr &e) {
    if (e.defined()) e.accept(v);
}
void visit_if_defined(IRVisitor *v, const Stmt &s) {
    if (s.defined()) s.accept(v);
}
} // namespace

void IRVisitor::visit(const Cast *op) {
    op->value.accept(this);
}
void IRVisitor::visit(const Reinterpret *op) {
    op->value.accept(this);
}

#define LOOM_VISIT_BINARY(T)                                                                       \
    void IRVisitor::visit(const T *op) {                                                           \
        op->a.accept(this);                                                                        \
        op->b.accept(this);                                                                        \
    }
LOOM_VISIT_BINARY(Add)
LOOM_VISIT_BINARY(Sub)
LOOM_VISIT_BINARY(Mul)
LOOM_VISIT_BINARY(Div)
LOOM_VISIT_BINARY(Mod)
LOOM_VISIT_BINARY(Min)
LOOM_VISIT_BINARY(Max)
LOOM_VISIT_BINARY(EQ)
LOOM_VISIT_BINARY(NE)
LOOM_VISIT_BINARY(LT)
LOOM_VISIT_BINARY(LE)
LOOM_VISIT_BINARY(GT)
LOOM_VISIT_BINARY(GE)
LOOM_VISIT_BINARY(And)
LOOM_VISIT_BINARY(Or)
#undef LOOM_VISIT_BINARY

void IRVisitor::visit(const Not *op) {
    op->a.accept(this);
}

void IRVisitor::visit(const Select *op) {
    op->condition.accept(this);
    op->true_value.accept(this);
    op->false_value.accept(this);
}

void IRVisitor::visit(const Load *op) {
    op->index.accept(this);
    visit_if_defined(this, op->predicate);
}

void IRVisitor::visit(const Ramp *op) {
    op->base.accept(this);
    op->stride.accept(this);
}

void IRVisitor::visit(const Broadcast *op) {
    op->value.accept(this);
}

void IRVisitor::visit(const Call *op) {
    for (const Expr &a : op->args) a.accept(this);
}

void IRVisitor::visit(const Let *op) {
    op->value.accept(this);
    op->body.accept(this);
}

void IRVisitor::visit(const Shuffle *op) {
    for (const Expr &v : op->vectors) v.accept(this);
}

void IRVisitor::visit(const LetStmt *op) {
    op->value.accept(this);
    op->body.accept(this);
}

void IRVisitor::visit(const AssertStmt *op) {
    op->condition.accept(this);
    op->message.accept(this);
}

void IRVisitor::visit(const ProducerConsumer *op) {
    op->body.accept(this);
}

void IRVisitor::visit(const For *op) {
    op->min.accept(this);
    op->extent.accept(this);
    op->body.accept(this);
}

void IRVisitor::visit(const Store *op) {
    op->value.accept(this);
    op->index.accept(this);
    visit_if_defined(this, op->predicate);
}

void IRVisitor::visit(const Provide *op) {
    for (const Expr &v : op->values) v.accept(this);
    for (const Expr &a : op->args) a.accept(this);
    visit_if_defined(this, op->predicate);
}

void IRVisitor::visit(const Allocate *op) {
    for (const Expr &e : op->extents) e.accept(this);
    visit_if_defined(this, op->condition);
    op->body.accept(this);
}

void IRVisitor::visit(const Realize *op) {
    for (const Range &r : op->bounds) {
        r.min.accept(this);
        r.extent.accept(this);
    }
    visit_if_defined(this, op->condition);
    op->body.accept(this);
}

void IRVisitor::visit(const Block *op) {
    op->first.accept(this);
    op->rest.accept(this);
}

void IRVisitor::visit(const IfThenElse *op) {
    op->condition.accept(this);
    op->then_case.accept(this);
    visit_if_defined(this, op->else_case);
}

void IRVisitor::visit(const Evaluate *op) {
    op->value.accept(this);
}

// Emit every node's accept() here, so translation units that build nodes
// without including this header still link.
template struct ExprNode<IntImm>;
template struct ExprNode<UIntImm>;
template struct ExprNode<FloatImm>;
template struct ExprNode<StringImm>;
template struct ExprNode<Cast>;
template struct ExprNode<Reinterpret>;
template struct ExprNode<Variable>;
template struct ExprNode<Add>;
template struct ExprNode<Sub>;
template struct ExprNode<Mul>;
template struct ExprNode<Div>;
template struct ExprNode<Mod>;
template struct ExprNode<Min>;
template struct ExprNode<Max>;
template struct ExprNode<EQ>;
template struct ExprNode<NE>;
template struct ExprNode<LT>;
template struct ExprNode<LE>;
template struct ExprNode<GT>;
template struct ExprNode<GE>;
template struct ExprNode<And>;
template struct ExprNode<Or>;
template struct ExprNode<Not>;
template struct ExprNode<Select>;
template struct ExprNode<Load>;
template struct ExprNode<Ramp>;
template struct ExprNode<Broadcast>;
template struct ExprNode<Call>;
template struct ExprNode<Let>;
template struct ExprNode<Shuffle>;
template struct StmtNode<LetStmt>;
template struct StmtNode<AssertStmt>;
template struct StmtNode<ProducerConsumer>;
template struct StmtNode<For>;
template struct StmtNode<Store>;
template struct StmtNode<Provide>;
template struct StmtNode<Allocate>;
template struct StmtNode<Free>;
template struct StmtNode<Realize>;
template struct StmtNode<Block>;
template struct StmtNode<IfThenElse>;
template struct StmtNode<Evaluate>;

} // namespace Internal
} // namespace loom
