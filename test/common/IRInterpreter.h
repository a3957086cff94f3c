#ifndef LOOM_TEST_IR_INTERPRETER_H
#define LOOM_TEST_IR_INTERPRETER_H

// A reference evaluator of Loom expressions with Loom's exact semantics, for
// tests: integers wrap at their width, / and % are Euclidean (division by
// zero gives zero), Float(32) arithmetic happens in float, casts from float
// truncate, casts to bool test for non-zero, min(a, b) is a < b ? a : b.
//
// Things Loom leaves undefined are reported rather than given a value:
// overflow of Int(32)/Int(64) arithmetic (the simplifier may assume it never
// happens) and casts of out-of-range floats to integers. Check
// undefined_behavior() before trusting a result.

#include <cstdint>
#include <map>
#include <string>

#include "ir/IR.h"

namespace loom {
namespace Internal {

/** One scalar value: ints use i, uints and bools use u, floats use f. */
struct ScalarValue {
    Type type;
    int64_t i = 0;
    uint64_t u = 0;
    double f = 0;

    /** Constructors wrap (ints) or round (Float(32)) to the type. */
    static ScalarValue make_int(Type t, int64_t v);
    static ScalarValue make_uint(Type t, uint64_t v);
    static ScalarValue make_float(Type t, double v);
    static ScalarValue make_bool(bool v);
    /** A value of any numeric type t from an integer (wrapping). */
    static ScalarValue from_int(Type t, int64_t v);

    bool is_true() const { return u != 0; }
    /** The value as a double (exact for ints up to 2^53). */
    double as_double() const;
    /** Same type and value; NaN equals NaN so results can be compared. */
    bool same_as(const ScalarValue &o) const;
    std::string to_string() const;
};

class IRInterpreter {
public:
    /** Bind a free variable of the expressions to evaluate. */
    void set(const std::string &name, const ScalarValue &v) { vars[name] = v; }
    void clear() { vars.clear(); }

    /** Evaluate lane `lane` of e (scalars ignore it). Throws std::runtime_error
     * for nodes it does not model (loads, most calls) and unbound variables. */
    ScalarValue eval(const Expr &e, int lane = 0);

    /** Did an evaluation since the last reset hit undefined behaviour? */
    bool undefined_behavior() const { return undefined; }
    void reset_undefined_behavior() { undefined = false; }

private:
    std::map<std::string, ScalarValue> vars;
    bool undefined = false;

    ScalarValue binary(IRNodeType op, const ScalarValue &a, const ScalarValue &b);
    ScalarValue cast(Type t, const ScalarValue &v);
    ScalarValue call(const Call *op, int lane);
};

} // namespace Internal
} // namespace loom

#endif
