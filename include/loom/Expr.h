#ifndef LOOM_EXPR_H
#define LOOM_EXPR_H

/** \file Expr and Stmt: handles to nodes of Loom's intermediate representation.
 *
 * The node types themselves are internal (src/ir/IR.h); user code builds
 * expressions through the operators in loom/IROperator.h, Var, Func and Param.
 */

#include <cstdint>
#include <iosfwd>
#include <string>
#include <type_traits>
#include <vector>

#include "loom/IntrusivePtr.h"
#include "loom/Type.h"

namespace loom {
namespace Internal {

/** Every IR node kind; expressions first, then statements. */
enum class IRNodeType : uint8_t {
    // Expressions
    IntImm,
    UIntImm,
    FloatImm,
    StringImm,
    Cast,
    Reinterpret,
    Variable,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Min,
    Max,
    EQ,
    NE,
    LT,
    LE,
    GT,
    GE,
    And,
    Or,
    Not,
    Select,
    Load,
    Ramp,
    Broadcast,
    Call,
    Let,
    Shuffle,
    // Statements
    LetStmt,
    AssertStmt,
    ProducerConsumer,
    For,
    Store,
    Provide,
    Allocate,
    Free,
    Realize,
    Block,
    IfThenElse,
    Evaluate,
};

class IRVisitor;

struct IRNode : RefCounted {
    IRNodeType node_type;
    explicit IRNode(IRNodeType t) : node_type(t) {}
    virtual void accept(IRVisitor *v) const = 0;
};

struct BaseExprNode : IRNode {
    Type type;
    explicit BaseExprNode(IRNodeType t) : IRNode(t) {}
};

struct BaseStmtNode : IRNode {
    explicit BaseStmtNode(IRNodeType t) : IRNode(t) {}
};

/** Shared handle behaviour of Expr and Stmt. */
template <typename Node> struct IRHandle : IntrusivePtr<const Node> {
    IRHandle() = default;
    IRHandle(const Node *n) : IntrusivePtr<const Node>(n) {}
    void accept(IRVisitor *v) const { this->ptr->accept(v); }
    /** Downcast to a node type; nullptr when the node is of another kind. */
    template <typename T> const T *as() const {
        if (this->ptr && this->ptr->node_type == T::_node_type)
            return static_cast<const T *>(this->ptr);
        return nullptr;
    }
    IRNodeType node_type() const { return this->ptr->node_type; }
};

/** Constant-node constructors used by Expr's converting constructors. */
const BaseExprNode *make_int_imm_node(Type t, int64_t v);
const BaseExprNode *make_uint_imm_node(Type t, uint64_t v);
const BaseExprNode *make_float_imm_node(Type t, double v);

} // namespace Internal

/** A handle to an expression node. Converts implicitly from C++ numbers:
 * bool -> Bool(), int -> Int(32), other integers to the matching int/uint type,
 * float -> Float(32), double -> Float(64). */
struct Expr : Internal::IRHandle<Internal::BaseExprNode> {
    Expr() = default;
    Expr(const Internal::BaseExprNode *n) : IRHandle(n) {}

    template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
    Expr(T v) : IRHandle(make_constant(v)) {}
    /** Float(16) and BFloat(16) constants. */
    Expr(float16_t v) : IRHandle(Internal::make_float_imm_node(Float(16), double(v))) {}
    Expr(bfloat16_t v) : IRHandle(Internal::make_float_imm_node(BFloat(16), double(v))) {}

    /** The type of the expression; Type() when undefined. */
    Type type() const { return ptr ? ptr->type : Type(); }

private:
    template <typename T> static const Internal::BaseExprNode *make_constant(T v) {
        Type t = type_of<T>();
        if constexpr (std::is_floating_point_v<T>) {
            return Internal::make_float_imm_node(t, double(v));
        } else if constexpr (std::is_same_v<T, bool> || std::is_unsigned_v<T>) {
            return Internal::make_uint_imm_node(t, uint64_t(v));
        } else {
            return Internal::make_int_imm_node(t, int64_t(v));
        }
    }
};

/** A handle to a statement node (internal IR; users rarely see one). */
struct Stmt : Internal::IRHandle<Internal::BaseStmtNode> {
    Stmt() = default;
    Stmt(const Internal::BaseStmtNode *n) : IRHandle(n) {}
};

/** Prints the expression in C-like syntax, e.g. "(x + 1)". */
std::ostream &operator<<(std::ostream &os, const Expr &e);

/** a = a + b etc., keeping the type of a: b is cast to it first (as in
 * Halide). Defined with the operators of loom/IROperator.h. */
Expr &operator+=(Expr &a, Expr b);
Expr &operator-=(Expr &a, Expr b);
Expr &operator*=(Expr &a, Expr b);
Expr &operator/=(Expr &a, Expr b);

/** A half-open range of coordinates [min, min + extent), e.g. the estimate
 * or bound of one dimension. */
struct Range {
    Expr min, extent;
    Range() = default;
    Range(Expr m, Expr e) : min(std::move(m)), extent(std::move(e)) {}
};
/** One Range per dimension. */
using Region = std::vector<Range>;

/** Orders Exprs by node identity, for use as map keys. */
struct ExprCompare {
    bool operator()(const Expr &a, const Expr &b) const { return a.get() < b.get(); }
};

} // namespace loom

#endif
