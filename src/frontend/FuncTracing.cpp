// Func::trace_loads/trace_stores/trace_realizations/add_trace_tag: flags on
// the Function that lower/InjectTracing.cpp reads.

#include "ir/Error.h"
#include "loom/Func.h"

namespace loom {

using Internal::Function;

namespace {

/** The contents of f; compiled pipelines of it recompile. As in Halide, a
 * Func may be traced before it is defined. */
Internal::FunctionContents &traced(Function &f) {
    f.invalidate_cache();
    return *f.get();
}

} // namespace

Func &Func::trace_loads() {
    traced(func_).trace_loads = true;
    return *this;
}

Func &Func::trace_stores() {
    traced(func_).trace_stores = true;
    return *this;
}

Func &Func::trace_realizations() {
    traced(func_).trace_realizations = true;
    return *this;
}

Func &Func::add_trace_tag(const std::string &trace_tag) {
    if (trace_tag.find('\0') != std::string::npos)
        user_error("add_trace_tag of Func " << func_.name()
                                            << ": a trace tag is a C string and may not "
                                               "contain the null character");
    traced(func_).trace_tags.push_back(trace_tag);
    return *this;
}

} // namespace loom
