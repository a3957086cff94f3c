#include "jit/ExternSymbols.h"

#include <llvm/IR/Module.h>
#include <llvm/Support/DynamicLibrary.h>

#include "ir/Error.h"

namespace loom {
namespace Internal {

void check_extern_symbols(const llvm::Module &module, const std::string &pipeline) {
    // The process itself, as the JIT's own symbol generator searches it.
    llvm::sys::DynamicLibrary process = llvm::sys::DynamicLibrary::getPermanentLibrary(nullptr);
    for (const llvm::Function &fn : module.functions()) {
        if (!fn.isDeclaration() || fn.isIntrinsic() || fn.use_empty()) continue;
        std::string name = fn.getName().str();
        if (process.getAddressOfSymbol(name.c_str())) continue;
        user_error("The pipeline " << pipeline << " calls the C function " << name
                                   << ", which this process does not have. An extern function "
                                      "(HalideExtern_N) must be defined with extern \"C\" and "
                                      "exported: link the program with -rdynamic (CMake: "
                                      "ENABLE_EXPORTS)");
    }
}

} // namespace Internal
} // namespace loom
