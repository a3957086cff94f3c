#ifndef LOOM_IR_IR_H
#define LOOM_IR_IR_H

// The IR node types. Every node is immutable once built and is created through
// its static make(), which checks types. Expressions carry a Type; statements
// do not. Visitors dispatch through IRVisitor (IRVisitor.h).

#include <string>
#include <vector>

#include "loom/Buffer.h"
#include "loom/Expr.h"
#include "loom/Function.h"
#include "loom/Parameter.h"
#include "loom/Reduction.h"
#include "loom/Schedule.h"

namespace loom {
namespace Internal {

template <typename T> struct ExprNode : BaseExprNode {
    ExprNode() : BaseExprNode(T::_node_type) {}
    void accept(IRVisitor *v) const override;
};
template <typename T> struct StmtNode : BaseStmtNode {
    StmtNode() : BaseStmtNode(T::_node_type) {}
    void accept(IRVisitor *v) const override;
};

/** The public Range and Region (loom/Expr.h), under their internal names. */
using loom::Range;
using loom::Region;

struct IntImm : ExprNode<IntImm> {
    int64_t value;
    static const IntImm *make(Type t, int64_t value); // value wrapped to t's width
    static constexpr IRNodeType _node_type = IRNodeType::IntImm;
};
struct UIntImm : ExprNode<UIntImm> {
    uint64_t value;
    static const UIntImm *make(Type t, uint64_t value);
    static constexpr IRNodeType _node_type = IRNodeType::UIntImm;
};
struct FloatImm : ExprNode<FloatImm> {
    double value;
    static const FloatImm *make(Type t, double value); // rounded to float for Float(32)
    static constexpr IRNodeType _node_type = IRNodeType::FloatImm;
};
struct StringImm : ExprNode<StringImm> {
    std::string value;
    static const StringImm *make(const std::string &value);
    static constexpr IRNodeType _node_type = IRNodeType::StringImm;
};

/** Value conversion (C semantics; float->int truncates, int narrowing wraps). */
struct Cast : ExprNode<Cast> {
    Expr value;
    static Expr make(Type t, Expr v);
    static constexpr IRNodeType _node_type = IRNodeType::Cast;
};
/** Bit-pattern reinterpretation between types of equal total width. */
struct Reinterpret : ExprNode<Reinterpret> {
    Expr value;
    static Expr make(Type t, Expr v);
    static constexpr IRNodeType _node_type = IRNodeType::Reinterpret;
};

/** A named value: a loop variable, a let, a scalar Param, a buffer field. */
struct Variable : ExprNode<Variable> {
    std::string name;
    Parameter param; // defined for scalar Params (and buffer handles of ImageParams)
    Buffer<> image;  // defined for handles of concrete buffers
    ReductionDomain reduction_domain; // defined for RVars (before an update takes them)
    static Expr make(Type t, const std::string &name);
    static Expr make(Type t, const std::string &name, ReductionDomain domain);
    static Expr make(Type t, const std::string &name, Parameter param);
    static Expr make(Type t, const std::string &name, Buffer<> image, Parameter param);
    static constexpr IRNodeType _node_type = IRNodeType::Variable;
};

template <typename T> struct BinaryOpNode : ExprNode<T> {
    Expr a, b;
    /** a and b must have equal types; the result has that type (Bool for comparisons). */
    static Expr make(Expr a, Expr b);
};

// Arithmetic. Div and Mod on integers are Euclidean: the remainder is never
// negative, and division rounds to negative infinity for positive divisors.
// Division by zero gives zero. On floats, Mod is a - b * floor(a / b).
struct Add : BinaryOpNode<Add> {
    static constexpr IRNodeType _node_type = IRNodeType::Add;
};
struct Sub : BinaryOpNode<Sub> {
    static constexpr IRNodeType _node_type = IRNodeType::Sub;
};
struct Mul : BinaryOpNode<Mul> {
    static constexpr IRNodeType _node_type = IRNodeType::Mul;
};
struct Div : BinaryOpNode<Div> {
    static constexpr IRNodeType _node_type = IRNodeType::Div;
};
struct Mod : BinaryOpNode<Mod> {
    static constexpr IRNodeType _node_type = IRNodeType::Mod;
};
struct Min : BinaryOpNode<Min> {
    static constexpr IRNodeType _node_type = IRNodeType::Min;
};
struct Max : BinaryOpNode<Max> {
    static constexpr IRNodeType _node_type = IRNodeType::Max;
};
struct EQ : BinaryOpNode<EQ> {
    static constexpr IRNodeType _node_type = IRNodeType::EQ;
};
struct NE : BinaryOpNode<NE> {
    static constexpr IRNodeType _node_type = IRNodeType::NE;
};
struct LT : BinaryOpNode<LT> {
    static constexpr IRNodeType _node_type = IRNodeType::LT;
};
struct LE : BinaryOpNode<LE> {
    static constexpr IRNodeType _node_type = IRNodeType::LE;
};
struct GT : BinaryOpNode<GT> {
    static constexpr IRNodeType _node_type = IRNodeType::GT;
};
struct GE : BinaryOpNode<GE> {
    static constexpr IRNodeType _node_type = IRNodeType::GE;
};
struct And : BinaryOpNode<And> {
    static constexpr IRNodeType _node_type = IRNodeType::And;
};
struct Or : BinaryOpNode<Or> {
    static constexpr IRNodeType _node_type = IRNodeType::Or;
};

struct Not : ExprNode<Not> {
    Expr a;
    static Expr make(Expr a);
    static constexpr IRNodeType _node_type = IRNodeType::Not;
};

/** condition ? true_value : false_value; a scalar condition may pick between vectors. */
struct Select : ExprNode<Select> {
    Expr condition, true_value, false_value;
    static Expr make(Expr condition, Expr true_value, Expr false_value);
    static constexpr IRNodeType _node_type = IRNodeType::Select;
};

/** Load of element(s) `index` from the flat allocation or buffer `name`.
 * A vector index loads a vector; predicate (same lanes, or undefined for
 * always) masks lanes that must not be touched. */
struct Load : ExprNode<Load> {
    std::string name;
    Expr index, predicate;
    Buffer<> image;  // when loading from a concrete buffer
    Parameter param; // when loading from an image parameter or output buffer
    static Expr make(Type t, const std::string &name, Expr index, Buffer<> image, Parameter param,
                     Expr predicate = Expr());
    static constexpr IRNodeType _node_type = IRNodeType::Load;
};

/** The vector base, base + stride, ..., base + (lanes - 1) * stride. */
struct Ramp : ExprNode<Ramp> {
    Expr base, stride;
    int lanes;
    static Expr make(Expr base, Expr stride, int lanes);
    static constexpr IRNodeType _node_type = IRNodeType::Ramp;
};
struct Broadcast : ExprNode<Broadcast> {
    Expr value;
    int lanes;
    static Expr make(Expr value, int lanes);
    static constexpr IRNodeType _node_type = IRNodeType::Broadcast;
};

/** Built-in operations that Call nodes of kind Intrinsic/PureIntrinsic name. */
enum class Intrinsic : uint8_t {
    None,
    abs,  // |x|, result unsigned for ints
    absd, // |a - b| without overflow, result unsigned for ints
    bitwise_and,
    bitwise_or,
    bitwise_xor,
    bitwise_not,
    shift_left,
    shift_right, // arithmetic for signed
    count_leading_zeros,
    count_trailing_zeros,
    popcount,
    div_round_to_zero, // C-style integer division
    mod_round_to_zero,
    likely,          // hint: the argument is usually what the branch takes
    return_second,   // evaluate args[0] for effect, return args[1]
    if_then_else,    // lazy select: args (cond, t, f)
    buffer_get_host, // args: buffer handle -> Handle
    buffer_get_min,  // args: buffer handle, dim -> Int(32)
    buffer_get_extent,
    buffer_get_stride,
    buffer_get_dimensions,
    buffer_get_type_code,
    buffer_get_type_bits,
    buffer_get_type_lanes,
    undef,       // placeholder value in update definitions
    debug_print, // print(...) expressions: args are values and strings
    /** Atomic read-modify-write of one element: args (buffer name, index,
     * name of the old value, new value in terms of that name). */
    atomic_update,
    /** Orders this thread's earlier stores, streaming ones included, before
     * its later memory accesses (a full fence; no args, result Int(32) 0). */
    memory_fence,
    /** Brings the cache line of one buffer element into the cache: args
     * (buffer name, element index); the call's type is the element type.
     * Never faults, whatever the index. */
    prefetch,
    /** A barrier of all threads of a GPU block, ordering their block-shared
     * memory accesses (inside kernels only; no args, result Int(32) 0). */
    gpu_thread_barrier,
    /** The value args[0] has in lane args[1] of this thread's group of
     * args[2] lanes (a power of two up to 32) of the warp; every lane of the
     * group must run it (lower/LowerWarpShuffles.h). CUDA kernels only. */
    gpu_warp_shuffle,
    /** Fixed-point arithmetic of Halide's names, on operands of one type
     * (backends without a native instruction compute
     * ir/LowerIntrinsics.h's equivalent). Integer results saturate or are
     * computed without overflow; on floats they are plain a + b, a - b. */
    saturating_add,
    saturating_sub,
    halving_add,          // (a + b) >> 1 without overflow
    rounding_halving_add, // (a + b + 1) >> 1 without overflow
    halving_sub,          // (a - b) >> 1 without overflow, wrapped to the type
    likely_if_innermost,  // likely(), but only for loop partitioning of innermost loops
    /** Evaluate args[0] with IEEE semantics: no fused multiply-adds. */
    strict_float,
    /** args (value, min, max): value, which the compiler may assume is in
     * [min, max] (bounds inference does). promise_clamped is the compiler's
     * own; unsafe_promise_clamped is the user's promise. */
    promise_clamped,
    unsafe_promise_clamped,
    /** args (condition, value, message parts...): value when condition holds
     * (every lane); otherwise the pipeline fails with the message. */
    require,
    /** A value never used: codegen gives zero; the simplifier drops select
     * arms and branches that compute it. */
    unreachable,
    /** random_float/random_uint before their Func's definition replaces them
     * (frontend/Random.cpp): args (seed?, call-site id). */
    random,
    // Facts about the compile target, replaced by constants when lowering
    // (lower/LowerTargetQueries.h): args are the enum value, or a zero of
    // the asked type for target_natural_vector_size.
    target_arch_is,
    target_os_is,
    target_has_feature,
    target_bits,
    target_natural_vector_size,
    /** scatter()/gather() of an update definition: args are the values of
     * one element each; lowering makes one store per element
     * (lower/ScheduleFunctions.cpp). */
    scatter_gather,
    /** One trace event (lower/InjectTracing.h): args (func name, event
     * code, parent id, value index, type code, type bits, trace tag,
     * value, coordinates...); strings are StringImms, the event code,
     * value index and type are IntImms (the traced type, which the value's
     * may differ from after float16 emulation). Loads and stores pass
     * their value; other events a 0 that is not reported. Returns the
     * handler's id (Int(32)). */
    trace,
};

const char *intrinsic_name(Intrinsic op);

struct Call : ExprNode<Call> {
    enum CallType : uint8_t {
        Image,         // read from a Buffer or ImageParam (before storage flattening)
        Extern,        // a C function with side effects
        PureExtern,    // a C function or math routine without side effects (sqrt_f32, ...)
        Loom,          // a Func (before storage flattening)
        Intrinsic,     // an intrinsic with side effects
        PureIntrinsic, // an intrinsic without side effects
    };
    std::string name;
    std::vector<Expr> args;
    CallType call_type;
    Internal::Intrinsic op = Internal::Intrinsic::None; // for (Pure)Intrinsic calls
    Function func;                                      // for Loom calls
    int value_index = 0;                                // tuple element, for Loom calls
    Buffer<> image;                                     // for Image calls on concrete buffers
    Parameter param;                                    // for Image calls on ImageParams

    static Expr make(Type t, const std::string &name, const std::vector<Expr> &args, CallType ct);
    static Expr make(Type t, Internal::Intrinsic op, const std::vector<Expr> &args,
                     CallType ct = PureIntrinsic);
    static Expr make(const Function &f, const std::vector<Expr> &args, int value_index = 0);
    static Expr make(const Buffer<> &image, const std::vector<Expr> &args);
    static Expr make(const Parameter &param, const std::vector<Expr> &args);

    bool is_intrinsic(Internal::Intrinsic o) const {
        return (call_type == Intrinsic || call_type == PureIntrinsic) && op == o;
    }
    bool is_pure() const {
        return call_type == PureExtern || call_type == PureIntrinsic || call_type == Image ||
               call_type == Loom;
    }
    static constexpr IRNodeType _node_type = IRNodeType::Call;
};

struct Let : ExprNode<Let> {
    std::string name;
    Expr value, body;
    static Expr make(const std::string &name, Expr value, Expr body);
    static constexpr IRNodeType _node_type = IRNodeType::Let;
};

/** Lanes picked from the concatenation of vectors by index. */
struct Shuffle : ExprNode<Shuffle> {
    std::vector<Expr> vectors;
    std::vector<int> indices;
    static Expr make(const std::vector<Expr> &vectors, const std::vector<int> &indices);
    static Expr make_concat(const std::vector<Expr> &vectors);
    static Expr make_slice(Expr vector, int begin, int stride, int size);
    static Expr make_extract_element(Expr vector, int i);
    static Expr make_interleave(const std::vector<Expr> &vectors);
    static constexpr IRNodeType _node_type = IRNodeType::Shuffle;
};

// ---- Statements ----

struct LetStmt : StmtNode<LetStmt> {
    std::string name;
    Expr value;
    Stmt body;
    static Stmt make(const std::string &name, Expr value, Stmt body);
    static constexpr IRNodeType _node_type = IRNodeType::LetStmt;
};

/** If condition is false, evaluate message (an Int(32) error call) and return it. */
struct AssertStmt : StmtNode<AssertStmt> {
    Expr condition, message;
    static Stmt make(Expr condition, Expr message);
    static constexpr IRNodeType _node_type = IRNodeType::AssertStmt;
};

/** Marks the production (or consumption) of a Func's values. */
struct ProducerConsumer : StmtNode<ProducerConsumer> {
    std::string name;
    bool is_producer;
    Stmt body;
    static Stmt make(const std::string &name, bool is_producer, Stmt body);
    static Stmt make_produce(const std::string &name, Stmt body) {
        return make(name, true, std::move(body));
    }
    static Stmt make_consume(const std::string &name, Stmt body) {
        return make(name, false, std::move(body));
    }
    static constexpr IRNodeType _node_type = IRNodeType::ProducerConsumer;
};

struct For : StmtNode<For> {
    std::string name;
    Expr min, extent;
    ForType for_type;
    DeviceAPI device_api;
    Stmt body;
    static Stmt make(const std::string &name, Expr min, Expr extent, ForType for_type,
                     DeviceAPI device_api, Stmt body);
    static constexpr IRNodeType _node_type = IRNodeType::For;
};

struct Store : StmtNode<Store> {
    std::string name;
    Expr value, index, predicate;
    Buffer<> image;
    Parameter param;
    /** A non-temporal ("streaming") store, set by lower/StreamingStores: an
     * unpredicated dense vector store whose address is aligned to the whole
     * vector (lanes * element bytes). Code generators may ignore it. */
    bool streaming = false;
    static Stmt make(const std::string &name, Expr value, Expr index, Buffer<> image,
                     Parameter param, Expr predicate = Expr(), bool streaming = false);
    static constexpr IRNodeType _node_type = IRNodeType::Store;
};

/** Multi-dimensional store into a Func (before storage flattening). */
struct Provide : StmtNode<Provide> {
    std::string name;
    std::vector<Expr> values, args;
    Expr predicate; // undefined: always
    static Stmt make(const std::string &name, const std::vector<Expr> &values,
                     const std::vector<Expr> &args, Expr predicate = Expr());
    static constexpr IRNodeType _node_type = IRNodeType::Provide;
};

/** Flat allocation of type * product(extents) elements, freed after body. */
struct Allocate : StmtNode<Allocate> {
    std::string name;
    Type type;
    MemoryType memory_type;
    std::vector<Expr> extents;
    Expr condition; // allocate only when true
    Stmt body;
    static Stmt make(const std::string &name, Type type, MemoryType memory_type,
                     const std::vector<Expr> &extents, Expr condition, Stmt body);
    static constexpr IRNodeType _node_type = IRNodeType::Allocate;
};

struct Free : StmtNode<Free> {
    std::string name;
    static Stmt make(const std::string &name);
    static constexpr IRNodeType _node_type = IRNodeType::Free;
};

/** Multi-dimensional storage for a Func over bounds (before storage flattening). */
struct Realize : StmtNode<Realize> {
    std::string name;
    std::vector<Type> types;
    MemoryType memory_type;
    Region bounds;
    Expr condition;
    Stmt body;
    static Stmt make(const std::string &name, const std::vector<Type> &types,
                     MemoryType memory_type, const Region &bounds, Expr condition, Stmt body);
    static constexpr IRNodeType _node_type = IRNodeType::Realize;
};

struct Block : StmtNode<Block> {
    Stmt first, rest;
    static Stmt make(Stmt first, Stmt rest);
    /** Sequence of statements; undefined entries are skipped. */
    static Stmt make(const std::vector<Stmt> &stmts);
    static constexpr IRNodeType _node_type = IRNodeType::Block;
};

struct IfThenElse : StmtNode<IfThenElse> {
    Expr condition;
    Stmt then_case, else_case; // else_case may be undefined
    static Stmt make(Expr condition, Stmt then_case, Stmt else_case = Stmt());
    static constexpr IRNodeType _node_type = IRNodeType::IfThenElse;
};

struct Evaluate : StmtNode<Evaluate> {
    Expr value;
    static Stmt make(Expr value);
    static constexpr IRNodeType _node_type = IRNodeType::Evaluate;
};

} // namespace Internal
} // namespace loom

#endif
