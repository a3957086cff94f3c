// The calls HalideExtern_N and HalidePureExtern_N make (loom/Extern.h).

#include "loom/Extern.h"

#include <sstream>

#include "ir/Error.h"
#include "ir/IR.h"

namespace loom {
namespace Internal {

Expr make_extern_call(const Type &result, const std::string &name, const std::vector<Expr> &args,
                      bool pure) {
    for (const Expr &a : args) {
        if (!a.defined())
            user_error("An argument of the extern function " << name << " is undefined");
    }
    return Call::make(result, name, args, pure ? Call::PureExtern : Call::Extern);
}

void check_extern_arg(const Type &expected, const char *name, const Expr &arg, int index) {
    if (!arg.defined())
        user_error("Argument " << index << " of the extern function " << name << " is undefined");
    if (arg.type() == expected) return;
    user_error("Argument " << index << " of the extern function " << name << " is " << arg
                           << " of type " << arg.type() << ", but " << name << " takes " << expected
                           << " there (cast it: extern arguments are not converted)");
}

} // namespace Internal
} // namespace loom
