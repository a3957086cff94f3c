// The LLVM assembly of a Func, for tests that check which loads and
// instructions the LLVM backend chose.
#pragma once

#include <string>
#include <vector>

#include "Loom.h"
#include "common/ScratchFile.h"

namespace loom_test {

/** f's LLVM assembly for x86-64 with AVX2 and FMA: a fixed target, so that
 * what a test looks for does not depend on the host's vector width. */
inline std::string avx2_llvm_assembly(loom::Func f, const std::vector<loom::Argument> &args,
                                      const std::string &name) {
    ScratchFile file("llvm_assembly", name + ".ll");
    f.compile_to_llvm_assembly(file.path, args, name, loom::Target("x86-64-linux-avx2-fma"));
    return read_text(file.path);
}

} // namespace loom_test
