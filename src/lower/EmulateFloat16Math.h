#ifndef LOOM_LOWER_EMULATE_FLOAT16_MATH_H
#define LOOM_LOWER_EMULATE_FLOAT16_MATH_H

// 16-bit float arithmetic computed as Halide computes it: each operation on
// Float(16) or BFloat(16) values runs in float32 and rounds its result back
// to 16 bits (ties to even). float32 has more than twice the precision, so
// this is the correctly rounded result of every +, -, *, / and sqrt, the same
// on every backend and the same as loom::float16_t / bfloat16_t in C++.
//
// Float(16) stays Float(16) in memory and in casts to and from float32,
// which every backend converts (F16C or libgcc on x86, `half` in OpenCL C).
// Brain floats become their UInt(16) bits: loads, stores, allocations, lets
// and constants carry the bits, and the conversions to and from float32 are
// integer operations, so no backend needs a bfloat type. Conversions from
// float64 (and from integers too wide for float32) round to odd in float32
// first, so that the second rounding to 16 bits is still exact.
//
// Runs after vectorization (so it sees vector types) and before the last
// simplify and CSE, which share the repeated conversions.

#include "ir/IR.h"

namespace loom {
namespace Internal {

Stmt emulate_float16_math(const Stmt &s);

} // namespace Internal
} // namespace loom

#endif
