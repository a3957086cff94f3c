#ifndef LOOM_CODEGEN_CODEGEN_VISITOR_H
#define LOOM_CODEGEN_CODEGEN_VISITOR_H

// The base of the code generators (CodeGen_C, CodeGen_LLVM): the IR node
// kinds each must emit, and the routing of a Call to the backend's emitter
// for its kind (CodeGenCalls.h). Each backend keeps all of its own emission.

#include "codegen/CodeGenCalls.h"
#include "ir/Error.h"
#include "ir/IRVisitor.h"

namespace loom {
namespace Internal {

/** Every IR node kind but Call (which CodeGenVisitor routes itself), as
 * X(Node) entries. A code generator overrides the visit() of each:
 * IRVisitor's defaults only recurse, which would silently emit nothing for
 * a kind it forgot. */
#define LOOM_CODEGEN_NODE_KINDS(X)                                                                 \
    X(IntImm)                                                                                      \
    X(UIntImm)                                                                                     \
    X(FloatImm)                                                                                    \
    X(StringImm)                                                                                   \
    X(Cast)                                                                                        \
    X(Reinterpret)                                                                                 \
    X(Variable)                                                                                    \
    X(Add)                                                                                         \
    X(Sub)                                                                                         \
    X(Mul)                                                                                         \
    X(Div)                                                                                         \
    X(Mod)                                                                                         \
    X(Min)                                                                                         \
    X(Max)                                                                                         \
    X(EQ)                                                                                          \
    X(NE)                                                                                          \
    X(LT)                                                                                          \
    X(LE)                                                                                          \
    X(GT)                                                                                          \
    X(GE)                                                                                          \
    X(And)                                                                                         \
    X(Or)                                                                                          \
    X(Not)                                                                                         \
    X(Select)                                                                                      \
    X(Load)                                                                                        \
    X(Ramp)                                                                                        \
    X(Broadcast)                                                                                   \
    X(Let)                                                                                         \
    X(Shuffle)                                                                                     \
    X(LetStmt)                                                                                     \
    X(AssertStmt)                                                                                  \
    X(ProducerConsumer)                                                                            \
    X(For)                                                                                         \
    X(Store)                                                                                       \
    X(Provide)                                                                                     \
    X(Allocate)                                                                                    \
    X(Free)                                                                                        \
    X(Realize)                                                                                     \
    X(Block)                                                                                       \
    X(IfThenElse)                                                                                  \
    X(Evaluate)

#define LOOM_DECLARE_VISIT_OVERRIDE(Node) void visit(const Node *) override;

/** In a code generator's class: declares its visit() of every node kind. */
#define LOOM_DECLARE_CODEGEN_VISITS()                                                              \
    using IRVisitor::visit;                                                                        \
    LOOM_CODEGEN_NODE_KINDS(LOOM_DECLARE_VISIT_OVERRIDE)

/** Value: what a backend turns an Expr into (C source text, llvm::Value *). */
template <typename Value> class CodeGenVisitor : public IRVisitor {
public:
    using IRVisitor::visit;
    /** Emits a Call through the emitter below that handles its kind. */
    void visit(const Call *op) final { value = codegen_call(op); }

protected:
    /** The result of visiting an Expr. */
    Value value{};

    Value codegen_call(const Call *op);

    /** Extern C functions (ordinary extern calls). */
    virtual Value codegen_extern(const Call *op) = 0;
    /** Math routines ("sqrt_f32", ...). */
    virtual Value codegen_math(const Call *op, const MathCall &math) = 0;
    /** Intrinsics of IntrinsicEmitter::Operator. */
    virtual Value codegen_intrinsic(const Call *op) = 0;
    virtual Value codegen_buffer_field(const Call *op) = 0;
    virtual Value codegen_if_then_else(const Call *op) = 0;
    virtual Value codegen_debug_print(const Call *op) = 0;
    virtual Value codegen_atomic_update(const Call *op) = 0;
};

template <typename Value> Value CodeGenVisitor<Value>::codegen_call(const Call *op) {
    switch (op->call_type) {
    case Call::Extern:
    case Call::PureExtern:
        if (std::optional<MathCall> math = math_call(op)) return codegen_math(op, *math);
        return codegen_extern(op);
    case Call::Intrinsic:
    case Call::PureIntrinsic:
        break;
    case Call::Image:
    case Call::Loom:
        internal_error("codegen: call to " << op->name
                                           << " should have been removed by storage flattening");
    }
    switch (intrinsic_emitter(op->op)) {
    case IntrinsicEmitter::Operator:
        return codegen_intrinsic(op);
    case IntrinsicEmitter::BufferField:
        return codegen_buffer_field(op);
    case IntrinsicEmitter::IfThenElse:
        return codegen_if_then_else(op);
    case IntrinsicEmitter::DebugPrint:
        return codegen_debug_print(op);
    case IntrinsicEmitter::AtomicUpdate:
        return codegen_atomic_update(op);
    }
    internal_error("codegen: unknown intrinsic emitter for " << intrinsic_name(op->op));
}

} // namespace Internal
} // namespace loom

#endif
