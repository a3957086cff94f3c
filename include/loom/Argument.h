#ifndef LOOM_ARGUMENT_H
#define LOOM_ARGUMENT_H

/** \file Argument: names one argument of a compiled pipeline, to fix the order
 * of arguments (compile_to_lowered_stmt, compile_to_llvm_assembly, ...). */

#include <string>
#include <type_traits>
#include <utility>

namespace loom {

struct Argument {
    std::string name;

    Argument(std::string n) : name(std::move(n)) {}
    Argument(const char *n) : name(n) {}
    /** From anything with a name(): Param<T>, ImageParam, Buffer. */
    template <typename T, typename = decltype(std::declval<const T &>().name())>
    Argument(const T &x) : name(x.name()) {}
};

} // namespace loom

#endif
