#ifndef LOOM_CODEGEN_LLVM_CODEGEN_VISITOR_H
#define LOOM_CODEGEN_LLVM_CODEGEN_VISITOR_H

// The IR visitor behind codegen_llvm(). Its methods are split over several
// files by job: CodeGen_LLVM.cpp (entry points, types, helpers),
// CodeGen_LLVM_Expr.cpp (arithmetic, vectors), CodeGen_LLVM_Memory.cpp (loads,
// stores, allocations, buffer fields), CodeGen_LLVM_Call.cpp (calls, math,
// intrinsics) and CodeGen_LLVM_Stmt.cpp (control flow).

#include <map>
#include <string>
#include <vector>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include "ir/IRVisitor.h"
#include "ir/Scope.h"
#include "loom/Target.h"
#include "lower/LoweredFunc.h"

namespace loom {
namespace Internal {

class CodeGen_LLVM : public IRVisitor {
public:
    CodeGen_LLVM(const Target &target, llvm::LLVMContext &context, llvm::TargetMachine &tm);
    std::unique_ptr<llvm::Module> compile(const LoweredFunc &f);

private:
    // ---- Set-up and helpers (CodeGen_LLVM.cpp) ----
    const Target target;
    llvm::LLVMContext &context;
    llvm::TargetMachine &target_machine;
    std::unique_ptr<llvm::Module> module;
    std::unique_ptr<llvm::IRBuilder<>> builder;
    llvm::Function *function = nullptr;      // the function being generated
    llvm::BasicBlock *entry_block = nullptr; // where allocas go

    llvm::Type *void_t, *i1_t, *i8_t, *i16_t, *i32_t, *i64_t, *f32_t, *f64_t, *ptr_t;
    llvm::StructType *type_t_type;      // loom_type_t
    llvm::StructType *dimension_t_type; // loom_dimension_t
    llvm::StructType *buffer_t_type;    // loom_buffer_t
    llvm::StructType *argument_t_type;  // loom_argument_t
    llvm::StructType *metadata_t_type;  // loom_pipeline_metadata_t

    Scope<llvm::Value *> symbols;
    /** Vector lets by name, so a Load or Store whose index CSE named still
     * sees the Ramp behind it (and stays a dense access, not a gather). */
    Scope<Expr> vector_lets;
    /** index, or the vector let it names. */
    Expr resolve_vector_index(const Expr &index) const;
    std::map<std::string, llvm::Constant *> string_constants;

    // Heap allocations live at this point, innermost last: freed on every
    // early return.
    std::vector<llvm::Value *> heap_allocations;

    // The result of visiting an Expr.
    llvm::Value *value = nullptr;

    void init_types();
    llvm::Type *llvm_type_of(Type t) const;
    /** How values of t sit in memory: bools as bytes. */
    llvm::Type *llvm_memory_type_of(Type t) const;
    llvm::Value *to_memory(llvm::Value *v, Type t);
    llvm::Value *from_memory(llvm::Value *v, Type t);
    llvm::Constant *string_constant(const std::string &s);
    llvm::Value *user_context();
    llvm::Value *codegen(const Expr &e);
    void codegen(const Stmt &s);
    llvm::Value *sym_get(const std::string &name) const;
    /** Declare (once) and call the C function `name`. */
    llvm::Value *call_c_function(const std::string &name, llvm::Type *result,
                                 const std::vector<llvm::Value *> &args,
                                 const std::vector<Type> &arg_types = {});
    /** Free live heap allocations and return `code` from the function, then
     * continue in a fresh (unreachable) block. */
    void return_with_cleanup(llvm::Value *code);
    llvm::AllocaInst *create_entry_alloca(llvm::Type *t, llvm::Value *count, int align,
                                          const std::string &name);

    llvm::Function *define_body_function(const LoweredFunc &f);
    void define_public_function(const LoweredFunc &f, llvm::Function *body);
    void define_argv_function(const LoweredFunc &f, llvm::Function *body);
    void define_metadata_function(const LoweredFunc &f);
    void set_function_attributes(llvm::Function *fn);
    /** CodeGen_LLVM_Embed.cpp: bind (or unbind) "b.buffer" of every
     * f.embedded_buffers entry to internal constant globals holding its
     * loom_buffer_t, dimensions and host data. */
    void push_embedded_buffers(const LoweredFunc &f);
    void pop_embedded_buffers(const LoweredFunc &f);

    // ---- Vector helpers (CodeGen_LLVM_Expr.cpp) ----
    llvm::Value *broadcast(llvm::Value *v, int lanes);
    llvm::Value *concat_vectors(const std::vector<llvm::Value *> &vs);
    llvm::Value *slice_vector(llvm::Value *v, int begin, int size);
    llvm::Value *convert(llvm::Value *v, Type from, Type to);
    llvm::Value *euclidean_div(llvm::Value *a, llvm::Value *b, Type t, const Expr &b_expr);
    llvm::Value *euclidean_mod(llvm::Value *a, llvm::Value *b, Type t, const Expr &b_expr);
    llvm::Value *round_to_zero_div_mod(llvm::Value *a, llvm::Value *b, Type t, bool want_div);
    llvm::Value *compare(IRNodeType op, llvm::Value *a, llvm::Value *b, Type t);

    // ---- Calls (CodeGen_LLVM_Call.cpp) ----
    llvm::Value *codegen_intrinsic(const Call *op);
    llvm::Value *codegen_math(const Call *op, bool *handled);
    llvm::Value *codegen_extern(const Call *op);
    llvm::Value *codegen_debug_print(const Call *op);
    /** CodeGen_LLVM_Atomic.cpp: the atomic_update intrinsic. */
    llvm::Value *codegen_atomic_update(const Call *op);
    llvm::Value *codegen_buffer_field(const Call *op);
    llvm::Value *codegen_if_then_else(const Call *op);
    llvm::Value *scalarized_libm_call(const std::string &fn, const std::vector<llvm::Value *> &args,
                                      llvm::Type *t);

    // ---- Parallel loops (CodeGen_LLVM_Parallel.cpp) ----
    /** Outline the body into a task function and call loom_do_par_for. */
    void codegen_parallel_for(const For *op);

    // ---- Memory (CodeGen_LLVM_Memory.cpp) ----
    llvm::Value *element_pointer(const std::string &buffer, llvm::Type *elem, llvm::Value *index);
    llvm::Value *vector_of_pointers(const std::string &buffer, llvm::Type *elem, const Expr &index);
    llvm::Value *predicate_mask(const Expr &predicate, int lanes);

public:
    using IRVisitor::visit;
    void visit(const IntImm *) override;
    void visit(const UIntImm *) override;
    void visit(const FloatImm *) override;
    void visit(const StringImm *) override;
    void visit(const Cast *) override;
    void visit(const Reinterpret *) override;
    void visit(const Variable *) override;
    void visit(const Add *) override;
    void visit(const Sub *) override;
    void visit(const Mul *) override;
    void visit(const Div *) override;
    void visit(const Mod *) override;
    void visit(const Min *) override;
    void visit(const Max *) override;
    void visit(const EQ *) override;
    void visit(const NE *) override;
    void visit(const LT *) override;
    void visit(const LE *) override;
    void visit(const GT *) override;
    void visit(const GE *) override;
    void visit(const And *) override;
    void visit(const Or *) override;
    void visit(const Not *) override;
    void visit(const Select *) override;
    void visit(const Load *) override;
    void visit(const Ramp *) override;
    void visit(const Broadcast *) override;
    void visit(const Call *) override;
    void visit(const Let *) override;
    void visit(const Shuffle *) override;
    void visit(const LetStmt *) override;
    void visit(const AssertStmt *) override;
    void visit(const ProducerConsumer *) override;
    void visit(const For *) override;
    void visit(const Store *) override;
    void visit(const Provide *) override;
    void visit(const Allocate *) override;
    void visit(const Free *) override;
    void visit(const Realize *) override;
    void visit(const Block *) override;
    void visit(const IfThenElse *) override;
    void visit(const Evaluate *) override;
};

} // namespace Internal
} // namespace loom

#endif
