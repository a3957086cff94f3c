#ifndef LOOM_ANALYSIS_MODULUS_REMAINDER_H
#define LOOM_ANALYSIS_MODULUS_REMAINDER_H

// What an integer expression is known to be modulo some number: e is
// modulus * k + remainder for some integer k. Used to prove that vector
// accesses are aligned (the CUDA printer's 8- and 16-byte loads).

#include <cstdint>
#include <string>

#include "ir/IR.h"
#include "ir/Scope.h"

namespace loom {
namespace Internal {

struct ModulusRemainder {
    /** 0: the value is exactly `remainder`; 1: nothing is known. */
    int64_t modulus = 1;
    /** In [0, modulus) when modulus > 0. */
    int64_t remainder = 0;

    /** Is the value a multiple of n (n > 0)? */
    bool is_multiple_of(int64_t n) const;
};

/** The modulus and remainder of the integer expression e; variables bound
 * in `scope` have its facts, others are unknown. */
ModulusRemainder modulus_remainder(const Expr &e, const Scope<ModulusRemainder> &scope);
ModulusRemainder modulus_remainder(const Expr &e);

} // namespace Internal
} // namespace loom

#endif
