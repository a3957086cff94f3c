// The LLVM assembly of a Func, for tests that check which loads and
// instructions the LLVM backend chose.
#pragma once

#include <string>
#include <vector>

#include "Loom.h"
#include "common/ScratchFile.h"

namespace loom_test {

/** f's LLVM assembly for the target named `target` (a fixed one, so that
 * what a test looks for does not depend on the host). */
inline std::string llvm_assembly_for(loom::Func f, const std::vector<loom::Argument> &args,
                                     const std::string &name, const std::string &target) {
    ScratchFile file("llvm_assembly", name + ".ll");
    f.compile_to_llvm_assembly(file.path, args, name, loom::Target(target));
    return read_text(file.path);
}

/** How many times `what` occurs in `text`. */
inline size_t count_occurrences(const std::string &text, const std::string &what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) n++;
    return n;
}

/** f's LLVM assembly for x86-64 with AVX2 and FMA. */
inline std::string avx2_llvm_assembly(loom::Func f, const std::vector<loom::Argument> &args,
                                      const std::string &name) {
    return llvm_assembly_for(f, args, name, "x86-64-linux-avx2-fma");
}

} // namespace loom_test
