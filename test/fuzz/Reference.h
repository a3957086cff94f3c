// The value a decoded Program (RandomProgram.h) must produce at a point,
// computed without Loom's lowering: each definition's reference Expr is
// evaluated by test/common/IRInterpreter (Loom's exact scalar semantics),
// the input's boundary condition is applied here, and values are memoized
// per stage and point.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <utility>

#include "RandomProgram.h"
#include "common/IRInterpreter.h"

namespace loom_fuzz {

class Reference {
public:
    explicit Reference(const Program &p) : p(p) {}

    /** Stage `stage` at (x, y), and whether undefined behaviour (Int(32)
     * overflow, an out-of-range shift or float-to-int cast) went into it. */
    std::pair<loom::Internal::ScalarValue, bool> value(int stage, int x, int y);

private:
    using Value = std::pair<loom::Internal::ScalarValue, bool>;
    const Program &p;
    std::unordered_map<uint64_t, Value> memo;

    Value input(int x, int y);
    Value eval(const Definition &d, int x, int y, int r, const loom::Internal::ScalarValue *self);
};

} // namespace loom_fuzz
