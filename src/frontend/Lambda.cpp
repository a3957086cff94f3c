#include "loom/Lambda.h"

#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

Func make_lambda(const std::vector<Var> &args, const Expr &e) {
    Func f(unique_name("lambda"));
    // lambda(e) is f(_) = e, as in Halide: the implicit Vars e uses become
    // f's arguments (none: a 0-dimensional Func).
    if (args.empty())
        f(_) = e;
    else
        f(args) = e;
    return f;
}

} // namespace Internal
} // namespace loom
