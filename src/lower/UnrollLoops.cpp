#include "lower/UnrollLoops.h"

#include <optional>
#include <vector>

#include "analysis/Simplify.h"
#include "ir/Error.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"
#include "ir/Substitute.h"

namespace loom {
namespace Internal {

namespace {

class LoopUnroller : public IRMutator {
protected:
    using IRMutator::visit;

    Stmt visit(const For *op) override {
        if (op->for_type != ForType::Unrolled) return IRMutator::visit(op);

        std::optional<int64_t> extent = as_const_int(op->extent);
        if (!extent) extent = as_const_int(simplify(op->extent));
        if (!extent) {
            user_error("Can only unroll loops of constant extent: loop "
                       << op->name << " has extent " << op->extent);
        }
        // Inner unrolled loops first, so each copy is already flat.
        Stmt body = mutate(op->body);
        if (*extent <= 0) return Evaluate::make(make_zero(Int(32)));

        // A symbolic min is bound once rather than copied into every iteration.
        Expr min = op->min;
        std::string min_name;
        if (!is_const(min) && min.node_type() != IRNodeType::Variable) {
            min_name = unique_name(op->name + ".unrolled_min");
            min = Variable::make(op->min.type(), min_name);
        }
        std::vector<Stmt> copies;
        for (int64_t i = 0; i < *extent; i++) {
            Expr value = i == 0 ? min : Add::make(min, make_const(min.type(), i));
            copies.push_back(substitute(op->name, value, body));
        }
        Stmt result = Block::make(copies);
        if (!min_name.empty()) result = LetStmt::make(min_name, op->min, result);
        return result;
    }
};

} // namespace

Stmt unroll_loops(const Stmt &s) {
    return LoopUnroller().mutate(s);
}

} // namespace Internal
} // namespace loom
