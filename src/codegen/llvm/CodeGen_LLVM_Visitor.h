#ifndef LOOM_CODEGEN_LLVM_CODEGEN_VISITOR_H
#define LOOM_CODEGEN_LLVM_CODEGEN_VISITOR_H

// The IR visitor behind codegen_llvm(). Its methods are split over several
// files by job: CodeGen_LLVM.cpp (entry points, types, helpers),
// CodeGen_LLVM_Expr.cpp (arithmetic, vectors), CodeGen_LLVM_Memory.cpp (loads,
// stores, allocations, buffer fields), CodeGen_LLVM_Call.cpp (calls, math,
// intrinsics) and CodeGen_LLVM_Stmt.cpp (control flow).

#include <map>
#include <set>
#include <string>
#include <vector>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include "codegen/CodeGenVisitor.h"
#include "codegen/LoadIndexForms.h"
#include "codegen/StridedLoadSpans.h"
#include "codegen/llvm/LoopInvariantIndex.h"
#include "ir/Scope.h"
#include "loom/Target.h"
#include "lower/LoweredFunc.h"

namespace loom {
namespace Internal {

/** IR nodes of a loop, and of the largest loop inside it; does it read or
 * write a buffer of constant size allocated outside it (which may live in
 * registers, but not once passed to another function)? */
struct LoopCodeSize {
    size_t nodes = 0, largest_inner = 0;
    bool uses_outer_small_buffer = false;
};

class CodeGen_LLVM : public CodeGenVisitor<llvm::Value *> {
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

    /** A heap allocation live at this point, and the block that releases it
     * on an early return (made when the first early return needs it): it
     * takes the return code in `code`, releases, and goes on to the block of
     * the allocation outside it, so N nested allocations with early returns
     * cost N releases, not N^2. */
    struct HeapRelease {
        const char *function;
        llvm::Value *value;
        llvm::BasicBlock *cleanup = nullptr;
        llvm::PHINode *code = nullptr;
    };
    // Innermost last.
    std::vector<HeapRelease> heap_allocations;
    /** The cleanup block of heap_allocations[i] and of those outside it. */
    void make_cleanup_blocks(size_t i);

    // value (CodeGenVisitor): the result of visiting an Expr.

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
    /** Free live heap allocations and return `code` from the function (through
     * the allocations' cleanup blocks). The caller moves on to another block. */
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
    // The emitters CodeGenVisitor::codegen_call routes each Call to.
    llvm::Value *codegen_intrinsic(const Call *op) override;
    llvm::Value *codegen_math(const Call *op, const MathCall &math) override;
    llvm::Value *codegen_extern(const Call *op) override;
    llvm::Value *codegen_debug_print(const Call *op) override;
    /** The text print() formats for args [first, end) of op, in a stack buffer. */
    llvm::Value *format_message(const Call *op, size_t first, llvm::Value **first_value);
    /** require(): check the condition (all lanes), fail with its message. */
    llvm::Value *codegen_require(const Call *op);
    /** CodeGen_LLVM_Trace.cpp: the trace intrinsic (a loom_trace call). */
    llvm::Value *codegen_trace(const Call *op);
    /** CodeGen_LLVM_Atomic.cpp: the atomic_update intrinsic. */
    llvm::Value *codegen_atomic_update(const Call *op) override;
    llvm::Value *codegen_buffer_field(const Call *op) override;
    llvm::Value *codegen_if_then_else(const Call *op) override;
    llvm::Value *scalarized_libm_call(const std::string &fn, const std::vector<llvm::Value *> &args,
                                      llvm::Type *t);

    // ---- Outlined code (CodeGen_LLVM_Outline.cpp) ----
    struct Outlined {
        llvm::Function *function;
        llvm::Value *closure; // in the calling function
    };
    /** An internal function `int name(void *uc, [int index,] void *closure)`
     * that runs body, and the closure of the values it uses from here. */
    Outlined outline(const Stmt &body, const std::string &name, const std::string &index);
    /** Branch to an early return (with cleanup) when result is nonzero. */
    void return_on_error(llvm::Value *result, const std::string &name);
    /** Outline the body into a task function and call loom_do_par_for. */
    void codegen_parallel_for(const For *op);
    /** A scalar integer min or max, opaque to scalar evolution. */
    llvm::Value *freeze_integer_min_max(llvm::Value *v);
    /** Outline a top-level loop nest into a function of its own and call it. */
    void codegen_outlined_loop(const For *op);
    /** A top-level block of a function whose nests are outlined: runs of
     * checks (asserts, bounds queries) and runs of loop nests go to
     * functions of a few statements each, so that the entry function of a
     * pipeline with many buffers or stages stays small. */
    void codegen_block_outlining_parts(const Block *op);
    int outlined_parts = 0;
    /** Loops around the code being generated (a task's body counts as one). */
    int loop_depth = 0;
    /** Are the entry function's nests and checks outlined in runs of a few
     * (a function with many nests; otherwise each nest alone)? */
    bool outline_loop_nests = false;
    /** Does the entry function hold a single loop nest? */
    bool single_loop_nest = false;

    // ---- A large function in pieces (CodeGen_LLVM_Pieces.cpp) ----
    /** The loops of the function being generated, measured; empty when it
     * is not split into pieces. */
    std::map<const For *, LoopCodeSize> loop_sizes;
    /** Is op a piece: a loop that gets a function of its own? */
    bool is_piece(const For *op) const;
    /** While alive: the loops of `body` (of a task or the entry function)
     * measured, and pieces outlined when body is large (from half the size
     * when it holds all of the pipeline's loops: the task of a pipeline of
     * one parallel loop nest, which nothing else would compile beside). */
    class PiecesScope {
    public:
        PiecesScope(CodeGen_LLVM &cg, const Stmt &body, bool all_loops = false);
        ~PiecesScope();

    private:
        CodeGen_LLVM &cg;
        std::map<const For *, LoopCodeSize> saved;
    };

    // ---- Buffer fields read where used (CodeGen_LLVM_Rematerialize.cpp) ----
    /** Lets of the entry function generated again at each use (undefined:
     * a let that hides one of the same name). */
    Scope<Expr> rematerializable;
    /** Names of the entry function's arguments. */
    std::set<std::string> entry_arguments;
    /** Buffer field loads being emitted are volatile (not merged by LLVM). */
    bool rematerializing = false;
    /** Dimensions (buffer argument, dim; -1: all) a bounds query has
     * written so far in the entry function. */
    std::multiset<std::pair<std::string, int>> written_fields;
    std::vector<std::pair<std::string, int>> written_log; // in order, to undo a branch's
    bool rematerialization_active() const;
    /** Push op's name on rematerializable when needed; true if pushed. */
    bool push_rematerializable(const LetStmt *op);
    /** The value of a rematerializable let, generated here; else nullptr. */
    llvm::Value *rematerialized(const std::string &name);
    /** Record the dimension a bounds query call writes. */
    void note_field_write(const Call *op);
    /** note_field_write for every call in s (code outlined elsewhere). */
    void note_field_writes(const Stmt &s);
    /** Both branches of op, each seeing only the writes on its own path. */
    void codegen_branches(const IfThenElse *op, llvm::BasicBlock *else_block,
                          llvm::BasicBlock *after);

    // ---- Memory (CodeGen_LLVM_Memory.cpp) ----
    llvm::Value *element_pointer(const std::string &buffer, llvm::Type *elem, llvm::Value *index);
    /** The serial loops around the code being generated, for splitting
     * addresses into invariant and varying parts (LoopInvariantIndex.h). */
    LoopInvariantIndex invariant_index;
    llvm::Value *vector_of_pointers(const std::string &buffer, llvm::Type *elem, const Expr &index);
    llvm::Value *predicate_mask(const Expr &predicate, int lanes);
    /** What the innermost straight-line region being generated (a loop
     * body, a branch, a task, the function body) always reads. */
    StridedLoadSpans strided_spans;
    /** codegen(s) with strided_spans describing s. */
    void codegen_region(const Stmt &s);
    /** A load at Ramp(base, stride, lanes) for a small constant stride: dense
     * loads and a shuffle instead of a gather; nullptr where that would cost
     * more than the gather (very wide spans). */
    llvm::Value *strided_load(const Load *op, const Ramp *ramp, int stride, llvm::Type *elem,
                              llvm::Align align);
    /** A load whose index repeats each element (RepeatedLanesIndex): two
     * dense loads of the fewest elements the lanes can span, and a shuffle
     * chosen by the base's remainder; never reads an element the lanes do
     * not. */
    llvm::Value *repeated_lanes_load(const Load *op, const RepeatedLanesIndex &index,
                                     llvm::Type *elem, llvm::Align align);
    /** Does the target load a vector of this type under a mask in one
     * instruction (rather than lane by lane behind branches)? */
    bool has_native_masked_load(llvm::Type *vec_type, llvm::Align align);
    /** A load whose index is a clamped ramp (ClampedRampIndex): a masked
     * dense load of the lanes inside the clamp, the others from the first
     * or last lane's element; never reads an element the lanes do not. */
    llvm::Value *clamped_ramp_load(const Load *op, const ClampedRampIndex &index, llvm::Type *elem,
                                   llvm::Align align);
    /** The same load on a target without masked loads of its elements: a
     * dense load where no lane is clamped, else a gather. */
    llvm::Value *clamped_ramp_load_or_gather(const Load *op, const ClampedRampIndex &index,
                                             llvm::Type *elem, llvm::Align align);
    /** An unpredicated gather as one scalar load per lane, each at its
     * own 32-bit index (for targets whose gathers LLVM would split into
     * lanes anyway: the index then scales in the address, not in a vector
     * of 64-bit pointers). */
    /** For each Handle name a Load or Store may use: the buffer or
     * allocation whose memory it points into ("" when not known). */
    Scope<std::string> memory_roots;
    /** The memory root of a Handle value bound to a let ("" when unknown). */
    std::string memory_root_of(const Expr &handle) const;
    /** Attach alias metadata to an access of `buffer`'s memory: accesses of
     * different buffers or allocations never alias (Halide's model). */
    void tag_memory_access(llvm::Value *access, const std::string &buffer);

public:
    LOOM_DECLARE_CODEGEN_VISITS()
};

} // namespace Internal
} // namespace loom

#endif
