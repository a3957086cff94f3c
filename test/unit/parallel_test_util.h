#ifndef LOOM_TEST_PARALLEL_TEST_UTIL_H
#define LOOM_TEST_PARALLEL_TEST_UTIL_H

// Schedules for the [parallel] and [simd] tests, written as schedule records
// (the same ones Func::split/vectorize/parallel produce).

#include <string>
#include <vector>

#include "jit/JITModule.h"
#include "loom/Func.h"
#include "lower/Lower.h"

namespace par_test {

using namespace loom;
using namespace loom::Internal;

struct LoopSpec {
    std::string var;
    ForType type;
};

/** Give f's pure stage these splits (old var -> var.o, var.i by factor) and
 * loops (innermost first). */
inline void schedule(Func f, const std::vector<std::pair<std::string, int>> &splits,
                     const std::vector<LoopSpec> &loops) {
    Function fn = f.function();
    StageSchedule &s = fn.definition().schedule;
    s.splits.clear();
    for (const auto &[var, factor] : splits) {
        Split sp;
        sp.old_var = var;
        sp.outer = var + ".o";
        sp.inner = var + ".i";
        sp.factor = factor;
        s.splits.push_back(sp);
    }
    s.dims.clear();
    for (const LoopSpec &l : loops) s.dims.push_back(Dim{l.var, l.type, DeviceAPI::None, false});
    s.touched = true;
    fn.invalidate_cache();
}

inline void compute_root(Func f) {
    Function fn = f.function();
    fn.schedule().compute_level = LoopLevel::root();
    fn.schedule().store_level = LoopLevel::root();
    fn.invalidate_cache();
}

/** The optimized LLVM IR of f's pipeline. */
inline std::string llvm_ir_of(Func f) {
    LoweredFunc lf = lower({f.function()}, f.name() + "_ir", get_host_target());
    return JITModule::compile(lf, get_host_target(), true).llvm_assembly();
}

inline bool contains(const std::string &text, const std::string &what) {
    return text.find(what) != std::string::npos;
}

} // namespace par_test

#endif
