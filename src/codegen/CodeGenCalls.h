#ifndef LOOM_CODEGEN_CODEGEN_CALLS_H
#define LOOM_CODEGEN_CODEGEN_CALLS_H

// How the code generators (codegen/c, codegen/llvm) sort Call nodes before
// emitting them: which emitter an intrinsic goes to, and which extern calls
// are math routines ("sqrt_f32", ...) with their libm names. Backend-neutral,
// so both backends agree on what every Call means.

#include <optional>
#include <string>
#include <vector>

#include "ir/IR.h"

namespace loom {
namespace Internal {

/** The emitter of CodeGenVisitor that handles an intrinsic. */
enum class IntrinsicEmitter {
    Operator,     // arithmetic, bitwise and control intrinsics: codegen_intrinsic
    BufferField,  // buffer_get_*
    IfThenElse,   // if_then_else (evaluates only the side it picks)
    DebugPrint,   // print()
    AtomicUpdate, // atomic_update
};

IntrinsicEmitter intrinsic_emitter(Intrinsic op);

/** What generated code must release on every way out of a scope, innermost
 * last: the runtime function (void or int result, taking the user context
 * and the value) and the value in the backend's form. */
template <typename Value> struct Release {
    const char *function;
    Value value;
};

/** The runtime function that releases what a LetStmt's value acquires, when
 * the code generators must also call it on an early return (an assert that
 * fails inside the let's body): "loom_device_buffer_destroy" for
 * "loom_device_buffer_create". nullptr for every other value. */
const char *release_function_for(const Expr &let_value);

/** How print() (Intrinsic::debug_print) formats its arguments: one printf
 * format built at compile time, with string arguments inlined, arguments
 * separated by spaces and the lanes of vectors as <a, b>. */
struct PrintFormat {
    /** How one printed value is passed to printf. */
    enum Conversion {
        AsDouble,   // %f: floats, widened to double (%e for Float(64), as Halide)
        AsPointer,  // %p: handles
        AsSigned,   // %lld: signed ints, sign-extended to long long
        AsUnsigned, // %llu: unsigned ints and bools, zero-extended
    };
    struct Value {
        size_t arg; // index into the call's args
        int lane;   // the lane of a vector argument; 0 for scalars
        Conversion conversion;
    };
    std::string format;
    std::vector<Value> values; // in the order of the format's conversions
};

PrintFormat print_format(const Call *op);

/** A PureExtern call of a math routine Loom knows: "<stem>_f16", "_f32" or
 * "_f64" applied to floats. */
struct MathCall {
    std::string stem; // "sqrt", "is_nan", "fast_inverse", ...
    int bits;         // 16, 32 or 64; half precision computes in float
    /** The libm function computing it (suffixed "f" for float), or nullptr
     * for the routines backends compute themselves: is_nan, is_inf,
     * is_finite, fast_inverse and fast_inverse_sqrt. */
    const char *libm;

    bool is_classification() const {
        return stem == "is_nan" || stem == "is_inf" || stem == "is_finite";
    }
};

/** The math routine `op` calls, or nothing when it is an ordinary extern call. */
std::optional<MathCall> math_call(const Call *op);

/** The read-modify-writes an atomic_update can be as one atomic instruction. */
enum class AtomicRMWOp { Add, Sub, Min, Max, And, Or, Xor };

/** For an atomic_update whose new value is `old op e` (or `e op old` for a
 * commutative op, e not using old): the operation and e. False otherwise
 * (the backend then uses a compare-and-swap loop). */
bool match_atomic_rmw(const Expr &value, const std::string &old, AtomicRMWOp *op, Expr *operand);

} // namespace Internal
} // namespace loom

#endif
