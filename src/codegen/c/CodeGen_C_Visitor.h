#ifndef LOOM_CODEGEN_C_CODEGEN_C_VISITOR_H
#define LOOM_CODEGEN_C_CODEGEN_C_VISITOR_H

// The IR visitor behind codegen_c(), and the base of the GPU source printer
// (codegen/gpu/CodeGen_GPU_C.h), which reuses all of its expression and
// statement printing and overrides the virtual hooks marked "Dialect hook"
// below for what a GPU dialect prints differently. Its methods are split over several files
// by job: CodeGen_C.cpp (file layout, entry points, names, types, emission
// helpers), CodeGen_C_Expr.cpp (constants, casts, arithmetic, comparisons,
// vectors), CodeGen_C_Call.cpp (intrinsics, math, extern calls, buffer
// fields, print), CodeGen_C_Stmt.cpp (control flow, loads, stores,
// allocations) and CodeGen_C_Parallel.cpp (parallel loops as closures).
//
// Code shape: every computed scalar becomes a local variable ("_tN"); every
// vector becomes a local array ("_vN[lanes]") filled by a loop over its lanes,
// so the C compiler sees plain scalar code it can vectorize itself. Each
// identifier carries a number unique in the file, so C scopes never clash.

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/CodeGenVisitor.h"
#include "ir/Scope.h"
#include "loom/Target.h"
#include "lower/LoweredFunc.h"

namespace loom {
namespace Internal {

class CodeGen_C : public CodeGenVisitor<std::string> {
public:
    explicit CodeGen_C(const Target &target);
    std::string compile(const LoweredFunc &f);

protected:
    // ---- File layout and helpers (CodeGen_C.cpp) ----
    const Target target;

    /** What a Loom name refers to in the C code. */
    struct Symbol {
        std::string c_name; // identifier, literal or array/pointer expression
        Type type;          // value type; Handle for memory (buffers, allocations)
        /** Memory: the address-space qualifier its pointers carry ("__global",
         * "__local" in OpenCL C; empty in C). */
        std::string address_space = {};
    };
    Scope<Symbol> symbols;
    /** C identifiers a Variable has read (lets never read get a (void) use). */
    std::set<std::string> used_names;

    std::ostringstream *out = nullptr; // the function being written
    int indent_level = 0;
    int next_id = 0;
    /** Static functions (parallel tasks) and closure structs, in order. */
    std::vector<std::string> finished_functions;
    /** Helper function definitions by name (sorted: deterministic output). */
    std::map<std::string, std::string> helpers;
    /** Prototypes of extern C functions by name, and their parameter types. */
    std::map<std::string, std::string> prototypes;
    std::map<std::string, std::vector<std::string>> prototype_params;
    /** Heap allocations live at this point, innermost last (freed on return). */
    std::vector<Release<std::string>> heap_allocations;

    // value (CodeGenVisitor), the result of visiting an Expr: a C identifier
    // or literal (scalars), or the name of a local array (vectors).
    /** Readable names: a let names the local its value's root computes into.
     * let_name is taken by the next codegen(Expr), which keeps it on
     * name_hints for the first scalar_local of its own node only. */
    std::string let_name;
    std::vector<std::string> name_hints;
    /** Bind a scalar let's value to a local named after it; returns that local. */
    std::string let_local(const std::string &loom_name, const Expr &value);

    std::string codegen(const Expr &e);
    void codegen(const Stmt &s);
    std::ostream &line();
    /** Prints `statement`, which names the lane `_l`, once per lane: a loop,
     * or one line per lane where unroll_lane_loops says so. */
    void lane_loop(int lanes, const std::string &statement);
    /** Dialect hook: print the lane loops of `lanes`-wide vectors unrolled.
     * C: never; the GPU dialects unroll narrow vectors, since NVRTC spends
     * a third of its time turning such loops over local arrays back into
     * scalars. */
    virtual bool unroll_lane_loops(int lanes) const;
    std::string unique_name(const std::string &loom_name);
    const Symbol &symbol(const std::string &name) const;
    void mark_unused_lets(const std::string &c_name);

    /** Dialect hook: the type of one element of t ("int32_t", "float",
     * "bool", "void *"; "_Float16" in C). */
    virtual std::string c_type(Type t) const;
    /** C type of one element of t as stored in memory (bools are bytes). */
    std::string c_memory_type(Type t) const;
    /** A pointer to elements of type t in `memory`: "((float *)buf)", with
     * the memory's address space ("((__global float *)buf)"). */
    std::string memory_pointer(const Symbol &memory, Type t) const;
    /** Dialect hook: the name of the math function `name` ("sqrt", "floor",
     * "fabs", "fmod", "nearbyint", ...; the libm names of CodeGenCalls.h)
     * computing on floats of `bits` (16-bit floats compute in float). C:
     * "sqrtf" for 16 and 32 bits, "sqrt" for 64. */
    virtual std::string math_function(const std::string &name, int bits) const;
    /** Dialect hook: a zero of the scalar type t where it meets a value of
     * t in `c ? x : zero` ("0"; CUDA's half is a class that needs its own). */
    virtual std::string zero_of(Type t) const;
    /** A local holding `expr` of scalar type t; returns its name. */
    std::string scalar_local(Type t, const std::string &expr);
    /** A new local array for a vector of type t; returns its name. */
    std::string vector_local(Type t);
    /** `a` itself for scalars, its lane `_l` for vectors. */
    static std::string lane(const std::string &a, Type t);
    /** Computes expr(lane operands) for every lane of `result`: a scalar
     * local when everything is scalar, else a lane loop into an array. */
    template <typename F>
    std::string elementwise(Type result, const std::vector<std::string> &operands,
                            const std::vector<Type> &operand_types, F scalar_expr);
    /** Return `code` from the current function after freeing live allocations. */
    void return_with_cleanup(const std::string &code);
    std::string string_literal(const std::string &s) const;
    /** Declare the extern C function `name` once; returns the parameter C types. */
    const std::vector<std::string> &declare_extern(const std::string &name,
                                                   const std::string &result,
                                                   const std::vector<std::string> &params);
    /** Dialect hook: what starts a helper function's definition ("static
     * inline"; CUDA adds __device__). */
    virtual std::string helper_prefix() const;
    /** Use (and define once) a helper function. */
    void need_helper(const std::string &name, const std::string &definition);

    /** Static constants holding a concrete Buffer (LoweredFunc::embedded_buffers);
     * returns the expression for its loom_buffer_t *. */
    std::string embed_buffer(const LoweredArgument &a);
    void define_body_function(const LoweredFunc &f);
    void define_wrappers(const LoweredFunc &f);
    void define_metadata_function(const LoweredFunc &f);

    // ---- Expressions (CodeGen_C_Expr.cpp) ----
    std::string arithmetic(Type t, const std::string &a, const char *op, const std::string &b);
    /** Dialect hook: a op b (op "+", "-" or "*") on floats of type t; "a op
     * b" (the compiler contracts a * b + c only where the dialect allows). */
    virtual std::string float_arithmetic(Type t, const std::string &a, const char *op,
                                         const std::string &b);
    std::string euclidean_div_mod(Type t, const std::string &a, const std::string &b, bool div);
    std::string convert(Type from, Type to, const std::string &a);
    /** Dialect hook: the bits of `a` (non-handle, scalar or vector) as type
     * `to` of the same total width. C: memcpy into a new local. */
    virtual std::string codegen_reinterpret(Type from, Type to, const std::string &a);
    template <typename Op> void visit_binary(const Op *op, const char *c_op);
    template <typename Op> void visit_compare(const Op *op, const char *c_op);

    // ---- Calls (CodeGen_C_Call.cpp) ----
    // The emitters CodeGenVisitor::codegen_call routes each Call to.
    std::string codegen_intrinsic(const Call *op) override;
    std::string codegen_math(const Call *op, const MathCall &math) override;
    std::string codegen_extern(const Call *op) override;
    std::string codegen_buffer_field(const Call *op) override;
    std::string codegen_if_then_else(const Call *op) override;
    std::string codegen_debug_print(const Call *op) override;
    std::string codegen_atomic_update(const Call *op) override;
    // Helpers of codegen_intrinsic.
    std::string codegen_shift(const Call *op);
    std::string codegen_bit_count(const Call *op);
    /** Dialect hook: an int expression counting (popcount,
     * count_leading_zeros or count_trailing_zeros) the bits of `x`, a
     * scalar of the unsigned type `arg` (defined at zero: the width). */
    virtual std::string bit_count(Intrinsic op, Type arg, const std::string &x);
    std::string round_to_zero_div_mod(Type t, const std::string &a, const std::string &b, bool div);
    /** Dialect hook: the dialect's own function for a fixed-point
     * intrinsic (saturating_add, saturating_sub, halving_add,
     * rounding_halving_add, halving_sub) on one lane of type t, or "" to
     * print ir/LowerIntrinsics.h's equivalent (C). */
    virtual std::string fixed_point_function(Intrinsic op, Type t) const;
    std::string codegen_fixed_point(const Call *op);
    /** The text print() formats for args [first, end) of op, in a char
     * array local; *first_value gets the first non-string argument. */
    std::string format_message(const Call *op, size_t first, std::string *first_value);
    /** require(): check the condition (all lanes), fail with its message. */
    std::string codegen_require(const Call *op);
    /** CodeGen_C_Trace.cpp: the trace intrinsic (a loom_trace call). */
    std::string codegen_trace(const Call *op);

    // ---- Loads, stores, allocations (CodeGen_C_Stmt.cpp) ----
    /** Dialect hook: a dense vector load (unpredicated, index Ramp(base, 1,
     * t.lanes); `base` is the printed base_index) printed the dialect's way;
     * returns the vector's local, or "" to load lane by lane (C). */
    virtual std::string dense_vector_load(Type t, const Symbol &memory, const Expr &base_index,
                                          const std::string &base);
    /** Dialect hook: a dense vector store of the vector local `v` (as
     * above); returns false to store lane by lane (C). */
    virtual bool dense_vector_store(Type t, const Symbol &memory, const Expr &base_index,
                                    const std::string &base, const std::string &v);
    /** The element count of an Allocate when its extents are constant. */
    static bool constant_elements(const Allocate *op, int64_t *elements);
    /** An array local of `elements` elements for op, with its body. */
    void codegen_local_array(const Allocate *op, int64_t elements);

    // ---- Parallel loops (CodeGen_C_Parallel.cpp) ----
    void codegen_parallel_for(const For *op);

public:
    LOOM_DECLARE_CODEGEN_VISITS()
};

template <typename F>
std::string CodeGen_C::elementwise(Type result, const std::vector<std::string> &operands,
                                   const std::vector<Type> &operand_types, F scalar_expr) {
    bool vector = result.is_vector();
    for (Type t : operand_types) vector = vector || t.is_vector();
    if (!vector) return scalar_local(result, scalar_expr(operands));
    std::vector<std::string> lanes;
    for (size_t i = 0; i < operands.size(); i++)
        lanes.push_back(lane(operands[i], operand_types[i]));
    std::string v = vector_local(result);
    lane_loop(result.lanes, v + "[_l] = " + scalar_expr(lanes) + ";");
    return v;
}

} // namespace Internal
} // namespace loom

#endif
