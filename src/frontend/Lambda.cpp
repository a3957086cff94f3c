#include "loom/Lambda.h"

#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

Func make_lambda(const std::vector<Var> &args, const Expr &e) {
    Func f(unique_name("lambda"));
    f(args) = e;
    return f;
}

} // namespace Internal
} // namespace loom
